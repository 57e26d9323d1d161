//! The Level 3 routines beyond gemm, on the compute gemm (`gemm_compute.rs`), in either
//! precision: each is its packing rule for A and B (`Shape`: how the stored triangle is read)
//! and its store rule for C (`Rules::triangle`), side by side below; trsm adds a blocked solve.
//! They run on whichever pipeline gemm picks (in double, only the compute one:
//! `precision_available`). Operands come checked and resolved, the reference BLAS's quick
//! returns taken (`routines.rs`).

use super::gemm::{gemm, on_compute};
use super::gemm_call::{Gemm, OneM, Rules, Shape, Triangle};
use super::gemm_scratch::copy_out;
use crate::engine::element::{Complex, Element, Real};
use crate::engine::jobs::Work;
use crate::engine::operand::{Matrix, Mem, Window};
use crate::engine::Engine;
use crate::status::Result;

const SOLVE: &str = include_str!("../../shaders/trsm_solve.comp");
/// Invocations per workgroup of `trsm_solve.comp`.
const SOLVE_GROUP: i64 = 64;

/// A solve's flop against the dispatch budget, in gemm's (the budget's rate is gemm's): a column's
/// substitution is a chain of dependent steps, which ran at 1.3 GFLOP/s where gemm ran at 7 on
/// zink (`tests/dispatch_budget.rs`).
const SOLVE_COST: f64 = 4.0;

/// Right-hand sides each invocation of `trsm_solve.comp` solves (its `RHS`): 4, or 2 where the
/// device's registers hold 4×4 blocks of gemm only (`Limits::gemm_rows`), as the boards' GPUs'
/// do: V3D's compiler (Mesa 25.0) spilled the real solve's 16 accumulators with 4, and fit 2
/// (`BENCHMARKS.md`, "The boards' own compilers").
fn solve_rhs(e: &Engine) -> i64 {
    if e.limits.gemm_rows >= 8 {
        4
    } else {
        2
    }
}

/// Scratch buffers (after gemm_compute's 0-4): trsm's device copies of host A and B, the
/// diagonal blocks it reads back where it solves them on the host, and X transposed
/// (`Solve::xt`).
const COPY_A: usize = 5;
const COPY_B: usize = 6;
const DIAGONAL_BLOCKS: usize = 7;
const X_TRANSPOSED: usize = 8;
/// Rows (or columns) of trsm's diagonal blocks, solved by `trsm_solve.comp`: each invocation
/// then runs at most 64·65/8 steps, well inside llvmpipe's loop budget
/// (`MAX_LOOP_ITERATIONS`). The recursive solve between them takes more, smaller gemms than
/// with 128-row blocks, but the solves, slower per flop than gemm, take half the flops: strsm
/// at n = 1024 ran 43-44 ms against 45-67 ms with 128 rows on llvmpipe.
const COMPUTE_BLOCK: i64 = 64;
/// The same where the blocks are solved on the host (`Solve::solve_on_host`): each block's
/// solve reads B's stretch back and writes it, and each update is a draw, so fewer blocks win
/// there (strsm at n = 1024 on virgl: 148-153 ms against 195-203 with 64 rows, host operands).
const HOST_BLOCK: i64 = 128;

/// trsm's diagonal blocks of `block` rows in an order of `order` (the last one smaller unless
/// it divides).
fn diagonal_blocks(order: i64, block: i64) -> i64 {
    (order + block - 1) / block
}

/// alpha and the two operands of a product (None when alpha or the depth is 0: they are not
/// read then).
type Product<T> = (T, Option<(Matrix<T>, Matrix<T>)>);

/// symm (hemm): C := alpha*A*B + beta*C (A on the left) or alpha*B*A + beta*C (`right`), A
/// symmetric (Hermitian) as `a_shape` says, its stored triangle the only one read. `ab` is None
/// when alpha is 0. With `z`, the operands are complex (`OneM`).
pub fn symm<T: Real>(
    e: &mut Engine,
    right: bool,
    a_shape: Shape,
    (alpha, ab): Product<T>,
    beta: T,
    c: Matrix<T>,
    z: Option<OneM<T>>,
) -> Result<()> {
    let (ab, shapes) = match ab {
        Some((a, b)) if right => (Some((b, a)), [Shape::General, a_shape]),
        ab => (ab, [a_shape, Shape::General]),
    };
    run(
        e,
        (false, false),
        (alpha, ab),
        beta,
        c,
        Rules {
            shapes,
            ..Rules::default()
        },
        z,
    )
}

