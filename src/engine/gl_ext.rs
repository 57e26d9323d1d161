//! GL entry points that glow narrows to 32-bit sizes or offsets (`glBindBufferRange`, …), or
//! does not wrap (`glTexBufferRange`). Device buffers may exceed 2 GiB, so these take `isize`.
//! Also the calls every use of some entry points must go through: glReadPixels (llvmpipe's
//! scene fences), pointing a buffer texture (virgl), deleting a buffer (the barrier
//! bookkeeping).

use std::ffi::c_void;

use glow::HasContext;

use super::barriers::Barriers;
use super::device::DeviceInfo;
use super::scene_fences::SceneFences;

type BufferData = unsafe extern "system" fn(u32, isize, *const c_void, u32);
type BufferSubData = unsafe extern "system" fn(u32, isize, isize, *const c_void);
type GetBufferSubData = unsafe extern "system" fn(u32, isize, isize, *mut c_void);
type CopyBufferSubData = unsafe extern "system" fn(u32, u32, isize, isize, isize);
type MapBufferRange = unsafe extern "system" fn(u32, isize, isize, u32) -> *mut c_void;
type TexBufferRange = unsafe extern "system" fn(u32, u32, u32, isize, isize);
type BindBufferRange = unsafe extern "system" fn(u32, u32, u32, isize, isize);
type BufferStorage = unsafe extern "system" fn(u32, isize, *const c_void, u32);
type ReadPixels = unsafe extern "system" fn(i32, i32, i32, i32, u32, u32, *mut c_void);

pub struct GlExt {
    pub buffer_data: BufferData,
    pub buffer_sub_data: BufferSubData,
    /// Absent on GLES, where reads go through `map_buffer_range`.
    pub get_buffer_sub_data: Option<GetBufferSubData>,
    pub copy_buffer_sub_data: CopyBufferSubData,
    pub map_buffer_range: MapBufferRange,
    pub tex_buffer_range: Option<TexBufferRange>,
    read_pixels: ReadPixels,
    pub bind_buffer_range: BindBufferRange,
    /// `glBufferStorage` (GL 4.4 / ARB_buffer_storage), for persistently mapped staging.
    pub buffer_storage: Option<BufferStorage>,
    /// Whether compute kernels read operands through storage blocks rather than buffer
    /// textures (`DeviceInfo::storage_operands`): what scratch views bind.
    pub storage_operands: bool,
    /// Whether staging uploads go through `glBufferSubData` (`Workarounds::upload_with_sub_data`).
    pub upload_with_sub_data: bool,
    /// Whether a buffer texture is detached before it views another buffer (virgl: see
    /// `point_buffer_texture`).
    detach_buffer_textures: bool,
    /// The scenes' fences held on llvmpipe; every glReadPixels goes through `read_pixels`.
    pub scenes: SceneFences,
    /// The memory barriers buffers need; every buffer is deleted through `delete_buffer`.
    pub barriers: Barriers,
}

