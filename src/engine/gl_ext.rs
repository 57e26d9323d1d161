//! GL entry points that glow narrows to 32-bit sizes or offsets (`glBindBufferRange`, …), or
//! does not wrap (`glTexBufferRange`). Device buffers may exceed 2 GiB, so these take `isize`.

use std::ffi::c_void;

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
    /// The scenes' fences held on llvmpipe; every glReadPixels goes through `read_pixels`.
    pub scenes: SceneFences,
}

impl GlExt {
    /// Loads the entry points through `lookup` (eglGetProcAddress); `None` if a required one is
    /// missing. Which optional ones to load follows the context's API and features, not the
    /// lookup: a dispatching loader returns a stub for any name.
    pub fn load(
        lookup: impl Fn(&str) -> *const c_void,
        gles: bool,
        texture_buffer_range: bool,
        buffer_storage: bool,
        scenes: SceneFences,
    ) -> Option<GlExt> {
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
                get_buffer_sub_data: if gles {
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
                tex_buffer_range: if texture_buffer_range {
                    get("glTexBufferRange")
                        .map(|p| std::mem::transmute::<*const c_void, TexBufferRange>(p))
                } else {
                    None
                },
                read_pixels: std::mem::transmute::<*const c_void, ReadPixels>(get("glReadPixels")?),
                bind_buffer_range: std::mem::transmute::<*const c_void, BindBufferRange>(get(
                    "glBindBufferRange",
                )?),
                buffer_storage: if buffer_storage {
                    get("glBufferStorage")
                        .map(|p| std::mem::transmute::<*const c_void, BufferStorage>(p))
                } else {
                    None
                },
                scenes,
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
}
