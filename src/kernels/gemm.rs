//! gemm: C := alpha*op(A)*op(B) + beta*C, column-major, in single or double precision. This is
//! where gemm picks its kernel: the compute pipeline (`gemm_compute.rs`: packed panels, 16×16 or
//! 8×8 register blocks) where the device takes it (`DeviceInfo::compute`), whole where the
//! operands fit one window, else tile by tile (`in_tiles`, `compute_tile`); otherwise, in single
//! precision, the fragment pipeline below (float-only: double precision is NOT_SUPPORTED there).
//!
//! Fragment pipeline (`gemm.frag`): C is cut into tiles of at most `Limits::target_side`² elements
//! and k into chunks of at most `target_side` (and of at most `MAX_LOOP_ITERATIONS`, the longest
//! loop a launch may run). Per tile and chunk: op(A) and op(B) are packed
//! into zero-padded RGBA32F panels (one draw each into a target, copied by glReadPixels into a
//! scratch buffer: read as a buffer texture, the main pass ran 1.4-1.6× faster on llvmpipe than
//! sampling the 2D targets themselves), one draw computes a 4×`block_cols` block of C per
//! fragment into `block_cols` RGBA32F color attachments, whose whole texels are stored into C by
//! glReadPixels; the last m % 4 rows of the tile are gathered into an R32F target by one more
//! draw and stored from there. When an operand's part for a tile (or a panel) does not fit one
//! buffer-texture window, tiles shrink, and then k is cut into smaller chunks. Chunks' products
//! are added into C in turn (beta applies to the first chunk only). The Level 3 routines' rules
//! (`Rules`) hold on both pipelines, in the same tiles: see `in_tiles`.

use super::gemm_call::{Gemm, Rules, Shape, Triangle};
use super::gemm_scratch::{copy_out, COPY, OUT, PANELS};
use crate::engine::element::{Precision, Real};
use crate::engine::jobs::Work;
use crate::engine::operand::{Matrix, Mem};
use crate::engine::targets::Kind;
use crate::engine::Engine;
use crate::status::{Error, Result};

const FRAG: &str = concat!(
    include_str!("../../shaders/shape.glsl"),
    include_str!("../../shaders/gemm.frag")
);

/// Render-target slots (see `engine::targets`): the edge rows take R32F slot 0.
const EDGE: usize = 0;
const PANEL: usize = 2;
const BLOCKS: usize = 3;
/// Texture units of the blocks in the edge pass.
const UNIT_BLOCKS: usize = 3;

/// Tile sizes: rows and columns of C per draw, and k per chunk.
#[derive(Clone, Copy, Debug)]
struct Plan {
    tm: i64,
    tn: i64,
    tk: i64,
}

/// Computes `g` on the compute pipeline where it can, else (single precision only: see
/// `precision_available`) on the fragment pipeline.
pub fn gemm<T: Real>(e: &mut Engine, g: &Gemm<T>) -> Result<()> {
    if g.m == 0 || g.n == 0 {
        return Ok(());
    }
    if on_compute(e, g) {
        return super::gemm_compute::gemm(e, g);
    }
    if g.complex.is_some() {
        // `precision_available` keeps complex elements off devices without it.
        return if super::compute_available(e) {
            complex_in_parts(e, g)
        } else {
            Err(Error::unsupported(
                "no-complex",
                "complex elements need the compute pipeline",
            ))
        };
    }
    if super::compute_available(e) {
        return in_tiles(e, g, compute_tile);
    }
    // The fragment kernels compute in single precision only (`precision_available` keeps
    // double off devices without the compute pipeline).
    match super::single::<Gemm<T>, Gemm>(g) {
        Some(g) => in_tiles(e, g, tile),
        None => Err(super::no_fragment_double()),
    }
}