impl GlExt {
    /// Loads the entry points through `lookup` (eglGetProcAddress); `None` if a required one is
    /// missing. Which optional ones to load follows the device's API and features (`info`), not
    /// the lookup: a dispatching loader returns a stub for any name. The device's workarounds
    /// decide the bookkeeping its driver's faults need (scene fences, settled writes, detached
    /// views, uploads).
    pub fn load(lookup: impl Fn(&str) -> *const c_void, info: &DeviceInfo) -> Option<GlExt> {
        let workarounds = info.workarounds;
        let get = |name: &str| {
            let p = lookup(name);
            (!p.is_null()).then_some(p)
        };
        // SAFETY: each pointer is the GL entry point of that name, whose C signature the type spells.
        unsafe {
            Some(GlExt {
                buffer_data: std::mem::transmute::<*const c_void, BufferData>(get("glBufferData")?),
                buffer_sub_data: std::mem::transmute::<*const c_void, BufferSubData>(get(
                    "glBufferSubData",
                )?),
                get_buffer_sub_data: if info.gles {
                    None
                } else {
                    get("glGetBufferSubData")
                        .map(|p| std::mem::transmute::<*const c_void, GetBufferSubData>(p))
                },
                copy_buffer_sub_data: std::mem::transmute::<*const c_void, CopyBufferSubData>(get(
                    "glCopyBufferSubData",
                )?),
                map_buffer_range: std::mem::transmute::<*const c_void, MapBufferRange>(get(
                    "glMapBufferRange",
                )?),
                tex_buffer_range: if info.texture_buffer_range {
                    get("glTexBufferRange")
                        .map(|p| std::mem::transmute::<*const c_void, TexBufferRange>(p))
                } else {
                    None
                },
                read_pixels: std::mem::transmute::<*const c_void, ReadPixels>(get("glReadPixels")?),
                bind_buffer_range: std::mem::transmute::<*const c_void, BindBufferRange>(get(
                    "glBindBufferRange",
                )?),
                buffer_storage: if info.buffer_storage {
                    get("glBufferStorage")
                        .map(|p| std::mem::transmute::<*const c_void, BufferStorage>(p))
                } else {
                    None
                },
                storage_operands: info.storage_operands,
                upload_with_sub_data: workarounds.upload_with_sub_data,
                detach_buffer_textures: workarounds.shared_buffer_views,
                scenes: SceneFences::new(workarounds.hold_scene_fences),
                barriers: Barriers::new(workarounds.settle_writes),
            })
        }
    }

    /// glReadPixels into `dst` (a host pointer, or an offset into the bound pack buffer), then
    /// holds the fence of the scene Mesa may have drawn for it (see `scene_fences`).
    ///
    /// # Safety
    /// The context is current and the pixels land inside memory the caller may write.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn read_pixels(
        &self,
        gl: &glow::Context,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        dst: *mut c_void,
    ) {
        (self.read_pixels)(x, y, width, height, format, ty, dst);
        self.scenes.hold(gl);
    }

    /// Points the buffer texture bound to GL_TEXTURE_BUFFER at `bytes` of `buffer` from
    /// `first_byte` (whole texels of `format`, at least one: every buffer has one from any window
    /// start, see `buffers::storage_bytes`), or at the whole buffer without `glTexBufferRange`.
    ///
    /// On virgl (Mesa 22.3 with virglrenderer 0.10.4) a buffer texture pointed at another buffer
    /// with the same format and range went on reading wrong elements in later draws (saxpy's x
    /// read at 3i + 1 instead of 2i, from the second of two identical calls on fresh buffers;
    /// `tests/api.rs`, `saxpy_every_placement_and_stride`), whether the fault is the guest
    /// driver's reuse of the texture's view or the host's: detaching the texture first makes
    /// Mesa drop its views, and the next one is made afresh.
    pub fn point_buffer_texture(
        &self,
        gl: &glow::Context,
        format: u32,
        buffer: glow::Buffer,
        first_byte: i64,
        bytes: i64,
    ) {
        let texel = super::element::texel_bytes(format);
        // SAFETY: the context is current; the caller bound a buffer texture of ours, and the
        // range lies in the buffer.
        unsafe {
            if self.detach_buffer_textures {
                gl.tex_buffer(glow::TEXTURE_BUFFER, format, None);
            }
            match self.tex_buffer_range {
                Some(tex_buffer_range) => tex_buffer_range(
                    glow::TEXTURE_BUFFER,
                    format,
                    buffer.0.get(),
                    first_byte as isize,
                    bytes.max(texel) as isize,
                ),
                None => gl.tex_buffer(glow::TEXTURE_BUFFER, format, Some(buffer)),
            }
        }
    }

    /// Deletes a buffer of ours, which the barrier bookkeeping then forgets (GL may give its
    /// name to a new buffer).
    pub fn delete_buffer(&self, gl: &glow::Context, buffer: glow::Buffer) {
        self.barriers.forget(buffer);
        // SAFETY: the context is current; the caller is done with the buffer.
        unsafe { gl.delete_buffer(buffer) };
    }
}
