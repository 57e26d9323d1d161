//! gemm on the compute pipeline (GL 4.3+, GLES 3.1+), in single or double precision (the shaders'
//! `REAL`, from `Real::DEFINES`).
//!
//! Passes: op(A) and op(B) are each packed into a panel (`gemm_pack.comp`: op(A) column-major and
//! op(B) transposed, rows padded with zeros to whole blocks or tiles), unless read in place
//! (`Source`), then `gemm.comp` computes C, one block of C per invocation (`Kernel`), loading
//! the panels as RGBA texels. C is written in place when it is in device memory or in host
//! memory the device can map, otherwise into a scratch buffer that is read back into the host
//! matrix column by column (so its padding rows are never written).

use super::gemm_call::{Gemm, Shape, Triangle};
use super::gemm_scratch::{copy_out, COPY, OUT, PANELS};
use super::round_up;
use crate::engine::element::{Precision, Real, Scalar};
use crate::engine::jobs::Work;
use crate::engine::operand::{Matrix, Mem, Window};
use crate::engine::tuning::{GemmParams, TILE_OPTIONS};
use crate::engine::Engine;
use crate::status::Result;

const PACK: &str = concat!(
    include_str!("../../shaders/shape.glsl"),
    include_str!("../../shaders/gemm_pack.comp")
);
const COMP: &str = include_str!("../../shaders/gemm.comp");

/// Views besides the panels' (see `gemm_scratch::PANELS` and `engine::scratch`).
const VIEW_PACK: usize = 0;
/// The packing's 16-byte view of its operand (a panel's view, which is pointed anew when the
/// panels are bound), and the texture unit it is sampled on.
const VIEW_PACK_GROUPS: usize = 1;
const UNIT_PACK_GROUPS: u32 = 1;
const VIEW_OUT: usize = 3;
/// C's 16-byte view where gemm.comp reads it in groups (`Store::groups`), and its unit (C's
/// operand unit, which that program samples through this view instead).
const VIEW_C_GROUPS: usize = 4;
const UNIT_C_GROUPS: u32 = 2;
/// A unit no sampler uses, for views used only as images.
const UNIT_IMAGES: u32 = 5;
/// Image units of gemm.comp's uOut and gemm_pack.comp's uPanel (their `RESULT` bindings).
const IMAGE_OUT: u32 = 0;
const IMAGE_PANEL: u32 = 1;
/// Most workgroups per dispatch dimension that GL guarantees.
const MAX_GROUPS: i64 = 65535;

/// How gemm.comp runs for one call: the device's parameters (`engine::tuning`), adapted to the
/// call and to the device's room for them.
#[derive(Clone, Copy)]
struct Kernel {
    p: GemmParams,
}

impl Kernel {
    /// The device's parameters for `T` and the size of C (`Tuning::gemm_for`), adapted: square
    /// blocks for a triangle of C, whose tiles gemm.comp enumerates as squares (`tile()`), the
    /// larger side for both; and the blocked kernel with the same blocks where the tiled one's
    /// workgroup or tiles do not fit the device, or its panels, padded to whole tiles (`pad`),
    /// do not fit a window (under small emulated windows, `GLBLAS_LIMIT_WINDOW`).
    fn of<T: Real>(e: &Engine, g: &Gemm<T>) -> Kernel {
        let mut p = e.tuning.gemm_for(T::PRECISION.index(), g.m * g.n);
        if g.rules.triangle.is_some() {
            let side = p.block[0].max(p.block[1]);
            p.block = [side, side];
        }
        let tiled = Kernel { p };
        if p.tiled
            && (!p.fit(&e.ctx.info, T::SIZE) || e.max_window() < tiled.pad(0).max(tiled.pad(1)))
        {
            p = GemmParams::blocked(p.block);
        }
        Kernel { p }
    }

    /// Invocations along each side of a workgroup (gemm.comp's GROUP).
    fn group(&self) -> i64 {
        self.p.group
    }

    /// What op(A)'s panel's rows (`which` = 0) or op(B)'s panel's columns (1) are padded to: a
    /// block, or a workgroup's tile, whose loads read whole tiles.
    fn pad(&self, which: usize) -> i64 {
        if self.p.tiled {
            self.p.block[which] * self.group()
        } else {
            self.p.block[which]
        }
    }

