//! Perft: counting the leaves of the legal move tree, the standard check of
//! a move generator.

use crate::moves::Move;
use crate::position::Position;

/// The deepest perft the tools accept: far beyond any count that could
/// finish, and shallow enough that the recursion (about a kilobyte a ply)
/// fits any thread's stack. A fuzzer's `go perft 3595` overflowed one.
pub const MAX_DEPTH: u32 = 64;

/// The number of leaf nodes `depth` plies below `pos`. The last ply is
/// counted in bulk, without making the moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| perft(&pos.play(m), depth - 1))
            .sum(),
    }
}

/// Perft per root move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| (m, perft(&pos.play(m), depth - 1)))
        .collect()
}

/// [`perft`] that gives up, returning `None`, once `stop` is set; the
/// flag is read at every node three or more plies from the leaves, often
/// enough to stop within milliseconds and rarely enough to cost nothing
/// measurable.
pub fn perft_until(
    pos: &Position,
    depth: u32,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<u64> {
    if depth < 3 {
        return Some(perft(pos, depth));
    }
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    let mut total = 0;
    for &m in pos.legal_moves().iter() {
        total += perft_until(&pos.play(m), depth - 1, stop)?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn perft_until_counts_or_stops() {
        let pos = Position::startpos();
        let go = AtomicBool::new(false);
        for depth in 0..=4 {
            assert_eq!(perft_until(&pos, depth, &go), Some(perft(&pos, depth)));
        }
        let stop = AtomicBool::new(true);
        assert_eq!(perft_until(&pos, 30, &stop), None);
        assert_eq!(
            perft_until(&pos, 2, &stop),
            Some(400),
            "too shallow to check"
        );
    }
}
