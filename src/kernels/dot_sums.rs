//! What the reductions add up, on either pipeline: the terms of each variant (`Variant`), and
//! nrm2's sums of squares in Blue's accumulators (`Squares`).

use crate::engine::element::{Precision, Real};

/// What `reduce_into` adds up: reduce.comp's and reduce.frag's variants.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Variant {
    Dot,
    /// conj(x[i])*y[i].
    DotConjugated,
    Sum,
    Asum,
}

impl Variant {
    /// The variant's defines.
    pub fn defines(self) -> &'static [&'static str] {
        match self {
            Variant::Dot => &["DOT"],
            Variant::DotConjugated => &["DOT", "CONJ_X"],
            Variant::Sum => &["SUM"],
            Variant::Asum => &["ASUM"],
        }
    }
}

/// Sums of squares in Blue's three accumulators (LAPACK 3.10's dnrm2): |x| below 2^-SMALL go to
/// `small` as (|x| * 2^SMALL_SCALE)^2, at least 2^BIG to `big` as (|x| * 2^BIG_SCALE)^2, the
/// others to `medium` as x^2; `class` is 2 once a NaN was seen, else 1 once an infinity was.
/// The thresholds keep every scaled square, subnormals' included, a normal number, and the sum
/// of 2^31 of them finite, in either precision; the shader adds in its precision, the host adds
/// the workgroups' partials in double.
#[derive(Clone, Copy, Debug)]
pub struct Squares {
    small: f64,
    medium: f64,
    big: f64,
    class: f64,
    small_scale: i32,
    big_scale: i32,
}

/// (biased exponent below which |x| is small, biased exponent from which it is big, small
/// scale, big scale, least normal exponent) of `T`.
fn blue<T: Real>() -> (i32, i32, i32, i32, i32) {
    match T::PRECISION {
        // Small below 2^-63, big from 2^48.
        Precision::Single => (127 - 63, 127 + 48, 100, -80, -126),
        // Small below 2^-511, big from 2^480.
        Precision::Double => (1023 - 511, 1023 + 480, 600, -540, -1022),
    }
}

impl Squares {
    pub fn new<T: Real>() -> Squares {
        let (_, _, small_scale, big_scale, _) = blue::<T>();
        Squares {
            small: 0.0,
            medium: 0.0,
            big: 0.0,
            class: 0.0,
            small_scale,
            big_scale,
        }
    }

    /// The shader's defines for `T`.
    pub fn defines<T: Real>() -> Vec<(&'static str, String)> {
        let (below, from, small, big, min) = blue::<T>();
        vec![
            ("SMALL_BELOW", below.to_string()),
            ("BIG_FROM", from.to_string()),
            ("SMALL_SCALE", small.to_string()),
            ("BIG_SCALE", big.to_string()),
            ("MIN_EXP", min.to_string()),
        ]
    }

    /// Adds one workgroup's partial.
    pub fn add(&mut self, small: f64, medium: f64, big: f64, class: f64) {
        self.small += small;
        self.medium += medium;
        self.big += big;
        self.class = self.class.max(class);
    }

    pub(super) fn merge(&mut self, o: &Squares) {
        self.add(o.small, o.medium, o.big, o.class);
    }

    /// The square root of the sum, combined as the reference dnrm2 combines its accumulators:
    /// `small` is negligible beside a nonzero `big`, and beside `medium` both are square-rooted
    /// before they meet, so that nothing overflows or underflows; NaN if one was seen, else
    /// infinity if one was.
    pub fn norm(&self) -> f64 {
        if self.class >= 2.0 {
            return f64::NAN;
        }
        if self.class >= 1.0 {
            return f64::INFINITY;
        }
        let ss = 2f64.powi(self.small_scale);
        let sb = 2f64.powi(self.big_scale);
        if self.big > 0.0 {
            (self.big + (self.medium * sb) * sb).sqrt() / sb
        } else if self.small > 0.0 {
            let small = self.small.sqrt() / ss;
            if self.medium > 0.0 {
                let medium = self.medium.sqrt();
                let (lo, hi) = if small > medium {
                    (medium, small)
                } else {
                    (small, medium)
                };
                hi * (1.0 + (lo / hi) * (lo / hi)).sqrt()
            } else {
                small
            }
        } else {
            self.medium.sqrt()
        }
    }
}
