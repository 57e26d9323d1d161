//! Storing a kernel's output: the bound render target read into an operand with glReadPixels,
//! straight into host memory, or into the device buffer bound as a pack buffer.

use std::ffi::c_void;

use glow::HasContext;

use super::barriers::Access;
use super::fault;
use super::gl_errors::check_gl;
use super::gl_ext::GlExt;
use super::operand::{Matrix, Mem, Vector};
use super::programs::Program;
use crate::status::Result;

/// How a vector result of `count` elements is laid out in the render target (see common.glsl).
#[derive(Clone, Copy, Debug)]
pub struct OutLayout {
    pub count: i64,
    pub width: i32,
    pub height: i32,
    tall: bool,
    reverse: bool,
    stride: i64,
}

impl OutLayout {
    /// Layout for storing into `dst`, in targets of at most `side`² (`dst.n` fits one).
    pub fn for_vector(dst: &Vector, side: i32) -> OutLayout {
        OutLayout::new(dst.n, dst.inc, side)
    }

    /// Unit-stride layout for `count` intermediate values.
    pub fn packed(count: i64, side: i32) -> OutLayout {
        OutLayout::new(count, 1, side)
    }

    /// Most elements one output with increment `inc` can have: a full target, or as many
    /// columns of fewer rows as keep each strided read within `pack_rows` (see there).
    pub fn capacity(inc: i64, side: i32) -> i64 {
        i64::from(side) * column_height(inc.saturating_abs().max(1), side)
    }

    fn new(count: i64, inc: i64, side: i32) -> OutLayout {
        debug_assert!(count <= OutLayout::capacity(inc, side));
        let side = i64::from(side);
        let stride = inc.saturating_abs().max(1);
        let tall = stride > 1;
        let column = column_height(stride, side as i32);
        let (width, height) = if tall {
            let h = count.min(column);
            ((count + h - 1) / h, h)
        } else {
            let w = count.min(side);
            (w, (count + w - 1) / w)
        };
        OutLayout {
            count,
            width: width as i32,
            height: height as i32,
            tall,
            reverse: inc < 0,
            stride,
        }
    }

    pub fn set_uniforms(&self, gl: &glow::Context, p: &Program) {
        p.set_i32(gl, "uOutCount", self.count as i32);
        p.set_i32(gl, "uOutWidth", self.width);
        p.set_i32(gl, "uOutTall", if self.tall { self.height } else { 0 });
        p.set_i32(gl, "uOutReverse", i32::from(self.reverse));
    }

    /// Stores the bound target's values into `dst` (in place, touching only its elements).
    pub fn store(&self, gl: &glow::Context, ext: &GlExt, dst: &Vector) -> Result<()> {
        debug_assert_eq!(dst.n, self.count);
        let w = i64::from(self.width);
        let h = i64::from(self.height);
        with_pack_destination(gl, ext, dst.mem, |base| {
            let pieces: Vec<(i32, i32, i32, i32, i64)> = if self.tall {
                (0..w)
                    .map(|c| {
                        (
                            c as i32,
                            0,
                            1,
                            (self.count - c * h).min(h) as i32,
                            c * h * self.stride,
                        )
                    })
                    .collect()
            } else {
                let full = self.count / w;
                let rest = self.count % w;
                let mut v = vec![(0, 0, w as i32, full as i32, 0)];
                if rest > 0 {
                    v.push((0, full as i32, rest as i32, 1, full * w));
                }
                v
            };
            // SAFETY: the context is current; each piece lands inside `dst` (row length = stride).
            unsafe {
                // Columns of one texel (an over-long stride) need no row length.
                let row_length = if self.tall && self.height > 1 {
                    self.stride as i32
                } else {
                    0
                };
                gl.pixel_store_i32(glow::PACK_ROW_LENGTH, row_length);
                for (x, y, pw, ph, at) in pieces {
                    if pw > 0 && ph > 0 {
                        ext.read_pixels(gl, x, y, pw, ph, glow::RED, glow::FLOAT, base(at));
                    }
                }
                gl.pixel_store_i32(glow::PACK_ROW_LENGTH, 0);
            }
        })
    }
}

/// Stores the bound target's `m.rows`×`m.cols` corner into matrix `m` (rows beyond `m.rows`
/// of each column untouched): a target row is a column of `m`, `ld` floats apart, read in
/// groups of as many as `pack_rows` allows.
pub fn store_matrix(gl: &glow::Context, ext: &GlExt, m: &Matrix) -> Result<()> {
    with_pack_destination(gl, ext, m.mem, |base| {
        let rows = Rows {
            width: m.rows as i32,
            height: m.cols,
            format: glow::RED,
            stride: m.ld,
        };
        // SAFETY: the context is current; each of a read's rows lands in one column.
        unsafe { rows.read(gl, ext, base, 0) }
    })
}

/// Rows 0..`height` of the bound read buffer, `width` pixels of `format` (RED or RGBA floats)
/// each, to be stored `stride` floats apart.
struct Rows {
    width: i32,
    height: i64,
    format: u32,
    stride: i64,
}