/// Complex gemm `g` in parts that each fit the compute kernel's windows: halving, while a part
/// does not fit, the dimension that most shortens the longest operand (its columns, else its
/// rows; C's elements and the workgroup counts decide between m and n), in whole complex
/// elements. Along k, the second half adds to what the first stored (beta 1). The Level 3
/// routines' rules hold as in tiles (`in_tiles`): a symmetric, Hermitian or triangular operand
/// is read whole, from each part's origin in it (`Gemm::parts`); an operand that is also C is
/// copied where a part stores what another reads; a triangle of C is cut along m and n at
/// once, into two parts on its diagonal, which keep the store rule, one inside it, a general
/// product, and one outside it, which is skipped.
fn complex_in_parts<T: Real>(e: &mut Engine, g: &Gemm<T>) -> Result<()> {
    if super::gemm_compute::fits(e, g) {
        return super::gemm_compute::gemm(e, g);
    }
    let mut g = shaped_whole(e, g)?;
    // In complex elements: the real view has two rows per element of C and of op(A)'s
    // expansion.
    let sizes = Plan {
        tm: g.m / 2,
        tn: g.n,
        tk: g.k / 2,
    };
    let size = |d: Dim| sizes.get(d);
    // Each operand's span, with the dimensions of its columns and of its rows.
    let mut spans = vec![(g.c.span(), Dim::N, Dim::M)];
    if let Some((a, b)) = g.ab {
        spans.push(if g.ta {
            (a.span(), Dim::M, Dim::K)
        } else {
            (a.span(), Dim::K, Dim::M)
        });
        spans.push(if g.tb {
            (b.span(), Dim::K, Dim::N)
        } else {
            (b.span(), Dim::N, Dim::K)
        });
    }
    let (span, cols, rows) = *spans.iter().max_by_key(|s| s.0).expect("C at least");
    let wanted = if span > e.max_window() {
        [cols, rows]
    } else if sizes.tm >= sizes.tn {
        [Dim::M, Dim::N]
    } else {
        [Dim::N, Dim::M]
    };
    let Some(dim) = wanted
        .into_iter()
        .chain([Dim::M, Dim::N, Dim::K])
        .find(|&d| size(d) > 1)
    else {
        return Err(Error::overflow(
            "one complex element of each operand exceeds the compute kernel's limits",
        ));
    };
    // A triangle's C is square (m = n), and so are its parts on its diagonal.
    let quarters = g.rules.triangle.is_some() && dim != Dim::K;
    let cut = |d: Dim| d == dim || (quarters && d != Dim::K);
    // A part reads rows of op(A) and columns of op(B) over its steps of k: an operand that is C
    // is read again after a part stored into it where k is cut, or n (op(A) = C), or m (op(B)).
    let again = [cut(Dim::K) || cut(Dim::N), cut(Dim::K) || cut(Dim::M)];
    read_from_copies(e, &mut g, again)?;
    let halves = |d: Dim| {
        let (s, half) = (size(d), size(d) / 2);
        if cut(d) {
            vec![(0, half), (half, s)]
        } else {
            vec![(0, s)]
        }
    };
    for cols in halves(Dim::N) {
        for rows in halves(Dim::M) {
            let mut rules = g.rules;
            // A part off the diagonal of C's triangle lies wholly inside or outside it.
            if let Some(t) = g.rules.triangle.filter(|_| rows != cols) {
                if (t == Triangle::Lower) != (rows.0 > cols.0) {
                    continue;
                }
                rules.triangle = None;
                rules.real_diagonal = false;
            }
            for (step, depth) in halves(Dim::K).into_iter().enumerate() {
                let part = Gemm { rules, ..g }.part(rows, cols, depth);
                let part = if step > 0 { part.accumulating() } else { part };
                complex_in_parts(e, &part)?;
            }
        }
    }
    Ok(())
}

/// Whether the compute kernel takes gemm `g` whole (each operand within one window), without
/// tiles.
pub fn on_compute<T: Real>(e: &Engine, g: &Gemm<T>) -> bool {
    super::compute_available(e) && super::gemm_compute::fits(e, g)
}

