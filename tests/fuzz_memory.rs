//! Randomized arguments for the exports that are not BLAS routines (issue 5, property 4): a
//! seeded generator throws glblasMemcpy copies of any kind and length (up to `usize::MAX`) between
//! host memory, device memory at an offset, overlapping device ranges, and NULL, misaligned,
//! freed and past-the-end pointers; glblasMalloc with NULL, zero and impossible sizes;
//! glblasFree on NULL, interior, host, past-the-end and already-freed pointers;
//! glblasGetStatusString with any int; and device pointers used after glblasShutdown. The oracle
//! is docs/api.md's rules: each call's status, and every byte of every store (guard zones
//! included) as the call must leave it. The BLAS routines' own random arguments are
//! `fuzz_described.rs`, whose rules come from the routines' descriptions.

mod common;

use std::ffi::{c_int, c_void, CStr};

use common::{fill, Place, Rng, PLACES};
use glblas::api::*;
use glblas::blas::cblas::*;
use glblas::ffi::{MemcpyKindArg, StatusArg};
use glblas::status::Status;

/// Cases per export.
const CASES_PER_EXPORT: usize = 1000;

fn malloc(bytes: usize) -> *mut c_void {
    let mut p = std::ptr::null_mut();
    assert_eq!(unsafe { glblasMalloc(&mut p, bytes) }, Status::Success);
    p
}

fn download(src: *const c_void, bytes: usize) -> Vec<u8> {
    let mut out = vec![0u8; bytes];
    let s = unsafe { glblasMemcpy(out.as_mut_ptr().cast(), src, bytes, MemcpyKindArg(2)) };
    assert_eq!(s, Status::Success);
    out
}

/// Bytes of guard zone around glblasMemcpy's operands.
const GUARD_BYTES: usize = 8;

/// glblasMemcpy's view of memory: byte stores, host or device.
struct ByteStore {
    host: Vec<u8>,
    device: Option<*mut c_void>,
}

impl ByteStore {
    fn new(r: &mut Rng, bytes: usize, device: bool) -> ByteStore {
        let host: Vec<u8> = (0..bytes).map(|_| r.below(256) as u8).collect();
        let device = device.then(|| {
            let mut p = std::ptr::null_mut();
            assert_eq!(unsafe { glblasMalloc(&mut p, bytes) }, Status::Success);
            let s = unsafe { glblasMemcpy(p, host.as_ptr().cast(), bytes, MemcpyKindArg(1)) };
            assert_eq!(s, Status::Success);
            p
        });
        ByteStore { host, device }
    }

    fn base(&mut self) -> *mut u8 {
        self.device.map_or(self.host.as_mut_ptr(), |p| p.cast())
    }

    fn contents(&self) -> Vec<u8> {
        match self.device {
            Some(p) => download(p, self.host.len()),
            None => self.host.clone(),
        }
    }
}

impl Drop for ByteStore {
    fn drop(&mut self) {
        if let Some(p) = self.device {
            assert_eq!(glblasFree(p), Status::Success);
        }
    }
}

/// One pointer argument of glblasMemcpy: its place, the store and byte offset it points into,
/// and the bytes from it to the end of a device allocation.
struct Side {
    place: Place,
    ptr: *mut c_void,
    at: Option<(usize, usize)>,
    room: i128,
}

impl Side {
    fn null(place: Place, ptr: *mut c_void) -> Side {
        Side {
            place,
            ptr,
            at: None,
            room: 0,
        }
    }

    fn into_store(place: Place, stores: &mut [ByteStore], s: usize, off: usize) -> Side {
        let size = stores[s].host.len();
        Side {
            place,
            ptr: stores[s].base().wrapping_add(off).cast(),
            at: Some((s, off)),
            room: size as i128 - off as i128,
        }
    }
}

/// A glblasMemcpy pointer for a `len`-byte copy; `stores` receives its memory. A device
/// pointer may be misaligned (a byte copy allows it), past the end, or freed; `share`, when
/// given, is a device store the pointer may land in instead (overlapping copies).
fn memcpy_side(r: &mut Rng, stores: &mut Vec<ByteStore>, len: usize, share: Option<usize>) -> Side {
    let place = r.pick(&PLACES);
    if place == Place::Null {
        return Side::null(place, std::ptr::null_mut());
    }
    if let (Some(s), Place::Device) = (share, place) {
        let off = r.below(stores[s].host.len());
        return Side::into_store(place, stores, s, off);
    }
    let off = GUARD_BYTES
        + if place == Place::Misaligned {
            r.range(1, 3) as usize
        } else {
            0
        };
    // Past the end: the allocation stops 1 to 4 bytes short of the copy's end.
    let size = match place {
        Place::PastEnd => (off + len).saturating_sub(r.range(1, 4) as usize).max(1),
        _ => off + len + GUARD_BYTES,
    };
    stores.push(ByteStore::new(r, size, place != Place::Host));
    let last = stores.len() - 1;
    let side = Side::into_store(place, stores, last, off);
    if place != Place::Freed {
        return side;
    }
    let store = stores.pop().expect("just pushed");
    let p = store.device.expect("device memory");
    std::mem::forget(store);
    assert_eq!(glblasFree(p), Status::Success);
    Side::null(place, side.ptr)
}

