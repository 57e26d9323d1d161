//! Tuning tables: the kernels' parameters measured on a device (`python -m glblas tune`,
//! `glblasTune`), kept in a text file and read when the context is made. The user's table (in
//! the cache directory, or `GLBLAS_TUNING`) comes first, then the tables shipped with glblas
//! (`tuning/shipped.txt`), then [`Tuning::defaults`]. Format: `docs/tuning.md`.

use super::device::DeviceInfo;
use super::limits::Limits;
use super::tuning::{
    vector_group_fits, Crossover, GemmParams, Rates, SmallGemm, Tuning, Vectors, TILE_OPTIONS,
    VECTOR_GROUPS,
};
use std::path::{Path, PathBuf};

/// The tables glblas ships: devices the project measured itself.
const SHIPPED: &str = include_str!("../../tuning/shipped.txt");
/// A table's first line: the format and its version.
const HEADER: &str = "glblas tuning table 1";
/// The precisions' names in a table, in `Tuning::gemm`'s order.
const PRECISIONS: [&str; 2] = ["single", "double"];

/// What a table entry is for: the device, its driver, and the glblas that measured it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    pub vendor: String,
    pub renderer: String,
    /// The GL version string, which names the driver's version.
    pub driver: String,
    pub glblas: String,
}

impl Key {
    /// This device's, with this glblas.
    pub fn of(info: &DeviceInfo) -> Key {
        Key {
            vendor: info.vendor.clone(),
            renderer: info.renderer.clone(),
            driver: info.version.clone(),
            glblas: env!("CARGO_PKG_VERSION").to_string(),
        }
    }

    fn fields(&self) -> [(&'static str, &str); 4] {
        [
            ("vendor", &self.vendor),
            ("renderer", &self.renderer),
            ("driver", &self.driver),
            ("glblas", &self.glblas),
        ]
    }
}

/// One device's entry: its key's fields (a shipped entry may leave out `driver` and `glblas`,
/// and then serves every driver version and glblas), the compute gemm's parameters (for small
/// calls too), its crossovers, and the workgroups of the kernels over vectors.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub fields: Vec<(String, String)>,
    pub gemm: [Option<GemmParams>; 2],
    pub gemm_small: [Option<SmallGemm>; 2],
    pub crossover: [Option<Crossover>; 2],
    pub vector_group: [Option<i64>; 2],
    pub rates: Rates,
}

impl Entry {
    /// An entry for `key` holding `tuning`'s parameters.
    pub fn new(key: &Key, tuning: &Tuning) -> Entry {
        let fields = key.fields();
        Entry {
            fields: fields.map(|(k, v)| (k.to_string(), v.to_string())).to_vec(),
            ..Entry::of(tuning)
        }
    }

    /// An entry for no device holding `tuning`'s parameters.
    fn of(tuning: &Tuning) -> Entry {
        Entry {
            fields: Vec::new(),
            gemm: tuning.gemm.map(Some),
            gemm_small: tuning.gemm_small,
            crossover: tuning.crossover,
            vector_group: tuning.vector_group.map(Some),
            rates: tuning.rates,
        }
    }

    /// Its parameters' lines, as a table writes them (`format`).
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (name, p) in PRECISIONS.iter().zip(&self.gemm) {
            if let Some(p) = p {
                lines.push(format!("gemm {name} {}", describe(p)));
            }
        }
        for (name, small) in PRECISIONS.iter().zip(&self.gemm_small) {
            if let Some(s) = small {
                lines.push(format!("gemm {name} {}", describe_small(s)));
            }
        }
        for (name, c) in PRECISIONS.iter().zip(&self.crossover) {
            match c {
                Some(Crossover::From(flops)) => {
                    lines.push(format!("crossover {name} from {flops}"))
                }
                Some(Crossover::Never(flops)) => {
                    lines.push(format!("crossover {name} never {flops}"))
                }
                None => {}
            }
        }
        for (v, group) in Vectors::ALL.iter().zip(self.vector_group) {
            if let Some(g) = group {
                lines.push(format!("{} group {g}", v.name()));
            }
        }
        for (name, rate) in PRECISIONS.iter().zip(self.rates.gemm) {
            if let Some(r) = rate {
                lines.push(format!("gemm {name} rate {r}"));
            }
        }
        if let Some(r) = self.rates.level1 {
            lines.push(format!("level1 rate {r}"));
        }
        lines
    }

    fn field(&self, name: &str) -> Option<&str> {
        let mut found = self.fields.iter().filter(|(k, _)| k == name);
        found.next().map(|(_, v)| v.as_str())
    }

    /// Whether it is for `key`: every field it names is the key's.
    fn matches(&self, key: &Key) -> bool {
        key.fields()
            .iter()
            .all(|(name, v)| self.field(name).is_none_or(|f| f == *v))
    }

    /// Whether it is for `key`'s device (vendor and renderer), perhaps not its driver or glblas.
    fn same_device(&self, key: &Key) -> bool {
        self.field("vendor") == Some(&key.vendor) && self.field("renderer") == Some(&key.renderer)
    }
}

