//! A gemm call as both pipelines take it (`Gemm`): its operands and scalars, the Level 3
//! routines' rules for reading and writing them (`Rules`, `Shape`, `Triangle`), a complex
//! call's real view (`OneM`), and the parts a call is cut into.

use crate::engine::element::Real;
use crate::engine::operand::Matrix;
use crate::engine::programs::Program;

/// How a stored operand is read: all of it, or one triangle of a symmetric or triangular matrix
/// (the packing rules of the Level 3 routines, `level3.rs`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub enum Shape {
    #[default]
    General,
    /// Symmetric, the given triangle stored: the other is read from its mirror.
    Symmetric(Triangle),
    /// Triangular: zeros in the other triangle; with `unit`, ones on the diagonal, unread.
    Triangular(Triangle, bool),
    /// Hermitian (complex only), the given triangle stored: the other is read from its mirror,
    /// conjugated; the diagonal is real, its imaginary parts never read.
    Hermitian(Triangle),
}

impl Shape {
    /// Which triangle of op(M) can be nonzero, for a triangular M (op(M) = M^T when
    /// `transposed`): the terms `gemm.comp` may skip.
    pub fn triangle_of_op(self, transposed: bool) -> Option<Triangle> {
        match self {
            Shape::Triangular(t, _) => Some(Triangle::of((t == Triangle::Upper) != transposed)),
            _ => None,
        }
    }

    /// Whether every element of the operand is read as stored, as a general matrix's: each
    /// part may be read (or packed) on its own, and in place.
    pub fn read_as_stored(self) -> bool {
        self == Shape::General
    }

    /// Sets the uniforms both pipelines' packing passes (`gemm_pack.comp`, `gemm.frag`'s PACK)
    /// read op(P) by: this shape (`shape.glsl`'s codes) and its unit diagonal, whether op(P) is
    /// P transposed, the panel's first element of op(P), and its rows.
    pub fn set_packing(
        self,
        gl: &glow::Context,
        p: &Program,
        transposed: bool,
        (row0, col0): (i64, i64),
        rows: i64,
    ) {
        let (code, unit) = match self {
            Shape::General => (0, false),
            Shape::Symmetric(t) => (t.code(), false),
            Shape::Triangular(t, unit) => (2 + t.code(), unit),
            Shape::Hermitian(t) => (4 + t.code(), false),
        };
        p.set_i32(gl, "uShape", code);
        p.set_i32(gl, "uUnit", i32::from(unit));
        p.set_i32(gl, "uTransposed", i32::from(transposed));
        p.set_i32(gl, "uRow0", row0 as i32);
        p.set_i32(gl, "uCol0", col0 as i32);
        p.set_i32(gl, "uRows", rows as i32);
    }
}

/// A triangle of a square matrix, diagonal included.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Triangle {
    Lower,
    Upper,
}

impl Triangle {
    pub fn of(upper: bool) -> Triangle {
        if upper {
            Triangle::Upper
        } else {
            Triangle::Lower
        }
    }

    /// The shaders' code: 1 lower, 2 upper (0 is "none" or "general").
    pub fn code(self) -> i32 {
        match self {
            Triangle::Lower => 1,
            Triangle::Upper => 2,
        }
    }
}

/// What a Level 3 routine's product does beyond gemm (`level3.rs`); the default is gemm's.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Rules {
    /// How the stored A and B are read.
    pub shapes: [Shape; 2],
    /// Only this triangle of C is read and written (syrk, syr2k): of square C, or of a part of
    /// it on its diagonal (`complex_in_parts`).
    pub triangle: Option<Triangle>,
    /// Which of A and B is C itself (trmm, trsm): it is read from a copy where C is written
    /// before that operand is wholly packed (`gemm_compute::gemm`; in tiles or parts, where one
    /// of them or a chunk of k reads what another stored: `read_from_copies`).
    pub is_c: [bool; 2],
    /// C is Hermitian (herk, her2k): its diagonal's imaginary parts are stored as 0.
    pub real_diagonal: bool,
    /// Where op(A)'s rows and op(B)'s columns (first) and k (second) start in a symmetric or
    /// triangular A and B: (0, 0) but in a tile or a part of a larger call, which reads such an
    /// operand whole (`Gemm::parts`).
    pub origins: [(i64, i64); 2],
}

