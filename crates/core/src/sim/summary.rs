//! Per-seat statistics of a run, from its columns: mean points per round with its standard
//! error and 95% interval, and how often each seat scooped, swept, fouled, was paid a natural
//! or surrendered. A [`SeatTally`] keeps exact integer sums, so a run streamed in chunks (or
//! played in ranges on several workers and merged) is summarised without keeping its rows,
//! and the order of the chunks never changes a figure.

use super::duel::INTERVAL_Z;
use super::run::{status_code, RoundColumns};
use crate::error::{Error, Result};
use crate::score::Status;

/// One seat's running sums.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatSums {
    /// Sum of the points won.
    pub points: i128,
    /// Sum of the squared points, for the spread.
    pub squares: i128,
    /// Rounds in which the seat scooped at least one opponent.
    pub scoops: u64,
    /// Rounds in which the seat swept the table.
    pub sweeps: u64,
    /// Rounds in which the seat fouled.
    pub fouls: u64,
    /// Rounds in which the seat was paid a natural.
    pub naturals: u64,
    /// Rounds in which the seat surrendered.
    pub surrenders: u64,
}

/// Running per-seat sums of a run's rounds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatTally {
    /// Rounds added.
    pub rounds: u64,
    /// Each seat's sums.
    pub seats: Vec<SeatSums>,
}

/// One seat's statistics over a run.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SeatStats {
    /// The seat (from 0).
    pub seat: usize,
    /// Rounds played.
    pub rounds: u64,
    /// Mean points per round.
    pub mean: f64,
    /// Standard error of `mean`: the sample standard deviation (ddof = 1, the unbiased
    /// variance) over √rounds; NaN (undefined) for fewer than 2 rounds, never a certain 0.
    pub stderr: f64,
    /// `mean ∓ INTERVAL_Z × stderr`: the normal 95% interval (NaN for fewer than 2 rounds).
    pub ci_low: f64,
    /// High end of the 95% interval.
    pub ci_high: f64,
    /// Share of rounds in which the seat scooped at least one opponent.
    pub scoop_rate: f64,
    /// Share of rounds in which the seat swept the table.
    pub sweep_rate: f64,
    /// Share of rounds in which the seat fouled.
    pub foul_rate: f64,
    /// Share of rounds in which the seat was paid a natural.
    pub natural_rate: f64,
    /// Share of rounds in which the seat surrendered.
    pub surrender_rate: f64,
}

impl SeatTally {
    /// An empty tally for `players` seats.
    pub fn new(players: usize) -> SeatTally {
        SeatTally {
            rounds: 0,
            seats: vec![SeatSums::default(); players],
        }
    }

    /// Seats tallied.
    pub fn players(&self) -> usize {
        self.seats.len()
    }

    /// Adds rounds given as the columns' `points`, `scoops`, `sweep` and `status`, one row per
    /// (round, seat), seats in order within a round.
    pub fn add(
        &mut self,
        points: &[i64],
        scoops: &[u8],
        sweep: &[bool],
        status: &[u8],
    ) -> Result<()> {
        let p = self.players();
        let n = points.len();
        if p == 0 || n % p != 0 || scoops.len() != n || sweep.len() != n || status.len() != n {
            return Err(Error::InvalidShape {
                what: "seat tally columns".into(),
                expected: format!(
                    "points, scoops, sweep and status of equal length, a multiple of {p} seats"
                ),
                got: format!(
                    "{n} points, {} scoops, {} sweep, {} status",
                    scoops.len(),
                    sweep.len(),
                    status.len()
                ),
            });
        }
        let (fouled, natural, surrendered) = (
            status_code(Status::Fouled),
            status_code(Status::Natural),
            status_code(Status::Surrendered),
        );
        for row in 0..n {
            let s = &mut self.seats[row % p];
            let x = points[row] as i128;
            s.points += x;
            s.squares += x * x;
            s.scoops += (scoops[row] > 0) as u64;
            s.sweeps += sweep[row] as u64;
            s.fouls += (status[row] == fouled) as u64;
            s.naturals += (status[row] == natural) as u64;
            s.surrenders += (status[row] == surrendered) as u64;
        }
        self.rounds += (n / p) as u64;
        Ok(())
    }

    /// Adds the rounds of a run's columns.
    pub fn add_columns(&mut self, c: &RoundColumns) -> Result<()> {
        self.add(&c.points, &c.scoops, &c.sweep, &c.status)
    }

    /// Adds another tally of the same table size (rounds played elsewhere).
    pub fn merge(&mut self, other: &SeatTally) -> Result<()> {
        if other.players() != self.players() {
            return Err(Error::InvalidShape {
                what: "seat tally".into(),
                expected: format!("{} seats", self.players()),
                got: format!("{} seats", other.players()),
            });
        }
        self.rounds += other.rounds;
        for (a, b) in self.seats.iter_mut().zip(&other.seats) {
            a.points += b.points;
            a.squares += b.squares;
            a.scoops += b.scoops;
            a.sweeps += b.sweeps;
            a.fouls += b.fouls;
            a.naturals += b.naturals;
            a.surrenders += b.surrenders;
        }
        Ok(())
    }

    /// Every seat's statistics. A figure that a run this short cannot give is NaN: the mean and
    /// the rates of a run of no rounds, the standard error and the interval of a run of fewer
    /// than 2 rounds (one round says nothing about the spread).
    pub fn summary(&self) -> Vec<SeatStats> {
        let n = self.rounds.max(1);
        let nf = if self.rounds == 0 { f64::NAN } else { n as f64 };
        self.seats
            .iter()
            .enumerate()
            .map(|(seat, s)| {
                let mean = s.points as f64 / nf;
                // n Σx² − (Σx)² is exact in integers: no cancellation for large means
                let spread = (n as i128 * s.squares - s.points * s.points).max(0);
                let stderr = if self.rounds < 2 {
                    f64::NAN
                } else {
                    let var = spread as f64 / (nf * (n - 1) as f64);
                    (var / nf).sqrt()
                };
                let rate = |k: u64| k as f64 / nf;
                SeatStats {
                    seat,
                    rounds: self.rounds,
                    mean,
                    stderr,
                    ci_low: mean - INTERVAL_Z * stderr,
                    ci_high: mean + INTERVAL_Z * stderr,
                    scoop_rate: rate(s.scoops),
                    sweep_rate: rate(s.sweeps),
                    foul_rate: rate(s.fouls),
                    natural_rate: rate(s.naturals),
                    surrender_rate: rate(s.surrenders),
                }
            })
            .collect()
    }
}