    /// Workgroups along `v` rows (`which` = 0) or columns (1) of C.
    fn groups(&self, which: usize, v: i64) -> i64 {
        let b = self.p.block[which];
        ((v + b - 1) / b + self.group() - 1) / self.group()
    }

    /// The rows (`which` = 0) or columns (1) its workgroups span over `v` of C: whole
    /// workgroups, which compute their whole tiles.
    fn spanned(&self, which: usize, v: i64) -> i64 {
        self.groups(which, v) * self.p.block[which] * self.group()
    }

    /// The most steps of k one pass may take: gemm.comp's loops over them share llvmpipe's
    /// loop budget (`MAX_LOOP_ITERATIONS`). The tiled kernel runs, per tile of TILE_K steps, a
    /// step of the outer loop, TILE_K steps of the loop reading the tiles, and, without
    /// `prefetch` (whose loads macros unroll), its loads' loops, each counted here as not
    /// unrolled, plus one for each loop's exit.
    fn max_depth(&self) -> i64 {
        if !self.p.tiled {
            return super::MAX_LOOP_ITERATIONS;
        }
        let loads = match self.p.prefetch {
            true => 0,
            false => self.p.tile_loads(0) + self.p.tile_loads(1) + 2,
        };
        let per_tile = 2 + self.p.tile_k + loads;
        super::MAX_LOOP_ITERATIONS / per_tile * self.p.tile_k
    }

    /// gemm.comp's defines, with how it reads and writes C.
    fn defines<T: Real>(&self, store: Store) -> Vec<(&'static str, String)> {
        let mut d = vec![
            ("BLOCK_M", self.p.block[0].to_string()),
            ("BLOCK_N", self.p.block[1].to_string()),
            ("GROUP", self.p.group.to_string()),
        ];
        if store.read_c {
            d.push(("READ_C", String::new()));
        }
        if store.beta_im {
            d.push(("COMPLEX_BETA", String::new()));
        }
        if store.complex {
            d.push(("COMPLEX_C", String::new()));
        }
        if store.real_diagonal {
            d.push(("REAL_DIAGONAL", String::new()));
        }
        if store.groups {
            d.push(("C_GROUPS", String::new()));
        }
        if self.p.tiled {
            d.push(("TILED", String::new()));
            d.push(("TILE_K", self.p.tile_k.to_string()));
            for ((_, define), taken) in TILE_OPTIONS.iter().zip(self.p.options()) {
                if taken {
                    d.push((define, String::new()));
                }
            }
        }
        d.extend(super::real_defines::<T>());
        d
    }
}

/// Whether these operands can take the compute path: every buffer the passes view lies within
/// one buffer-texture window (a panel for at least one step of k); other calls use the fragment
/// tiles.
pub fn fits<T: Real>(e: &Engine, g: &Gemm<T>) -> bool {
    let w = e.max_window();
    let kernel = Kernel::of(e, g);
    let ab = match &g.ab {
        Some((a, b)) => {
            round_up(g.m, kernel.pad(0)) <= w
                && round_up(g.n, kernel.pad(1)) <= w
                && reach(e, a) <= w
                && reach(e, b) <= w
        }
        None => true,
    };
    ab && reach(e, &g.c) <= w
        && g.m * g.n <= w
        && kernel.groups(0, g.m) <= MAX_GROUPS
        && kernel.groups(1, g.n) <= MAX_GROUPS
}

/// The elements of a window an operand takes on the device: its span, or, for a host matrix
/// whose span is longer than a window (leading dimensions far beyond its rows), its packed
/// copy, since such a matrix is copied rather than mapped (`mappable`).
fn reach<T: Real>(e: &Engine, m: &Matrix<T>) -> i64 {
    match m.mem {
        Mem::Host(_) if !mappable(e, m) => m.rows * m.cols,
        _ => m.span(),
    }
}

/// Whether host matrix `m` may be used in place (mapped): its span fits one window.
fn mappable<T: Scalar>(e: &Engine, m: &Matrix<T>) -> bool {
    m.span() <= super::max_window::<T>(e)
}

/// Where gemm.comp reads an operand from: its panel, packed per chunk of k, or in place, the
/// stored matrix itself, where its groups of 4 rows are the panel's groups (op(A) = A, op(B) =
/// B^T), which saves the packing pass.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Panel,
    InPlace,
}

