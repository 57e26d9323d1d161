//! Finding the CPU BLAS's definition of a symbol, which the call is forwarded to when it does not
//! go to GL. In order: the library `GLBLAS_CPU_BLAS` names; the next definition in the process
//! (`RTLD_NEXT`: what the program would have called without the preload); any loaded object
//! that defines it (Python extensions load their BLAS privately, out of `RTLD_NEXT`'s sight);
//! the usual sonames. A definition inside glblas itself is never taken. `GLBLAS_CPU_BLAS=none`
//! means there is no CPU BLAS.

use std::ffi::{c_char, c_int, c_void, CStr, CString};

use once_cell::sync::OnceCell;

/// Sonames tried last, most capable first.
const USUAL_SONAMES: [&CStr; 2] = [c"libopenblas.so.0", c"libblas.so.3"];

/// The address of `name` in the CPU BLAS, if any library provides it.
pub fn resolve(name: &CStr) -> Option<*const c_void> {
    if std::env::var_os("GLBLAS_CPU_BLAS").is_some_and(|v| v == "none") {
        return None;
    }
    named_library()
        .and_then(|h| lookup(h, name))
        // SAFETY: RTLD_NEXT is a valid pseudo-handle for dlsym.
        .or_else(|| lookup(libc::RTLD_NEXT, name))
        .or_else(|| in_loaded_objects(name))
        .or_else(|| {
            USUAL_SONAMES.iter().find_map(|so| {
                open(so, libc::RTLD_NOW | libc::RTLD_LOCAL).and_then(|h| lookup(h, name))
            })
        })
}

/// The library `GLBLAS_CPU_BLAS` names (path or soname), opened once.
fn named_library() -> Option<*mut c_void> {
    static HANDLE: OnceCell<usize> = OnceCell::new();
    let h = *HANDLE.get_or_init(|| {
        std::env::var("GLBLAS_CPU_BLAS")
            .ok()
            .filter(|v| !v.is_empty())
            .and_then(|v| CString::new(v).ok())
            .and_then(|v| open(&v, libc::RTLD_NOW | libc::RTLD_LOCAL))
            .map_or(0, |h| h as usize)
    });
    (h != 0).then_some(h as *mut c_void)
}

fn open(name: &CStr, flags: c_int) -> Option<*mut c_void> {
    // SAFETY: a NUL-terminated name; the handle is kept for the life of the process.
    let h = unsafe { libc::dlopen(name.as_ptr(), flags) };
    (!h.is_null()).then_some(h)
}

/// `name` in `handle`'s scope, unless that definition is glblas's own.
fn lookup(handle: *mut c_void, name: &CStr) -> Option<*const c_void> {
    // SAFETY: a valid handle or pseudo-handle and a NUL-terminated name.
    let p = unsafe { libc::dlsym(handle, name.as_ptr()) };
    (!p.is_null() && !is_glblas(p as usize)).then_some(p.cast_const())
}

/// The base address of the object containing address `p` (never dereferenced).
pub fn object_base(p: usize) -> Option<usize> {
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: dladdr only reads the loader's tables and writes `info`.
    let found = unsafe { libc::dladdr(p as *const c_void, &mut info) } != 0;
    found.then_some(info.dli_fbase as usize)
}

/// The file name of the object containing address `p` (never dereferenced).
pub fn object_name(p: usize) -> Option<CString> {
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: as above; dli_fname points into the loader's tables while the object is loaded.
    unsafe {
        if libc::dladdr(p as *const c_void, &mut info) == 0 || info.dli_fname.is_null() {
            return None;
        }
        Some(CStr::from_ptr(info.dli_fname).to_owned())
    }
}

/// Whether address `p` lies in this library.
pub fn is_glblas(p: usize) -> bool {
    let own = object_base(is_glblas as *const () as usize);
    own.is_some() && object_base(p) == own
}

/// `name` in the first loaded shared object (other than glblas) that defines it. The reference
/// taken on that object (an `RTLD_NOLOAD` open) is kept, so it stays loaded while we call it.
fn in_loaded_objects(name: &CStr) -> Option<*const c_void> {
    unsafe extern "C" fn collect(
        info: *mut libc::dl_phdr_info,
        _size: usize,
        data: *mut c_void,
    ) -> c_int {
        // SAFETY: dl_iterate_phdr passes a valid info; data is the Vec below.
        let (info, names) = unsafe { (&*info, &mut *data.cast::<Vec<CString>>()) };
        if !info.dlpi_name.is_null() {
            // SAFETY: a NUL-terminated name owned by the loader.
            let name = unsafe { CStr::from_ptr(info.dlpi_name as *const c_char) };
            if !name.is_empty() {
                names.push(name.to_owned());
            }
        }
        0
    }
    let mut names: Vec<CString> = Vec::new();
    // SAFETY: the callback only reads the info it is given and appends to `names`.
    unsafe { libc::dl_iterate_phdr(Some(collect), (&mut names as *mut Vec<CString>).cast()) };
    names.iter().find_map(|object| {
        let h = open(object, libc::RTLD_LAZY | libc::RTLD_NOLOAD)?;
        let found = lookup(h, name);
        if found.is_none() {
            // SAFETY: releases the reference the open above took.
            unsafe { libc::dlclose(h) };
        }
        found
    })
}
