//! The option arguments (layout, trans, side, uplo, diag) as the caller gave them: a CBLAS enum,
//! a Fortran character or a glblas API value, kept as given so that an invalid one is reported
//! as the reference reports it; and what the reference CBLAS prints for an invalid one.

use std::ffi::{c_char, c_int, CStr};
use std::fmt;

use crate::kernels::Trans;

/// How a matrix argument is laid out: Fortran symbols have no layout argument; CBLAS ones may
/// pass a value that is no layout.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Layout {
    Fortran,
    Col,
    Row,
    Bad(c_int),
}

impl Layout {
    pub fn from_cblas(v: c_int) -> Layout {
        match v {
            102 => Layout::Col,
            101 => Layout::Row,
            v => Layout::Bad(v),
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Layout::Fortran => Ok(()),
            Layout::Col => f.write_str("layout=col "),
            Layout::Row => f.write_str("layout=row "),
            Layout::Bad(v) => write!(f, "layout={v} "),
        }
    }
}

/// What the reference CBLAS prints for an invalid layout (a printf format taking the value).
pub(super) const ILLEGAL_LAYOUT: &CStr = c"Illegal layout setting, %d\n";

/// op(X) as the caller gave it: a CBLAS enum or a Fortran character.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Op {
    N,
    T,
    C,
    /// Neither: the CBLAS value.
    Bad(c_int),
    /// Neither: the Fortran character.
    BadChar(u8),
}

impl Op {
    pub fn from_cblas(v: c_int) -> Op {
        match v {
            111 => Op::N,
            112 => Op::T,
            113 => Op::C,
            v => Op::Bad(v),
        }
    }

    /// A `glblasOperation_t` (C means T for real data).
    pub fn from_glblas(v: c_int) -> Op {
        match v {
            0 => Op::N,
            1 => Op::T,
            2 => Op::C,
            v => Op::Bad(v),
        }
    }

    /// # Safety
    /// `c` must point to a readable character (Fortran passes every argument by reference).
    pub unsafe fn from_fortran(c: *const c_char) -> Op {
        match *c as u8 {
            b'N' | b'n' => Op::N,
            b'T' | b't' => Op::T,
            b'C' | b'c' => Op::C,
            v => Op::BadChar(v),
        }
    }

    /// Transposed (C is T for real data); None when invalid.
    pub(super) fn transposed(self) -> Option<bool> {
        self.trans().map(Trans::transposed)
    }

    /// The operation; None when invalid.
    pub(super) fn trans(self) -> Option<Trans> {
        match self {
            Op::N => Some(Trans::N),
            Op::T => Some(Trans::T),
            Op::C => Some(Trans::C),
            Op::Bad(_) | Op::BadChar(_) => None,
        }
    }

    /// The invalid value, as the CBLAS message prints it.
    pub(super) fn bad(self) -> Option<c_int> {
        match self {
            Op::Bad(v) => Some(v),
            Op::BadChar(c) => Some(c_int::from(c)),
            Op::N | Op::T | Op::C => None,
        }
    }

    /// The other operation, as row-major CBLAS hands it to the column-major routine.
    pub(super) fn flipped(self) -> Op {
        match self {
            Op::N => Op::T,
            Op::T | Op::C => Op::N,
            bad => bad,
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Op::N => f.write_str("N"),
            Op::T => f.write_str("T"),
            Op::C => f.write_str("C"),
            Op::Bad(v) => write!(f, "{v}"),
            // The character itself where it cannot break the trace's `key=value` fields.
            Op::BadChar(c) if c.is_ascii_graphic() => write!(f, "{}", char::from(*c)),
            Op::BadChar(c) => write!(f, "{c:#04x}"),
        }
    }
}

/// What the reference CBLAS prints for an invalid trans, by the argument's name.
pub(super) const ILLEGAL_TRANSA: &CStr = c"Illegal TransA setting, %d\n";
pub(super) const ILLEGAL_TRANSB: &CStr = c"Illegal TransB setting, %d\n";
pub(super) const ILLEGAL_TRANS: &CStr = c"Illegal Trans setting, %d\n";

/// The two values a side, uplo or diag argument may take: the Fortran letters (upper case), the
/// CBLAS values and the glblas API's values of the same two, and what the reference CBLAS
/// prints for anything else.
pub struct Choices {
    letters: [u8; 2],
    values: [c_int; 2],
    glblas: [c_int; 2],
    pub(super) message: &'static CStr,
}

