//! The floating-point exceptions of a call answered on GL. A CPU BLAS raises them in the
//! caller's thread as a side effect of computing, and callers read them: numpy warns "invalid
//! value encountered in matmul", or raises under `np.errstate(all="raise")`. A shader cannot
//! raise them (and the driver's own are kept from the caller, `engine::fpenv`), so after a call
//! answered on GL with host operands glblas raises those IEEE arithmetic would have: invalid
//! where an output is NaN and no input was (inf - inf, 0 * inf), overflow where an output is
//! infinite and every input was finite. The outputs are scanned first, the inputs only when an
//! output is not finite; the caller's other flags stay as they are. What the outputs that are
//! also inputs held before comes from the undo snapshot; where there is none (no CPU BLAS, so
//! nothing was copied) they count as having held NaN and infinity, so such a call raises
//! nothing rather than a flag its data might not have caused.

use super::call::{each_precision, Args, Call};
use super::region::Region;
use super::undo::Snapshot;
use crate::engine::element::Real;
use crate::engine::fpenv;

/// Whether some of a set of values are NaN, or infinite.
#[derive(Default, Clone, Copy, PartialEq, Eq, Debug)]
struct Seen {
    nan: bool,
    inf: bool,
}

impl Seen {
    fn of(values: impl IntoIterator<Item = f64>) -> Seen {
        values.into_iter().fold(Seen::default(), |s, v| Seen {
            nan: s.nan || v.is_nan(),
            inf: s.inf || v.is_infinite(),
        })
    }

    /// # Safety
    /// As for [`Region::values`].
    unsafe fn within(regions: &[Region]) -> Seen {
        Seen::of(regions.iter().flat_map(|r| unsafe { r.values() }))
    }

    fn and(self, other: Seen) -> Seen {
        Seen {
            nan: self.nan || other.nan,
            inf: self.inf || other.inf,
        }
    }
}

/// The flags IEEE arithmetic raises for `outputs` computed from `inputs`: (invalid, overflow).
fn flags(outputs: Seen, inputs: Seen) -> (bool, bool) {
    (
        outputs.nan && !inputs.nan,
        outputs.inf && !(inputs.nan || inputs.inf),
    )
}

/// Raises the flags of `call`, just answered on GL with host operands: `value` is its result
/// (dot, asum, nrm2), `before` holds the outputs it read before writing them, if they were
/// copied.
///
/// # Safety
/// The call's operands must be valid host memory for it (it passed the reference checks).
pub unsafe fn raise(call: &Call, value: f64, before: Option<&Snapshot>) {
    each_precision!(call, a => a.raise_flags(value, before))
}

impl<T: Real> Args<T> {
    /// # Safety
    /// As for [`raise`].
    unsafe fn raise_flags(&self, value: f64, before: Option<&Snapshot>) {
        let outputs = match self {
            Args::Dot { .. } | Args::Asum { .. } | Args::Nrm2 { .. } => Seen::of([value]),
            _ => Seen::within(&self.written()),
        };
        if outputs == Seen::default() {
            return;
        }
        let before = match before {
            Some(saved) => Seen::of(saved.values()),
            None if self.read_outputs().is_empty() => Seen::default(),
            None => Seen {
                nan: true,
                inf: true,
            },
        };
        let (regions, scalars) = self.inputs();
        let inputs = Seen::within(&regions)
            .and(Seen::of(scalars.iter().map(|s| s.to_f64())))
            .and(before);
        let (invalid, overflow) = flags(outputs, inputs);
        fpenv::raise(invalid, overflow);
    }

    /// The elements the call computes (copy, swap and i?amax compute none: they move or
    /// compare, which raises nothing here).
    fn written(&self) -> Vec<Region> {
        match *self {
            Args::Axpy { n, y, incy, .. } => vec![Region::vector(y, n, incy)],
            Args::Scal { n, x, incx, .. } => vec![Region::vector(x, n, incx)],
            Args::Gemv(g) => vec![Region::vector(g.y, g.y_len(), g.incy)],
            Args::Gemm(g) => vec![Region::matrix(g.c, g.c_shape(), g.ldc)],
            Args::Symm(s) => vec![Region::matrix(s.c, s.c_shape(), s.ldc)],
            Args::Syrk(s) => s
                .c_triangle()
                .map(|(column, len)| Region::matrix(column, (len, 1), s.ldc))
                .collect(),
            Args::Trmm(t) | Args::Trsm(t) => vec![Region::matrix(t.b, t.b_shape(), t.ldb)],
            _ => vec![],
        }
    }