/// syrk (herk, `hermitian`): C := alpha*op(A)*op(A)^T (op(A)^H) + beta*C, op(A) n×k (A, or
/// A^T (A^H) when `trans`); only C's `fill` triangle is read and written. `a` is None when
/// alpha or k is 0. With `z`, the operands are complex (`OneM`).
pub fn syrk<T: Real>(
    e: &mut Engine,
    (fill, trans, hermitian): (Triangle, bool, bool),
    (alpha, a): (T, Option<Matrix<T>>),
    beta: T,
    c: Matrix<T>,
    z: Option<OneM<T>>,
) -> Result<()> {
    run(
        e,
        (trans, !trans),
        (alpha, a.map(|a| (a, a))),
        beta,
        c,
        triangle_rules(fill, hermitian),
        z,
    )
}

/// The rules of syrk's and syr2k's C: only its `fill` triangle, and, `hermitian` (herk,
/// her2k), a real diagonal.
fn triangle_rules(fill: Triangle, hermitian: bool) -> Rules {
    Rules {
        triangle: Some(fill),
        real_diagonal: hermitian,
        ..Rules::default()
    }
}

/// syr2k: C := alpha*op(A)*op(B)^T + alpha*op(B)*op(A)^T + beta*C, op(A) and op(B) n×k (her2k,
/// `hermitian`: alpha*op(A)*op(B)^H + conj(alpha)*op(B)*op(A)^H + beta*C); only C's `fill`
/// triangle is read and written: two products into that triangle, the second adding to the
/// first. `ab` is None when alpha or k is 0. With `z`, the operands are complex (`OneM`).
pub fn syr2k<T: Real>(
    e: &mut Engine,
    (fill, trans, hermitian): (Triangle, bool, bool),
    (alpha, ab): Product<T>,
    beta: T,
    c: Matrix<T>,
    z: Option<OneM<T>>,
) -> Result<()> {
    let rules = triangle_rules(fill, hermitian);
    let ops = (trans, !trans);
    let Some((a, b)) = ab else {
        return run(e, ops, (alpha, None), beta, c, rules, z);
    };
    run(e, ops, (alpha, Some((a, b))), beta, c, rules, z)?;
    // her2k's second product is conj(alpha)*op(B)*op(A)^H.
    // Beta applied with the first.
    let z = z.map(|z| OneM {
        alpha: if hermitian {
            [z.alpha[0], -z.alpha[1]]
        } else {
            z.alpha
        },
        beta_im: T::ZERO,
        ..z
    });
    run(e, ops, (alpha, Some((b, a))), T::ONE, c, rules, z)
}

/// trmm: B := alpha*op(A)*B (A on the left) or alpha*B*op(A) (`right`), A triangular with its
/// `fill` triangle stored (the other never read) and, with `unit`, ones on the diagonal (never
/// read). B is both operand and C (`Rules::is_c`). `a` is None when alpha is 0 (B := 0). With
/// `z`, the operands are complex (`OneM`, its conjugations A's and B's).
pub fn trmm<T: Real>(
    e: &mut Engine,
    (right, fill, trans, unit): (bool, Triangle, bool, bool),
    (alpha, a): (T, Option<Matrix<T>>),
    b: Matrix<T>,
    z: Option<OneM<T>>,
) -> Result<()> {
    let tri = Shape::Triangular(fill, unit);
    // B*op(A): the product's operands exchanged.
    let z = match z {
        Some(z) if right => Some(OneM {
            conjugate: [z.conjugate[1], z.conjugate[0]],
            ..z
        }),
        z => z,
    };
    let (ops, ab, shapes, is_c) = match a {
        Some(a) if right => (
            (false, trans),
            Some((b, a)),
            [Shape::General, tri],
            [true, false],
        ),
        a => (
            (trans, false),
            a.map(|a| (a, b)),
            [tri, Shape::General],
            [false, true],
        ),
    };
    let rules = Rules {
        shapes,
        is_c,
        ..Rules::default()
    };
    run(e, ops, (alpha, ab), T::ZERO, b, rules, z)
}

