//! Large host operands, which the compute kernels use in place where the device can map host
//! memory (GL_AMD_pinned_memory on llvmpipe) and copy through staging elsewhere: every
//! level-1 routine at every float offset from a page boundary, mixed with device operands and
//! with strided (copied) ones. Each result is checked against a reference, and the elements
//! around the operands (the rest of their pages) must be untouched. An input in read-only
//! memory must work too: the device only reads it.

mod common;

use common::*;
use glblas::api::*;
use glblas::status::Status;

/// Larger than the size from which operands are used in place (256 KiB), odd so that the
/// ends are partial texels.
const N: usize = 100_003;
const GUARD: f32 = 7777.0;

/// A page-aligned buffer of `N + 2*pad` floats: guards, then `N` values from `seed` starting
/// `offset` floats into the page, then guards.
struct Host {
    data: Vec<f32>,
    start: usize,
}

impl Host {
    fn new(seed: u64, offset: usize) -> Host {
        let mut data = vec![GUARD; N + 4096];
        let align = (data.as_ptr() as usize % 4096) / 4;
        let start = (1024 - align) % 1024 + offset;
        data[start..start + N].copy_from_slice(&fill(N, seed));
        Host { data, start }
    }
    fn ptr(&mut self) -> *mut f32 {
        self.data[self.start..].as_mut_ptr()
    }
    fn values(&self) -> &[f32] {
        &self.data[self.start..self.start + N]
    }
    fn assert_guards(&self, what: &str) {
        let outside = self.data[..self.start]
            .iter()
            .chain(&self.data[self.start + N..]);
        assert!(
            outside.into_iter().all(|v| *v == GUARD),
            "{what}: guard written"
        );
    }
}

fn terms(a: &[f32], alpha: f32, b: &[f32]) -> Vec<f64> {
    a.iter()
        .zip(b)
        .map(|(a, b)| (alpha * a).abs() as f64 + b.abs() as f64)
        .collect()
}

#[test]
fn level1_on_large_host_vectors_at_every_offset() {
    for (xo, yo) in [(0, 0), (1, 1), (2, 2), (3, 3), (0, 1), (3, 2)] {
        let what = format!("offsets {xo} {yo}");
        let mut x = Host::new(1, xo);
        let mut y = Host::new(2, yo);
        let (x0, y0) = (x.values().to_vec(), y.values().to_vec());
        unsafe {
            assert_eq!(
                glblasSaxpy(N as i32, 0.5, x.ptr(), 1, y.ptr(), 1),
                Status::Success
            );
            let mut want = y0.clone();
            saxpy_ref(N, 0.5, &x0, 1, &mut want, 1);
            assert_saxpy(y.values(), &want, &terms(&x0, 0.5, &y0));
            y.assert_guards(&what);

            let mut r = 0.0f32;
            assert_eq!(
                glblasSdot(N as i32, x.ptr(), 1, y.ptr(), 1, &mut r),
                Status::Success
            );
            assert_sdot(r, &x0, 1, y.values(), 1, N);
            assert_eq!(glblasSasum(N as i32, x.ptr(), 1, &mut r), Status::Success);
            let want: f64 = x0.iter().map(|v| v.abs() as f64).sum();
            assert!((r as f64 - want).abs() <= 1e-5 * want, "{what}: sasum");

            assert_eq!(glblasSscal(N as i32, -2.0, x.ptr(), 1), Status::Success);
            assert!(x.values().iter().zip(&x0).all(|(a, b)| *a == -2.0 * b));
            x.assert_guards(&what);

            let (x1, y1) = (x.values().to_vec(), y.values().to_vec());
            assert_eq!(
                glblasSswap(N as i32, x.ptr(), 1, y.ptr(), 1),
                Status::Success
            );
            assert_eq!(
                (x.values(), y.values()),
                (&y1[..], &x1[..]),
                "{what}: sswap"
            );
            assert_eq!(
                glblasScopy(N as i32, x.ptr(), 1, y.ptr(), 1),
                Status::Success
            );
            assert_eq!(x.values(), y.values(), "{what}: scopy");
            x.assert_guards(&what);
            y.assert_guards(&what);
        }
    }
}