/// Computes C's tile from (i0, j0) into `out` (`c`, C's block, or scratch laid out alike) over
/// all of k, chunk by chunk (`Plan::tk`).
type Tile<T> = fn(&mut Engine, &Gemm<T>, Plan, (i64, i64), Matrix<T>, Matrix<T>) -> Result<()>;

/// C tile by tile (`plan`), each tile computed by `tile` (the fragment pipeline's, or the
/// compute kernel's on a part that fits its windows), with the Level 3 routines' rules. A
/// symmetric or triangular operand is packed from the whole of it (an element's mirror may lie
/// outside the part a tile reads), so it goes to the device whole, once. An operand that is
/// also C is copied first where a tile's store would overwrite what a later tile or chunk of k
/// reads. With a triangle of C, tiles wholly outside it are skipped, and those across its
/// diagonal are computed into scratch, from which only their part of the triangle is copied
/// into C.
fn in_tiles<T: Real>(e: &mut Engine, g: &Gemm<T>, tile: Tile<T>) -> Result<()> {
    let mut g = shaped_whole(e, g)?;
    let mut tiles = plan(e, &g)?;
    // Tile (i0.., j0..) reads rows i0.. of op(A) and columns j0.. of op(B), each over all of k:
    // C's (that operand's) part it stores is read again by the tiles beside it along n (along
    // m), and by the chunks of k after the first.
    let again = [
        tiles.tk < g.k || tiles.tn < g.n,
        tiles.tk < g.k || tiles.tm < g.m,
    ];
    if read_from_copies(e, &mut g, again)? {
        // A copy is packed, so the windows its parts take may differ.
        tiles = plan(e, &g)?;
    }
    let g = &g;
    let mut j0 = 0;
    while j0 < g.n {
        let j1 = (j0 + tiles.tn).min(g.n);
        let mut i0 = 0;
        while i0 < g.m {
            let i1 = (i0 + tiles.tm).min(g.m);
            let c = g.c.block(i0, i1, j0, j1);
            // Whether the tile has elements outside (inside) the triangle: its corners, rows
            // i0..i1 and columns j0..j1.
            let (outside, inside) = match g.rules.triangle {
                None => (false, true),
                Some(Triangle::Lower) => (j1 - 1 > i0, i1 > j0),
                Some(Triangle::Upper) => (i1 - 1 > j0, i0 < j1),
            };
            if !outside {
                tile(e, g, tiles, (i0, j0), c, c)?;
            } else if inside {
                let (rows, cols) = (c.rows, c.cols);
                let buffer = e
                    .scratch
                    .buffer(&e.ctx.gl, &e.ext, OUT, T::words(rows * cols))?;
                let out = Matrix {
                    mem: Mem::Device {
                        buffer,
                        offset: 0,
                        len: rows * cols,
                    },
                    rows,
                    cols,
                    ld: rows,
                };
                tile(e, g, tiles, (i0, j0), c, out)?;
                copy_out(e, &out, &c, g.rules.triangle.map(|t| (t, j0 - i0)), 1)?;
            }
            i0 = i1;
        }
        j0 = j1;
    }
    Ok(())
}

/// `g` with its symmetric, Hermitian or triangular operands as tiles and parts read them: whole
/// (an element's mirror may lie outside a part), a host one uploaded once, each within one
/// window.
fn shaped_whole<T: Real>(e: &mut Engine, g: &Gemm<T>) -> Result<Gemm<T>> {
    let Some((a, b)) = g.ab else { return Ok(*g) };
    let shapes = g.rules.shapes;
    let mut whole = |which: usize, m: Matrix<T>| match m.mem {
        Mem::Host(_) if !shapes[which].read_as_stored() => e.upload_matrix(which, &m),
        _ => Ok(m),
    };
    let ab = (whole(0, a)?, whole(1, b)?);
    for (m, shape) in [ab.0, ab.1].iter().zip(shapes) {
        if !shape.read_as_stored() && m.span() > e.max_window() {
            return Err(Error::overflow(
                "a symmetric or triangular operand exceeds one buffer-texture window",
            ));
        }
    }
    Ok(Gemm { ab: Some(ab), ..*g })
}

