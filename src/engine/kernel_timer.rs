//! The device's time in the kernels, from GL timer queries, while a caller asks for it
//! (`glblasTimeKernels`): each launch (a dispatch or a draw) runs inside a `GL_TIME_ELAPSED`
//! query of its own, and a read waits for their results and sums them, so that a benchmark or
//! the tuner can tell the kernels' time from the call's own. Desktop GL has the queries from
//! 3.3 (or `GL_ARB_timer_query`), GLES through `GL_EXT_disjoint_timer_query`, whose results are
//! void when the GPU reports a disjoint event (its clock changed, or it was reset) meanwhile.
//! Off unless asked for: a query per launch is work for the driver.

use std::cell::{Cell, RefCell};

use glow::HasContext;

use super::device::DeviceInfo;
use super::gl_errors::check_gl;
use crate::status::{Error, Result, Status};

/// `GL_TIME_ELAPSED` (`GL_TIME_ELAPSED_EXT` on GLES: the same value).
const TIME_ELAPSED: u32 = 0x88BF;
/// `GL_GPU_DISJOINT_EXT`.
const GPU_DISJOINT: u32 = 0x8FBB;

/// What the launches timed took on the device.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timings {
    /// Their seconds in all.
    pub seconds: f64,
    pub launches: u64,
    /// The longest one's seconds.
    pub longest: f64,
}

pub struct KernelTimer {
    /// The device has timer queries (`DeviceInfo::timer_queries`).
    available: bool,
    /// GLES: results read as 32-bit values (GLES has no `glGetQueryObjectui64v` of its own; a
    /// launch of more than 4.29 s would wrap), and disjoint events checked.
    gles: bool,
    on: Cell<bool>,
    /// The queries of the launches timed since the last read, and those read, for reuse.
    pending: RefCell<Vec<glow::Query>>,
    spare: RefCell<Vec<glow::Query>>,
    /// A query could not be made: the launch ran untimed, and the next read fails.
    missed: Cell<bool>,
}

impl KernelTimer {
    pub fn new(info: &DeviceInfo) -> KernelTimer {
        KernelTimer {
            available: info.timer_queries,
            gles: info.gles,
            on: Cell::new(false),
            pending: RefCell::default(),
            spare: RefCell::default(),
            missed: Cell::new(false),
        }
    }

    /// Starts timing (dropping what an earlier timing left unread), or stops it; starting is
    /// NOT_SUPPORTED on a device without timer queries.
    pub fn set(&self, gl: &glow::Context, on: bool) -> Result<()> {
        if on && !self.available {
            return Err(Error::new(
                Status::NotSupported,
                "the device has no timer queries that time the kernels (GLES without \
                 GL_EXT_disjoint_timer_query, or queries that leave out the compute pipeline's \
                 dispatches)",
            ));
        }
        if on {
            self.spare
                .borrow_mut()
                .append(&mut self.pending.borrow_mut());
            self.missed.set(false);
            if self.gles {
                // Reading the flag clears it: only events from here on void the times.
                // SAFETY: the context is current and has EXT_disjoint_timer_query.
                unsafe { gl.get_parameter_i32(GPU_DISJOINT) };
            }
        }
        self.on.set(on);
        check_gl(gl, "timer")
    }

    /// Runs `launch` (one dispatch or draw), inside a query of its own while timing is on.
    pub fn time(&self, gl: &glow::Context, launch: impl FnOnce()) {
        if !self.on.get() {
            return launch();
        }
        let query = match self.spare.borrow_mut().pop() {
            Some(q) => Ok(q),
            // SAFETY: the context is current.
            None => unsafe { gl.create_query() },
        };
        let Ok(query) = query else {
            self.missed.set(true);
            return launch();
        };
        // SAFETY: the context is current and has timer queries; no other query of this target
        // is active (each ends before the next begins).
        unsafe { gl.begin_query(TIME_ELAPSED, query) };
        launch();
        // SAFETY: as above; this target's query is the one begun here.
        unsafe { gl.end_query(TIME_ELAPSED) };
        self.pending.borrow_mut().push(query);
    }

    /// The device's time in the launches timed since timing started or since the last read;
    /// waits for them to finish. EXECUTION_FAILED where the driver voids the times (a disjoint
    /// event) or a launch could not be timed.
    pub fn read(&self, gl: &glow::Context) -> Result<Timings> {
        let queries: Vec<glow::Query> = std::mem::take(&mut *self.pending.borrow_mut());
        let (mut ns, mut longest) = (0u64, 0u64);
        for &q in &queries {
            // SAFETY: the context is current; each query ended (`time`), and reading its result
            // waits until it is available.
            let one = unsafe {
                if self.gles {
                    u64::from(gl.get_query_parameter_u32(q, glow::QUERY_RESULT))
                } else {
                    gl.get_query_parameter_u64(q, glow::QUERY_RESULT)
                }
            };
            ns += one;
            longest = longest.max(one);
        }
        self.spare.borrow_mut().extend(&queries);
        check_gl(gl, "timer query results")?;
        // SAFETY: the context is current and, on GLES, has EXT_disjoint_timer_query.
        let disjoint = self.gles && unsafe { gl.get_parameter_i32(GPU_DISJOINT) } != 0;
        if disjoint || self.missed.replace(false) {
            return Err(Error::new(
                Status::ExecutionFailed,
                if disjoint {
                    "the GPU reported a disjoint event: the kernels' times are void"
                } else {
                    "a launch could not be timed (no query object)"
                },
            ));
        }
        Ok(Timings {
            seconds: ns as f64 * 1e-9,
            launches: queries.len() as u64,
            longest: longest as f64 * 1e-9,
        })
    }

    pub fn delete_all(&self, gl: &glow::Context) {
        let pending = std::mem::take(&mut *self.pending.borrow_mut());
        for q in pending.into_iter().chain(self.spare.borrow_mut().drain(..)) {
            // SAFETY: the context is current; the query is this timer's.
            unsafe { gl.delete_query(q) };
        }
        self.on.set(false);
    }
}
