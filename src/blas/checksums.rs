//! Checksums (algorithm-based fault tolerance), for `GLBLAS_VERIFY` (`verify`): products of a
//! call's host operands with a probe vector, in double precision, beside the magnitudes that
//! bound their rounding errors, and the bound a result's sums must keep to. Each operator reads
//! a column-major matrix of the caller's as a routine does: in general, symmetric or Hermitian
//! from one triangle, triangular, one triangle alone, or a triangle of a product (syrk's).

use crate::engine::element::{Complex, Scalar};
use crate::kernels::Trans;

/// What a call's result must sum to, and how to sum the result.
pub struct Checksums {
    /// From the inputs, before the call.
    pub expected: Sums,
    /// The result's sums, from the outputs and the value the call returns.
    pub found: Box<dyn Fn(Complex<f64>) -> Sums>,
    /// The most terms any sum of the result has (k for gemm; the order for trsm's; none of a
    /// product where alpha is 0, which is then not computed).
    pub terms: i64,
    /// The most terms this check's own sums in double add up, along a chain of products (n + k
    /// for gemm's A·(B·x)): their rounding is within γ of that of their magnitudes.
    pub length: i64,
    /// The unit roundoff of the call's precision (2^-24 or 2^-53).
    pub unit: f64,
    /// Its smallest normal number: a GPU may flush what underflows to zero.
    pub tiny: f64,
    /// Its largest finite number.
    pub huge: f64,
    /// max(1, |alpha|, |beta|): what a flushed term may be scaled by.
    pub scale: f64,
    /// The probe's weights summed (`Sums::weight`).
    pub weight: f64,
    pub complex: bool,
}

impl Checksums {
    /// For a call in `T`'s precision: its `expected` sums, how to sum its result (`found`), the
    /// most terms a sum of the result has and the most the check's sums have (`length`), its
    /// scalars (alpha, beta) and the probe's `weight`.
    pub fn new<T: Scalar>(
        expected: Sums,
        found: impl Fn(Complex<f64>) -> Sums + 'static,
        (terms, length): (i64, i64),
        scalars: &[T],
        weight: f64,
    ) -> Checksums {
        let single = std::mem::size_of::<T::Real>() == 4;
        let scale = scalars
            .iter()
            .map(|s| s.f64_parts().iter().map(|p| p.abs()).sum::<f64>())
            .fold(1.0, f64::max);
        Checksums {
            expected,
            found: Box::new(found),
            terms,
            length,
            unit: if single {
                2f64.powi(-24)
            } else {
                2f64.powi(-53)
            },
            tiny: if single {
                f32::MIN_POSITIVE as f64
            } else {
                f64::MIN_POSITIVE
            },
            huge: if single { f32::MAX as f64 } else { f64::MAX },
            scale,
            weight,
            complex: T::COMPLEX,
        }
    }

