//! The Level 3 routines beyond gemm, on the compute gemm (`gemm_compute.rs`), in either
//! precision: each is its packing rule for A and B (`Shape`: how the stored triangle is read)
//! and its store rule for C (`Rules::triangle`), side by side below; trsm adds a blocked solve.
//! They run on whichever pipeline gemm picks (in double, only the compute one:
//! `precision_available`). Operands come checked and resolved, the reference BLAS's quick
//! returns taken (`routines.rs`).

use super::gemm::{copy_out, gemm, on_compute, Gemm, Rules, Shape, Triangle};
use crate::engine::element::Real;
use crate::engine::operand::{Matrix, Mem, Window};
use crate::engine::Engine;
use crate::status::Result;

const INVERT: &str = include_str!("../../shaders/trsm_invert.comp");

/// Scratch buffers (after gemm_compute's 0-4): trsm's device copies of host A and B, its
/// inverted diagonal blocks, and X transposed (`Solve::xt`).
const COPY_A: usize = 5;
const COPY_B: usize = 6;
const INVERSES: usize = 7;
const X_TRANSPOSED: usize = 8;
/// Rows (or columns) of trsm's diagonal blocks: each invocation of `trsm_invert.comp` then runs
/// two columns of at most 128 steps each, well inside llvmpipe's loop budget
/// (`MAX_LOOP_ITERATIONS`), and the updates between them are gemms of depth 128.
const TRSM_BLOCK: i64 = 128;

/// trsm's diagonal blocks in an order of `order` (the last one smaller unless it divides).
fn diagonal_blocks(order: i64) -> i64 {
    (order + TRSM_BLOCK - 1) / TRSM_BLOCK
}

/// The side of the square each diagonal block's inverse is stored in: `TRSM_BLOCK`, or the
/// order where that is smaller, so that a small solve needs no larger window than A's.
fn inverse_side(order: i64) -> i64 {
    TRSM_BLOCK.min(order)
}

/// alpha and the two operands of a product (None when alpha or the depth is 0: they are not
/// read then).
type Product<T> = (T, Option<(Matrix<T>, Matrix<T>)>);

/// symm: C := alpha*A*B + beta*C (A on the left) or alpha*B*A + beta*C (`right`), A symmetric
/// with its `fill` triangle stored, the other never read. `ab` is None when alpha is 0.
pub fn symm<T: Real>(
    e: &mut Engine,
    right: bool,
    fill: Triangle,
    (alpha, ab): Product<T>,
    beta: T,
    c: Matrix<T>,
) -> Result<()> {
    let sym = Shape::Symmetric(fill);
    let (ab, shapes) = match ab {
        Some((a, b)) if right => (Some((b, a)), [Shape::General, sym]),
        ab => (ab, [sym, Shape::General]),
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
    )
}

/// syrk: C := alpha*op(A)*op(A)^T + beta*C, op(A) n×k (A, or A^T when `trans`); only C's `fill`
/// triangle is read and written. `a` is None when alpha or k is 0.
pub fn syrk<T: Real>(
    e: &mut Engine,
    fill: Triangle,
    trans: bool,
    (alpha, a): (T, Option<Matrix<T>>),
    beta: T,
    c: Matrix<T>,
) -> Result<()> {
    let rules = Rules {
        triangle: Some(fill),
        ..Rules::default()
    };
    run(
        e,
        (trans, !trans),
        (alpha, a.map(|a| (a, a))),
        beta,
        c,
        rules,
    )
}

/// syr2k: C := alpha*op(A)*op(B)^T + alpha*op(B)*op(A)^T + beta*C, op(A) and op(B) n×k; only C's
/// `fill` triangle is read and written: two products into that triangle, the second adding to
/// the first. `ab` is None when alpha or k is 0.
pub fn syr2k<T: Real>(
    e: &mut Engine,
    fill: Triangle,
    trans: bool,
    (alpha, ab): Product<T>,
    beta: T,
    c: Matrix<T>,
) -> Result<()> {
    let rules = Rules {
        triangle: Some(fill),
        ..Rules::default()
    };
    let ops = (trans, !trans);
    let Some((a, b)) = ab else {
        return run(e, ops, (alpha, None), beta, c, rules);
    };
    run(e, ops, (alpha, Some((a, b))), beta, c, rules)?;
    run(e, ops, (alpha, Some((b, a))), T::ONE, c, rules)
}