/// trsm: solves op(A)*X = alpha*B (A on the left) or X*op(A) = alpha*B (`right`) for X, which
/// overwrites B; A as for trmm. Blocked: the diagonal blocks of op(A) are solved by
/// substitution (`Solve::block`), recursively (`Solve::blocks`), with gemm taking the solved
/// half's part out of the other half. Host operands are copied to the device for the solve,
/// and B back at the end. `alpha` is not 0 (B := 0 then, without a solve). With `z`, A and B
/// are complex (real views, `OneM`: its alpha the solve's, its `conjugate[0]` op(A)'s).
pub fn trsm<T: Real>(
    e: &mut Engine,
    (right, fill, trans, unit): (bool, Triangle, bool, bool),
    alpha: T,
    (a, b): (Matrix<T>, Matrix<T>),
    z: Option<OneM<T>>,
) -> Result<()> {
    let host_b = b;
    let a = on_device(e, COPY_A, &a)?;
    let b = on_device(e, COPY_B, &b)?;
    // Forward from the first block when the solve runs along op(A)'s lower triangle (from the
    // left) or its upper one (from the right); backward otherwise.
    let forward = ((fill == Triangle::Lower) != trans) != right;
    let parts = if z.is_some() { 2 } else { 1 };
    let conjugate = z.is_some_and(|z| z.conjugate[0]);
    let on_host = if super::compute_available(e) {
        None
    } else {
        Some(diagonal_blocks_on_host(e, &a, (fill, right != trans))?)
    };
    // B := alpha*B, a complex alpha as beta's two parts.
    let [alpha_re, alpha_im] = z.map_or([alpha, T::ZERO], |z| z.alpha);
    if [alpha_re, alpha_im] != [T::ONE, T::ZERO] {
        let scale = z.map(|z| OneM {
            beta_im: alpha_im,
            ..z
        });
        let rules = Rules::default();
        run(
            e,
            (false, false),
            (T::ZERO, None),
            alpha_re,
            b,
            rules,
            scale,
        )?;
    }
    // X^T of a complex X's real view is no complex matrix's.
    let xt = if right || on_host.is_some() || z.is_some() {
        None
    } else {
        x_transposed(e, &a, &b)?
    };
    let solve = Solve {
        right,
        trans,
        forward,
        unit,
        a,
        b,
        xt,
        on_host,
        parts,
        conjugate,
    };
    solve.blocks(e, 0, diagonal_blocks(a.cols, solve.block_side()))?;
    if let Mem::Host(_) = host_b.mem {
        // From the copy `on_device` made.
        copy_out(e, &b, &host_b, None, 1)?;
    }
    Ok(())
}

/// Where a left-side solve keeps X transposed (`Solve::xt`): scratch of B's columns × rows (ld
/// a multiple of 4, so that its columns are whole groups), where the compute pipeline takes
/// every product of the solve (each no larger than the one of all of A, X^T and B, which
/// `on_compute` is asked about; it reads extents only, so B's memory stands in for the scratch
/// buffer until that is made).
fn x_transposed<T: Real>(
    e: &mut Engine,
    a: &Matrix<T>,
    b: &Matrix<T>,
) -> Result<Option<Matrix<T>>> {
    let ld = (b.cols + 3) / 4 * 4;
    let xt = |mem| Matrix {
        mem,
        rows: b.cols,
        cols: b.rows,
        ld,
    };
    let len = ld * b.rows;
    let whole = gemm_of(
        (false, true),
        (T::ONE, Some((*a, xt(b.mem)))),
        T::ONE,
        *b,
        false,
    );
    if !on_compute(e, &whole) {
        return Ok(None);
    }
    let buffer = e
        .scratch
        .buffer(&e.ctx.gl, &e.ext, X_TRANSPOSED, T::words(len))?;
    Ok(Some(xt(Mem::Device {
        buffer,
        offset: 0,
        len,
    })))
}