    /// Where the result's sums disagree with the expected ones beyond the bound: none when they
    /// agree, or when the inputs' sums are not finite or come near overflow (the bound is then
    /// no bound).
    ///
    /// The bound, per sum i: the GPU's rounding errors, each element within γ_t of its terms'
    /// magnitudes (t terms, 2t+4 for complex elements computed in real arithmetic, doubled for
    /// evaluation without fused multiply-adds and for trsm's divisions), plus t+4 flushed
    /// subnormals per element scaled by alpha or beta, plus this check's own in double (γ of
    /// its sums' `length`: a daxpy of 2^22 positive elements, right, failed its check when that
    /// was left out).
    pub fn disagreement(&self, found: &Sums) -> Option<String> {
        let e = &self.expected;
        let suspect = |v: f64| !v.is_finite() || v.abs() > 0.25 * self.huge;
        if e.re.iter().chain(&e.im).chain(&e.mag).any(|&v| suspect(v)) {
            return None;
        }
        let t = if self.complex {
            2 * self.terms + 4
        } else {
            self.terms + 4
        } as f64;
        // From finite inputs not near overflow, a result that is not finite, or whose sums
        // overflow, is wrong (and would make its own bound infinite).
        let f = found;
        if let Some(i) = (0..f.count()).find(|&i| !(f.re[i] + f.im[i] + f.mag[i]).is_finite()) {
            return Some(format!(
                "checksum {i}: ({}, {}) of magnitude {} from finite inputs",
                f.re[i], f.im[i], f.mag[i]
            ));
        }
        let own = (t + self.length as f64 + e.count() as f64 + 4.0) * f64::EPSILON;
        let relative = 2.0 * t * self.unit + own;
        let absolute = 2.0 * t * self.tiny * self.scale * self.weight;
        for i in 0..e.count() {
            let bound = relative * (e.mag[i] + found.mag[i]) + absolute;
            let off = (found.re[i] - e.re[i]).abs() + (found.im[i] - e.im[i]).abs();
            if off > bound {
                return Some(format!(
                    "checksum {i}: ({}, {}) against ({}, {}), off by {off:.3e}, bound {bound:.3e}",
                    found.re[i], found.im[i], e.re[i], e.im[i]
                ));
            }
        }
        None
    }
}

/// A vector of complex sums (real ones with zero imaginary parts), and for each the sum of its
/// terms' magnitudes (|re| + |im| of each factor).
#[derive(Clone, Debug, PartialEq)]
pub struct Sums {
    pub re: Vec<f64>,
    pub im: Vec<f64>,
    pub mag: Vec<f64>,
}

impl Sums {
    pub fn zeros(n: i64) -> Sums {
        let n = n.max(0) as usize;
        Sums {
            re: vec![0.0; n],
            im: vec![0.0; n],
            mag: vec![0.0; n],
        }
    }

    /// The probe vector: n positive weights (`weight`), independent so that a few wrong
    /// elements do not cancel in a sum.
    pub fn probe(n: i64) -> Sums {
        let mut s = Sums::zeros(n);
        for (j, (re, mag)) in s.re.iter_mut().zip(&mut s.mag).enumerate() {
            *re = weight(j as i64);
            *mag = *re;
        }
        s
    }

    /// One sum, of magnitude `mag`.
    fn one(re: f64, im: f64, mag: f64) -> Sums {
        Sums {
            re: vec![re],
            im: vec![im],
            mag: vec![mag],
        }
    }

    /// How many sums.
    pub fn count(&self) -> usize {
        self.re.len()
    }

    /// self += s·other, and the magnitudes by |s|.
    pub fn add_scaled(&mut self, [sr, si]: [f64; 2], other: &Sums) {
        let m = sr.abs() + si.abs();
        for i in 0..self.count() {
            let (r, im) = (other.re[i], other.im[i]);
            self.re[i] += sr * r - si * im;
            self.im[i] += sr * im + si * r;
            self.mag[i] += m * other.mag[i];
        }
    }

    /// The sum of the weights' magnitudes.
    pub fn weight(&self) -> f64 {
        self.mag.iter().sum()
    }

    /// Its complex conjugates.
    pub fn conj(mut self) -> Sums {
        self.im.iter_mut().for_each(|v| *v = -*v);
        self
    }

    /// One sum: its elements weighted by the probe's (the checksum of a vector).
    pub fn weighted(&self) -> Sums {
        let w = Sums::probe(self.count() as i64);
        let mut one = Sums::zeros(1);
        for i in 0..self.count() {
            one.re[0] += w.re[i] * self.re[i];
            one.im[0] += w.re[i] * self.im[i];
            one.mag[0] += w.re[i] * self.mag[i];
        }
        one
    }

    /// A value a call returned, as one sum.
    pub fn value(v: Complex<f64>) -> Sums {
        Sums {
            re: vec![v.re],
            im: vec![v.im],
            mag: vec![v.re.abs() + v.im.abs()],
        }
    }