/// trmm: B := alpha*op(A)*B (A on the left) or alpha*B*op(A) (`right`), A triangular with its
/// `fill` triangle stored (the other never read) and, with `unit`, ones on the diagonal (never
/// read). B is both operand and C (`Rules::is_c`). `a` is None when alpha is 0 (B := 0).
pub fn trmm<T: Real>(
    e: &mut Engine,
    (right, fill, trans, unit): (bool, Triangle, bool, bool),
    (alpha, a): (T, Option<Matrix<T>>),
    b: Matrix<T>,
) -> Result<()> {
    let tri = Shape::Triangular(fill, unit);
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
    run(e, ops, (alpha, ab), T::ZERO, b, rules)
}

/// trsm: solves op(A)*X = alpha*B (A on the left) or X*op(A) = alpha*B (`right`) for X, which
/// overwrites B; A as for trmm. Blocked: the diagonal blocks of op(A) are inverted
/// (`trsm_invert.comp`), then the blocks are solved recursively (`Solve::blocks`), each as its
/// inverted diagonal block times B's block, with gemm taking the solved half's part out of the
/// other half. Host operands are copied to the device for the solve, and B back at the end.
/// `alpha` is not 0 (B := 0 then, without a solve).
pub fn trsm<T: Real>(
    e: &mut Engine,
    (right, fill, trans, unit): (bool, Triangle, bool, bool),
    alpha: T,
    a: Matrix<T>,
    b: Matrix<T>,
) -> Result<()> {
    let host_b = b;
    let a = on_device(e, COPY_A, &a)?;
    let b = on_device(e, COPY_B, &b)?;
    let order = a.rows;
    invert_diagonal_blocks(e, &a, (fill, trans, unit))?;
    let inverses = e.scratch.existing(INVERSES).expect("made by the inversion");
    if alpha != T::ONE {
        run(
            e,
            (false, false),
            (T::ZERO, None),
            alpha,
            b,
            Rules::default(),
        )?;
    }
    let xt = if right {
        None
    } else {
        x_transposed(e, &a, &b)?
    };
    let solve = Solve {
        right,
        trans,
        // Forward from the first block when the solve runs along op(A)'s lower triangle (from
        // the left) or its upper one (from the right); backward otherwise.
        forward: ((fill == Triangle::Lower) != trans) != right,
        a,
        b,
        inverses,
        xt,
    };
    solve.blocks(e, 0, diagonal_blocks(order))?;
    if let Mem::Host(_) = host_b.mem {
        // From the copy `on_device` made.
        copy_out(e, &b, &host_b, None)?;
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
    let mut whole = gemm_of((false, true), (T::ONE, Some((*a, xt(b.mem)))), T::ONE, *b);
    whole.transposed_copy = Some(xt(b.mem));
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

/// trsm's solve once the diagonal blocks are inverted: X overwrites B.
struct Solve<T: Real> {
    right: bool,
    trans: bool,
    /// Whether block 0 is solved first (it needs no other block), else the last one.
    forward: bool,
    a: Matrix<T>,
    b: Matrix<T>,
    inverses: glow::Buffer,
    /// From the left, on the compute pipeline: X^T, which each block's product by its inverse
    /// writes besides X (`Gemm::transposed_copy`) and the products taking a solved part out of
    /// the rest read as op(B) = (X^T)^T, in place rather than packing X.
    xt: Option<Matrix<T>>,
}

impl<T: Real> Solve<T> {
    /// Solves blocks `p0..p1` of X (`TRSM_BLOCK` rows of it from the left, columns from the
    /// right), the blocks before them in the solve's order already solved and taken out of B.
    /// Recursively: the half solved first, then one gemm takes its part out of the other half,
    /// then that half. One block is its inverted diagonal block times B's block. Halving rather
    /// than going block by block gives the same gemm flops in larger products (depth up to
    /// half of A's order rather than always one block), which run faster per flop.
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
        if self.right {
            let x = self.b.block(0, self.b.rows, done.0, done.1);
            let (a_part, t) = self.op_a(done, rest);
            let rest_b = self.b.block(0, self.b.rows, rest.0, rest.1);
            gemm(
                e,
                &gemm_of((false, t), (-T::ONE, Some((x, a_part))), T::ONE, rest_b),
            )?;
        } else {
            let (x, xt) = match &self.xt {
                Some(xt) => (xt.block(0, xt.rows, done.0, done.1), true),
                None => (self.b.block(done.0, done.1, 0, self.b.cols), false),
            };
            let (a_part, t) = self.op_a(rest, done);
            let rest_b = self.b.block(rest.0, rest.1, 0, self.b.cols);
            gemm(
                e,
                &gemm_of((t, xt), (-T::ONE, Some((a_part, x))), T::ONE, rest_b),
            )?;
        }
        self.blocks(e, then.0, then.1)
    }

    /// X's block `i` := its inverted diagonal block times B's block.
    fn block(&self, e: &mut Engine, i: i64) -> Result<()> {
        let (s0, s1) = self.span((i, i + 1));
        let blocks = diagonal_blocks(self.a.rows);
        let side = inverse_side(self.a.rows);
        let inverse = Matrix {
            mem: Mem::Device {
                buffer: self.inverses,
                offset: i * side * side,
                len: blocks * side * side,
            },
            rows: s1 - s0,
            cols: s1 - s0,
            ld: side,
        };
        // The inverse of a triangular block is triangular alike: op(A) is lower when the solve
        // runs forward from the left or backward from the right. The inversion stores its zeros
        // and diagonal, so it may be read in place (`gemm_compute::Source`).
        let lower = self.forward != self.right;
        let mut g = if self.right {
            let x = self.b.block(0, self.b.rows, s0, s1);
            gemm_of((false, false), (T::ONE, Some((x, inverse))), T::ZERO, x)
        } else {
            let x = self.b.block(s0, s1, 0, self.b.cols);
            let mut g = gemm_of((false, false), (T::ONE, Some((inverse, x))), T::ZERO, x);
            g.transposed_copy = self.xt.map(|xt| xt.block(0, xt.rows, s0, s1));
            g
        };
        let (tri, general) = (Shape::ZeroFilled(Triangle::of(!lower)), Shape::General);
        g.rules.shapes = if self.right {
            [general, tri]
        } else {
            [tri, general]
        };
        // X's block is also C (`Rules::is_c`).
        g.rules.is_c = [self.right, !self.right];
        gemm(e, &g)
    }

    /// The rows (or columns) of X in blocks `p0..p1`.
    fn span(&self, (p0, p1): (i64, i64)) -> (i64, i64) {
        (p0 * TRSM_BLOCK, (p1 * TRSM_BLOCK).min(self.a.rows))
    }

    /// op(A)'s rows r0..r1 and columns c0..c1 as a stored block and its transposition.
    fn op_a(&self, (r0, r1): (i64, i64), (c0, c1): (i64, i64)) -> (Matrix<T>, bool) {
        if self.trans {
            (self.a.block(c0, c1, r0, r1), true)
        } else {
            (self.a.block(r0, r1, c0, c1), false)
        }
    }
}

/// The gemm C := alpha*op(A)*op(B) + beta*C of stored operands `ab` (k from their shapes).
fn gemm_of<T: Real>(
    (ta, tb): (bool, bool),
    (alpha, ab): Product<T>,
    beta: T,
    c: Matrix<T>,
) -> Gemm<T> {
    let k = ab.map_or(0, |(a, _)| if ta { a.rows } else { a.cols });
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
        transposed_copy: None,
    }
}