impl Source {
    /// How operand `which` (0: A, 1: B) of `g`, stored as `stored` and resident as `m`, is
    /// read. In place only where the kernel reads the operand as it reads a panel, and only
    /// its elements:
    /// - op(A) = A or op(B) = B^T, read as stored (`Shape::read_as_stored`), and not also C (whose blocks the kernel overwrites
    ///   while others read them);
    /// - op(A)'s rows (op(B)'s columns) a multiple of the block, since a block reads whole
    ///   blocks of them (a panel's are padded with zeros);
    /// - m's window start and ld multiples of 4, so that its groups are whole texels;
    /// - in device memory, or in any memory on a software rasterizer (a GPU would read a host
    ///   matrix over the bus at every step, where the packing reads it once);
    /// - not the TILED kernel, which reads whole tiles;
    /// - through a 16-byte-texel view, where the device allows one of an operand.
    fn of<T: Real>(
        e: &Engine,
        g: &Gemm<T>,
        kernel: Kernel,
        which: usize,
        (stored, m): (&Matrix<T>, &Matrix<T>),
    ) -> Source {
        let (transposed, width) = if which == 0 {
            (g.ta, g.m)
        } else {
            (!g.tb, g.n)
        };
        let in_place = !transposed
            && g.complex.is_none()
            && g.rules.shapes[which].read_as_stored()
            && !g.rules.is_c[which]
            && width % kernel.pad(which) == 0
            && m.columns_in_texels(&e.ctx.info)
            && (matches!(stored.mem, Mem::Device { .. }) || e.ctx.info.software)
            && !kernel.p.tiled
            && e.ctx.info.rgba_operand_views();
        if in_place {
            Source::InPlace
        } else {
            Source::Panel
        }
    }
}

/// How one pass of gemm.comp reads and writes C (its READ_C and C_GROUPS).
#[derive(Clone, Copy)]
struct Store {
    /// beta != 0: C is read (else never, so that NaN or Inf in it cannot leak).
    read_c: bool,
    /// A complex beta with an imaginary part (`OneM`), applied as C is read.
    beta_im: bool,
    /// C is complex (`OneM`): its triangle is its elements'.
    complex: bool,
    /// Its diagonal's imaginary parts are stored as 0 (`Rules::real_diagonal`).
    real_diagonal: bool,
    /// A group of 4 rows at a time, one load and one store, where every column of the output
    /// and of the C read is whole groups from multiples of 4 (m, the windows' starts and the
    /// leading dimensions multiples of 4), C has no triangle (whose stores are per element),
    /// and the device allows a 16-byte view of an operand. Else element by element.
    groups: bool,
}

impl Store {
    fn of<T: Real>(
        e: &Engine,
        g: &Gemm<T>,
        (beta_im, c_in): (T, Option<&Matrix<T>>),
        out: &Matrix<T>,
    ) -> Store {
        let whole = |m: &Matrix<T>| m.columns_in_texels(&e.ctx.info);
        Store {
            read_c: c_in.is_some(),
            beta_im: c_in.is_some() && beta_im != T::ZERO,
            complex: g.complex.is_some(),
            real_diagonal: g.rules.real_diagonal,
            groups: g.m % 4 == 0
                && g.rules.triangle.is_none()
                && e.ctx.info.rgba_operand_views()
                && whole(out)
                && c_in.is_none_or(whole),
        }
    }
}

/// The longest chunk of k one pass takes: gemm.comp loops over it (`Kernel::max_depth`), the
/// packing pass dispatches one workgroup row per step of it, and each panel, one window, holds
/// it.
fn chunk_k<T: Real>(e: &Engine, g: &Gemm<T>, kernel: Kernel) -> i64 {
    let panel = e.max_window();
    let tk =
        g.k.min(kernel.max_depth())
            .min(MAX_GROUPS)
            .min(panel / round_up(g.m, kernel.pad(0)))
            .min(panel / round_up(g.n, kernel.pad(1)));
    let rows = kernel.groups(1, g.n).max(1);
    Budget::of(e, g, kernel).cut(tk, rows).0
}

/// A pass's work against the device's dispatch budget (`Limits::dispatch_flops`).
struct Budget {
    /// Flops per step of k over the whole of C, as the workgroups' whole tiles span it (an
    /// upper bound for a triangle of it): a thin C's padding is computed too (on zink, an sgemm
    /// with n = 4 counted at its own flops ran 17.6 ms against a 5 ms budget).
    per_step: f64,
    /// The most flops one dispatch may take.
    most: f64,
    precision: Precision,
}