    /// Several sums, one after another.
    pub fn joined(parts: &[Sums]) -> Sums {
        let mut all = Sums::zeros(0);
        for p in parts {
            all.re.extend(&p.re);
            all.im.extend(&p.im);
            all.mag.extend(&p.mag);
        }
        all
    }

    /// One number, exactly (i?amax's index).
    pub fn exact(v: f64) -> Sums {
        Sums {
            re: vec![v],
            im: vec![0.0],
            mag: vec![0.0],
        }
    }
}

/// The most elements a vector of sums is made of: a longer result is not checked (its sums
/// would take several times its own memory).
pub const MOST: i64 = 1 << 26;

/// Whether a result of these dimensions is too long to check (`MOST`).
pub fn too_long(dims: &[i64]) -> bool {
    dims.iter().any(|&d| d > MOST)
}

/// The probe's i-th weight: the square roots of 13 primes, in turn. They are independent over
/// the rationals, so no error of a few elements in small-integer ratios sums to nothing under
/// them (as 1, 1.4375, 1.0625, 1.5 did for an error of +e, -e, -e, +e: a corrupted dscal whose
/// check passed).
pub fn weight(i: i64) -> f64 {
    const PRIMES: [f64; 13] = [
        2.0, 3.0, 5.0, 7.0, 11.0, 13.0, 17.0, 19.0, 23.0, 29.0, 31.0, 37.0, 41.0,
    ];
    PRIMES[i.rem_euclid(13) as usize].sqrt()
}

/// The first n weights summed, in O(1): they repeat every 13.
pub fn weights(n: i64) -> f64 {
    let period: f64 = (0..13).map(weight).sum();
    (n / 13) as f64 * period + (0..n % 13).map(weight).sum::<f64>()
}

/// Σ x[i]·y[i] (conj(x[i]) where `conj`), one sum; in O(1) where both increments are zero.
///
/// # Safety
/// Both are readable host memory.
pub unsafe fn dot<T: Scalar>(x: &Vector<T>, y: &Vector<T>, conj: bool) -> Sums {
    let c = |s: Sums| if conj { s.conj() } else { s };
    // SAFETY (of each read): as the caller guarantees.
    let first = |v: &Vector<T>| unsafe { *v.p }.f64_parts();
    match (x.inc == 0, y.inc == 0) {
        (true, _) => {
            let x0 = c(Sums::value(Complex::from_f64_parts(first(x))));
            let mut s = Sums::zeros(1);
            s.add_scaled([x0.re[0], x0.im[0]], &unsafe { y.sum(Weights::Ones) });
            s
        }
        (false, true) => {
            let mut s = Sums::zeros(1);
            s.add_scaled(first(y), &c(unsafe { x.sum(Weights::Ones) }));
            s
        }
        (false, false) => {
            // In locals, not the sums' vectors, which the loop would store to at each step.
            let (mut re, mut im, mut mag) = (0.0, 0.0, 0.0);
            for ([xr, xi], [yr, yi]) in unsafe { x.parts().zip(y.parts()) } {
                let xi = if conj { -xi } else { xi };
                re += xr * yr - xi * yi;
                im += xr * yi + xi * yr;
                mag += (xr.abs() + xi.abs()) * (yr.abs() + yi.abs());
            }
            Sums::one(re, im, mag)
        }
    }
}

/// How a vector's elements are summed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Weights {
    /// By the probe's weights.
    Probe,
    /// As they are.
    Ones,
}

/// A vector in host memory: n elements `inc` apart, in the BLAS's order (from the last one in
/// memory for a negative increment).
#[derive(Clone, Copy, Debug)]
pub struct Vector<T> {
    pub p: *const T,
    pub n: i64,
    pub inc: i64,
}

impl<T: Scalar> Vector<T> {
    pub fn new(p: *const T, n: i64, inc: i64) -> Vector<T> {
        Vector { p, n, inc }
    }

