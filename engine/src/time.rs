//! Time management: a soft limit (do not start another iteration past it,
//! scaled by how settled the search is) and a hard limit (never pass it).

use crate::limits::Limits;
use crate::options::Options;
use crate::params;
use castella_movegen::{Color, Position};
use std::time::Instant;

/// The time budget of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    /// Stop after an iteration once past this (ms), before scaling.
    soft_ms: Option<u64>,
    /// Stop at once past this (ms).
    hard_ms: Option<u64>,
}

impl TimeManager {
    /// The budget for `limits` in `pos` (its side to move and full-move
    /// number; see [`base_soft_ms`]), less `Move Overhead`; with `Ponder` on
    /// the soft limit grows by a quarter, as the opponent's time is partly
    /// ours.
    pub fn new(limits: &Limits, pos: &Position, options: &Options, start: Instant) -> TimeManager {
        let overhead_ms = options.move_overhead_ms;
        let (soft_ms, hard_ms) = if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead_ms).max(1);
            (Some(t), Some(t))
        } else {
            let (time, inc) = match pos.side_to_move() {
                Color::White => (limits.wtime, limits.winc.unwrap_or(0)),
                Color::Black => (limits.btime, limits.binc.unwrap_or(0)),
            };
            // A clock for the opponent only (fastchess's compliance check
            // sends `go btime 100` with White to move): our clock is taken
            // as empty, so the move comes at once, as Stockfish's does,
            // instead of a search that never ends.
            let time = time.or((limits.wtime.is_some() || limits.btime.is_some()).then_some(0));
            match time {
                None => (None, None),
                Some(time) => {
                    let avail = time.saturating_sub(overhead_ms).max(1);
                    let mut soft =
                        base_soft_ms(avail, inc, limits.movestogo, pos.fullmove_number());
                    if options.ponder {
                        soft += soft / 4;
                    }
                    let hard = (soft * 4)
                        .min(avail * params::tm_hard_pct() as u64 / 100)
                        .max(1);
                    (Some(soft.max(1).min(hard)), Some(hard))
                }
            }
        };
        TimeManager {
            start,
            soft_ms,
            hard_ms,
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Past the hard limit: stop now.
    #[inline]
    pub fn hard_exceeded(&self) -> bool {
        self.hard_ms.is_some_and(|h| self.elapsed_ms() >= h)
    }

    /// Past the soft limit times `scale`: do not start another iteration.
    pub fn soft_exceeded(&self, scale: f64) -> bool {
        match (self.soft_ms, self.hard_ms) {
            (Some(s), Some(h)) => self.elapsed_ms() as f64 >= (s as f64 * scale).min(h as f64),
            _ => false,
        }
    }
}