/// glblasMemcpy with any kind, NULL, host-to-host, freed, misaligned, overlapping and
/// past-the-end pointers, and byte counts up to usize::MAX.
fn fuzz_memcpy(r: &mut Rng) {
    let bytes = if r.chance(8) {
        r.pick(&[1 << 40, isize::MAX as usize + 1, usize::MAX])
    } else {
        r.range(0, 40) as usize
    };
    // Host memory holds the copy whenever it could happen; huge copies are refused anyway.
    let len = if bytes > 1 << 20 { 8 } else { bytes };
    let kind = if r.chance(85) {
        r.range(0, 3) as c_int
    } else {
        r.range(-3, 300) as c_int
    };
    let mut stores = Vec::new();
    let dst = memcpy_side(r, &mut stores, len, None);
    let share = dst
        .at
        .map(|(s, _)| s)
        .filter(|&s| stores[s].device.is_some() && r.chance(30));
    let src = memcpy_side(r, &mut stores, len, share);
    let what = format!(
        "glblasMemcpy bytes={bytes} kind={kind} dst={:?} src={:?}",
        dst.place, src.place
    );
    let is_device = |s: &Side| s.at.is_some_and(|(i, _)| stores[i].device.is_some());
    // docs/api.md, glblasMemcpy: no device pointer, freed, or past the end of an allocation:
    // INVALID_VALUE; an explicit kind must agree with the pointers.
    let fits = |s: &Side| match s.place {
        Place::Freed => false,
        _ if is_device(s) => bytes as i128 <= s.room,
        _ => true,
    };
    let inferred = match (is_device(&dst), is_device(&src)) {
        (true, false) => Some(1),
        (false, true) => Some(2),
        (true, true) => Some(3),
        (false, false) => None,
    };
    let ok = (0..=3).contains(&kind)
        && !(bytes > 0 && (dst.ptr.is_null() || src.ptr.is_null()))
        && bytes <= isize::MAX as usize
        && fits(&dst)
        && fits(&src)
        && inferred.is_some_and(|k| kind == 0 || kind == k);
    let before: Vec<Vec<u8>> = stores.iter().map(ByteStore::contents).collect();
    let s = unsafe { glblasMemcpy(dst.ptr, src.ptr, bytes, MemcpyKindArg(kind)) };
    assert_eq!(
        s,
        if ok {
            Status::Success
        } else {
            Status::InvalidValue
        },
        "{what}"
    );
    let mut want = before.clone();
    if ok && bytes > 0 {
        let ((d, dof), (s, sof)) = (dst.at.expect("copied"), src.at.expect("copied"));
        want[d][dof..dof + bytes].copy_from_slice(&before[s][sof..sof + bytes]);
    }
    for (i, store) in stores.iter().enumerate() {
        assert!(
            store.contents() == want[i],
            "{what}: store {i} differs from the expected bytes"
        );
    }
}

/// glblasFree on NULL, live allocations, interior and past-the-end pointers, host pointers,
/// and pointers already freed (double frees); then every allocation the oracle thinks live
/// still works and every freed one is refused.
fn fuzz_free(r: &mut Rng) {
    let sizes: Vec<usize> = (0..3).map(|_| r.range(1, 64) as usize).collect();
    let bases: Vec<*mut c_void> = sizes
        .iter()
        .map(|&s| ByteStore::new(r, s, true))
        .map(|mut s| {
            let p = s.base().cast();
            std::mem::forget(s);
            p
        })
        .collect();
    let mut live = vec![true; bases.len()];
    let mut host = [0u8; 16];
    for _ in 0..6 {
        let i = r.below(bases.len());
        let (p, ok) = match r.below(5) {
            0 => (std::ptr::null_mut(), true),
            1 => (
                host.as_mut_ptr()
                    .wrapping_add(r.range(0, 15) as usize)
                    .cast(),
                false,
            ),
            2 => (
                bases[i]
                    .cast::<u8>()
                    .wrapping_add(r.range(1, sizes[i] as i64) as usize)
                    .cast(),
                false,
            ),
            _ => (bases[i], live[i]),
        };
        let s = glblasFree(p);
        assert_eq!(
            s,
            if ok {
                Status::Success
            } else {
                Status::InvalidValue
            },
            "glblasFree {p:?}"
        );
        if p == bases[i] {
            live[i] = false;
        }
    }
    for (i, &p) in bases.iter().enumerate() {
        let s = unsafe { glblasMemcpy(host.as_mut_ptr().cast(), p, 1, MemcpyKindArg(0)) };
        assert_eq!(
            s,
            if live[i] {
                Status::Success
            } else {
                Status::InvalidValue
            },
            "use after the frees"
        );
        if live[i] {
            assert_eq!(glblasFree(p), Status::Success);
        }
        assert_eq!(glblasFree(p), Status::InvalidValue, "double free");
    }
}