    /// Whether it and `other` share an element's bytes without being the same vector: the
    /// routine then runs as the reference's sequential loop, each step reading what an earlier
    /// one wrote, which sums taken before the call do not predict.
    pub fn overlaps(&self, other: &Vector<T>) -> bool {
        if self.n <= 0 || other.n <= 0 || (self.p == other.p && self.inc == other.inc) {
            return false;
        }
        let bytes = |v: &Vector<T>| {
            let start = v.p as usize;
            let span = (v.n - 1).unsigned_abs() as usize * v.inc.unsigned_abs() as usize + 1;
            (start, start.saturating_add(span * std::mem::size_of::<T>()))
        };
        let ((a0, a1), (b0, b1)) = (bytes(self), bytes(other));
        a0 < b1 && b0 < a1
    }

    /// Its elements' parts, in the BLAS's order.
    ///
    /// # Safety
    /// The vector is readable host memory.
    pub unsafe fn parts(&self) -> impl Iterator<Item = [f64; 2]> + '_ {
        let step = self.inc.abs();
        (0..self.n.max(0)).map(move |i| {
            let at = if self.inc < 0 { self.n - 1 - i } else { i };
            // SAFETY: an element of the vector, as the caller guarantees.
            unsafe { *self.p.offset((at * step) as isize) }.f64_parts()
        })
    }

    /// Its elements summed as `w` says, one sum: in O(1) for a zero increment (one element,
    /// counted n times).
    ///
    /// # Safety
    /// As for [`Vector::parts`].
    pub unsafe fn sum(&self, w: Weights) -> Sums {
        if self.inc == 0 {
            // SAFETY: as the caller guarantees.
            let [re, im] = unsafe { *self.p }.f64_parts();
            let k = match w {
                Weights::Probe => weights(self.n),
                Weights::Ones => self.n as f64,
            };
            return Sums::one(k * re, k * im, k * (re.abs() + im.abs()));
        }
        // The probe's weights in turn, computed once (a square root per element took most of
        // the check's time).
        let probe: [f64; 13] = std::array::from_fn(|i| weight(i as i64));
        let weights = match w {
            Weights::Probe => &probe[..],
            Weights::Ones => &[1.0][..],
        };
        let (mut re, mut im, mut mag) = (0.0, 0.0, 0.0);
        // SAFETY: as the caller guarantees.
        for ([r, i], k) in unsafe { self.parts() }.zip(weights.iter().cycle()) {
            re += k * r;
            im += k * i;
            mag += k * (r.abs() + i.abs());
        }
        Sums::one(re, im, mag)
    }

    /// Its elements as sums of one term each.
    ///
    /// # Safety
    /// As for [`Vector::parts`].
    pub unsafe fn sums(&self) -> Sums {
        let mut s = Sums::zeros(self.n);
        // SAFETY: as the caller guarantees.
        for (i, [re, im]) in unsafe { self.parts() }.enumerate() {
            s.re[i] = re;
            s.im[i] = im;
            s.mag[i] = re.abs() + im.abs();
        }
        s
    }
}

/// A column-major matrix in host memory: `rows`×`cols` elements `p[i + j*ld]`.
#[derive(Clone, Copy, Debug)]
pub struct Mat<T> {
    pub p: *const T,
    pub rows: i64,
    pub cols: i64,
    pub ld: i64,
}

impl<T: Scalar> Mat<T> {
    pub fn new(p: *const T, (rows, cols): (i64, i64), ld: i64) -> Mat<T> {
        Mat { p, rows, cols, ld }
    }

    /// Element (i, j)'s parts, conjugated when `conj`.
    ///
    /// # Safety
    /// (i, j) is inside the matrix, which is readable host memory.
    #[inline(always)]
    unsafe fn at(&self, i: i64, j: i64, conj: bool) -> [f64; 2] {
        // SAFETY: as the caller guarantees.
        let [re, im] = unsafe { *self.p.offset((i + j * self.ld) as isize) }.f64_parts();
        [re, if conj { -im } else { im }]
    }
}