/// Reads each operand of `g` that is also C from a copy (`copy`) where `again` says that a
/// tile, part or chunk of k reads what another stored of it (0: A, 1: B); whether any was
/// copied.
fn read_from_copies<T: Real>(e: &mut Engine, g: &mut Gemm<T>, again: [bool; 2]) -> Result<bool> {
    let copied = [0, 1].map(|which| g.rules.is_c[which] && again[which]);
    let Some((a, b)) = g.ab.filter(|_| copied.contains(&true)) else {
        return Ok(false);
    };
    let a = if copied[0] { copy(e, 0, &a)? } else { a };
    let b = if copied[1] { copy(e, 1, &b)? } else { b };
    g.ab = Some((a, b));
    g.rules.is_c = [0, 1].map(|which| g.rules.is_c[which] && !copied[which]);
    Ok(true)
}

/// A copy of operand `which` (0: A, 1: B) in device memory, packed: of a host one in staging,
/// of a device one in scratch.
fn copy<T: Real>(e: &mut Engine, which: usize, m: &Matrix<T>) -> Result<Matrix<T>> {
    if let Mem::Host(_) = m.mem {
        return e.upload_matrix(which, m);
    }
    let buffer = e
        .scratch
        .buffer(&e.ctx.gl, &e.ext, COPY, T::words(m.rows * m.cols))?;
    let packed = Matrix {
        mem: Mem::Device {
            buffer,
            offset: 0,
            len: m.rows * m.cols,
        },
        ld: m.rows,
        ..*m
    };
    copy_out(e, m, &packed, None, 1)?;
    Ok(packed)
}

/// Columns of C per fragment: one RGBA32F attachment each, 8 where the device can draw into
/// 8 (every desktop GL 3.3 device), else the 4 that GLES 3.x guarantees.
fn block_cols(e: &Engine) -> i64 {
    if e.limits.draw_buffers >= 8 {
        8
    } else {
        4
    }
}

/// RGBA texels per column of a panel of `rows` rows, padded to whole blocks of `block` rows.
fn panel_width(rows: i64, block: i64) -> i64 {
    (rows + block - 1) / block * block / 4
}

fn cols_define(cols: i64) -> (&'static str, String) {
    ("BLOCK_COLS", cols.to_string())
}

/// A `Tile` on the compute pipeline: per chunk of k, one gemm of the compute kernel on the
/// tile's parts of A and B (or the whole of a shaped one, read from the tile's origin) into
/// `out`, which is C's block, or scratch holding a copy of it.
fn compute_tile<T: Real>(
    e: &mut Engine,
    g: &Gemm<T>,
    plan: Plan,
    (i0, j0): (i64, i64),
    c: Matrix<T>,
    out: Matrix<T>,
) -> Result<()> {
    let (i1, j1) = (i0 + c.rows, j0 + c.cols);
    let in_place = c.mem.same_space(&out.mem) && c.mem.byte_position() == out.mem.byte_position();
    if g.beta != T::ZERO && !in_place {
        copy_out(e, &c, &out, None, 1)?;
    }
    let k = if g.ab.is_some() { g.k } else { 0 };
    let mut l0 = 0;
    loop {
        let l1 = (l0 + plan.tk).min(k);
        let parts =
            g.ab.map(|(a, b)| g.parts((&a, &b), (i0, i1), (j0, j1), (l0, l1)));
        let part = Gemm {
            m: c.rows,
            n: c.cols,
            k: l1 - l0,
            beta: if l0 == 0 { g.beta } else { T::ONE },
            ab: parts.map(|[(a, _), (b, _)]| (a, b)),
            c: out,
            rules: Rules {
                triangle: None,
                origins: parts.map_or([(0, 0); 2], |[(_, a0), (_, b0)]| [a0, b0]),
                ..g.rules
            },
            ..*g
        };
        if !super::gemm_compute::fits(e, &part) {
            return Err(Error::overflow(
                "no tiling fits the gemm operands in the compute kernel's windows",
            ));
        }
        super::gemm_compute::gemm(e, &part)?;
        l0 = l1;
        if l0 >= k {
            return Ok(());
        }
    }
}