impl Rows {
    /// Reads the rows into the pack destination `base`, row 0 at `at` floats, in groups of as
    /// many rows as `pack_rows` allows (`GL_PACK_ROW_LENGTH` = the stride in pixels).
    ///
    /// # Safety
    /// The context is current and every row's pixels land inside the caller's output.
    unsafe fn read(
        &self,
        gl: &glow::Context,
        ext: &GlExt,
        base: &dyn Fn(i64) -> *mut c_void,
        at: i64,
    ) {
        let floats = if self.format == glow::RGBA { 4 } else { 1 };
        let group = pack_rows(self.stride, self.height);
        let row_length = if group > 1 { self.stride / floats } else { 0 };
        gl.pixel_store_i32(glow::PACK_ROW_LENGTH, row_length as i32);
        let mut y = 0;
        while y < self.height {
            let rows = group.min(self.height - y);
            ext.read_pixels(
                gl,
                0,
                y as i32,
                self.width,
                rows as i32,
                self.format,
                glow::FLOAT,
                base(at + y * self.stride),
            );
            y += rows;
        }
        gl.pixel_store_i32(glow::PACK_ROW_LENGTH, 0);
    }
}

/// How many rows (at most `rows`) one glReadPixels may write `stride` floats apart: drivers
/// compute a read's byte offsets in GLint arithmetic (Mesa's row stride is a GLint), so the
/// whole read must span at most i32::MAX bytes; a single row needs no row length at all.
fn pack_rows(stride: i64, rows: i64) -> i64 {
    (i64::from(i32::MAX) / 4 / stride.max(1)).clamp(1, rows.max(1))
}

/// Elements per target column of a strided vector output (see `pack_rows`).
fn column_height(stride: i64, side: i32) -> i64 {
    pack_rows(stride, i64::from(side))
}

/// Stores the bound `cols`-attachment RGBA target of a blocked kernel into matrix `m`: attachment
/// t's texel (x, y) holds rows 4x..4x+3 of column y*cols + t. Only whole texels are stored (rows up
/// to `m.rows` rounded down to 4; the caller stores the rest), and each attachment's rows of texels
/// land `cols` columns apart (GL_PACK_ROW_LENGTH = cols*ld/4 pixels, in reads of at most i32::MAX
/// bytes: see `pack_rows`), so rows beyond `m.rows` and columns beyond `m.cols` are never written.
pub fn store_blocks(gl: &glow::Context, ext: &GlExt, m: &Matrix, cols: i64) -> Result<()> {
    let width = (m.rows / 4) as i32;
    if width == 0 {
        return Ok(());
    }
    with_pack_destination(gl, ext, m.mem, |base| {
        for t in 0..cols.min(m.cols) {
            // Rows of texels of attachment t: columns t, t + cols, ... below m.cols, so rows
            // `cols` columns apart (a multiple of 4 floats: `cols` is).
            let rows = Rows {
                width,
                height: (m.cols - t + cols - 1) / cols,
                format: glow::RGBA,
                stride: cols.saturating_mul(m.ld),
            };
            // SAFETY: the context is current; every texel read lands in rows 0..m.rows of a
            // column of `m`.
            unsafe {
                gl.read_buffer(glow::COLOR_ATTACHMENT0 + t as u32);
                rows.read(gl, ext, base, t * m.ld);
                gl.read_buffer(glow::COLOR_ATTACHMENT0);
            }
        }
    })
}

/// Stores the bound RGBA target's `width`×`height` corner into `dst`, packed (texel (x, y) at
/// elements 4*(x + y*width)..+4).
pub fn store_texels(
    gl: &glow::Context,
    ext: &GlExt,
    dst: Mem,
    width: i32,
    height: i32,
) -> Result<()> {
    with_pack_destination(gl, ext, dst, |base| {
        // SAFETY: the context is current; the caller's `dst` holds 4*width*height elements.
        unsafe { ext.read_pixels(gl, 0, 0, width, height, glow::RGBA, glow::FLOAT, base(0)) }
    })
}

