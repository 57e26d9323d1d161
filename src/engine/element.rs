//! The element types kernels compute in, and everything that differs between them. Storage
//! ([`Element`]): size, how a buffer texture or image views one, and the shader define that
//! selects the variant of a kernel's source (`shaders/real.glsl`). Arithmetic ([`Real`]): the
//! precision, how a uniform carries a scalar, and conversions. Engine paths generic over
//! [`Real`] are the one path for both precisions. What BLAS calls compute on ([`Scalar`]): a
//! real, or a [`Complex`] of one, which the engine computes on as its real view (each element's
//! two parts in consecutive rows).

use glow::HasContext;

/// How an element is stored in GL memory and seen by shaders.
pub trait Element: Copy + Default + std::fmt::Debug + Send + Sync + 'static {
    /// Bytes per element.
    const SIZE: i64;
    /// Buffer-texture and image format of one element per texel: R32F, or RG32UI for a double
    /// (its two 32-bit halves, joined by `packDouble2x32`: no GL format holds a double).
    const FORMAT: u32;
    /// Format of a 16-byte texel: four floats (RGBA32F) or two doubles (RGBA32UI).
    const FORMAT16: u32;
    /// What `shaders/real.glsl` needs to be told: nothing for float, `DOUBLE` for double.
    const DEFINES: &'static [(&'static str, &'static str)];

    /// 4-byte words that `n` elements take: the unit scratch and staging buffers are sized in.
    fn words(n: i64) -> i64 {
        n * (Self::SIZE / 4)
    }
}

/// The precision of a real type: what decides its arithmetic, never its size.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Precision {
    Single,
    Double,
}

impl Precision {
    /// Its place in what is kept per precision (`tuning::Tuning`'s arrays): single first.
    pub fn index(self) -> usize {
        usize::from(self == Precision::Double)
    }
}

/// A BLAS element type: `f32`, `f64`, or the [`Complex`] of either.
pub trait Scalar:
    Element
    + PartialEq
    + std::fmt::Display
    + std::ops::Add<Output = Self>
    + std::ops::Mul<Output = Self>
{
    /// The real type of its parts, which the engine computes in.
    type Real: Real;
    const COMPLEX: bool;
    const ZERO: Self;
    const ONE: Self;

    /// Real and imaginary parts (0 for a real).
    fn parts(self) -> [Self::Real; 2];

    /// The element of real value `re`.
    fn from_real(re: Self::Real) -> Self;

    /// The element of parts `re` and `im` (a real one `re`, `im` ignored).
    fn from_parts(re: Self::Real, im: Self::Real) -> Self;

    /// The complex conjugate (a real itself).
    fn conj(self) -> Self;

    /// The parts in double, exactly (0 for a real's imaginary part).
    fn f64_parts(self) -> [f64; 2] {
        self.parts().map(Real::to_f64)
    }

    /// The element of parts given in double, each rounded to `Real` (a real one takes the
    /// first).
    fn from_f64_parts([re, im]: [f64; 2]) -> Self {
        Self::from_parts(Self::Real::from_f64(re), Self::Real::from_f64(im))
    }

    /// Sets uniform `location` (declared `ELEM_UNIFORM` in the shader, `REAL_UNIFORM` for a
    /// real) to `v`.
    ///
    /// # Safety
    /// The program the location belongs to is bound, and the context is current.
    unsafe fn set_uniform(gl: &glow::Context, location: Option<&glow::UniformLocation>, v: Self);
}

/// `f32` or `f64`.
pub trait Real:
    Element
    + Scalar<Real = Self>
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::AddAssign
    + std::ops::Neg<Output = Self>
{
    const PRECISION: Precision;

    /// The value, exactly (a float widens without rounding).
    fn to_f64(self) -> f64;

    /// `v` rounded to this precision (host-side sums are kept in double).
    fn from_f64(v: f64) -> Self;
}

impl Element for f32 {
    const SIZE: i64 = 4;
    const FORMAT: u32 = glow::R32F;
    const FORMAT16: u32 = glow::RGBA32F;
    const DEFINES: &'static [(&'static str, &'static str)] = &[];
}

impl Scalar for f32 {
    type Real = f32;
    const COMPLEX: bool = false;
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;

    fn parts(self) -> [f32; 2] {
        [self, 0.0]
    }

    fn from_real(re: f32) -> f32 {
        re
    }

    fn from_parts(re: f32, _: f32) -> f32 {
        re
    }

    fn conj(self) -> f32 {
        self
    }

    unsafe fn set_uniform(gl: &glow::Context, location: Option<&glow::UniformLocation>, v: f32) {
        gl.uniform_1_f32(location, v)
    }
}

impl Real for f32 {
    const PRECISION: Precision = Precision::Single;

    fn to_f64(self) -> f64 {
        f64::from(self)
    }

    fn from_f64(v: f64) -> f32 {
        v as f32
    }
}