/// A table's entries, or where it is corrupt (the line and why).
pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with('#')
    });
    match lines.next() {
        Some((_, l)) if l.trim() == HEADER => {}
        _ => return Err(format!("line 1: not \"{HEADER}\"")),
    }
    let mut entries: Vec<Entry> = Vec::new();
    for (i, line) in lines {
        let bad = |why: &str| Err(format!("line {}: {why}", i + 1));
        let (word, rest) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
        if word == "device" && rest.is_empty() {
            entries.push(Entry::default());
            continue;
        }
        let Some(entry) = entries.last_mut() else {
            return bad("before the first \"device\"");
        };
        match word {
            "vendor" | "renderer" | "driver" | "glblas" if entry.field(word).is_none() => {
                entry.fields.push((word.to_string(), rest.to_string()))
            }
            "gemm" | "crossover" => {
                let (precision, value) = rest.split_once(' ').unwrap_or((rest, ""));
                let Some(p) = PRECISIONS.iter().position(|&n| n == precision) else {
                    return bad(&format!("a {word} line names neither single nor double"));
                };
                let small = value.strip_prefix("small below ");
                let rate = value.strip_prefix("rate ");
                let set = match (word, small, rate) {
                    ("gemm", Some(small), _) => {
                        set_once(&mut entry.gemm_small[p], parse_small(small))
                    }
                    ("gemm", _, Some(rate)) => set_once(&mut entry.rates.gemm[p], parse_rate(rate)),
                    ("gemm", None, None) => set_once(&mut entry.gemm[p], parse_params(value)),
                    _ => set_once(&mut entry.crossover[p], parse_crossover(value)),
                };
                if let Err(why) = set {
                    return bad(&format!("a {word} line {why}"));
                }
            }
            "level1" if rest.starts_with("rate ") => {
                if let Err(why) = set_once(&mut entry.rates.level1, parse_rate(&rest[5..])) {
                    return bad(&format!("a level1 rate line {why}"));
                }
            }
            "level1" | "gemv" => {
                let which = Vectors::ALL.iter().position(|v| v.name() == word);
                let group = rest.strip_prefix("group ").and_then(|g| g.parse().ok());
                let slot = &mut entry.vector_group[which.expect("a kernel over vectors")];
                let group = group.filter(|g| VECTOR_GROUPS.contains(g));
                if let Err(why) = set_once(slot, group) {
                    return bad(&format!("a {word} line {why}"));
                }
            }
            _ => return bad("an unknown or repeated line"),
        }
    }
    match entries.iter().position(|e| e.field("renderer").is_none()) {
        Some(_) => Err("an entry without its renderer".to_string()),
        None => Ok(entries),
    }
}

/// Sets `slot` to `value`, or says why not: there is none, or `slot` is set.
fn set_once<T>(slot: &mut Option<T>, value: Option<T>) -> std::result::Result<(), &'static str> {
    match (value, slot.is_some()) {
        (None, _) => Err("glblas cannot read"),
        (Some(_), true) => Err("repeated"),
        (Some(v), false) => {
            *slot = Some(v);
            Ok(())
        }
    }
}

/// `tuning`'s parameters as a table's lines write them (for `glblasDescribeDevice` and the
/// benchmark).
pub fn parameters(tuning: &Tuning) -> Vec<String> {
    Entry::of(tuning).lines()
}

/// The table's text: its header, then each entry.
pub fn format(entries: &[Entry]) -> String {
    let mut text = format!(
        "{HEADER}\n# Kernel parameters measured on each device by `python -m glblas tune`.\n"
    );
    for e in entries {
        text.push_str("device\n");
        for (k, v) in &e.fields {
            text.push_str(&format!("{k} {v}\n"));
        }
        for line in e.lines() {
            text.push_str(&format!("{line}\n"));
        }
    }
    text
}