impl Budget {
    fn of<T: Real>(e: &Engine, g: &Gemm<T>, kernel: Kernel) -> Budget {
        Budget {
            per_step: 2.0 * kernel.spanned(0, g.m) as f64 * kernel.spanned(1, g.n) as f64,
            most: e.limits.dispatch_flops[T::PRECISION.index()],
            precision: T::PRECISION,
        }
    }

    /// The work of `depth` steps of k over a `part` of C.
    fn work(&self, depth: i64, part: f64) -> Work {
        Work::Flops(self.per_step * depth as f64 * part, self.precision)
    }

    /// How a pass of `depth` steps of k over `rows` rows of workgroups (along y) keeps each
    /// dispatch within the budget: the steps of k per pass, and the rows of workgroups each of
    /// its dispatches takes. Bands of rows first, since cutting k makes each further pass read
    /// C back; k only where one row per dispatch would still take more.
    fn cut(&self, depth: i64, rows: i64) -> (i64, i64) {
        let per_row = self.per_step * depth as f64 / rows as f64;
        let per_band = (self.most / per_row).floor() as i64;
        if per_band >= 1 {
            return (depth, per_band.min(rows));
        }
        let steps = (self.most * rows as f64 / self.per_step).floor() as i64;
        (steps.clamp(1, depth), 1)
    }
}

/// Computes C chunk of k by chunk: per chunk, packs op(A) and op(B)'s parts and adds their
/// product into C (beta applies to the first chunk; later ones read back the output so far).
/// The packing reads A and B as `g.rules.shapes` say, and only `g.rules.triangle` of C is
/// read and written.
pub fn gemm<T: Real>(e: &mut Engine, g: &Gemm<T>) -> Result<()> {
    let (m, n) = (g.m, g.n);
    let kernel = Kernel::of(e, g);
    let tk = chunk_k(e, g, kernel);
    // An operand that is also C is read from a copy when k takes more than one chunk, since C
    // is written before the operand's last chunk is packed; in one chunk both packs come first.
    let mut operand = |unit: usize, m: &Matrix<T>| match (g.rules.is_c[unit] && g.k > tk, m.mem) {
        (false, _) => resident(e, unit, m),
        (true, Mem::Host(_)) => e.upload_matrix(unit, m),
        (true, Mem::Device { .. }) => device_copy(e, m),
    };
    let ab = match &g.ab {
        Some((a, b)) => Some((operand(0, a)?, operand(1, b)?)),
        None => None,
    };
    let sources = match (&g.ab, &ab) {
        (Some((sa, sb)), Some((a, b))) => [
            Source::of(e, g, kernel, 0, (sa, a)),
            Source::of(e, g, kernel, 1, (sb, b)),
        ],
        _ => [Source::Panel; 2],
    };
    let c = if mappable(e, &g.c) {
        e.pin_matrix(&g.c).unwrap_or(g.c)
    } else {
        g.c
    };
    let beta_im = g.complex.map_or(T::ZERO, |z| z.beta_im);
    let cd = if g.beta != T::ZERO || beta_im != T::ZERO {
        Some(e.upload_matrix(2, &c)?)
    } else {
        None
    };
    // Where C goes: in place in device memory, or packed (ld = m) into scratch for the host.
    let out = match c.mem {
        Mem::Device { .. } => c,
        Mem::Host(_) => Matrix {
            mem: Mem::Device {
                buffer: e.scratch.buffer(&e.ctx.gl, &e.ext, OUT, T::words(m * n))?,
                offset: 0,
                len: m * n,
            },
            rows: m,
            cols: n,
            ld: m,
        },
    };
    let k = if ab.is_some() { g.k } else { 0 };
    let [shape_a, shape_b] = g.rules.shapes;
    let mut l0 = 0;
    loop {
        let l1 = (l0 + tk).min(k);
        if let Some((a, b)) = &ab {
            let depth = l1 - l0;
            if sources[0] == Source::Panel {
                pack(
                    e,
                    a,
                    shape_a,
                    g.ta,
                    (g.rules.origins[0].0, g.rules.origins[0].1 + l0),
                    (m, depth),
                    PANELS[0].buffer,
                    kernel.pad(0),
                    g.complex.map(|z| Expansion {
                        blocks: true,
                        conjugate: z.conjugate[0],
                        alpha: z.alpha,
                    }),
                )?;
            }
            if sources[1] == Source::Panel {
                // op(B) transposed: element (j, l) is op(B)(l, j).
                pack(
                    e,
                    b,
                    shape_b,
                    !g.tb,
                    (g.rules.origins[1].0, g.rules.origins[1].1 + l0),
                    (n, depth),
                    PANELS[1].buffer,
                    kernel.pad(1),
                    g.complex.map(|z| Expansion {
                        blocks: false,
                        conjugate: z.conjugate[1],
                        alpha: [T::ONE, T::ZERO],
                    }),
                )?;
            }
        }
        // beta (and a complex one's imaginary part) apply to the first chunk only.
        let (beta, c_in) = if l0 == 0 {
            ((g.beta, beta_im), cd)
        } else {
            ((T::ONE, T::ZERO), Some(out))
        };
        let operands = ab.as_ref().map(|(a, b)| ([a, b], sources));
        multiply(
            e,
            g,
            kernel,
            (l0, l1),
            (beta, c_in.as_ref()),
            operands,
            &out,
        )?;
        l0 = l1;
        if l0 >= k {
            break;
        }
    }
    if let Mem::Host(_) = c.mem {
        let parts = if g.complex.is_some() { 2 } else { 1 };
        copy_out(e, &out, &c, g.rules.triangle.map(|t| (t, 0)), parts)?;
    }
    Ok(())
}

