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

use super::call::Call;
use super::describe::{Operand, Use, Value};
use super::region::Region;
use super::undo::Snapshot;
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
    unsafe fn within(regions: &[&Region]) -> Seen {
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

/// Raises the flags of `call`, just answered on GL with host `operands` (its own): `value` is
/// its result (dot, asum, nrm2), `before` holds the outputs it read before writing them, if they
/// were copied.
///
/// # Safety
/// The call's operands must be valid host memory for it (it passed the reference checks).
pub unsafe fn raise(call: &Call, operands: &[Operand], value: Value, before: Option<&Snapshot>) {
    call.raise_flags(operands, value, before)
}

impl Call {
    /// # Safety
    /// As for [`raise`].
    unsafe fn raise_flags(&self, operands: &[Operand], value: Value, before: Option<&Snapshot>) {
        let regions = |pick: fn(Use) -> bool| -> Vec<&Region> {
            operands
                .iter()
                .filter(|o| pick(o.usage))
                .map(|o| &o.region)
                .collect()
        };
        // Copy, swap and i?amax compute nothing: they move or compare, which raises nothing.
        let outputs = if self.computes_value() {
            Seen::of([value.re, value.im])
        } else {
            Seen::within(&regions(Use::computed))
        };
        if outputs == Seen::default() {
            return;
        }
        let before = match before {
            Some(saved) => Seen::of(saved.values()),
            None if regions(Use::read_first).is_empty() => Seen::default(),
            None => Seen {
                nan: true,
                inf: true,
            },
        };
        // A symmetric or triangular A counts by the triangle the call reads.
        let inputs = Seen::within(&regions(|u| u == Use::Read))
            .and(Seen::of(self.scalar_values()))
            .and(before);
        let (invalid, overflow) = flags(outputs, inputs);
        fpenv::raise(invalid, overflow);
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
