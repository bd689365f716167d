//! Shrinking the endgame half of drawish endings.

use crate::score::SCALE_NORMAL;
use crate::PIECE_VALUES;
use castella_movegen::{Color, Piece, Position};

/// Non-pawn material in plain centipawns.
#[inline(always)]
fn non_pawn(pos: &Position, color: Color) -> i32 {
    [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
        .iter()
        .map(|&p| PIECE_VALUES[p.index()] * pos.colored(color, p).count() as i32)
        .sum()
}

/// The factor (out of [`SCALE_NORMAL`]) for the endgame half, given its sign
/// (`eg`, from White's view) to know which side is trying to win.
#[inline(always)]
pub(crate) fn scale(pos: &Position, eg: i32) -> i32 {
    if eg == 0 {
        return SCALE_NORMAL;
    }
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = !strong;
    let (npm_strong, npm_weak) = (non_pawn(pos, strong), non_pawn(pos, weak));
    let bishop = PIECE_VALUES[Piece::Bishop.index()];

    // No pawns and at most a minor piece ahead: a lone minor cannot mate,
    // rook against minor is usually held.
    if pos.colored(strong, Piece::Pawn).is_empty() && npm_strong - npm_weak <= bishop {
        return if npm_strong < PIECE_VALUES[Piece::Rook.index()] {
            0
        } else if npm_weak <= bishop {
            4
        } else {
            14
        };
    }

    // Bishops of opposite colours and nothing else: pawns up are often not
    // enough.
    let bishops = pos.pieces(Piece::Bishop);
    if npm_strong == bishop
        && npm_weak == bishop
        && bishops.count() == 2
        && (bishops & crate::masks::DARK_SQUARES).count() == 1
    {
        return SCALE_NORMAL / 2;
    }
    SCALE_NORMAL
}