/// How an operator reads its matrix.
#[derive(Clone, Copy, Debug)]
pub enum Operator<T> {
    /// op(M).
    General(Mat<T>, Trans),
    /// The symmetric (Hermitian, `hermitian`: its diagonal's imaginary parts taken as zero)
    /// matrix whose `upper` (else lower) triangle M holds.
    Symmetric(Mat<T>, bool, bool),
    /// op(M) for the triangular matrix in M's `upper` (else lower) triangle, its diagonal ones
    /// where `unit`.
    Triangular(Mat<T>, bool, Trans, bool),
    /// M's `upper` (else lower) triangle alone, the rest zero; with `real_diagonal`, the
    /// diagonal's imaginary parts taken as zero (what herk reads of C).
    Triangle(Mat<T>, bool, bool),
    /// The `upper` (else lower) triangle of op(L)·op(R)^T, or ^H where `hermitian`, both n×k
    /// after op: L and R as stored with `trans` N (op(L) = L), else k×n (op(L) = L^T, L^H
    /// where `hermitian`). syrk's A·A^T and A^T·A, herk's A·A^H and A^H·A, and each product
    /// of syr2k and her2k.
    TriangleOfProduct {
        l: Mat<T>,
        r: Mat<T>,
        trans: bool,
        hermitian: bool,
        upper: bool,
    },
}

impl<T: Scalar> Operator<T> {
    /// The length of the vector it makes.
    pub fn rows(&self) -> i64 {
        match *self {
            Operator::General(m, Trans::N) => m.rows,
            Operator::General(m, _) => m.cols,
            Operator::TriangleOfProduct { l, trans, .. } => {
                if trans {
                    l.cols
                } else {
                    l.rows
                }
            }
            Operator::Symmetric(m, ..)
            | Operator::Triangular(m, ..)
            | Operator::Triangle(m, ..) => m.rows,
        }
    }

    /// The operator times `x`, and the magnitudes: |operator|·|x|.
    ///
    /// # Safety
    /// The matrix is readable host memory of its extent (the stored triangle, for those read
    /// from one), and `x` as long as the operator has columns.
    pub unsafe fn apply(&self, x: &Sums) -> Sums {
        let mut y = Sums::zeros(self.rows());
        // SAFETY: each loop below reads the elements the caller vouches for.
        unsafe {
            match *self {
                Operator::General(m, trans) => general(&mut y, m, trans, x),
                Operator::Symmetric(m, upper, hermitian) => for_triangle(m, upper, |i, j, a| {
                    let diagonal = i == j;
                    let a = if diagonal && hermitian {
                        [a[0], 0.0]
                    } else {
                        a
                    };
                    mac::<T>(&mut y, i, a, x, j);
                    if !diagonal {
                        let t = if hermitian { [a[0], -a[1]] } else { a };
                        mac::<T>(&mut y, j, t, x, i);
                    }
                }),
                Operator::Triangular(m, upper, trans, unit) => for_triangle(m, upper, |i, j, a| {
                    let a = if unit && i == j { [1.0, 0.0] } else { a };
                    match trans {
                        Trans::N => mac::<T>(&mut y, i, a, x, j),
                        Trans::T => mac::<T>(&mut y, j, a, x, i),
                        Trans::C => mac::<T>(&mut y, j, [a[0], -a[1]], x, i),
                    }
                }),
                Operator::Triangle(m, upper, real_diagonal) => for_triangle(m, upper, |i, j, a| {
                    let a = if real_diagonal && i == j {
                        [a[0], 0.0]
                    } else {
                        a
                    };
                    mac::<T>(&mut y, i, a, x, j)
                }),
                Operator::TriangleOfProduct {
                    l,
                    r,
                    trans,
                    hermitian,
                    upper,
                } => triangle_of_product(&mut y, (l, r), trans, hermitian, upper, x),
            }
        }
        y
    }
}