/// One gemm with `rules`.
fn run<T: Real>(
    e: &mut Engine,
    ops: (bool, bool),
    (alpha, ab): Product<T>,
    beta: T,
    c: Matrix<T>,
    rules: Rules,
) -> Result<()> {
    let mut g = gemm_of(ops, (alpha, ab), beta, c);
    g.rules = rules;
    gemm(e, &g)
}

/// Inverts the diagonal blocks of op(A) (`TRSM_BLOCK` square, the last one smaller) into
/// scratch buffer `INVERSES`, block i from element i*side² (ld side, `inverse_side`), each with
/// its zeros and diagonal stored (`Shape::ZeroFilled`): by
/// `trsm_invert.comp` on the compute pipeline, else on the host (`invert_on_host`).
fn invert_diagonal_blocks<T: Real>(
    e: &mut Engine,
    a: &Matrix<T>,
    how: (Triangle, bool, bool),
) -> Result<()> {
    let order = a.rows;
    let blocks = diagonal_blocks(order);
    let side = inverse_side(order);
    let elems = blocks * side * side;
    let buffer = e
        .scratch
        .buffer(&e.ctx.gl, &e.ext, INVERSES, T::words(elems))?;
    let out = Mem::<T>::Device {
        buffer,
        offset: 0,
        len: elems,
    };
    if !super::compute_available(e) {
        return invert_on_host(e, a, how, out);
    }
    let (fill, trans, unit) = how;
    let p = e.compute_program("trsm_invert.comp", INVERT, &super::real_defines::<T>())?;
    e.bind_matrix(&p, 0, "A", a, trans)?;
    let gl = &e.ctx.gl;
    Window::of(&e.ctx.info, out, elems).bind_storage(&e.ext, 0);
    p.set_i32(gl, "uN", order as i32);
    p.set_i32(gl, "uBlock", side as i32);
    p.set_i32(gl, "uLower", i32::from((fill == Triangle::Lower) != trans));
    p.set_i32(gl, "uUnit", i32::from(unit));
    e.dispatch(blocks, 1, "trsm inversion")
}