/// Stores the bound RGBA target's vector result into the `n` consecutive elements from `dst`:
/// texel t (rows of `width` texels) holds elements 4t - `shift` .. 4t - `shift` + 3. Whole
/// texels go straight into `dst` (one read per run of rows); the partial texels at the two ends
/// are read aside (into a local copy for host memory, into the scratch buffer `edges` for device
/// memory, whose valid floats are then copied on the device), so nothing outside the n
/// elements is written.
pub fn store_texel_run(
    gl: &glow::Context,
    ext: &GlExt,
    dst: Mem,
    n: i64,
    shift: i64,
    width: i32,
    edges: Option<glow::Buffer>,
) -> Result<()> {
    let w = i64::from(width);
    // Whole texels [t0, t1).
    let t0 = i64::from(shift > 0);
    let t1 = (n + shift) / 4;
    with_pack_destination(gl, ext, dst, |base| {
        let mut t = t0;
        while t < t1 {
            // Up to the end of t's row, or whole rows from the start of one.
            let (x, y) = (t % w, t / w);
            let (pw, ph) = if x > 0 || t1 - t < w {
                ((w - x).min(t1 - t), 1)
            } else {
                (w, (t1 - t) / w)
            };
            // SAFETY: the context is current; texels t..t + pw*ph hold elements of `dst`.
            unsafe {
                ext.read_pixels(
                    gl,
                    x as i32,
                    y as i32,
                    pw as i32,
                    ph as i32,
                    glow::RGBA,
                    glow::FLOAT,
                    base(4 * t - shift),
                )
            };
            t += pw * ph;
        }
    })?;
    for (k, t) in partial_texels(n, shift).into_iter().enumerate() {
        // Elements lo..hi of dst, components lo + shift - 4t.. of the texel.
        let lo = (4 * t - shift).max(0);
        let hi = (4 * t - shift + 4).min(n);
        let comp = lo + shift - 4 * t;
        let (x, y) = ((t % w) as i32, (t / w) as i32);
        match dst {
            Mem::Host(p) => {
                let mut texel = [0.0f32; 4];
                // SAFETY: the context is current; one texel into a local array of 4 floats,
                // then its valid components into dst's elements lo..hi.
                unsafe {
                    gl.bind_buffer(glow::PIXEL_PACK_BUFFER, None);
                    ext.read_pixels(
                        gl,
                        x,
                        y,
                        1,
                        1,
                        glow::RGBA,
                        glow::FLOAT,
                        texel.as_mut_ptr().cast(),
                    );
                    check_gl(gl, "glReadPixels")?;
                    std::ptr::copy_nonoverlapping(
                        texel.as_ptr().add(comp as usize),
                        p.add(lo as usize),
                        (hi - lo) as usize,
                    );
                }
            }
            Mem::Device { buffer, offset, .. } => {
                let edges = edges.expect("device stores get an edge buffer");
                // SAFETY: the context is current; texel k of `edges` (which holds two), then
                // its valid components into dst's elements lo..hi.
                unsafe {
                    ext.barriers.use_now(gl, edges, Access::Pack);
                    gl.bind_buffer(glow::PIXEL_PACK_BUFFER, Some(edges));
                    ext.read_pixels(
                        gl,
                        x,
                        y,
                        1,
                        1,
                        glow::RGBA,
                        glow::FLOAT,
                        (16 * k) as *mut c_void,
                    );
                    gl.bind_buffer(glow::PIXEL_PACK_BUFFER, None);
                    ext.barriers.use_now(gl, edges, Access::Copy);
                    ext.barriers.use_now(gl, buffer, Access::Copy);
                    gl.bind_buffer(glow::COPY_READ_BUFFER, Some(edges));
                    gl.bind_buffer(glow::COPY_WRITE_BUFFER, Some(buffer));
                    (ext.copy_buffer_sub_data)(
                        glow::COPY_READ_BUFFER,
                        glow::COPY_WRITE_BUFFER,
                        ((4 * k as i64 + comp) * 4) as isize,
                        ((offset + lo) * 4) as isize,
                        ((hi - lo) * 4) as isize,
                    );
                    gl.bind_buffer(glow::COPY_READ_BUFFER, None);
                    gl.bind_buffer(glow::COPY_WRITE_BUFFER, None);
                }
                check_gl(gl, "edge texels")?;
            }
        }
    }
    Ok(())
}

/// The texels of a run of `n` elements starting `shift` elements into texel 0 that hold fewer
/// than four of them: at most the first and the last.
pub fn partial_texels(n: i64, shift: i64) -> Vec<i64> {
    let (first, end) = (i64::from(shift > 0), (n + shift) / 4);
    let mut partial = vec![];
    if first > 0 {
        partial.push(0);
    }
    if (n + shift) % 4 != 0 && end >= first {
        partial.push(end);
    }
    partial
}

/// Runs `read` with the destination pointer for glReadPixels: host memory directly, or the
/// device buffer bound as GL_PIXEL_PACK_BUFFER (the pointer is then a byte offset).
fn with_pack_destination(
    gl: &glow::Context,
    ext: &GlExt,
    mem: Mem,
    read: impl FnOnce(&dyn Fn(i64) -> *mut c_void),
) -> Result<()> {
    match mem {
        Mem::Host(p) => {
            read(&|at| p.wrapping_offset(at as isize).cast());
            // One word only: the fragment pipeline's results are f32, and the next word may be
            // outside a strided output.
            // SAFETY: the destination's first element, one of the stored results.
            unsafe { fault::read_back(p.cast(), 1) };
        }
        Mem::Device { buffer, offset, .. } => {
            ext.barriers.use_now(gl, buffer, Access::Pack);
            // SAFETY: the context is current.
            unsafe { gl.bind_buffer(glow::PIXEL_PACK_BUFFER, Some(buffer)) };
            read(&|at| ((offset + at) * 4) as usize as *mut c_void);
            // SAFETY: as above.
            unsafe { gl.bind_buffer(glow::PIXEL_PACK_BUFFER, None) };
        }
    }
    check_gl(gl, "glReadPixels")
}