/// Computes C's tile from (`i0`, `j0`) into `out`: alpha·op(A)·op(B) + beta·`c` (C's block,
/// which `out` is, or scratch laid out alike), k chunk by k chunk, later chunks adding to `out`.
fn tile(
    e: &mut Engine,
    g: &Gemm,
    plan: Plan,
    (i0, j0): (i64, i64),
    c: Matrix,
    out: Matrix,
) -> Result<()> {
    let (i1, j1) = (i0 + c.rows, j0 + c.cols);
    let cols = block_cols(e);
    // The blocks target: texel (x, y) of attachment t is C(4x..4x+3, y*cols + t).
    let (width, height) = (panel_width(c.rows, 4), (c.cols + cols - 1) / cols);
    let b_width = panel_width(c.cols, cols);
    let k = if g.ab.is_some() { g.k } else { 0 };
    let mut l0 = 0;
    loop {
        let l1 = (l0 + plan.tk).min(k);
        let (beta, c_in) = if l0 == 0 { (g.beta, c) } else { (1.0, out) };
        if let Some((a, b)) = &g.ab {
            // A host part is all that `pack` uploads.
            let [(pa, a0), (pb, b0)] = g.parts((a, b), (i0, i1), (j0, j1), (l0, l1));
            let [sa, sb] = g.rules.shapes;
            let depth = l1 - l0;
            pack(e, 0, &pa, sa, g.ta, a0, (c.rows, depth), width)?;
            // op(B) transposed, its rows padded to whole blocks of columns.
            pack(e, 1, &pb, sb, !g.tb, b0, (c.cols, depth), b_width)?;
        }
        let cd = if beta != 0.0 {
            Some(e.upload_matrix(2, &c_in)?)
        } else {
            None
        };
        bind_blocks(e, cols, width, height)?;
        let defines = [
            ("BLOCK", String::new()),
            ("VEC4_OUTPUTS", String::new()),
            cols_define(cols),
        ];
        let p = e.program("gemm", FRAG, &defines)?;
        if g.ab.is_some() {
            for (panel, name, texels) in [(&PANELS[0], "uAp", width), (&PANELS[1], "uBp", b_width)]
            {
                // As for operands (`plan` keeps panels within one window).
                if texels * (l1 - l0) > e.max_window() {
                    return Err(Error::overflow(
                        "sgemm panel exceeds one buffer-texture window",
                    ));
                }
                panel.bind::<f32>(e, &p, name, texels, l1 - l0)?;
            }
        }
        if let Some(cd) = &cd {
            e.bind_matrix(&p, 2, "C", cd, false)?;
        }
        let gl = &e.ctx.gl;
        p.set_i32(gl, "uK", (l1 - l0) as i32);
        p.set_i32(gl, "uRows", c.rows as i32);
        p.set_i32(gl, "uCols", c.cols as i32);
        p.set_f32(gl, "uAlpha", g.alpha);
        p.set_f32(gl, "uBeta", beta);
        p.set_i32(gl, "uUseAB", i32::from(g.ab.is_some()));
        p.set_i32(gl, "uReadC", i32::from(cd.is_some()));
        e.spend(Work::Flops(
            2.0 * (c.rows * c.cols * (l1 - l0)) as f64,
            Precision::Single,
        ));
        e.draw()?;
        // Every draw of this chunk (and the targets they create) comes before its first store,
        // so a failure here leaves this chunk's part of C as it was (and a one-chunk call's C
        // untouched).
        let whole = c.rows / 4 * 4;
        if whole < c.rows {
            draw_edge(e, &c, cols)?;
        }
        bind_blocks(e, cols, width, height)?;
        e.store_blocks(&out, cols)?;
        if whole < c.rows {
            e.target(EDGE, (c.rows - whole) as i32, c.cols as i32)?;
            e.store_matrix(&out.block(whole, c.rows, 0, c.cols))?;
        }
        l0 = l1;
        if l0 >= k {
            return Ok(());
        }
    }
}

