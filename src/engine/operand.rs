//! Operands: where a vector or matrix lives (host or device memory) and its shape, and the
//! window of its device buffer that a kernel views for it.

use super::barriers::Access;
use super::device::{DeviceInfo, STORAGE_READS};
use super::element::Element;
use super::gl_ext::GlExt;

/// The first element of an operand's storage (its lowest address).
#[derive(Clone, Copy, Debug)]
pub enum Mem<T: Element = f32> {
    Host(*mut T),
    /// `offset` elements into a device buffer of `len` elements.
    Device {
        buffer: glow::Buffer,
        offset: i64,
        len: i64,
    },
}

impl<T: Element> Mem<T> {
    pub fn advance(self, elems: i64) -> Mem<T> {
        match self {
            // SAFETY (of later use): callers stay inside the operand the pointer was checked for.
            Mem::Host(p) => Mem::Host(p.wrapping_offset(elems as isize)),
            Mem::Device {
                buffer,
                offset,
                len,
            } => Mem::Device {
                buffer,
                offset: offset + elems,
                len,
            },
        }
    }

    pub fn is_device(&self) -> bool {
        matches!(self, Mem::Device { .. })
    }

    /// The same buffer, for aliasing checks: host memory is one address space.
    pub fn same_space(&self, other: &Mem<T>) -> bool {
        match (self, other) {
            (Mem::Host(_), Mem::Host(_)) => true,
            (Mem::Device { buffer: a, .. }, Mem::Device { buffer: b, .. }) => a == b,
            _ => false,
        }
    }

    /// Position in its address space, in bytes, for overlap tests.
    pub fn byte_position(&self) -> i64 {
        match *self {
            Mem::Host(p) => p as i64,
            Mem::Device { offset, .. } => offset * T::SIZE,
        }
    }
}

/// A BLAS vector: `n` elements, logical element i at storage index `i*inc` (inc >= 0) or
/// `(n-1-i)*|inc|` (inc < 0), counted from `mem`.
#[derive(Clone, Copy, Debug)]
pub struct Vector<T: Element = f32> {
    pub mem: Mem<T>,
    pub n: i64,
    pub inc: i64,
}

impl<T: Element> Vector<T> {
    /// Elements from the lowest to the highest address touched.
    pub fn span(&self) -> i64 {
        if self.n == 0 {
            0
        } else {
            (self.n - 1) * self.inc.abs() + 1
        }
    }

    /// Logical elements `i0..i1` as a vector of their own.
    pub fn slice(&self, i0: i64, i1: i64) -> Vector<T> {
        let lowest = if self.inc >= 0 {
            i0 * self.inc
        } else {
            (self.n - i1) * -self.inc
        };
        Vector {
            mem: self.mem.advance(lowest),
            n: i1 - i0,
            inc: self.inc,
        }
    }

    /// Storage index (from `mem`) of logical element `i`.
    pub fn index(&self, i: i64) -> i64 {
        if self.inc < 0 {
            (self.n - 1 - i) * -self.inc
        } else {
            i * self.inc
        }
    }

    pub(super) fn first(&self) -> i64 {
        self.index(0)
    }
}

/// A column-major matrix as BLAS describes it: `rows`×`cols`, column stride `ld`.
#[derive(Clone, Copy, Debug)]
pub struct Matrix<T: Element = f32> {
    pub mem: Mem<T>,
    pub rows: i64,
    pub cols: i64,
    pub ld: i64,
}

impl<T: Element> Matrix<T> {
    pub fn span(&self) -> i64 {
        if self.rows == 0 || self.cols == 0 {
            0
        } else {
            (self.cols - 1) * self.ld + self.rows
        }
    }

    /// Whether each column's groups of 4 rows, from its first, are whole 16-byte texels of a
    /// view of the matrix's window: the window's start and the leading dimension are multiples
    /// of 4.
    pub fn columns_in_texels(&self, info: &DeviceInfo) -> bool {
        Window::of(info, self.mem, self.span()).start % 4 == 0 && self.ld % 4 == 0
    }

    /// Rows `r0..r1` of columns `c0..c1`.
    pub fn block(&self, r0: i64, r1: i64, c0: i64, c1: i64) -> Matrix<T> {
        Matrix {
            mem: self.mem.advance(r0 + c0 * self.ld),
            rows: r1 - r0,
            cols: c1 - c0,
            ld: self.ld,
        }
    }
}

/// Texture units the kernels bind operands to, in order (see `operand_units`).
pub const OPERAND_UNITS: usize = 3;

/// The part of a device buffer a kernel views for an operand (a buffer-texture or
/// storage-buffer view): `bytes` from `first_byte`, which is the operand's byte offset rounded
/// down to the window alignment, the operand's lowest element being element `start` of the
/// window.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub buffer: glow::Buffer,
    pub first_byte: i64,
    pub bytes: i64,
    pub start: i64,
}

impl Window {
    /// The window holding the `count` elements from device memory `mem`.
    pub fn of<T: Element>(info: &DeviceInfo, mem: Mem<T>, count: i64) -> Window {
        let Mem::Device { buffer, offset, .. } = mem else {
            unreachable!("host operands are staged before they are viewed")
        };
        // A multiple of the element size too: alignments are powers of two of at least 4
        // bytes, and a double's offset is a multiple of 8.
        let align = info.window_alignment();
        let first_byte = offset * T::SIZE / align * align;
        Window {
            buffer,
            first_byte,
            bytes: (offset + count.max(1)) * T::SIZE - first_byte,
            start: offset - first_byte / T::SIZE,
        }
    }

    /// Binds the window as shader storage block `binding`, which the next launch reads and
    /// writes.
    pub fn bind_storage(&self, ext: &GlExt, binding: u32) {
        ext.barriers.bound(self.buffer, Access::Storage);
        // SAFETY: the context is current; the range lies inside the buffer (which holds a
        // whole 16-byte texel from any window start: `buffers::storage_bytes`).
        unsafe {
            (ext.bind_buffer_range)(
                glow::SHADER_STORAGE_BUFFER,
                binding,
                self.buffer.0.get(),
                self.first_byte as isize,
                self.bytes.max(16) as isize,
            );
        }
    }

    /// Binds the window for the next launch to read as the operand of texture unit `unit`,
    /// where kernels read operands through storage blocks (see `STORAGE_READS`).
    pub fn bind_read(&self, ext: &GlExt, unit: u32) {
        self.bind_storage(ext, STORAGE_READS + unit);
    }
}