/// A complex gemm as a real one, by BLIS's 1m method: C viewed as real (each element's two
/// parts in consecutive rows, 2m × n) is the real product of alpha*op(A) expanded into 2×2
/// blocks [[re, -im], [im, re]] (2m × 2k) and op(B) with each element's parts in consecutive
/// rows (2k × n), both expansions made by the packing (`gemm_pack.comp`'s ONE_M), which also
/// conjugates; beta's imaginary part is applied where C is read (`gemm.comp`'s COMPLEX_BETA).
/// The [`Gemm`] holding it has the real view's sizes, operands and beta (its real part), and
/// alpha 1. Compute pipeline only, and each operand within one window.
#[derive(Clone, Copy, Debug)]
pub struct OneM<T> {
    pub alpha: [T; 2],
    pub beta_im: T,
    /// op(A) and op(B) conjugated (op C).
    pub conjugate: [bool; 2],
}

/// A gemm call, its operands as stored (A is m×k, or k×m when `ta`; B is k×n, or n×k when `tb`).
#[derive(Clone, Copy)]
pub struct Gemm<T: Real = f32> {
    pub ta: bool,
    pub tb: bool,
    pub m: i64,
    pub n: i64,
    pub k: i64,
    pub alpha: T,
    pub beta: T,
    /// `None` when alpha == 0 or k == 0: A and B are not read.
    pub ab: Option<(Matrix<T>, Matrix<T>)>,
    pub c: Matrix<T>,
    pub rules: Rules,
    /// A complex product in its real view.
    pub complex: Option<OneM<T>>,
}

impl<T: Real> Gemm<T> {
    /// The part of complex gemm `self` computing C's rows i0..i1 and columns j0..j1 over steps
    /// l0..l1 of k, all in complex elements, with this call's scalars and rules (`parts`).
    pub(super) fn part(
        &self,
        (i0, i1): (i64, i64),
        (j0, j1): (i64, i64),
        (l0, l1): (i64, i64),
    ) -> Gemm<T> {
        let parts = self
            .ab
            .map(|(a, b)| self.parts((&a, &b), (i0, i1), (j0, j1), (l0, l1)));
        Gemm {
            m: 2 * (i1 - i0),
            n: j1 - j0,
            k: if parts.is_some() { 2 * (l1 - l0) } else { 0 },
            ab: parts.map(|[(a, _), (b, _)]| (a, b)),
            c: self.c.block(2 * i0, 2 * i1, j0, j1),
            rules: Rules {
                origins: parts.map_or(self.rules.origins, |[(_, a0), (_, b0)]| [a0, b0]),
                ..self.rules
            },
            ..*self
        }
    }

    /// This complex gemm adding its product to C (beta 1), as a later step of k does.
    pub(super) fn accumulating(mut self) -> Gemm<T> {
        self.beta = T::ONE;
        if let Some(z) = &mut self.complex {
            z.beta_im = T::ZERO;
        }
        self
    }

    /// What a part of this call (a tile, or a part of a complex call) packs for rows `i0..i1`
    /// of op(A) and columns `j0..j1` of op(B), over steps `l0..l1` of k, from stored `a` and
    /// `b` (this call's A and B, or copies laid out alike), in elements (complex ones, whose
    /// real views have two rows each: `OneM`): for each, the part of a general operand, read
    /// from its (0, 0), or the whole of a symmetric, Hermitian or triangular one (an element's
    /// mirror may lie outside the part), read from the part's first row (of op(B): column) and
    /// step of k, offset by this call's origin in it, in the rows and columns its packing
    /// counts (a complex op(A)'s expansion has two per element both ways, op(B)'s along k).
    pub(super) fn parts(
        &self,
        (a, b): (&Matrix<T>, &Matrix<T>),
        (i0, i1): (i64, i64),
        (j0, j1): (i64, i64),
        (l0, l1): (i64, i64),
    ) -> [(Matrix<T>, (i64, i64)); 2] {
        let p = if self.complex.is_some() { 2 } else { 1 };
        let pa = if self.ta {
            a.block(p * l0, p * l1, i0, i1)
        } else {
            a.block(p * i0, p * i1, l0, l1)
        };
        let pb = if self.tb {
            b.block(p * j0, p * j1, l0, l1)
        } else {
            b.block(p * l0, p * l1, j0, j1)
        };
        let [sa, sb] = self.rules.shapes;
        let [oa, ob] = self.rules.origins;
        [
            (sa, pa, a, oa, (p * i0, p * l0)),
            (sb, pb, b, ob, (j0, p * l0)),
        ]
        .map(|(shape, part, whole, origin, first)| {
            if shape.read_as_stored() {
                (part, (0, 0))
            } else {
                (*whole, (origin.0 + first.0, origin.1 + first.1))
            }
        })
    }
}