/// The soft limit before `Ponder` and the hard cap, from the time left
/// (`avail`, overhead already taken off), the increment and the FEN's
/// full-move number.
///
/// Without `movestogo` the first moves of the game get less than a full
/// share: games against Stockfish at 10+0.1 were lost on moves 10 to 45,
/// where the old budget (a twentieth of the clock) had already spent most
/// of it on the first ten moves.
fn base_soft_ms(avail: u64, inc: u64, movestogo: Option<u32>, move_number: u16) -> u64 {
    match movestogo {
        // The clock over the moves to go plus most of the increment.
        Some(m) => (avail / m.clamp(1, 50) as u64 + inc * 3 / 4).min(avail / 2),
        // The clock and the increments still to come within the horizon,
        // ramped up over the first moves.
        // (`crate::params`: tm_horizon, tm_ramp_start, tm_ramp_moves.)
        None => {
            let horizon = params::tm_horizon() as u64;
            let (ramp_start, ramp_moves) = (
                params::tm_ramp_start() as u64,
                params::tm_ramp_moves() as u64,
            );
            let pool = avail + inc * (horizon - 1);
            let k = (move_number.saturating_sub(1) as u64).min(ramp_moves);
            let percent = ramp_start + (100 - ramp_start) * k / ramp_moves;
            (pool * percent / (100 * horizon)).min(avail / params::tm_soft_cap_div() as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start position's pieces with White to move at `move_number`.
    fn at_move(move_number: u16) -> Position {
        let fen = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 {move_number}");
        Position::from_fen(&fen).unwrap()
    }

    #[test]
    fn budgets_stay_inside_the_clock() {
        let now = Instant::now();
        let opts = Options {
            move_overhead_ms: 10,
            ..Default::default()
        };
        let pondering = Options {
            ponder: true,
            ..opts.clone()
        };
        for (time, inc, mtg) in [
            (10_000, 100, None),
            (50, 0, None),
            (1_000, 0, Some(1)),
            (60_000, 0, Some(40)),
            (0, 0, None),
        ] {
            let limits = Limits {
                wtime: Some(time),
                winc: Some(inc),
                movestogo: mtg,
                ..Default::default()
            };
            for options in [&opts, &pondering] {
                let tm = TimeManager::new(&limits, &Position::startpos(), options, now);
                let (s, h) = (tm.soft_ms.unwrap(), tm.hard_ms.unwrap());
                assert!(s <= h, "{time} {inc}");
                assert!(
                    h <= time.saturating_sub(10).max(1),
                    "{time} {inc}: hard {h}"
                );
            }
        }
        let start = Position::startpos();
        let black_to_move = start.play(start.legal_moves()[0]);
        let tm = TimeManager::new(
            &Limits {
                movetime: Some(500),
                ..Default::default()
            },
            &black_to_move,
            &opts,
            now,
        );
        assert_eq!(tm.hard_ms, Some(490));
        assert!(
            TimeManager::new(&Limits::default(), &Position::startpos(), &opts, now)
                .hard_ms
                .is_none()
        );
        // Only the opponent's clock: move at once.
        let only_black = Limits {
            btime: Some(100),
            ..Default::default()
        };
        let tm = TimeManager::new(&only_black, &Position::startpos(), &opts, now);
        assert_eq!(tm.hard_ms, Some(1));
    }

    #[test]
    fn opening_moves_spend_less_and_a_game_fits_the_clock() {
        let opts = Options {
            move_overhead_ms: 10,
            ..Default::default()
        };
        // The (soft, hard) limits for a clock of `time` plus `inc` at
        // `move_number`.
        let limits = |time: u64, inc: u64, move_number: u16| {
            let limits = Limits {
                wtime: Some(time),
                winc: Some(inc),
                ..Default::default()
            };
            let tm = TimeManager::new(&limits, &at_move(move_number), &opts, Instant::now());
            (tm.soft_ms.unwrap(), tm.hard_ms.unwrap())
        };
        assert!(limits(10_000, 100, 1).0 < limits(10_000, 100, 13).0);
        assert_eq!(limits(10_000, 100, 13).0, limits(10_000, 100, 40).0);
        // 150 moves at 10+0.1 and 8+0.08, each spending twice its soft
        // limit (the scaling's usual maximum), or all of its hard limit:
        // the clock after a move keeps two increments, or one, in reserve
        // for the hiccups of a busy machine.
        for (start, inc) in [(10_000u64, 100u64), (8_000, 80)] {
            let (mut usual, mut worst) = (start, start);
            for move_number in 1..=150 {
                let (soft, hard) = limits(usual, inc, move_number);
                usual -= (2 * soft).min(hard);
                worst -= limits(worst, inc, move_number).1;
                assert!(usual >= 2 * inc, "move {move_number}: {usual} ms left");
                assert!(worst >= inc, "move {move_number}: {worst} ms left");
                usual += inc;
                worst += inc;
            }
        }
    }

    #[test]
    fn ponder_spends_a_quarter_more() {
        let limits = Limits {
            wtime: Some(60_000),
            ..Default::default()
        };
        let now = Instant::now();
        let plain = Options::default();
        let ponder = Options {
            ponder: true,
            ..Default::default()
        };
        let a = TimeManager::new(&limits, &Position::startpos(), &plain, now)
            .soft_ms
            .unwrap();
        let b = TimeManager::new(&limits, &Position::startpos(), &ponder, now)
            .soft_ms
            .unwrap();
        assert_eq!(b, a + a / 4);
    }
}
