//! Search values: the mate range, conversions for the table and the GUI,
//! and the win/draw/loss model.

use crate::Score;

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Larger than any score.
pub const INFINITE: i32 = 32_000;
/// Mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const DRAW: i32 = 0;

#[inline]
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

#[inline]
pub fn is_mate(v: i32) -> bool {
    v.abs() >= MATE_BOUND
}

/// A score from the search (relative to the root) to the table (relative to
/// the node), so that a stored mate is right wherever it is read.
#[inline]
pub fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// The inverse of `to_tt`.
#[inline]
pub fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// A search value as UCI reports it: mate in moves, or centipawns.
pub fn to_uci(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate((MATE - v + 1) / 2)
    } else if v <= -MATE_BOUND {
        Score::Mate(-(MATE + v) / 2)
    } else {
        Score::Cp(v)
    }
}

/// Win/draw/loss per mille for a centipawn score, from a logistic model
/// (about 50% wins at +1.5 pawns, draws dominate near 0).
pub fn wdl(v: i32) -> (u32, u32, u32) {
    if v >= MATE_BOUND {
        return (1000, 0, 0);
    }
    if v <= -MATE_BOUND {
        return (0, 0, 1000);
    }
    let p = |x: f64| 1.0 / (1.0 + (-(x - 150.0) / 60.0).exp());
    let win = (p(v as f64) * 1000.0).round() as u32;
    let loss = (p(-v as f64) * 1000.0).round() as u32;
    (win, 1000 - win - loss, loss)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_conversions() {
        assert_eq!(to_uci(MATE - 1), Score::Mate(1));
        assert_eq!(to_uci(MATE - 3), Score::Mate(2));
        assert_eq!(to_uci(-MATE + 2), Score::Mate(-1));
        assert_eq!(to_uci(-MATE), Score::Mate(0));
        assert_eq!(from_tt(to_tt(MATE - 10, 4), 4), MATE - 10);
        assert_eq!(from_tt(to_tt(-MATE + 10, 7), 7), -MATE + 10);
        let (w, d, l) = wdl(0);
        assert_eq!(w, l);
        assert_eq!(w + d + l, 1000);
    }
}
