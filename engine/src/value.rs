//! Search values: the mate range, conversions for the table and the GUI,
//! and the win/draw/loss model.

use crate::report::Score;
use castella_movegen::{Piece, Position};

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Larger than any score.
pub const INFINITE: i32 = 32_000;
/// Mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const DRAW: i32 = 0;
/// A tablebase win, less the plies to it: far beyond any evaluation,
/// short of the mate scores.
pub const TB_WIN: i32 = 20_000;
/// Scores beyond this are tablebase wins (or mates).
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

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

/// The win-rate model, fitted on the shipped network's own games
/// (`data wdl --filter`, run by `bench/tools/calibrate.py wdl`, which
/// rewrites these lines): `P(win) = σ((v − a) / b)`, `P(loss) = σ((−v −
/// a) / b)` for a search value `v`, with `a` and `b` quadratic in the
/// material `m / 58` ([`wdl_material`]). At `a` the side to move wins
/// half its games.
/// Fitted by calibrate.py: 1136616 positions of s82-n6-s8201.games (its first 24192 games).
const WDL_A: [f64; 3] = [520.712, -774.852, 348.637];
const WDL_B: [f64; 3] = [144.667, -142.565, 93.964];

/// The model's `a` and `b` for `material`.
fn wdl_params(material: i32) -> (f64, f64) {
    let x = material.clamp(17, 78) as f64 / 58.0;
    let poly = |c: [f64; 3]| c[0] + c[1] * x + c[2] * x * x;
    (poly(WDL_A), poly(WDL_B).max(1.0))
}

/// A search value in the centipawns UCI reports, normalised as Stockfish
/// does since 15.1: +100 means the side to move wins about half its games
/// from here (in Castella's fast self-play), whatever the material. Mate
/// scores and tablebase wins pass unchanged.
pub fn normalize(v: i32, material: i32) -> i32 {
    // Mates and tablebase wins keep their values.
    if v.abs() >= TB_WIN_BOUND {
        return v;
    }
    let (a, _) = wdl_params(material);
    (v as f64 * 100.0 / a).round() as i32
}

/// Win/draw/loss per mille for a search value (not normalised) at
/// `material`, from the model.
pub fn wdl(v: i32, material: i32) -> (u32, u32, u32) {
    // Mates and tablebase wins are certain.
    if v >= TB_WIN_BOUND {
        return (1000, 0, 0);
    }
    if v <= -TB_WIN_BOUND {
        return (0, 0, 1000);
    }
    let (a, b) = wdl_params(material);
    let p = |x: f64| 1.0 / (1.0 + (-(x - a) / b).exp());
    let win = (p(v as f64) * 1000.0).round() as u32;
    let loss = (p(-v as f64) * 1000.0).round() as u32;
    (win, 1000 - win - loss, loss)
}

/// The material count of the win-rate model: pawns 1, knights and
/// bishops 3, rooks 5, queens 9, both sides, clamped to 17..78 (as
/// Stockfish's model counts it).
pub fn wdl_material(pos: &Position) -> i32 {
    let count = |p: Piece| pos.pieces(p).count() as i32;
    let m = count(Piece::Pawn)
        + 3 * count(Piece::Knight)
        + 3 * count(Piece::Bishop)
        + 5 * count(Piece::Rook)
        + 9 * count(Piece::Queen);
    m.clamp(17, 78)
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
        for m in [17, 40, 58, 78] {
            let (w, d, l) = wdl(0, m);
            assert_eq!(w, l);
            assert_eq!(w + d + l, 1000);
            // Normalised: the model's 50% point reports as 100, give or
            // take what rounding it to whole centipawns moves it by
            // (100 · 0.5 / a, under one for any a above 50).
            let (a, _) = wdl_params(m);
            assert!(a > 50.0, "{a} at material {m}");
            let n = normalize(a.round() as i32, m);
            assert!((99..=101).contains(&n), "{n} at material {m}");
            let (w, _, _) = wdl(a.round() as i32, m);
            assert!((495..=505).contains(&w), "{w} at material {m}");
        }
        assert_eq!(normalize(MATE - 5, 40), MATE - 5);
        assert_eq!(normalize(-(MATE - 5), 40), -(MATE - 5));
    }
}