/// A host matrix as device memory for the passes: in place where the device can map host
/// memory and the matrix fits a window, else copied (packed) into staging buffer `unit`.
pub(super) fn resident<T: Scalar>(e: &mut Engine, unit: usize, m: &Matrix<T>) -> Result<Matrix<T>> {
    let pinned = if mappable(e, m) {
        e.pin_matrix(m)
    } else {
        None
    };
    match pinned {
        Some(pinned) => Ok(pinned),
        None => e.upload_matrix(unit, m),
    }
}

/// A packed copy of device matrix `m` in scratch buffer `COPY` (ld = rows rounded up to the
/// 4-element groups the packing writes).
fn device_copy<T: Real>(e: &mut Engine, m: &Matrix<T>) -> Result<Matrix<T>> {
    let (rows, cols) = (m.rows, m.cols);
    pack(
        e,
        m,
        Shape::General,
        false,
        (0, 0),
        (rows, cols),
        COPY,
        4,
        None,
    )?;
    let buffer = e.scratch.existing(COPY).expect("made by pack");
    let ld = round_up(rows, 4);
    Ok(Matrix {
        mem: Mem::Device {
            buffer,
            offset: 0,
            len: ld * cols,
        },
        rows,
        cols,
        ld,
    })
}

/// One pass of gemm.comp: `out` := alpha * (op(A) and op(B)'s product over steps `l0..l1` of
/// k, each read from its panel or in place, from `operands`: the resident matrices and their
/// `Source`s) + beta * `c_in` (not read when `None`).
fn multiply<T: Real>(
    e: &mut Engine,
    g: &Gemm<T>,
    kernel: Kernel,
    (l0, l1): (i64, i64),
    ((beta, beta_im), c_in): ((T, T), Option<&Matrix<T>>),
    operands: Option<([&Matrix<T>; 2], [Source; 2])>,
    out: &Matrix<T>,
) -> Result<()> {
    let (m, n) = (g.m, g.n);
    let depth = l1 - l0;
    let store = Store::of(e, g, (beta_im, c_in), out);
    let p = e.compute_program("gemm.comp", COMP, &kernel.defines::<T>(store))?;
    if let Some((stored, sources)) = operands {
        for (which, (name, width)) in [("uAp", m), ("uBp", n)].into_iter().enumerate() {
            let panel = &PANELS[which];
            let s = stored[which];
            match sources[which] {
                Source::Panel => {
                    let texels = round_up(width, kernel.pad(which)) / 4;
                    panel.bind::<T>(e, &p, name, texels, depth)?
                }
                Source::InPlace => panel.bind_in_place(e, &p, name, (s, l0 * s.ld))?,
            }
        }
    }
    match c_in {
        Some(c_in) if store.groups => {
            let w = Window::of(&e.ctx.info, c_in.mem, c_in.span());
            sample_groups::<T>(e, &w, VIEW_C_GROUPS, UNIT_C_GROUPS)?;
            let gl = &e.ctx.gl;
            p.set_i32(gl, "uC", UNIT_C_GROUPS as i32);
            p.set_i32(gl, "uCStart", w.start as i32);
            p.set_i32(gl, "uCCol", c_in.ld as i32);
        }
        Some(c_in) => e.bind_matrix(&p, 2, "C", c_in, false)?,
        None => {}
    }
    let gl = &e.ctx.gl;
    let w = Window::of(&e.ctx.info, out.mem, out.span());
    let format = if store.groups { T::FORMAT16 } else { T::FORMAT };
    e.scratch.image(
        gl,
        &e.ext,
        VIEW_OUT,
        UNIT_IMAGES,
        IMAGE_OUT,
        w.buffer,
        format,
        w.first_byte,
        w.bytes,
    )?;
    p.set_i32(gl, "uM", m as i32);
    p.set_i32(gl, "uN", n as i32);
    p.set_i32(gl, "uK", depth as i32);
    p.set_real(gl, "uAlpha", g.alpha);
    p.set_real(gl, "uBeta", beta);
    if store.beta_im {
        p.set_real(gl, "uBetaIm", beta_im);
    }
    p.set_i32(gl, "uUseAB", i32::from(g.ab.is_some()));
    p.set_i32(gl, "uOutStart", w.start as i32);
    p.set_i32(gl, "uOutLd", out.ld as i32);
    p.set_i32(gl, "uTriangle", g.rules.triangle.map_or(0, Triangle::code));
    let [shape_a, shape_b] = g.rules.shapes;
    // A complex op(B)'s expansion doubles its rows (k) but not its columns, so its triangle's
    // bounds on k are not the columns' the kernel compares them with: all of k is run (the
    // packed zeros add nothing). op(A)'s expansion doubles both alike.
    let tb = match g.complex {
        None => shape_b.triangle_of_op(g.tb),
        Some(_) => None,
    };
    let ta = shape_a.triangle_of_op(g.ta);
    p.set_i32(gl, "uATriangle", ta.map_or(0, Triangle::code));
    p.set_i32(gl, "uBTriangle", tb.map_or(0, Triangle::code));
    p.set_i32(
        gl,
        "uColumnsAlongX",
        i32::from(ta.is_some() && tb.is_none()),
    );
    // gemm.comp places a triangular operand's diagonal by uL0: this pass's first step of k
    // counted from where the diagonal crosses it, which the operand's origin moves (at most
    // one operand is triangular: trmm's A).
    let origin = match (ta, tb) {
        (Some(_), _) => g.rules.origins[0],
        (None, Some(_)) => g.rules.origins[1],
        (None, None) => (0, 0),
    };
    p.set_i32(gl, "uL0", (l0 + origin.1 - origin.0) as i32);
    // A triangle of square C: one workgroup per tile of the triangle (gemm.comp's uTiles),
    // numbered along x, then on along y past the most groups x may have; two per tile of a
    // complex C's elements, whose real view has two rows per element.
    let rows_per = if store.complex { 2 } else { 1 };
    let (tiles, groups) = match g.rules.triangle {
        Some(_) if m == rows_per * n => {
            let side = kernel.groups(1, n);
            let count = rows_per * side * (side + 1) / 2;
            let x = count.min(MAX_GROUPS);
            (side, (x, (count + x - 1) / x))
        }
        _ => (0, (kernel.groups(0, m), kernel.groups(1, n))),
    };
    p.set_i32(gl, "uTiles", tiles as i32);
    // In bands of rows of workgroups where the budget asks, each a job of its own.
    let budget = Budget::of(e, g, kernel);
    let (_, per_band) = budget.cut(depth, groups.1);
    let mut row = 0;
    while row < groups.1 {
        let rows = per_band.min(groups.1 - row);
        p.set_i32(&e.ctx.gl, "uGroupRow", row as i32);
        let work = budget.work(depth, rows as f64 / groups.1 as f64);
        e.dispatch(groups.0, rows, work, "gemm dispatch")?;
        row += rows;
    }
    Ok(())
}

