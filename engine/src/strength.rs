//! A strength limit (UCI `UCI_LimitStrength` with `UCI_Elo`), weakening
//! the way people find natural: a node cap per move, which takes away
//! depth and so the longer tactics, and a choice among the best four
//! moves of a MultiPV search, each taken with a probability that falls
//! with how much worse it scores (a softmax with a temperature that
//! grows as the Elo falls). A mate found, a tablebase win, or a single
//! good move is never thrown away. The choice is seeded by the game and
//! the position, so a replayed game replays.
//!
//! The mapping from Elo to node cap and temperature is a first guess,
//! not yet calibrated against Stockfish's `UCI_Elo` ladder.

use crate::tablebase::TB_WIN_BOUND;
use castella_movegen::Move;

/// The weakest setting offered.
pub const MIN_ELO: u32 = 1320;
/// The strongest setting offered: about full strength at 10+0.1.
pub const MAX_ELO: u32 = 2700;
/// Moves the limited search compares.
pub const CANDIDATES: usize = 4;

/// A strength limit at `elo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    pub elo: u32,
}

impl Strength {
    /// The limit, with `elo` brought into the offered range.
    pub fn new(elo: u32) -> Strength {
        Strength {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
        }
    }

    /// Nodes per move: 400 at the bottom, doubling every 130 Elo.
    pub fn node_cap(self) -> u64 {
        let steps = (self.elo - MIN_ELO) as f64 / 130.0;
        (400.0 * steps.exp2()) as u64
    }

    /// The softmax temperature in centipawns: how much worse a move may
    /// score and still be played now and then.
    pub fn temperature(self) -> f64 {
        (MAX_ELO - self.elo) as f64 / 6.0
    }

    /// Picks the move to play from `candidates` (move and score, best
    /// first), with `seed` deciding.
    pub fn choose(self, candidates: &[(Move, i32)], seed: u64) -> Option<Move> {
        let &(best, top) = candidates.first()?;
        let t = self.temperature();
        // Winning by force: keep it.
        if top >= TB_WIN_BOUND || t <= 0.0 {
            return Some(best);
        }
        // Moves that lose by force are never chosen over one that does not.
        let weights: Vec<(Move, f64)> = candidates
            .iter()
            .filter(|&&(_, s)| s > -TB_WIN_BOUND || top <= -TB_WIN_BOUND)
            .map(|&(m, s)| (m, ((s - top) as f64 / t).exp()))
            .collect();
        let total: f64 = weights.iter().map(|w| w.1).sum();
        let mut pick = unit(seed) * total;
        for &(m, w) in &weights {
            if pick < w {
                return Some(m);
            }
            pick -= w;
        }
        Some(best)
    }
}

/// A number in [0, 1) from `seed` (SplitMix64).
fn unit(seed: u64) -> f64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use castella_movegen::Position;

    fn moves() -> Vec<Move> {
        Position::startpos()
            .legal_moves()
            .iter()
            .copied()
            .take(4)
            .collect()
    }

    #[test]
    fn caps_and_temperatures_fall_with_elo() {
        let (low, high) = (Strength::new(0), Strength::new(9999));
        assert_eq!((low.elo, high.elo), (MIN_ELO, MAX_ELO));
        assert_eq!(low.node_cap(), 400);
        assert!(high.node_cap() > 500_000);
        assert_eq!(high.temperature(), 0.0);
        assert!(Strength::new(2000).temperature() > Strength::new(2400).temperature());
    }

    #[test]
    fn choices_are_seeded_and_spare_forced_wins() {
        let m = moves();
        let close: Vec<(Move, i32)> = m
            .iter()
            .zip([30, 20, 10, 0])
            .map(|(&a, b)| (a, b))
            .collect();
        let weak = Strength::new(1500);
        let picks: Vec<Move> = (0..200).filter_map(|s| weak.choose(&close, s)).collect();
        assert!(
            m.iter().all(|mv| picks.contains(mv)),
            "every close move is played sometimes"
        );
        assert_eq!(
            weak.choose(&close, 7),
            weak.choose(&close, 7),
            "same seed, same move"
        );
        // Full strength, a mate or a tablebase win: always the best move.
        assert!((0..50).all(|s| Strength::new(MAX_ELO).choose(&close, s) == Some(m[0])));
        let winning: Vec<(Move, i32)> = vec![(m[0], 30_990), (m[1], 25), (m[2], 20)];
        assert!((0..50).all(|s| weak.choose(&winning, s) == Some(m[0])));
        // A forced loss is not chosen while a move that holds exists.
        let losing: Vec<(Move, i32)> = vec![(m[0], 0), (m[1], -30_990)];
        assert!((0..200).all(|s| weak.choose(&losing, s) == Some(m[0])));
        // Far worse moves are rare at high Elo.
        let spread: Vec<(Move, i32)> = vec![(m[0], 100), (m[1], -200)];
        let strong = Strength::new(2600);
        let worse = (0..1000)
            .filter(|&s| strong.choose(&spread, s) == Some(m[1]))
            .count();
        assert!(worse < 5, "{worse}");
    }
}
