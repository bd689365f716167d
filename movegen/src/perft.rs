//! Perft: counting the leaves of the legal move tree, the standard check of
//! a move generator.

use crate::moves::Move;
use crate::position::Position;

/// The deepest perft the tools accept: far beyond any count that could
/// finish, and shallow enough that the recursion (about a kilobyte a ply)
/// fits any thread's stack. A fuzzer's `go perft 3595` overflowed one.
pub const MAX_DEPTH: u32 = 64;

/// The number of leaf nodes `depth` plies below `pos`. The last ply is
/// counted in bulk, without making the moves. On an x86-64 CPU with the
/// instructions of `x86-64-v3` (AVX2, BMI1/2, LZCNT; Haswell and later)
/// the walk runs in a copy compiled for them, whatever the build's own
/// target: population counts, bit scans and the copying of positions
/// are then single instructions (measured: 1.4 times as fast as the
/// baseline x86-64 code, see docs/speed.md).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if has_v3() {
        // SAFETY: the CPU has every feature the copy was compiled for.
        return unsafe { walk_v3(pos, depth) };
    }
    walk(pos, depth)
}

/// Whether this CPU runs the `x86-64-v3` copy of the walk.
#[cfg(target_arch = "x86_64")]
#[inline]
fn has_v3() -> bool {
    is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("lzcnt")
        && is_x86_feature_detected!("popcnt")
        && is_x86_feature_detected!("fma")
}

/// The walk in the build's own instructions.
fn walk(pos: &Position, depth: u32) -> u64 {
    walk_with(pos, depth, walk)
}

/// The walk compiled for `x86-64-v3`; the move generator and `make`,
/// inlined into it, are compiled so too.
///
/// # Safety
/// The CPU must have the features named ([`has_v3`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,fma")]
unsafe fn walk_v3(pos: &Position, depth: u32) -> u64 {
    // SAFETY: this copy runs only where the CPU has the features.
    walk_with(pos, depth, |child, d| unsafe { walk_v3(child, d) })
}

/// One node of the walk, inlined into each copy, `deeper` counting the
/// children: the make-move of a count, which leaves the Zobrist key
/// alone (perft never reads it).
#[inline(always)]
fn walk_with(pos: &Position, depth: u32, deeper: impl Fn(&Position, u32) -> u64) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let mut nodes = 0;
            for &m in pos.legal_moves().iter() {
                let mut child = *pos;
                child.make_with::<false>(m);
                nodes += deeper(&child, depth - 1);
            }
            nodes
        }
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

    /// Both copies of the walk count alike (the one this CPU does not
    /// take is checked here too), on positions with castling both ways,
    /// en passant, promotions and checks.
    #[test]
    fn both_copies_of_the_walk_count_alike() {
        for (fen, depth, nodes) in [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                3,
                97_862,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43_238),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                3,
                9_467,
            ),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                3,
                12_189,
            ),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(walk(&pos, depth), nodes, "{fen}");
            assert_eq!(perft(&pos, depth), nodes, "{fen}");
            #[cfg(target_arch = "x86_64")]
            if has_v3() {
                // SAFETY: the CPU has the features.
                assert_eq!(unsafe { walk_v3(&pos, depth) }, nodes, "{fen}");
            }
        }
    }

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