/// y[i] += a·x[j], and the magnitudes.
#[inline(always)]
fn mac<T: Scalar>(y: &mut Sums, i: usize, [ar, ai]: [f64; 2], x: &Sums, j: usize) {
    if T::COMPLEX {
        let (xr, xi) = (x.re[j], x.im[j]);
        y.re[i] += ar * xr - ai * xi;
        y.im[i] += ar * xi + ai * xr;
        y.mag[i] += (ar.abs() + ai.abs()) * x.mag[j];
    } else {
        y.re[i] += ar * x.re[j];
        y.mag[i] += ar.abs() * x.mag[j];
    }
}

/// Calls `f(i, j, M(i, j))` for each element of M's `upper` (else lower) triangle, a column at a
/// time.
///
/// # Safety
/// The triangle is readable host memory.
unsafe fn for_triangle<T: Scalar>(
    m: Mat<T>,
    upper: bool,
    mut f: impl FnMut(usize, usize, [f64; 2]),
) {
    for j in 0..m.cols {
        let rows = if upper {
            0..(j + 1).min(m.rows)
        } else {
            j.min(m.rows)..m.rows
        };
        for i in rows {
            // SAFETY: in the triangle.
            f(i as usize, j as usize, unsafe { m.at(i, j, false) });
        }
    }
}

/// y += op(M)·x.
///
/// # Safety
/// M is readable host memory.
unsafe fn general<T: Scalar>(y: &mut Sums, m: Mat<T>, trans: Trans, x: &Sums) {
    for j in 0..m.cols {
        for i in 0..m.rows {
            // SAFETY: inside M.
            let a = unsafe { m.at(i, j, trans == Trans::C) };
            match trans {
                Trans::N => mac::<T>(y, i as usize, a, x, j as usize),
                Trans::T | Trans::C => mac::<T>(y, j as usize, a, x, i as usize),
            }
        }
    }
}

