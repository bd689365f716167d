//! Material and the game phase.

use crate::params::Params;
use crate::score::{Score, PHASE_MAX};
use castella_movegen::{Color, Piece, Position};

/// Phase weight of each piece kind: minor 1, rook 2, queen 4, so the full
/// set is 4 + 4 + 8 + 8 = 24 = [`PHASE_MAX`]. Fixed, not tuned: it only
/// says how far the game has gone.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// `color`'s material.
#[inline(always)]
pub(crate) fn material(pos: &Position, color: Color, params: &Params) -> Score {
    let mut score = Score::ZERO;
    for piece in [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
    ] {
        score += params.material[piece.index()] * pos.colored(color, piece).count() as i32;
    }
    score
}

/// The game phase from the non-pawn material on the board: [`PHASE_MAX`]
/// with all pieces on (or more, after promotions: capped), 0 with none.
#[inline(always)]
pub fn phase(pos: &Position) -> i32 {
    let phase: i32 = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
        .iter()
        .map(|&p| PHASE_WEIGHT[p.index()] * pos.pieces(p).count() as i32)
        .sum();
    phase.min(PHASE_MAX)
}