/// `p` as a table writes it: `blocked group 8 block 16 8`, `tiled group 16 block 8 8 tile_k 16`,
/// the tiles' options after that (`strided`, `prefetch`, `unroll`) where they are taken.
pub fn describe(p: &GemmParams) -> String {
    let kind = if p.tiled { "tiled" } else { "blocked" };
    let [m, n] = p.block;
    let mut text = format!("{kind} group {} block {m} {n}", p.group);
    if p.tiled {
        text.push_str(&format!(" tile_k {}", p.tile_k));
    }
    for ((option, _), taken) in TILE_OPTIONS.iter().zip(p.options()) {
        if taken {
            text.push_str(&format!(" {option}"));
        }
    }
    text
}

/// `s` as a table writes it: `small below N`, then its parameters as [`describe`] writes them.
pub fn describe_small(s: &SmallGemm) -> String {
    format!("small below {} {}", s.below, describe(&s.params))
}

/// What follows `rate ` in a rate line: a whole positive number (MFLOP/s or MB/s).
fn parse_rate(text: &str) -> Option<i64> {
    text.parse().ok().filter(|&r: &i64| r > 0)
}

/// What follows `small below ` in [`describe_small`]'s text.
fn parse_small(text: &str) -> Option<SmallGemm> {
    let (below, params) = text.split_once(' ')?;
    let below = below.parse().ok().filter(|&b: &i64| b > 0)?;
    let params = parse_params(params)?;
    Some(SmallGemm { params, below })
}

/// The parameters [`describe`] wrote, if glblas can build them (`GemmParams::valid`).
fn parse_params(text: &str) -> Option<GemmParams> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let num = |s: &str| s.parse::<i64>().ok();
    let (mut p, options) = match words[..] {
        ["blocked", "group", g, "block", m, n] => (
            GemmParams {
                group: num(g)?,
                ..GemmParams::blocked([num(m)?, num(n)?])
            },
            &[][..],
        ),
        ["tiled", "group", g, "block", m, n, "tile_k", k, ref options @ ..] => (
            GemmParams {
                group: num(g)?,
                tile_k: num(k)?,
                ..GemmParams::tiled([num(m)?, num(n)?])
            },
            options,
        ),
        _ => return None,
    };
    // Each option at most once, in `describe`'s order.
    let mut rest = options.iter().peekable();
    for ((option, _), taken) in TILE_OPTIONS.iter().zip(p.options_mut()) {
        *taken = rest.next_if(|w| *w == option).is_some();
    }
    (rest.next().is_none() && p.valid()).then_some(p)
}

/// The crossover `format` wrote: `from N` or `never N`, N flops.
fn parse_crossover(text: &str) -> Option<Crossover> {
    let (kind, flops) = text.split_once(' ')?;
    let flops = flops.parse().ok()?;
    match kind {
        "from" => Some(Crossover::From(flops)),
        "never" => Some(Crossover::Never(flops)),
        _ => None,
    }
}

/// Whether the device runs `p` for elements of `size` bytes within the limits set for it
/// (`GLBLAS_LIMIT_GEMM_ROWS`, `GLBLAS_GEMM_KERNEL`): those settings win over any table. The
/// unrolling hint only where the compiler honours it: elsewhere it would be a candidate, or a
/// table's choice, that changes nothing.
pub fn allowed(p: &GemmParams, info: &DeviceInfo, limits: &Limits, size: i64) -> bool {
    p.fit(info, size)
        && (!p.unroll || info.unroll_hints)
        && p.block.iter().all(|&b| b <= limits.gemm_rows)
        && limits.gemm_tiled.is_none_or(|t| t == p.tiled)
}

/// The user's table: `GLBLAS_TUNING`, else `tuning.txt` in glblas's cache directory
/// (`$XDG_CACHE_HOME/glblas`, else `~/.cache/glblas`); None where `GLBLAS_TUNING=off`, or
/// where there is no cache directory.
pub fn user_table() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(path) = var("GLBLAS_TUNING") {
        return (path != "off").then(|| PathBuf::from(path));
    }
    let cache = var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|h| Path::new(&h).join(".cache")))?;
    Some(cache.join("glblas").join("tuning.txt"))
}

/// The device's parameters and where they came from.
pub struct Loaded {
    pub tuning: Tuning,
    /// "defaults", "shipped", or the user's table's path.
    pub source: String,
    /// Why the user's table was not used, where it exists but is corrupt or has no entry for
    /// this device, driver and glblas.
    pub warning: Option<String>,
}