/// Packs `rows` × `depth` elements of op(`src`) (the transpose of the stored matrix when
/// `transposed`, read as `shape` says) from element `origin` into panel `which` (0: A, 1: B):
/// texel x + l*`width` holds rows 4x..4x+3 of column l, `width` at least `rows`/4 (the rest
/// zeros). Drawn into an RGBA32F target, then copied into the panel's scratch buffer.
#[allow(clippy::too_many_arguments)]
fn pack(
    e: &mut Engine,
    which: usize,
    src: &Matrix,
    shape: Shape,
    transposed: bool,
    origin: (i64, i64),
    (rows, depth): (i64, i64),
    width: i64,
) -> Result<()> {
    let src = e.upload_matrix(which, src)?;
    e.target_of(PANEL, Kind::rgba(1), width as i32, depth as i32)?;
    let p = e.program(
        "gemm",
        FRAG,
        &[("PACK", String::new()), ("VEC4_OUTPUTS", String::new())],
    )?;
    e.bind_matrix(&p, which, "P", &src, false)?;
    shape.set_packing(&e.ctx.gl, &p, transposed, origin, rows);
    // In bands of the panel's columns (the target's rows), each within the dispatch budget: a
    // column is read once and written once, each byte counted `PACK_COST` times.
    let per_column = super::PACK_COST * (2 * rows * 4) as f64;
    let band = ((e.limits.dispatch_bytes / per_column) as i64).max(1);
    let mut l0 = 0;
    while l0 < depth {
        let l1 = (l0 + band).min(depth);
        e.spend(Work::Bytes((l1 - l0) as f64 * per_column));
        e.draw_in(0, l0 as i32, width as i32, (l1 - l0) as i32)?;
        l0 = l1;
    }
    let len = width * depth * 4;
    let buffer = e
        .scratch
        .buffer(&e.ctx.gl, &e.ext, PANELS[which].buffer, len)?;
    let panel = Mem::Device {
        buffer,
        offset: 0,
        len,
    };
    e.store_texels(panel, width as i32, depth as i32)
}

/// Binds (creating or growing it if needed) the target of the blocks of C: `cols` RGBA32F
/// attachments of `width`×`height` texels.
fn bind_blocks(e: &mut Engine, cols: i64, width: i64, height: i64) -> Result<()> {
    e.target_of(
        BLOCKS,
        Kind::rgba(cols as usize),
        width as i32,
        height as i32,
    )
}

/// Draws the last `c.rows` % 4 rows of the tile from the blocks target into the R32F target
/// `EDGE` (a read of whole RGBA texels would store rows past `c.rows`).
fn draw_edge(e: &mut Engine, c: &Matrix, cols: i64) -> Result<()> {
    let whole = c.rows / 4 * 4;
    // Binding a target may create its texture, which unbinds the active unit's 2D texture: the
    // blocks are bound after it.
    e.target(EDGE, (c.rows - whole) as i32, c.cols as i32)?;
    for (t, texture) in e.target_textures(BLOCKS).to_vec().into_iter().enumerate() {
        e.bind_texture_2d(UNIT_BLOCKS + t, Some(texture));
    }
    let p = e.program("gemm", FRAG, &[("EDGE", String::new()), cols_define(cols)])?;
    let gl = &e.ctx.gl;
    for t in 0..cols {
        p.set_i32(gl, &format!("uBlock{t}"), (UNIT_BLOCKS as i64 + t) as i32);
    }
    p.set_i32(gl, "uEdgeX", (whole / 4) as i32);
    e.draw()
}