    /// The operands the call only reads, where it reads them, and its scalars (the outputs it
    /// reads too are in the snapshot). A symmetric or triangular A counts whole.
    fn inputs(&self) -> (Vec<Region>, Vec<T>) {
        let m = |p: *const T, shape, ld| Region::matrix(p.cast_mut(), shape, ld);
        let v = |p: *const T, n, inc| Region::vector(p.cast_mut(), n, inc);
        match *self {
            Args::Axpy {
                n, alpha, x, incx, ..
            } => (vec![v(x, n, incx)], vec![alpha]),
            Args::Scal { alpha, .. } => (vec![], vec![alpha]),
            Args::Dot {
                n,
                x,
                incx,
                y,
                incy,
            } => (vec![v(x, n, incx), v(y, n, incy)], vec![]),
            Args::Asum { n, x, incx } | Args::Nrm2 { n, x, incx } => (vec![v(x, n, incx)], vec![]),
            Args::Gemv(g) if g.alpha != T::ZERO => {
                let (_, rows, cols) = g.column_major();
                let read = vec![m(g.a, (rows, cols), g.lda), v(g.x, g.x_len(), g.incx)];
                (read, vec![g.alpha, g.beta])
            }
            Args::Gemv(g) => (vec![], vec![g.alpha, g.beta]),
            Args::Gemm(g) if g.alpha != T::ZERO && g.k > 0 => {
                let [a, b] = g.stored_ab();
                (
                    vec![m(g.a, a, g.lda), m(g.b, b, g.ldb)],
                    vec![g.alpha, g.beta],
                )
            }
            Args::Gemm(g) => (vec![], vec![g.alpha, g.beta]),
            Args::Symm(s) if s.alpha != T::ZERO => {
                let ka = s.a_order();
                let read = vec![m(s.a, (ka, ka), s.lda), m(s.b, s.c_shape(), s.ldb)];
                (read, vec![s.alpha, s.beta])
            }
            Args::Symm(s) => (vec![], vec![s.alpha, s.beta]),
            Args::Syrk(s) if s.alpha != T::ZERO && s.k > 0 => {
                let shape = s.a_shape();
                let mut read = vec![m(s.a, shape, s.lda)];
                read.extend(s.b.map(|(b, ldb)| m(b, shape, ldb)));
                (read, vec![s.alpha, s.beta])
            }
            Args::Syrk(s) => (vec![], vec![s.alpha, s.beta]),
            Args::Trmm(t) | Args::Trsm(t) if t.alpha != T::ZERO => {
                let ka = t.a_order();
                (vec![m(t.a, (ka, ka), t.lda)], vec![t.alpha])
            }
            Args::Trmm(t) | Args::Trsm(t) => (vec![], vec![t.alpha]),
            Args::Copy { .. } | Args::Swap { .. } | Args::Iamax { .. } => (vec![], vec![]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_as_ieee_arithmetic_raises_them() {
        let finite = Seen::of([1.0, -2.0]);
        let nan = Seen::of([1.0, f64::NAN]);
        let inf = Seen::of([f64::INFINITY]);
        let both = nan.and(inf);
        assert_eq!(flags(finite, finite), (false, false));
        assert_eq!(flags(nan, finite), (true, false), "0 * inf or inf - inf");
        assert_eq!(
            flags(nan, inf),
            (true, false),
            "inf - inf from infinite inputs"
        );
        assert_eq!(flags(nan, nan), (false, false), "NaN carried through");
        assert_eq!(flags(inf, finite), (false, true), "overflow");
        assert_eq!(flags(inf, inf), (false, false), "infinity carried through");
        assert_eq!(flags(inf, nan), (false, false));
        assert_eq!(flags(both, finite), (true, true));
    }
}