/// The parameters for the device: the user's table's entry for it, else the shipped tables',
/// else the defaults, each parameter only where the device allows it ([`allowed`]).
pub fn load(info: &DeviceInfo, limits: &Limits) -> Loaded {
    let defaults = Tuning::defaults(info.software, limits);
    let Some(path) = user_table() else {
        return Loaded {
            tuning: defaults,
            source: "defaults (GLBLAS_TUNING=off)".to_string(),
            warning: None,
        };
    };
    let key = Key::of(info);
    let shown = path.display();
    let (user, warning) = match std::fs::read_to_string(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (None, None),
        Err(e) => (None, Some(format!("cannot read {shown}: {e}"))),
        Ok(text) => match parse(&text) {
            Err(why) => (None, Some(format!("{shown} is corrupt ({why})"))),
            Ok(entries) => match entries.iter().find(|e| e.matches(&key)) {
                Some(e) => (Some(e.clone()), None),
                None => (None, Some(format!("{shown} {}", not_for(&entries, &key)))),
            },
        },
    };
    let shipped = || {
        let entries = parse(SHIPPED).unwrap_or_default();
        entries.into_iter().find(|e| e.matches(&key))
    };
    let (entry, source) = match user {
        Some(e) => (Some(e), shown.to_string()),
        None => match shipped() {
            Some(e) => (Some(e), "shipped".to_string()),
            None => (None, "defaults".to_string()),
        },
    };
    let mut tuning = defaults;
    if let Some(entry) = entry {
        tuning.crossover = entry.crossover;
        for (p, size) in [4, 8].into_iter().enumerate() {
            match entry.gemm[p] {
                Some(g) if allowed(&g, info, limits, size) => tuning.gemm[p] = g,
                _ => {}
            }
            let small = entry.gemm_small[p];
            tuning.gemm_small[p] = small.filter(|s| allowed(&s.params, info, limits, size));
        }
        tuning.rates = entry.rates;
        for (slot, group) in tuning.vector_group.iter_mut().zip(entry.vector_group) {
            match group {
                Some(g) if vector_group_fits(g, info) => *slot = g,
                _ => {}
            }
        }
    }
    let warning = warning.map(|w| format!("{w}; using the {source} parameters"));
    Loaded {
        tuning,
        source,
        warning,
    }
}

/// Why no entry of `entries` is for `key`.
fn not_for(entries: &[Entry], key: &Key) -> String {
    let field = |e: &Entry, name| e.field(name).unwrap_or("any").to_string();
    match entries.iter().find(|e| e.same_device(key)) {
        Some(e) => format!(
            "was tuned on this device with driver \"{}\" and glblas {}, not driver \"{}\" \
             and glblas {}",
            field(e, "driver"),
            field(e, "glblas"),
            key.driver,
            key.glblas
        ),
        None => format!("has no entry for {} ({})", key.renderer, key.vendor),
    }
}