#[test]
fn large_host_vectors_mixed_with_device_and_strided_ones() {
    let mut x = Host::new(3, 1);
    let x0 = x.values().to_vec();
    // Device y at an offset of 2 floats: x (in place) and y disagree on texel alignment.
    let y0 = fill(N + 2, 4);
    let d = Dev::new(&y0);
    unsafe {
        assert_eq!(
            glblasSaxpy(N as i32, 1.5, x.ptr(), 1, d.f().add(2), 1),
            Status::Success
        );
    }
    let got = d.get(N + 2);
    let mut want = y0[2..].to_vec();
    saxpy_ref(N, 1.5, &x0, 1, &mut want, 1);
    assert_saxpy(&got[2..], &want, &terms(&x0, 1.5, &y0[2..]));
    assert_eq!(&got[..2], &y0[..2], "device guard");

    // Strided host y (copied) with x in place, and both reversed.
    let mut y = vec![GUARD; 2 * N];
    let y_vals = fill(N, 5);
    for (i, v) in y_vals.iter().enumerate() {
        y[2 * i] = *v;
    }
    let want_y = {
        let mut w = y.clone();
        saxpy_ref(N, -1.0, &x0, -1, &mut w, -2);
        w
    };
    unsafe {
        assert_eq!(
            glblasSaxpy(N as i32, -1.0, x.ptr(), -1, y.as_mut_ptr(), -2),
            Status::Success
        );
    }
    let t: Vec<f64> = want_y.iter().map(|v| v.abs() as f64 + 1.0).collect();
    assert_saxpy(&y, &want_y, &t);
    assert!(y.iter().skip(1).step_by(2).all(|v| *v == GUARD));
}

#[test]
fn a_read_only_input_is_only_read() {
    let bytes = N * 4;
    // SAFETY: a private anonymous mapping, filled, then made read-only, unmapped at the end.
    unsafe {
        let p = libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        assert_ne!(p, libc::MAP_FAILED);
        let x = fill(N, 6);
        std::ptr::copy_nonoverlapping(x.as_ptr(), p.cast::<f32>(), N);
        assert_eq!(libc::mprotect(p, bytes, libc::PROT_READ), 0);
        let y0 = fill(N, 7);
        let mut y = y0.clone();
        assert_eq!(
            glblasSaxpy(N as i32, 2.0, p.cast(), 1, y.as_mut_ptr(), 1),
            Status::Success
        );
        let mut want = y0.clone();
        saxpy_ref(N, 2.0, &x, 1, &mut want, 1);
        assert_saxpy(&y, &want, &terms(&x, 2.0, &y0));
        let mut r = 0.0f32;
        assert_eq!(
            glblasSdot(N as i32, p.cast(), 1, y.as_ptr(), 1, &mut r),
            Status::Success
        );
        assert_sdot(r, &x, 1, &y, 1, N);
        libc::munmap(p, bytes);
    }
}

#[test]
fn small_host_vectors_staged_in_line_with_misaligned_device_ones() {
    // Below the in-place size: host operands are copied into staging at the device operand's
    // offset within a texel, so that both are read four elements at a time.
    let n = 1003;
    for offset in 0..4 {
        let x = fill(n, 8);
        let y0 = fill(n + 8, 9);
        let d = Dev::new(&y0);
        let mut r = 0.0f32;
        unsafe {
            let y = d.f().add(offset);
            assert_eq!(
                glblasSaxpy(n as i32, 3.0, x.as_ptr(), 1, y, 1),
                Status::Success
            );
            assert_eq!(
                glblasSdot(n as i32, x.as_ptr(), 1, y, 1, &mut r),
                Status::Success
            );
        }
        let got = d.get(n + 8);
        let mut want = y0[offset..offset + n].to_vec();
        saxpy_ref(n, 3.0, &x, 1, &mut want, 1);
        assert_saxpy(
            &got[offset..offset + n],
            &want,
            &terms(&x, 3.0, &y0[offset..]),
        );
        assert_eq!(&got[..offset], &y0[..offset], "offset {offset}: before y");
        assert_eq!(
            &got[offset + n..],
            &y0[offset + n..],
            "offset {offset}: after y"
        );
        assert_sdot(r, &x, 1, &got[offset..], 1, n);

        // And a host y written without being read (scopy) next to a device x.
        let mut z = vec![GUARD; n + 2];
        unsafe {
            assert_eq!(
                glblasScopy(n as i32, d.f().add(offset), 1, z[1..].as_mut_ptr(), 1),
                Status::Success
            );
        }
        assert_eq!(&z[1..=n], &got[offset..offset + n]);
        assert_eq!((z[0], z[n + 1]), (GUARD, GUARD));
    }
}
