//! The tuner's search for small calls (`Tuning::gemm_small`): a GPU whose cores outnumber a
//! small C's workgroups at the main search's parameters may run it faster with smaller blocks
//! or tiles. After the main search chose its parameters at side n, the same candidates are
//! checked and timed at n/4; where the fastest there beats the chosen ones clearly, both are
//! timed at n/2 too, and the fastest at n/4 serves calls whose C is smaller than the first of
//! those sides at which it no longer beats them (n, where it beats them at both).

use super::problem::Problem;
use super::{fastest, rounds, Measured, Search, Times};
use crate::engine::element::Real;
use crate::engine::tuning::{GemmParams, SmallGemm};
use crate::status::Result;
use std::time::Instant;

/// The least side searched for small calls: below it a call is a few workgroups on any device.
const LEAST: i64 = 64;

/// What the small calls' search found.
pub(super) struct Found {
    /// The side at n/4, and the chosen parameters' rate there (GFLOP/s).
    pub n: i64,
    pub before: f64,
    /// The parameters for small calls, and their rate at n/4, where they beat the chosen ones.
    pub small: Option<(SmallGemm, f64)>,
    pub wrong: usize,
}

/// Steps of the small calls' search among `candidates`, for the progress: each candidate
/// checked at n/4, its rounds, then the two kept checked and timed at n/2.
pub(super) fn steps(candidates: usize, rounds: usize) -> usize {
    candidates + rounds + 2 + rounds
}

impl Search<'_> {
    /// The search for small calls of `T`, after the main one chose `chosen` at side `n`
    /// among `candidates`, until `deadline`; none where n/4 is below [`LEAST`].
    pub(super) fn small<T: Real>(
        &mut self,
        candidates: &[GemmParams],
        chosen: GemmParams,
        n: i64,
        software: bool,
        deadline: Instant,
    ) -> Result<Option<Found>> {
        let rounds = rounds(software, self.quick);
        let total = steps(candidates.len(), rounds);
        let quarter = n / 4;
        if quarter < LEAST {
            self.advance(total);
            return Ok(None);
        }
        let first = self.at_side::<T>(quarter, candidates, deadline)?;
        let flops = |side: i64, t: &Times| 2.0 * (side as f64).powi(3) / t.median / 1e9;
        let before = first.timed.iter().find(|t| t.0 == chosen).map(|t| t.1);
        let mut found = Found {
            n: quarter,
            before: before.as_ref().map_or(0.0, |t| flops(quarter, t)),
            small: None,
            wrong: first.wrong,
        };
        let faster = match (before, fastest(&first.timed)) {
            (Some(b), Some((p, t))) if p != chosen && t.beat(&b) => Some((p, t)),
            _ => None,
        };
        let Some((params, times)) = faster else {
            self.advance(2 + rounds);
            return Ok(Some(found));
        };
        let half = self.at_side::<T>(n / 2, &[chosen, params], deadline)?;
        found.wrong += half.wrong;
        let at = |p: GemmParams| half.timed.iter().find(|t| t.0 == p).map(|t| t.1);
        let below = match (at(chosen), at(params)) {
            (Some(c), Some(s)) if s.beat(&c) => n * n,
            (Some(_), Some(_)) => (n / 2) * (n / 2),
            // One of them wrong at n/2: small calls keep the chosen parameters.
            _ => return Ok(Some(found)),
        };
        found.small = Some((SmallGemm { params, below }, flops(quarter, &times)));
        Ok(Some(found))
    }

    /// `candidates` checked and timed on a product of side `side`.
    fn at_side<T: Real>(
        &mut self,
        side: i64,
        candidates: &[GemmParams],
        deadline: Instant,
    ) -> Result<Measured> {
        let problem = Problem::<T>::new(side)?;
        let measured = self.measure(&problem, candidates, deadline);
        problem.free();
        measured
    }
}