/// Writes `tuning` as `key`'s entry in the table at `path`, replacing an entry for the same
/// device, driver and glblas, and keeping the others (dropping a corrupt table's); the file is
/// replaced whole (written beside it, then renamed), so a reader never sees half of it.
pub fn save(path: &Path, key: &Key, tuning: &Tuning) -> std::io::Result<()> {
    let old = std::fs::read_to_string(path).unwrap_or_default();
    let mut entries = parse(&old).unwrap_or_default();
    let entry = Entry::new(key, tuning);
    entries.retain(|e| e.fields != entry.fields);
    entries.push(entry);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut partial = path.as_os_str().to_owned();
    partial.push(format!(".{}", std::process::id()));
    std::fs::write(&partial, format(&entries))?;
    std::fs::rename(&partial, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(driver: &str) -> Key {
        Key {
            vendor: "Mesa".into(),
            renderer: "llvmpipe (LLVM 15.0.6, 256 bits)".into(),
            driver: driver.into(),
            glblas: "0.1.0".into(),
        }
    }

    fn tuning() -> Tuning {
        let tiled = GemmParams {
            tiled: true,
            strided: true,
            prefetch: false,
            unroll: true,
            group: 8,
            block: [16, 8],
            tile_k: 32,
        };
        Tuning {
            gemm: [tiled, GemmParams::blocked([4, 8])],
            crossover: [
                Some(Crossover::From(1 << 28)),
                Some(Crossover::Never(1 << 31)),
            ],
            vector_group: [128, 32],
            rates: Rates {
                gemm: [Some(41300), None],
                level1: Some(13600),
            },
            gemm_small: [
                Some(SmallGemm {
                    params: GemmParams::blocked([8, 4]),
                    below: 1 << 20,
                }),
                None,
            ],
        }
    }

    #[test]
    fn an_entry_reads_back_as_written() {
        let entries = vec![Entry::new(&key("4.5 Mesa 22.3.6"), &tuning())];
        let parsed = parse(&format(&entries)).expect("a table");
        assert_eq!(parsed, entries);
        assert!(parsed[0].matches(&key("4.5 Mesa 22.3.6")));
        // Another driver version: the entry is not for it.
        assert!(!parsed[0].matches(&key("4.5 Mesa 24.0.1")));
        assert!(parsed[0].same_device(&key("4.5 Mesa 24.0.1")));
    }

    #[test]
    fn a_shipped_entry_without_driver_serves_every_driver() {
        let text = format!(
            "{HEADER}\ndevice\nvendor Mesa\nrenderer {}\n",
            key("").renderer
        );
        let parsed = parse(&text).expect("a table");
        assert!(parsed[0].matches(&key("4.5 Mesa 22.3.6")));
        assert_eq!(parsed[0].gemm, [None, None]);
        assert_eq!(parsed[0].vector_group, [None, None]);
    }

    #[test]
    fn corrupt_tables_say_where() {
        let entry = format(&[Entry::new(&key("d"), &tuning())]);
        let cases = [
            ("", "line 1"),
            ("glblas tuning table 2\n", "line 1"),
            (
                &entry.replace("block 16 8", "block 16 7"),
                "gemm line glblas cannot read",
            ),
            // The tiles' options: out of order, repeated, or of the blocked kernel.
            (
                &entry.replace("tile_k 32 strided", "tile_k 32 prefetch strided"),
                "gemm line glblas cannot read",
            ),
            (
                &entry.replace("tile_k 32 strided", "tile_k 32 strided strided"),
                "gemm line glblas cannot read",
            ),
            (
                &entry.replace("block 4 8", "block 4 8 prefetch"),
                "gemm line glblas cannot read",
            ),
            (&entry.replace("gemm double", "gemm half"), "neither"),
            (&entry.replace("vendor", "colour"), "unknown"),
            (
                &entry.replace("from 268435456", "after 268435456"),
                "crossover line glblas cannot read",
            ),
            (
                &entry.replace("crossover double", "crossover triple"),
                "neither single",
            ),
            (
                &format!("{entry}gemm single blocked group 8 block 8 8\n"),
                "gemm line repeated",
            ),
            // The kernels over vectors' workgroups: sizes glblas builds, each line once.
            (
                &entry.replace("level1 group 128", "level1 group 96"),
                "level1 line glblas cannot read",
            ),
            (
                &entry.replace("gemv group 32", "gemv groups 32"),
                "gemv line glblas cannot read",
            ),
            (&format!("{entry}level1 group 64\n"), "level1 line repeated"),
            // Measured rates: whole positive numbers, each once.
            (
                &entry.replace("gemm single rate 41300", "gemm single rate 41.3"),
                "gemm line glblas cannot read",
            ),
            (
                &entry.replace("level1 rate 13600", "level1 rate 0"),
                "level1 rate line glblas cannot read",
            ),
            (
                &format!("{entry}gemm single rate 5\n"),
                "gemm line repeated",
            ),
            (
                &format!("{entry}level1 rate 5\n"),
                "level1 rate line repeated",
            ),
            // Small calls' parameters: a size, then parameters glblas builds, once.
            (
                &entry.replace("small below 1048576", "small below -3"),
                "gemm line glblas cannot read",
            ),
            (
                &entry.replace("small below 1048576 blocked", "small below 1048576 fast"),
                "gemm line glblas cannot read",
            ),
            (
                &format!("{entry}gemm single small below 64 blocked group 8 block 8 8\n"),
                "gemm line repeated",
            ),
            (&format!("{HEADER}\nrenderer x\n"), "before the first"),
            (
                &format!("{HEADER}\ndevice\nvendor x\n"),
                "without its renderer",
            ),
        ];
        for (text, why) in cases {
            let err = parse(text).expect_err(text);
            assert!(err.contains(why), "{text:?}: {err}");
        }
    }

    #[test]
    fn the_shipped_tables_parse() {
        let entries = parse(SHIPPED).expect("tuning/shipped.txt");
        assert!(entries.iter().all(|e| e.field("renderer").is_some()));
    }
}