/// How a complex operand is packed (`OneM`): as op(A), in 2×2 blocks and multiplied by alpha,
/// or as op(B), its parts in consecutive columns of the transposed panel; conjugated or not.
#[derive(Clone, Copy)]
struct Expansion<T> {
    blocks: bool,
    conjugate: bool,
    alpha: [T; 2],
}

/// Packs `rows` × `cols` elements of op(`src`) (the transpose of the stored matrix when
/// `transposed`) from element `origin` into scratch buffer `slot`, columns padded with zeros to
/// a multiple of `block` rows (itself a multiple of 4: the packing writes groups of 4); `shape`
/// says how the stored matrix is read (`gemm_pack.comp`). With `expand`, `src` is a complex
/// matrix's real view, and sizes and origin are those of op(src)'s expansion.
#[allow(clippy::too_many_arguments)]
fn pack<T: Real>(
    e: &mut Engine,
    src: &Matrix<T>,
    shape: Shape,
    transposed: bool,
    (row0, col0): (i64, i64),
    (rows, cols): (i64, i64),
    slot: usize,
    block: i64,
    expand: Option<Expansion<T>>,
) -> Result<()> {
    let ld = round_up(rows, block);
    // Groups of 4 stored rows start at multiples of 4 (where a general op(P)'s rows, or, when
    // transposed, its columns, run down the stored columns from row0 or col0).
    let first_row = if transposed { col0 } else { row0 };
    let groups = shape.read_as_stored()
        && expand.is_none()
        && e.ctx.info.rgba_operand_views()
        && src.columns_in_texels(&e.ctx.info)
        && first_row % 4 == 0;
    let mut defines = super::real_defines::<T>();
    if groups {
        defines.push(("GROUPS", String::new()));
    }
    if expand.is_some() {
        defines.push(("ONE_M", String::new()));
    }
    let p = e.compute_program("gemm_pack.comp", PACK, &defines)?;
    e.bind_matrix(&p, 0, "P", src, false)?;
    if groups {
        // A group reads whole texels, zeroing the rows past P's.
        let w = Window::of(&e.ctx.info, src.mem, src.span());
        sample_groups::<T>(e, &w, VIEW_PACK_GROUPS, UNIT_PACK_GROUPS)?;
        p.set_i32(&e.ctx.gl, "uP4", UNIT_PACK_GROUPS as i32);
    }
    let gl = &e.ctx.gl;
    let buffer = e.scratch.buffer(gl, &e.ext, slot, T::words(ld * cols))?;
    e.scratch.image(
        gl,
        &e.ext,
        VIEW_PACK,
        UNIT_IMAGES,
        IMAGE_PANEL,
        buffer,
        T::FORMAT16,
        0,
        ld * cols * T::SIZE,
    )?;
    shape.set_packing(gl, &p, transposed, (row0, col0), rows);
    if let Some(x) = expand {
        p.set_i32(gl, "uBlocks", i32::from(x.blocks));
        p.set_i32(gl, "uConjugate", i32::from(x.conjugate));
        p.set_real(gl, "uAlphaRe", x.alpha[0]);
        p.set_real(gl, "uAlphaIm", x.alpha[1]);
    }
    p.set_i32(gl, "uLd", ld as i32);
    p.set_i32(gl, "uCols", cols as i32);
    // In bands of columns (whole groups of 4), each within the dispatch budget: a column is
    // read once and written once, each byte counted `PACK_COST` times.
    let per_column = super::PACK_COST * 2.0 * (ld * T::SIZE) as f64;
    let band = ((e.limits.dispatch_bytes / per_column) as i64 / 4 * 4).max(4);
    let mut c0 = 0;
    while c0 < cols {
        let c1 = (c0 + band).min(cols);
        p.set_i32(&e.ctx.gl, "uColBase", c0 as i32);
        let work = Work::Bytes((c1 - c0) as f64 * per_column);
        e.dispatch((ld / 4 + 63) / 64, (c1 - c0 + 3) / 4, work, "gemm pack")?;
        c0 = c1;
    }
    Ok(())
}

/// Points view `slot` at window `w` in 16-byte texels, bound to texture unit `unit`, for reads
/// a group of 4 elements at a time: to the end of the texel holding w's last element, which
/// lies in the buffer, since every buffer is whole 16-byte texels long (`storage_bytes`; pinned
/// memory whole pages).
fn sample_groups<T: Real>(e: &mut Engine, w: &Window, slot: usize, unit: u32) -> Result<()> {
    let w = Window {
        bytes: (w.bytes + 15) / 16 * 16,
        ..*w
    };
    e.scratch
        .sample::<T>(&e.ctx.gl, &e.ext, slot, unit, &w, true)
}