/// y += tri(op(L)·op(R)^T)·x (^H where `hermitian`) in O(nk): a running sum over the columns of
/// the triangle, s[l] = Σ_j op(R)(j, l)·x[j] for the columns j the triangle has in row i so far,
/// gives y[i] = Σ_l op(L)(i, l)·s[l].
///
/// # Safety
/// L and R are readable host memory.
unsafe fn triangle_of_product<T: Scalar>(
    y: &mut Sums,
    (l, r): (Mat<T>, Mat<T>),
    trans: bool,
    hermitian: bool,
    upper: bool,
    x: &Sums,
) {
    let (n, k) = if trans {
        (l.cols, l.rows)
    } else {
        (l.rows, l.cols)
    };
    // op(L)(i, p) and op(R)(j, p), conjugated for the product's ^H: op(L) = L^H and the
    // product's right factor op(R)^H = R (trans), or op(R)^H = conj(R)^T (not trans).
    // SAFETY (of each): inside the matrices, as the caller guarantees.
    let left = |i: i64, p: i64| unsafe {
        if trans {
            l.at(p, i, hermitian)
        } else {
            l.at(i, p, false)
        }
    };
    let right = |j: i64, p: i64| unsafe {
        if trans {
            r.at(p, j, false)
        } else {
            r.at(j, p, hermitian)
        }
    };
    let mut s = Sums::zeros(k);
    let rows: Box<dyn Iterator<Item = i64>> = if upper {
        Box::new((0..n).rev())
    } else {
        Box::new(0..n)
    };
    for i in rows {
        let iu = i as usize;
        for p in 0..k {
            mac::<T>(&mut s, p as usize, right(i, p), x, iu);
        }
        for p in 0..k {
            mac::<T>(y, iu, left(i, p), &s, p as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::element::Complex;

    type C = Complex<f64>;

    /// Dense op·x by its definition, from a function giving each element of the operator.
    fn dense(n: usize, cols: usize, at: impl Fn(usize, usize) -> C, x: &Sums) -> Vec<C> {
        (0..n)
            .map(|i| {
                let mut s = C::default();
                for j in 0..cols {
                    let a = at(i, j);
                    s.re += a.re * x.re[j] - a.im * x.im[j];
                    s.im += a.re * x.im[j] + a.im * x.re[j];
                }
                s
            })
            .collect()
    }

    fn close(y: &Sums, want: &[C]) {
        assert_eq!(y.count(), want.len());
        for (i, w) in want.iter().enumerate() {
            assert!(
                (y.re[i] - w.re).abs() < 1e-9,
                "{i}: {} against {}",
                y.re[i],
                w.re
            );
            assert!(
                (y.im[i] - w.im).abs() < 1e-9,
                "{i}: {} against {}",
                y.im[i],
                w.im
            );
            assert!(y.mag[i] >= w.re.abs().max(w.im.abs()) - 1e-9);
        }
    }

    fn matrix(rows: usize, cols: usize, ld: usize) -> Vec<C> {
        (0..ld * cols)
            .map(|e| C {
                re: ((e * 5) % 11) as f64 - 5.0,
                im: ((e * 3) % 7) as f64 - 3.0,
            })
            .collect::<Vec<_>>()
            .into_iter()
            .enumerate()
            .map(|(e, c)| {
                if e % ld < rows {
                    c
                } else {
                    C {
                        re: 1e300,
                        im: 1e300,
                    }
                }
            })
            .collect()
    }

    fn conj(c: C) -> C {
        C {
            re: c.re,
            im: -c.im,
        }
    }

    fn mul(a: C, b: C) -> C {
        C {
            re: a.re * b.re - a.im * b.im,
            im: a.re * b.im + a.im * b.re,
        }
    }

    #[test]
    fn each_operator_is_its_dense_product() {
        let (n, k, ld) = (5usize, 3usize, 7usize);
        let a = matrix(n, n, ld);
        let m = Mat::new(a.as_ptr(), (n as i64, n as i64), ld as i64);
        let el = |i: usize, j: usize| a[i + j * ld];
        let mut x = Sums::probe(n as i64);
        for j in 0..n {
            x.im[j] = j as f64 - 2.0;
            x.mag[j] = x.re[j].abs() + x.im[j].abs();
        }
        for trans in [Trans::N, Trans::T, Trans::C] {
            let op = |i, j| match trans {
                Trans::N => el(i, j),
                Trans::T => el(j, i),
                Trans::C => conj(el(j, i)),
            };
            close(
                &unsafe { Operator::General(m, trans).apply(&x) },
                &dense(n, n, op, &x),
            );
            for (upper, unit) in [(true, false), (false, true)] {
                let tri = |i: usize, j: usize| {
                    if i == j && unit {
                        C { re: 1.0, im: 0.0 }
                    } else if (i <= j) == upper || i == j {
                        el(i, j)
                    } else {
                        C::default()
                    }
                };
                let op = |i, j| match trans {
                    Trans::N => tri(i, j),
                    Trans::T => tri(j, i),
                    Trans::C => conj(tri(j, i)),
                };
                let y = unsafe { Operator::Triangular(m, upper, trans, unit).apply(&x) };
                close(&y, &dense(n, n, op, &x));
            }
        }
        for (upper, hermitian) in [(true, false), (false, true), (true, true)] {
            let sym = |i: usize, j: usize| {
                let stored = if (i <= j) == upper {
                    el(i, j)
                } else {
                    el(j, i)
                };
                match (i == j, hermitian, (i <= j) == upper) {
                    (true, true, _) => C {
                        re: stored.re,
                        im: 0.0,
                    },
                    (false, true, false) => conj(stored),
                    _ => stored,
                }
            };
            let y = unsafe { Operator::Symmetric(m, upper, hermitian).apply(&x) };
            close(&y, &dense(n, n, sym, &x));
            let part = |i: usize, j: usize| match (i == j, (i <= j) == upper) {
                (true, _) if hermitian => C {
                    re: el(i, i).re,
                    im: 0.0,
                },
                (true, _) | (false, true) => el(i, j),
                _ => C::default(),
            };
            let y = unsafe { Operator::Triangle(m, upper, hermitian).apply(&x) };
            close(&y, &dense(n, n, part, &x));
        }
        // Triangles of products, L and R n×k (not trans) or k×n (trans).
        for trans in [false, true] {
            let shape = if trans { (k, n) } else { (n, k) };
            // R starts a row into its storage.
            let (l, r) = (
                matrix(shape.0, shape.1, ld),
                matrix(shape.0 + 1, shape.1, ld),
            );
            let lm = Mat::new(l.as_ptr(), (shape.0 as i64, shape.1 as i64), ld as i64);
            let rm = Mat::new(r.as_ptr().wrapping_add(1), lm.rows_cols(), ld as i64);
            let r_at = |i: usize, j: usize| r[1 + i + j * ld];
            for (hermitian, upper) in [(false, false), (true, true), (true, false)] {
                let c = |f: C| if hermitian { conj(f) } else { f };
                // op(L)(i, p) and op(R)(j, p).
                let opl = |i: usize, p: usize| {
                    if trans {
                        c(l[p + i * ld])
                    } else {
                        l[i + p * ld]
                    }
                };
                let opr = |j: usize, p: usize| if trans { c(r_at(p, j)) } else { r_at(j, p) };
                let prod = |i: usize, j: usize| {
                    if (i <= j) != upper && i != j {
                        return C::default();
                    }
                    let mut s = C::default();
                    for p in 0..k {
                        let t = mul(opl(i, p), c(opr(j, p)));
                        s.re += t.re;
                        s.im += t.im;
                    }
                    s
                };
                let op = Operator::TriangleOfProduct {
                    l: lm,
                    r: rm,
                    trans,
                    hermitian,
                    upper,
                };
                close(&unsafe { op.apply(&x) }, &dense(n, n, prod, &x));
            }
        }
    }

    impl<T: Scalar> Mat<T> {
        fn rows_cols(&self) -> (i64, i64) {
            (self.rows, self.cols)
        }
    }

    fn checks(expected: Sums) -> Checksums {
        Checksums {
            expected,
            found: Box::new(|_| Sums::zeros(0)),
            terms: 100,
            length: 10,
            unit: f32::EPSILON as f64 / 2.0,
            tiny: f32::MIN_POSITIVE as f64,
            huge: f32::MAX as f64,
            scale: 1.0,
            weight: 1.0,
            complex: false,
        }
    }

    #[test]
    fn the_bound_takes_rounding_and_rejects_what_is_beyond_it() {
        let mut e = Sums::zeros(2);
        e.re = vec![100.0, -3.0];
        e.mag = vec![200.0, 10.0];
        let c = checks(e.clone());
        // Within 104 terms' rounding of float: a relative 1e-6 of the magnitudes is inside
        // the bound, 1e-3 is not.
        let mut f = e.clone();
        f.re[0] += 200.0 * 1e-6;
        assert_eq!(c.disagreement(&f), None);
        f.re[1] += 10.0 * 1e-3;
        assert!(c.disagreement(&f).unwrap().starts_with("checksum 1"));
        // A NaN in the result, or sums that overflow.
        let mut f = e.clone();
        f.re[0] = f64::NAN;
        assert!(c.disagreement(&f).unwrap().contains("from finite inputs"));
        let mut g = e.clone();
        g.mag[1] = f64::INFINITY;
        assert!(c.disagreement(&g).unwrap().contains("from finite inputs"));
        // Non-finite or huge expected sums: no bound, no verdict.
        let mut e2 = e.clone();
        e2.mag[1] = f64::INFINITY;
        assert_eq!(checks(e2).disagreement(&f), None);
        let mut e3 = e.clone();
        e3.mag[0] = 1e38;
        assert_eq!(checks(e3).disagreement(&f), None);
    }
}