/// trsm's solve: X overwrites B.
struct Solve<T: Real> {
    right: bool,
    trans: bool,
    /// Whether block 0 is solved first (it needs no other block), else the last one.
    forward: bool,
    unit: bool,
    a: Matrix<T>,
    b: Matrix<T>,
    /// From the left, on the compute pipeline: X^T, which each block's solve writes besides X
    /// and the products taking a solved part out of the rest read as op(B) = (X^T)^T, in
    /// place rather than packing X.
    xt: Option<Matrix<T>>,
    /// Without the compute pipeline: the system's diagonal blocks, read back once, where the
    /// blocks are solved on the host (`solve_on_host`).
    on_host: Option<Vec<Vec<f64>>>,
    /// Reals per element: 2 for complex A and B, as real views (rows of `a` and `b` are
    /// `parts` per element row).
    parts: i64,
    /// op(A) conjugates (complex trans C).
    conjugate: bool,
}

impl<T: Real> Solve<T> {
    /// Solves blocks `p0..p1` of X (`block_side` rows of it from the left, columns from the
    /// right), the blocks before them in the solve's order already solved and taken out of B.
    /// Recursively: the half solved first, then one gemm takes its part out of the other half,
    /// then that half. Halving rather than going block by block gives the same gemm flops in
    /// larger products (depth up to half of A's order rather than always one block), which run
    /// faster per flop.
    fn blocks(&self, e: &mut Engine, p0: i64, p1: i64) -> Result<()> {
        if p1 - p0 == 1 {
            return self.block(e, p0);
        }
        let mid = (p0 + p1) / 2;
        let (first, then) = if self.forward {
            ((p0, mid), (mid, p1))
        } else {
            ((mid, p1), (p0, mid))
        };
        self.blocks(e, first.0, first.1)?;
        let (done, rest) = (self.span(first), self.span(then));
        // The rest of B less the solved part's products: -1 times them, a complex -1 as the
        // product's alpha (`OneM`) and op(A) conjugated where it is.
        let complex = self.parts == 2;
        let minus = |conjugate: [bool; 2]| OneM {
            alpha: [-T::ONE, T::ZERO],
            beta_im: T::ZERO,
            conjugate,
        };
        let (alpha, c) = if complex {
            (T::ONE, true)
        } else {
            (-T::ONE, false)
        };
        let g = if self.right {
            let x = self.b.block(0, self.b.rows, done.0, done.1);
            let (a_part, t) = self.op_a(done, rest);
            let rest_b = self.b.block(0, self.b.rows, rest.0, rest.1);
            let mut g = gemm_of((false, t), (alpha, Some((x, a_part))), T::ONE, rest_b, c);
            g.complex = complex.then(|| minus([false, self.conjugate]));
            g
        } else {
            let (x, xt) = match &self.xt {
                Some(xt) => (xt.block(0, xt.rows, done.0, done.1), true),
                None => (self.rows_of_b(done), false),
            };
            let (a_part, t) = self.op_a(rest, done);
            let rest_b = self.rows_of_b(rest);
            let mut g = gemm_of((t, xt), (alpha, Some((a_part, x))), T::ONE, rest_b, c);
            g.complex = complex.then(|| minus([self.conjugate, false]));
            g
        };
        gemm(e, &g)?;
        self.blocks(e, then.0, then.1)
    }

    /// B's rows (element rows) r0..r1.
    fn rows_of_b(&self, (r0, r1): (i64, i64)) -> Matrix<T> {
        let p = self.parts;
        self.b.block(p * r0, p * r1, 0, self.b.cols)
    }

    /// Solves X's block `i` by substitution against its diagonal block of op(A), in place in
    /// B: by `trsm_solve.comp`, `solve_rhs` right-hand sides per invocation, or on the host.
    fn block(&self, e: &mut Engine, i: i64) -> Result<()> {
        let span = self.span((i, i + 1));
        if let Some(blocks) = &self.on_host {
            return self.solve_on_host(e, span, &blocks[i as usize]);
        }
        if self.parts == 1 {
            let mut defines = super::real_defines::<T>();
            if self.xt.is_some() {
                defines.push(("TRANSPOSED_COPY", String::new()));
            }
            return self.launch_solve(e, span, (&self.a, &self.b), defines);
        }
        let mut defines = super::real_defines::<Complex<T>>();
        if self.conjugate {
            defines.push(("CONJ_A", String::new()));
        }
        let (a, b) = (complex_of(&self.a), complex_of(&self.b));
        self.launch_solve(e, span, (&a, &b), defines)
    }

