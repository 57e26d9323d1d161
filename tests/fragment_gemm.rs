//! sgemm's register-blocked fragment kernel (GLBLAS_PIPELINE=fragment) on desktop GL, on GLES 3.2,
//! and with tiny render targets and buffer-texture windows (tiles and k chunks) and 4 color
//! attachments per draw (the variant for devices with fewer than 8): every transpose pair, sizes around the 4-row and
//! 8-column blocks, padded leading dimensions whose padding holds NaN guards, host and device
//! operands at unaligned offsets, alpha == 0 with NaN in A and B, beta == 0 with NaN in C.

mod common;

use common::*;
use glblas::api::*;
use glblas::ffi::OperationArg as Op;
use glblas::status::Status;

const SIZES: [usize; 10] = [1, 3, 4, 5, 7, 8, 9, 31, 33, 67];
const TRANSPOSES: [(bool, bool); 4] = [(false, false), (false, true), (true, false), (true, true)];

/// A guard value that must survive bit for bit wherever glblas may not write, and must not
/// leak into results wherever it may not read.
fn guard() -> f32 {
    f32::from_bits(0x7fc0_1234)
}

/// A matrix's storage: `off` guard elements, then `cols` columns of `ld` (the first `rows`
/// holding `values`, the rest guards), in host memory or in a device buffer.
struct Stored {
    data: Vec<f32>,
    off: usize,
    dev: Option<Dev>,
}

impl Stored {
    fn new(values: &[f32], rows: usize, cols: usize, ld: usize, off: usize, device: bool) -> Self {
        let mut data = vec![guard(); off + ld * cols];
        for j in 0..cols {
            data[off + j * ld..off + j * ld + rows].copy_from_slice(&values[j * rows..][..rows]);
        }
        let dev = device.then(|| Dev::new(&data));
        Stored { data, off, dev }
    }

    fn ptr(&mut self) -> *mut f32 {
        match &self.dev {
            Some(d) => d.f().wrapping_add(self.off),
            None => self.data[self.off..].as_mut_ptr(),
        }
    }

    /// Everything, read back from the device where it lives there.
    fn contents(&self) -> Vec<f32> {
        match &self.dev {
            Some(d) => d.get(self.data.len()),
            None => self.data.clone(),
        }
    }
}

/// alpha, beta, and what A, B and C hold: alpha == 0 never reads A and B (all NaN here), beta
/// == 0 never reads C (all NaN here).
const SCALARS: [(f32, f32); 4] = [(1.0, 0.0), (0.75, -1.25), (0.0, 0.5), (-1.5, 1.0)];

#[allow(clippy::too_many_arguments)]
fn case(ta: bool, tb: bool, m: usize, n: usize, k: usize, scalars: usize, placement: usize) {
    let (alpha, beta) = SCALARS[scalars];
    let (ar, ac) = if ta { (k, m) } else { (m, k) };
    let (br, bc) = if tb { (n, k) } else { (k, n) };
    let (lda, ldb, ldc) = (ar + 3, br + 5, m + 2);
    let seed = (m * 10_000 + n * 100 + k) as u64;
    let nan_if = |cond: bool, v: Vec<f32>| if cond { vec![f32::NAN; v.len()] } else { v };
    let a = nan_if(alpha == 0.0, fill(ar * ac, seed));
    let b = nan_if(alpha == 0.0, fill(br * bc, seed + 1));
    let c0 = nan_if(beta == 0.0, fill(m * n, seed + 2));
    // Placement: which operands are device memory, each at an offset of 0..3 elements.
    let on_device = |operand: usize| (placement >> operand) & 1 == 1;
    let off = |operand: usize| (placement + operand) % 4;
    let mut sa = Stored::new(&a, ar, ac, lda, off(0), on_device(0));
    let mut sb = Stored::new(&b, br, bc, ldb, off(1), on_device(1));
    let mut sc = Stored::new(&c0, m, n, ldc, off(2), on_device(2));
    let what = format!(
        "{}{} m={m} n={n} k={k} alpha={alpha} beta={beta} placement={placement}",
        if ta { 'T' } else { 'N' },
        if tb { 'T' } else { 'N' }
    );
    let status = unsafe {
        glblasSgemm(
            Op(i32::from(ta)),
            Op(i32::from(tb)),
            m as i32,
            n as i32,
            k as i32,
            alpha,
            sa.ptr(),
            lda as i32,
            sb.ptr(),
            ldb as i32,
            beta,
            sc.ptr(),
            ldc as i32,
        )
    };
    assert_eq!(status, Status::Success, "{what}");
    let got = sc.contents();
    // The reference reads A and B only where they are used (alpha != 0), C only where beta != 0.
    let finite = |v: &[f32]| {
        if alpha == 0.0 {
            vec![0.0; v.len()]
        } else {
            v.to_vec()
        }
    };
    let want = sgemm_ref(
        ta,
        tb,
        m,
        n,
        k,
        alpha,
        &finite(&a),
        ar,
        &finite(&b),
        br,
        beta,
        &c0,
        m,
    );
    assert_sgemm(&got[sc.off..], ldc, m, n, k, &want);
    // Nothing but C's m×n elements changed: its padding rows and the guards before it.
    for (at, (g, w)) in got.iter().zip(&sc.data).enumerate() {
        let inside = at >= sc.off && (at - sc.off) % ldc < m;
        assert!(
            inside || g.to_bits() == w.to_bits(),
            "{what}: element {at} outside C written: {g}"
        );
    }
}