/// Picks tile sizes so that every operand part fits one window: halve the dimension that sets
/// an oversized operand's column count (or its row count once that is 1); on the compute
/// pipeline, halve the longer side of a tile larger than a window (a tile across a triangle's
/// diagonal, or of a host C, is computed in scratch); then, while a panel does not fit one,
/// halve k (or the panel's rows once k is 1).
fn plan<T: Real>(e: &Engine, g: &Gemm<T>) -> Result<Plan> {
    let side = i64::from(e.target_side());
    let cols = block_cols(e);
    let mut p = Plan {
        tm: g.m.min(side),
        tn: g.n.min(side),
        // The panels are k texels high, and gemm.frag loops over the chunk's k.
        tk: g.k.clamp(1, side.min(super::MAX_LOOP_ITERATIONS)),
    };
    let window = e.max_window();
    // The fragment pipeline draws a tile's chunk of k at once, so that draw stays within the
    // dispatch budget (the compute pipeline's passes are dispatched in bands instead), counted
    // at the blocks its fragments compute whole: 4 rows by `cols` columns (a thin sgemm's draw
    // ran 12.8 ms of 5 on llvmpipe counted at its own flops).
    let most = e.limits.dispatch_flops[T::PRECISION.index()];
    for _ in 0..256 {
        let spanned = super::round_up(p.tm, 4) * super::round_up(p.tn, cols) * p.tk;
        if !super::compute_available(e) && 2.0 * spanned as f64 > most {
            let d = match (p.tk > 1, p.tm >= p.tn) {
                (true, _) => Dim::K,
                (false, true) => Dim::M,
                (false, false) => Dim::N,
            };
            p.set(d, (p.get(d) + 1) / 2);
            continue;
        }
        // Each entry: does this operand part fit, and which plan dimensions are its (rows, cols).
        let mut parts: Vec<(&Matrix<T>, (Dim, Dim))> = vec![];
        if let Some((a, b)) = &g.ab {
            parts.push((
                a,
                if g.ta {
                    (Dim::K, Dim::M)
                } else {
                    (Dim::M, Dim::K)
                },
            ));
            parts.push((
                b,
                if g.tb {
                    (Dim::N, Dim::K)
                } else {
                    (Dim::K, Dim::N)
                },
            ));
        }
        // The compute kernel views C's tile whether it reads it or not.
        if g.beta != T::ZERO || super::compute_available(e) {
            parts.push((&g.c, (Dim::M, Dim::N)));
        }
        let oversized = parts
            .into_iter()
            .find(|(m, (r, c))| super::window_elems(m, p.get(*r), p.get(*c)) > window);
        if oversized.is_none() && super::compute_available(e) && p.tm * p.tn > window {
            let d = if p.tm >= p.tn { Dim::M } else { Dim::N };
            p.set(d, (p.get(d) + 1) / 2);
            continue;
        }
        match oversized {
            None if g.ab.is_none() => return Ok(p),
            None => {
                // The panels are buffer textures too: k rows of RGBA texels.
                let a = panel_width(p.tm, 4) * p.tk;
                let b = panel_width(p.tn, cols) * p.tk;
                if a.max(b) <= window {
                    return Ok(p);
                }
                let d = match (p.tk > 1, a >= b) {
                    (true, _) => Dim::K,
                    (false, true) => Dim::M,
                    (false, false) => Dim::N,
                };
                p.set(d, (p.get(d) + 1) / 2);
            }
            Some((_, (r, c))) => {
                let d = if p.get(c) > 1 { c } else { r };
                p.set(d, (p.get(d) + 1) / 2);
            }
        }
    }
    Err(Error::overflow(
        "no tiling fits the operands in buffer-texture windows",
    ))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dim {
    M,
    N,
    K,
}

impl Plan {
    fn get(&self, d: Dim) -> i64 {
        match d {
            Dim::M => self.tm,
            Dim::N => self.tn,
            Dim::K => self.tk,
        }
    }

    fn set(&mut self, d: Dim, v: i64) {
        match d {
            Dim::M => self.tm = v,
            Dim::N => self.tn = v,
            Dim::K => self.tk = v,
        }
    }
}