impl Element for f64 {
    const SIZE: i64 = 8;
    const FORMAT: u32 = glow::RG32UI;
    const FORMAT16: u32 = glow::RGBA32UI;
    const DEFINES: &'static [(&'static str, &'static str)] = &[("DOUBLE", "")];
}

impl Scalar for f64 {
    type Real = f64;
    const COMPLEX: bool = false;
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;

    fn parts(self) -> [f64; 2] {
        [self, 0.0]
    }

    fn from_real(re: f64) -> f64 {
        re
    }

    fn from_parts(re: f64, _: f64) -> f64 {
        re
    }

    fn conj(self) -> f64 {
        self
    }

    /// As a uvec2 of the double's halves (`halves`), exactly: glUniform1d would do, but it is
    /// not in every loader's core set.
    unsafe fn set_uniform(gl: &glow::Context, location: Option<&glow::UniformLocation>, v: f64) {
        let [low, high] = halves(v);
        gl.uniform_2_u32(location, low, high)
    }
}

impl Real for f64 {
    const PRECISION: Precision = Precision::Double;

    fn to_f64(self) -> f64 {
        self
    }

    fn from_f64(v: f64) -> f64 {
        v
    }
}

/// A complex number as BLAS stores it: the real part, then the imaginary part (C's `float
/// _Complex`, Fortran's COMPLEX).
#[repr(C)]
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub struct Complex<R> {
    pub re: R,
    pub im: R,
}

impl<R: Real> Scalar for Complex<R> {
    type Real = R;
    const COMPLEX: bool = true;
    const ZERO: Self = Complex {
        re: R::ZERO,
        im: R::ZERO,
    };
    const ONE: Self = Complex {
        re: R::ONE,
        im: R::ZERO,
    };

    fn parts(self) -> [R; 2] {
        [self.re, self.im]
    }

    fn from_real(re: R) -> Self {
        Complex { re, im: R::ZERO }
    }

    fn from_parts(re: R, im: R) -> Self {
        Complex { re, im }
    }

    fn conj(self) -> Self {
        Complex {
            re: self.re,
            im: -self.im,
        }
    }

    /// As a vec2 of the parts, or a double pair as a uvec4 of both doubles' `halves`.
    unsafe fn set_uniform(gl: &glow::Context, location: Option<&glow::UniformLocation>, v: Self) {
        let [re, im] = v.f64_parts();
        match R::PRECISION {
            Precision::Single => gl.uniform_2_f32(location, re as f32, im as f32),
            Precision::Double => {
                let ([re_low, re_high], [im_low, im_high]) = (halves(re), halves(im));
                gl.uniform_4_u32(location, re_low, re_high, im_low, im_high)
            }
        }
    }
}

/// Stored as its two parts, one element per texel: RG32F, or for a double complex the four
/// 32-bit halves of an RGBA32UI texel. The `COMPLEX` define makes `shaders/real.glsl`'s
/// `ELEM` its pair of parts. Kernels that read four elements at a time take real operands only.
impl<R: Real> Element for Complex<R> {
    const SIZE: i64 = 2 * R::SIZE;
    const FORMAT: u32 = match R::PRECISION {
        Precision::Single => glow::RG32F,
        Precision::Double => glow::RGBA32UI,
    };
    const FORMAT16: u32 = R::FORMAT16;
    const DEFINES: &'static [(&'static str, &'static str)] = match R::PRECISION {
        Precision::Single => &[("COMPLEX", "")],
        Precision::Double => &[("COMPLEX", ""), ("DOUBLE", "")],
    };
}

impl<R: Real> std::ops::Add for Complex<R> {
    type Output = Self;

    fn add(self, o: Self) -> Self {
        Complex {
            re: self.re + o.re,
            im: self.im + o.im,
        }
    }
}

/// Fortran's product, (ar·br − ai·bi, ar·bi + ai·br), each product rounded (Rust fuses none).
impl<R: Real> std::ops::Mul for Complex<R> {
    type Output = Self;

    fn mul(self, o: Self) -> Self {
        Complex {
            re: self.re * o.re + -(self.im * o.im),
            im: self.re * o.im + self.im * o.re,
        }
    }
}

/// As the trace writes it: `re+imi` (no spaces, which separate its fields).
impl<R: Real> std::fmt::Display for Complex<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let sign = if self.im.to_f64().is_sign_negative() {
            ""
        } else {
            "+"
        };
        write!(f, "{}{sign}{}i", self.re, self.im)
    }
}

/// A double's 32-bit halves, low word first (`packDouble2x32`'s order): how a uniform carries
/// one.
fn halves(v: f64) -> [u32; 2] {
    let bits = v.to_bits();
    [bits as u32, (bits >> 32) as u32]
}

/// Bytes per texel of buffer-texture format `format`, for the formats operands and panels are
/// viewed as.
pub fn texel_bytes(format: u32) -> i64 {
    match format {
        glow::RGBA32F | glow::RGBA32UI => 16,
        glow::RG32UI | glow::RG32F => 8,
        _ => 4,
    }
}
