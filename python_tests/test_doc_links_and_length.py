"""The documentation holds together: every relative link of README.md, BENCHMARKS.md and
docs/*.md names a file that exists and, with an #anchor, a heading of that file (as GitHub makes
anchors of headings), and the README stays a user's guide of at most 250 lines (the rest is in
docs/)."""

import pathlib
import re
from urllib.parse import unquote

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "BENCHMARKS.md", *sorted((ROOT / "docs").glob("*.md"))]
README_LINES = 250

# [text](target) and ![alt](target), the target up to a space (a title) or the closing paren.
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def prose(text):
    """`text` without its fenced code blocks and inline code spans, which hold no links."""
    out, fence = [], None
    for line in text.splitlines():
        m = re.match(r"^ {0,3}(`{3,}|~{3,})", line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            out.append("")
        elif m:
            fence = m.group(1)
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def slug(heading):
    """GitHub's anchor for a heading: its text as rendered (links as their text, no code
    marks or emphasis), lower case, every character but letters, digits, spaces, `-` and `_`
    dropped, spaces as `-`."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).replace("`", "")
    text = re.sub(r"(\*\*|__|\*)", "", text)
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(path):
    """The anchors of the headings of `path`, numbered as GitHub numbers repeated ones."""
    seen, out = {}, set()
    for line in prose(path.read_text()).splitlines():
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(path):
    """The relative links of `path`: (line number, target). A link's text may run over lines."""
    text = re.sub(r"`[^`]*`", lambda m: "\n" * m.group().count("\n"), prose(path.read_text()))
    out = []
    for m in LINK.finditer(text):
        target = m.group(1)
        if not re.match(r"^[a-z][a-z0-9+.-]*:", target, flags=re.I):
            out.append((text.count("\n", 0, m.start()) + 1, target))
    return out


def test_the_checker_reads_headings_as_github_does():
    assert slug("Platforms: the board configuration and virgl's compute pipeline (issue 33)") \
        == "platforms-the-board-configuration-and-virgls-compute-pipeline-issue-33"
    assert slug("zink: contexts are kept across `glblasShutdown`") \
        == "zink-contexts-are-kept-across-glblasshutdown"
    assert slug("i?amax") == "iamax"
    assert slug("fork()") == "fork"
    assert links(ROOT / "README.md"), "the README links to the docs"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(path):
    broken = []
    for number, target in links(path):
        file, _, anchor = target.partition("#")
        dest = (path.parent / unquote(file)).resolve() if file else path
        if not dest.exists():
            broken.append(f"{path.name}:{number}: {target}: no such file")
        elif anchor and (dest.suffix != ".md" or unquote(anchor) not in anchors(dest)):
            broken.append(f"{path.name}:{number}: {target}: no such heading")
    assert not broken, "\n".join(broken)


def test_the_readme_is_a_short_guide():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= README_LINES, f"README.md has {len(lines)} lines: move reference to docs/"