/// `invert_diagonal_blocks` without the compute pipeline: each block read back and inverted
/// by substitution in double precision, column by column. A fragment writes at most 32
/// elements, and each element of a column of the inverse needs the ones before it, so a draw
/// could solve only a few rows of every column; the O(order·TRSM_BLOCK²) flops here are
/// small beside the solve's O(order²·n) in gemm.
fn invert_on_host<T: Real>(
    e: &Engine,
    a: &Matrix<T>,
    (fill, trans, unit): (Triangle, bool, bool),
    out: Mem<T>,
) -> Result<()> {
    let order = a.rows;
    let lower = (fill == Triangle::Lower) != trans;
    let (blocks, side) = (diagonal_blocks(order), inverse_side(order));
    // Each block's stored triangle is copied on the device into `out` (block i from element
    // i·side², ld side), then all are read back at once: a read waits for the device, and on
    // virgl is a round trip to the host renderer (one read per column took most of an
    // n = 1024 strsm's 400 ms there).
    let size = |i: i64| TRSM_BLOCK.min(order - i * TRSM_BLOCK);
    for i in 0..blocks {
        let (first, size) = (i * TRSM_BLOCK, size(i));
        let packed = Matrix {
            mem: out.advance(i * side * side),
            rows: size,
            cols: size,
            ld: side,
        };
        let block = a.block(first, first + size, first, first + size);
        copy_out(e, &block, &packed, Some((fill, 0)))?;
    }
    let b = side as usize;
    let mut inv = vec![T::ZERO; blocks as usize * b * b];
    e.read(out, &mut inv)?;
    for (i, inverse) in inv.chunks_mut(b * b).enumerate() {
        let size = size(i as i64);
        let n = size as usize;
        // The block of op(A), column-major; only its triangle (and, unless `unit`, its
        // diagonal) is read.
        let mut t = vec![0.0; n * n];
        for c in 0..n {
            let rows = if lower { c..n } else { 0..c + 1 };
            for r in rows {
                if r == c && unit {
                    continue;
                }
                let (sr, sc) = if trans { (c, r) } else { (r, c) };
                t[r + c * n] = inverse[sr + sc * b].to_f64();
            }
        }
        // Column j of the inverse solves T x = e_j; x_c is final once the terms of the
        // columns before it (in the solve's order) are taken out, then its own column of T
        // is taken out of the rest.
        let mut x = vec![0.0; n];
        for j in 0..n {
            x.fill(0.0);
            x[j] = 1.0;
            let mut solve = |c: usize| {
                if !unit {
                    x[c] /= t[c + c * n];
                }
                let (xc, rest) = (x[c], if lower { c + 1..n } else { 0..c });
                for r in rest {
                    x[r] -= t[r + c * n] * xc;
                }
            };
            if lower {
                (j..n).for_each(&mut solve);
            } else {
                (0..=j).rev().for_each(&mut solve);
            }
            for (r, v) in inverse[j * b..j * b + n].iter_mut().zip(&x) {
                *r = T::from_f64(*v);
            }
        }
    }
    e.write(out, &inv)
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