    /// `block`'s launches of `trsm_solve.comp` for the rows (or columns) `span` of X, A and B
    /// of its element type (the real views' complex matrices for complex ones).
    fn launch_solve<E: Element>(
        &self,
        e: &mut Engine,
        span: (i64, i64),
        (a, b): (&Matrix<E>, &Matrix<E>),
        mut defines: Vec<(&'static str, String)>,
    ) -> Result<()> {
        let rhs = solve_rhs(e);
        defines.push(("RHS", rhs.to_string()));
        let p = e.compute_program("trsm_solve.comp", SOLVE, &defines)?;
        // The system's matrix: op(A) from the left, op(A)^T from the right.
        e.bind_matrix(&p, 0, "A", a, self.trans != self.right)?;
        let window = Window::of(&e.ctx.info, b.mem, b.span());
        window.bind_storage(&e.ext, 0);
        let gl = &e.ctx.gl;
        // Element (r, j) of the system's right-hand sides: B's (r, j) from the left, (j, r)
        // from the right.
        let (row, col) = if self.right { (b.ld, 1) } else { (1, b.ld) };
        p.set_i32(gl, "uBStart", window.start as i32);
        p.set_i32(gl, "uBRow", row as i32);
        p.set_i32(gl, "uBCol", col as i32);
        if let Some(xt) = &self.xt {
            let w = Window::of(&e.ctx.info, xt.mem, xt.span());
            w.bind_storage(&e.ext, 1);
            // X's (r, j) is X^T's (j, r).
            p.set_i32(gl, "uXtStart", w.start as i32);
            p.set_i32(gl, "uXtRow", xt.ld as i32);
            p.set_i32(gl, "uXtCol", 1);
        }
        p.set_i32(gl, "uFirst", span.0 as i32);
        p.set_i32(gl, "uSize", (span.1 - span.0) as i32);
        p.set_i32(gl, "uLower", i32::from(self.forward));
        p.set_i32(gl, "uUnit", i32::from(self.unit));
        let columns = if self.right { b.rows } else { b.cols };
        // Substitution: about size² multiply-adds per column, four times as many real ones for
        // complex elements.
        let size = (span.1 - span.0) as f64;
        let parts = (E::SIZE / T::SIZE) as f64;
        let per_column = size * size * parts * parts * SOLVE_COST;
        // At most 65535 workgroups a dispatch, as every device allows, and the groups a
        // dispatch budget's flops solve (one at least).
        let columns_per_group = SOLVE_GROUP * rhs;
        let budget = e.limits.dispatch_flops[T::PRECISION.index()];
        let groups = ((budget / (per_column * columns_per_group as f64)) as i64).clamp(1, 65535);
        let per_dispatch = groups * columns_per_group;
        let mut first = 0;
        while first < columns {
            let count = per_dispatch.min(columns - first);
            p.set_i32(gl, "uColumn0", first as i32);
            p.set_i32(gl, "uColumns", count as i32);
            let work = Work::Flops(per_column * count as f64, T::PRECISION);
            e.dispatch(
                (count + columns_per_group - 1) / columns_per_group,
                1,
                work,
                "trsm block solve",
            )?;
            first += count;
        }
        Ok(())
    }

    /// `block` without the compute pipeline (so in single precision and for real elements,
    /// `precision_available`): the stretch of B holding X's block is read back, the block
    /// solved by substitution in double precision (`system`: the diagonal block of the
    /// system's matrix, column-major) and rounded once, and the stretch written back (what
    /// lies between the block's rows is written back as it was read, nothing having run
    /// between). A fragment writes at most 32 elements and each element of a solution needs
    /// the ones before it, so a draw could solve only a few rows; the O(order·HOST_BLOCK·n)
    /// flops here are small beside the solve's O(order²·n) in gemm.
    fn solve_on_host(&self, e: &Engine, (s0, s1): (i64, i64), system: &[f64]) -> Result<()> {
        let b = &self.b;
        let size = (s1 - s0) as usize;
        // Element (r, j) of the block's right-hand sides: B's (s0 + r, j) from the left,
        // (j, s0 + r) from the right; `first` is its offset from the stretch's start.
        let (first, columns, row, col) = if self.right {
            (s0 * b.ld, b.rows, b.ld, 1)
        } else {
            (s0, b.cols, 1, b.ld)
        };
        let len = (size as i64 - 1) * row + (columns - 1) * col + 1;
        let mut stretch = vec![T::ZERO; len as usize];
        e.read(b.mem.advance(first), &mut stretch)?;
        let (row, col, w) = (row as usize, col as usize, columns as usize);
        let at = |r: usize, j: usize| r * row + j * col;
        // The block's rows, each holding every right-hand side, so that each step of the
        // substitution is a loop along a row (which the compiler vectorizes).
        let mut x = vec![0.0; size * w];
        for (r, xr) in x.chunks_mut(w).enumerate() {
            for (j, v) in xr.iter_mut().enumerate() {
                *v = stretch[at(r, j)].to_f64();
            }
        }
        let order: Vec<usize> = if self.forward {
            (0..size).collect()
        } else {
            (0..size).rev().collect()
        };
        let element = |r: usize, c: usize| system[r + c * size];
        // Row c is final once the terms of the rows before it (in the solve's order) are taken
        // out; then its multiples are taken out of the rows after it.
        for (k, &c) in order.iter().enumerate() {
            if !self.unit {
                let d = element(c, c);
                x[c * w..(c + 1) * w].iter_mut().for_each(|v| *v /= d);
            }
            for &r in &order[k + 1..] {
                let (xr, xc) = if r > c {
                    let (solved, rest) = x.split_at_mut(r * w);
                    (&mut rest[..w], &solved[c * w..(c + 1) * w])
                } else {
                    let (rest, solved) = x.split_at_mut(c * w);
                    (&mut rest[r * w..(r + 1) * w], &solved[..w])
                };
                let t = element(r, c);
                xr.iter_mut().zip(xc).for_each(|(v, &o)| *v -= t * o);
            }
        }
        for (r, xr) in x.chunks(w).enumerate() {
            for (j, v) in xr.iter().enumerate() {
                stretch[at(r, j)] = T::from_f64(*v);
            }
        }
        e.write(b.mem.advance(first), &stretch)
    }

    /// Rows (or columns) of a diagonal block: `HOST_BLOCK` where they are solved on the host.
    fn block_side(&self) -> i64 {
        if self.on_host.is_some() {
            HOST_BLOCK
        } else {
            COMPUTE_BLOCK
        }
    }

    /// The rows (or columns) of X in blocks `p0..p1`, of elements.
    fn span(&self, (p0, p1): (i64, i64)) -> (i64, i64) {
        let block = self.block_side();
        (p0 * block, (p1 * block).min(self.a.cols))
    }

    /// op(A)'s rows r0..r1 and columns c0..c1 (of elements) as a stored block and its
    /// transposition.
    fn op_a(&self, (r0, r1): (i64, i64), (c0, c1): (i64, i64)) -> (Matrix<T>, bool) {
        let p = self.parts;
        if self.trans {
            (self.a.block(p * c0, p * c1, r0, r1), true)
        } else {
            (self.a.block(p * r0, p * r1, c0, c1), false)
        }
    }
}

/// The gemm C := alpha*op(A)*op(B) + beta*C of stored operands `ab` (k from their shapes; of
/// real views of complex operands when `complex`, whose products are twice as deep: `OneM`).
fn gemm_of<T: Real>(
    (ta, tb): (bool, bool),
    (alpha, ab): Product<T>,
    beta: T,
    c: Matrix<T>,
    complex: bool,
) -> Gemm<T> {
    // A real view has twice the complex matrix's rows, and op(A)'s expansion twice its columns.
    let k = ab.map_or(0, |(a, _)| match (ta, complex) {
        (true, _) => a.rows,
        (false, false) => a.cols,
        (false, true) => 2 * a.cols,
    });
    Gemm {
        ta,
        tb,
        m: c.rows,
        n: c.cols,
        k,
        alpha,
        beta,
        ab,
        c,
        rules: Rules::default(),
        complex: None,
    }
}

/// One gemm with `rules`, of complex operands with `z`.
fn run<T: Real>(
    e: &mut Engine,
    ops: (bool, bool),
    (alpha, ab): Product<T>,
    beta: T,
    c: Matrix<T>,
    rules: Rules,
    z: Option<OneM<T>>,
) -> Result<()> {
    let mut g = gemm_of(ops, (alpha, ab), beta, c, z.is_some());
    g.rules = rules;
    g.complex = z;
    gemm(e, &g)
}

/// The diagonal blocks of the system's matrix (op(A), or op(A)^T when `transposed`), each
/// column-major in double precision, only its stored triangle and, unless unit, its diagonal
/// filled: for `Solve::solve_on_host`. Each block's stored triangle is copied on the device
/// into scratch, then all are read back at once: a read waits for the device, and on virgl is
/// a round trip to the host renderer.
fn diagonal_blocks_on_host<T: Real>(
    e: &mut Engine,
    a: &Matrix<T>,
    (fill, transposed): (Triangle, bool),
) -> Result<Vec<Vec<f64>>> {
    let order = a.cols;
    let blocks = diagonal_blocks(order, HOST_BLOCK);
    let side = HOST_BLOCK.min(order);
    let elems = blocks * side * side;
    let buffer = e
        .scratch
        .buffer(&e.ctx.gl, &e.ext, DIAGONAL_BLOCKS, T::words(elems))?;
    let out = Mem::<T>::Device {
        buffer,
        offset: 0,
        len: elems,
    };
    let size = |i: i64| HOST_BLOCK.min(order - i * HOST_BLOCK);
    for i in 0..blocks {
        let (first, size) = (i * HOST_BLOCK, size(i));
        let packed = Matrix {
            mem: out.advance(i * side * side),
            rows: size,
            cols: size,
            ld: side,
        };
        let block = a.block(first, first + size, first, first + size);
        copy_out(e, &block, &packed, Some((fill, 0)), 1)?;
    }
    let mut stored = vec![T::ZERO; elems as usize];
    e.read(out, &mut stored)?;
    let b = side as usize;
    let lower = fill == Triangle::Lower;
    Ok(stored
        .chunks(b * b)
        .enumerate()
        .map(|(i, block)| {
            let n = size(i as i64) as usize;
            let mut s = vec![0.0; n * n];
            for c in 0..n {
                let rows = if lower { c..n } else { 0..c + 1 };
                for r in rows {
                    let (sr, sc) = if transposed { (c, r) } else { (r, c) };
                    s[sr + sc * n] = block[r + c * b].to_f64();
                }
            }
            s
        })
        .collect())
}

/// `m` in device memory: as it is, or a host matrix copied (packed, ld = rows) into scratch
/// buffer `slot`.
fn on_device<T: Real>(e: &mut Engine, slot: usize, m: &Matrix<T>) -> Result<Matrix<T>> {
    let Mem::Host(src) = m.mem else {
        return Ok(*m);
    };
    let (rows, cols) = (m.rows, m.cols);
    let mut packed = Vec::with_capacity((rows * cols) as usize);
    for j in 0..cols {
        // SAFETY: column j of the caller's host matrix, checked for rows × cols with ld.
        packed.extend_from_slice(unsafe {
            std::slice::from_raw_parts(src.add((j * m.ld) as usize), rows as usize)
        });
    }
    let buffer = e
        .scratch
        .buffer(&e.ctx.gl, &e.ext, slot, T::words(rows * cols))?;
    let mem = Mem::Device {
        buffer,
        offset: 0,
        len: rows * cols,
    };
    e.write(mem, &packed)?;
    Ok(Matrix {
        mem,
        rows,
        cols,
        ld: rows,
    })
}

/// The complex matrix whose real view (each element's parts in consecutive rows) is `m`, in
/// device memory: half its rows, leading dimension and offset, which a real view's are twice
/// a complex matrix's.
fn complex_of<T: Real>(m: &Matrix<T>) -> Matrix<Complex<T>> {
    let Mem::Device {
        buffer,
        offset,
        len,
    } = m.mem
    else {
        unreachable!("trsm solves on device copies of host operands")
    };
    Matrix {
        mem: Mem::Device {
            buffer,
            offset: offset / 2,
            len: len / 2,
        },
        rows: m.rows / 2,
        cols: m.cols,
        ld: m.ld / 2,
    }
}