/// All transpose pairs, every (m, n) of SIZES, k running through SIZES so that each k meets
/// each m and each n; the scalars and operand placements cycle through their variants.
fn run_all() {
    let mut i = 0;
    for (ta, tb) in TRANSPOSES {
        for (im, &m) in SIZES.iter().enumerate() {
            for (jn, &n) in SIZES.iter().enumerate() {
                let k = SIZES[(3 * im + jn) % SIZES.len()];
                // Shifted every row of n and every transpose pair, so that each scalar pair
                // meets each (m, n) over the transpose pairs.
                let scalars = (i + i / 10 + i / 100) % SCALARS.len();
                case(ta, tb, m, n, k, scalars, (i / SCALARS.len()) % 8);
                i += 1;
            }
        }
    }
}

/// One column of C and a long k: op(B)'s panel (padded to a block of columns) is then wider
/// than op(B) itself, so it can outgrow a window that op(B) fits.
fn one_column() {
    for (ta, tb) in TRANSPOSES {
        for placement in 0..8 {
            case(ta, tb, 4, 1, 67, 1, placement);
        }
    }
}

/// The GL API, the limits below (None: the device's), and the cases to run.
type Config = (&'static str, [Option<&'static str>; 3], fn());

/// One context per configuration (the engine reads these variables when it creates one): the
/// device's limits on desktop GL and GLES; tiny targets and windows with 4 attachments; and
/// windows too small for op(B)'s panel at the k that targets of side 32 allow.
#[test]
fn blocked_fragment_sgemm_on_desktop_gl_gles_and_small_targets() {
    common::use_fragment_pipeline();
    let configs: [Config; 4] = [
        ("desktop", [None; 3], run_all),
        ("gles", [None; 3], run_all),
        ("desktop", [Some("8"), Some("24"), Some("4")], run_all),
        ("desktop", [Some("32"), Some("24"), None], one_column),
    ];
    let names = [
        "GLBLAS_LIMIT_TARGET_SIDE",
        "GLBLAS_LIMIT_WINDOW",
        "GLBLAS_LIMIT_DRAW_BUFFERS",
    ];
    for (api, limits, cases) in configs {
        std::env::set_var("GLBLAS_GL_API", api);
        for (name, value) in names.into_iter().zip(limits) {
            match value {
                Some(v) => std::env::set_var(name, v),
                None => std::env::remove_var(name),
            }
        }
        let info = glblas::engine::device_info().expect("a GL context");
        assert_eq!(info.gles, api == "gles", "{info:?}");
        assert_eq!(glblas::kernels::pipeline(), Some("fragment"));
        cases();
        assert_eq!(glblasShutdown(), Status::Success);
    }
}