/// glblasMalloc with NULL, zero, ordinary and impossible sizes.
fn fuzz_malloc(r: &mut Rng) {
    let bytes = match r.below(10) {
        0 => 0,
        1 => r.pick(&[usize::MAX, isize::MAX as usize, 1 << 62, (1 << 62) + 1]),
        _ => r.range(1, 5000) as usize,
    };
    let sentinel = 0x5eed_usize as *mut c_void;
    let mut p = sentinel;
    let null_arg = r.chance(10);
    let s = unsafe {
        glblasMalloc(
            if null_arg {
                std::ptr::null_mut()
            } else {
                &mut p
            },
            bytes,
        )
    };
    let what = format!("glblasMalloc bytes={bytes} devPtr NULL={null_arg}");
    match (null_arg, bytes) {
        (true, _) => assert_eq!(s, Status::InvalidValue, "{what}"),
        (false, 0) => assert_eq!((s, p), (Status::Success, std::ptr::null_mut()), "{what}"),
        // More than any address space: the reservation itself fails.
        (false, b) if b >= 1 << 62 => assert_eq!((s, p), (Status::AllocFailed, sentinel), "{what}"),
        (false, b) => {
            assert_eq!(s, Status::Success, "{what}");
            let data: Vec<u8> = (0..b).map(|_| r.below(256) as u8).collect();
            assert_eq!(
                unsafe { glblasMemcpy(p, data.as_ptr().cast(), b, MemcpyKindArg(0)) },
                Status::Success
            );
            assert!(download(p, b) == data, "{what}: contents");
            assert_eq!(glblasFree(p), Status::Success);
        }
    }
    if null_arg {
        assert_eq!(p, sentinel);
    }
}

/// glblasGetStatusString with any int: never NULL; its status's text, or the unknown one.
fn fuzz_status_string(r: &mut Rng) {
    let v = if r.chance(30) {
        r.range(-1, 7) as c_int
    } else {
        (r.below(1 << 16) << 16 | r.below(1 << 16)) as u32 as c_int
    };
    let text = unsafe { CStr::from_ptr(glblasGetStatusString(StatusArg(v))) }
        .to_string_lossy()
        .into_owned();
    match Status::ALL.iter().find(|s| **s as c_int == v) {
        Some(s) => assert!(text.starts_with(&format!("{s:?}")), "{v}: {text}"),
        None => assert_eq!(text, "unknown glblasStatus_t value", "{v}"),
    }
}

/// Device pointers from before a glblasShutdown are no allocations any more: every use is
/// INVALID_VALUE (the BLAS names leave their outputs alone), a second free too.
fn stale_after_shutdown(r: &mut Rng) {
    let p = malloc(64);
    assert_eq!(glblasShutdown(), Status::Success);
    let mut host = fill(16, r.below(1 << 30) as u64);
    let before = host.clone();
    let hp = host.as_mut_ptr();
    unsafe {
        assert_eq!(glblasFree(p), Status::InvalidValue);
        assert_eq!(
            glblasMemcpy(hp.cast(), p, 4, MemcpyKindArg(0)),
            Status::InvalidValue
        );
        assert_eq!(
            glblasSaxpy(4, 1.0, p.cast(), 1, hp, 1),
            Status::InvalidValue
        );
        assert_eq!(cblas_sdot(4, p.cast(), 1, hp, 1), 0.0);
        cblas_scopy(4, p.cast(), 1, hp, 1);
    }
    assert!(host
        .iter()
        .zip(&before)
        .all(|(a, b)| a.to_bits() == b.to_bits()));
    assert!(!glblasGetDeviceName().is_null());
    assert_eq!(glblasInit(), Status::Success);
}

#[test]
fn memory_exports_get_their_documented_outcome_for_random_arguments() {
    // Stale device pointers go to GL, which refuses them, rather than to a CPU BLAS.
    std::env::set_var("GLBLAS_BACKEND", "gl");
    std::env::set_var("GLBLAS_CPU_BLAS", "none");
    assert_eq!(glblasInit(), Status::Success);
    let mut r = Rng(0x6d65_6d6f_7279);
    for i in 0..CASES_PER_EXPORT {
        fuzz_memcpy(&mut r);
        fuzz_malloc(&mut r);
        fuzz_status_string(&mut r);
        fuzz_free(&mut r);
        if i % 100 == 0 {
            assert_eq!(glblasSync(), Status::Success);
            assert!(!glblasGetDeviceName().is_null());
        }
    }
    for _ in 0..5 {
        stale_after_shutdown(&mut r);
    }
}