pub const SIDE: Choices = Choices {
    letters: *b"LR",
    values: [141, 142],
    glblas: [0, 1],
    message: c"Illegal Side setting, %d\n",
};
pub const UPLO: Choices = Choices {
    letters: *b"UL",
    values: [121, 122],
    glblas: [1, 0],
    message: c"Illegal Uplo setting, %d\n",
};
pub const DIAG: Choices = Choices {
    letters: *b"NU",
    values: [131, 132],
    glblas: [0, 1],
    message: c"Illegal Diag setting, %d\n",
};

/// A side, uplo or diag argument as the caller gave it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flag {
    /// A valid value: its Fortran letter, upper case.
    Is(u8),
    /// Neither CBLAS value.
    Bad(c_int),
    /// Neither Fortran letter.
    BadChar(u8),
}

impl Flag {
    pub fn from_cblas(choices: &Choices, v: c_int) -> Flag {
        Flag::from_values(choices, &choices.values, v)
    }

    /// A `glblasSideMode_t`, `glblasFillMode_t` or `glblasDiagType_t`.
    pub fn from_glblas(choices: &Choices, v: c_int) -> Flag {
        Flag::from_values(choices, &choices.glblas, v)
    }

    fn from_values(choices: &Choices, values: &[c_int; 2], v: c_int) -> Flag {
        match values.iter().position(|&c| c == v) {
            Some(i) => Flag::Is(choices.letters[i]),
            None => Flag::Bad(v),
        }
    }

    /// # Safety
    /// `c` must point to a readable character.
    pub unsafe fn from_fortran(choices: &Choices, c: *const c_char) -> Flag {
        let given = *c as u8;
        let letter = given.to_ascii_uppercase();
        if choices.letters.contains(&letter) {
            Flag::Is(letter)
        } else {
            Flag::BadChar(given)
        }
    }

    /// Whether this is the value of Fortran letter `letter`.
    pub(super) fn is(self, letter: u8) -> bool {
        self == Flag::Is(letter)
    }

    /// The other valid value (row-major CBLAS swaps side and uplo).
    pub(super) fn swapped(self, choices: &Choices) -> Flag {
        match self {
            Flag::Is(c) if c == choices.letters[0] => Flag::Is(choices.letters[1]),
            Flag::Is(_) => Flag::Is(choices.letters[0]),
            bad => bad,
        }
    }

    /// The invalid value, as the CBLAS message prints it.
    pub(super) fn bad(self) -> Option<c_int> {
        match self {
            Flag::Is(_) => None,
            Flag::Bad(v) => Some(v),
            Flag::BadChar(c) => Some(c_int::from(c)),
        }
    }
}

impl fmt::Display for Flag {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Flag::Is(c) => write!(f, "{}", char::from(*c)),
            Flag::Bad(v) => write!(f, "{v}"),
            Flag::BadChar(c) if c.is_ascii_graphic() => write!(f, "{}", char::from(*c)),
            Flag::BadChar(c) => write!(f, "{c:#04x}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Op::{N, T};

    #[test]
    fn fortran_characters_are_case_insensitive() {
        for (c, op) in [
            (b'N', N),
            (b'n', N),
            (b'T', T),
            (b't', T),
            (b'C', Op::C),
            (b'c', Op::C),
        ] {
            let ch = c as c_char;
            assert_eq!(unsafe { Op::from_fortran(&ch) }, op);
        }
        let x = b'X' as c_char;
        assert_eq!(unsafe { Op::from_fortran(&x) }, Op::BadChar(b'X'));
    }

    #[test]
    fn enum_arguments_parse_as_the_reference_does() {
        let c = |b: u8| b as c_char;
        let [l, r, u, nu] = [b'L', b'R', b'U', b'N'].map(Flag::Is);
        unsafe {
            assert_eq!(Flag::from_fortran(&SIDE, &c(b'r')), r);
            assert_eq!(Flag::from_fortran(&UPLO, &c(b'l')), l);
            assert_eq!(Flag::from_fortran(&DIAG, &c(b'u')), u);
            assert_eq!(Flag::from_fortran(&DIAG, &c(b'x')), Flag::BadChar(b'x'));
        }
        assert_eq!(Flag::from_cblas(&SIDE, 142), r);
        assert_eq!(Flag::from_cblas(&UPLO, 122), l);
        assert_eq!(Flag::from_cblas(&DIAG, 131), nu);
        assert_eq!(Flag::from_cblas(&DIAG, 121), Flag::Bad(121));
        assert_eq!(u.swapped(&UPLO), l);
        assert_eq!(l.swapped(&SIDE), r);
    }
}
