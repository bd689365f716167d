//! Piece-square tables.
//!
//! The tables in [`Params::psqt`] are written from White's side with rank 8
//! on the first row and hold files a to d only; a square's entry is looked up
//! through its rank relative to the owner (so Black reads them mirrored top
//! to bottom) and its file folded onto the a-d half.

use crate::params::Params;
use crate::score::Score;
use castella_movegen::{Color, Piece, Position, Square};

/// File a..h to the table column: a,h -> 0, b,g -> 1, c,f -> 2, d,e -> 3.
const FOLD: [usize; 8] = [0, 1, 2, 3, 3, 2, 1, 0];

/// The table entry for `color`'s `piece` on `sq`.
#[inline(always)]
pub(crate) fn entry(params: &Params, color: Color, piece: Piece, sq: Square) -> Score {
    let row = 7 - sq.relative(color).rank().index();
    params.psqt[piece.index()][row][FOLD[sq.file().index()]]
}

/// The sum of `color`'s table entries.
#[inline(always)]
pub(crate) fn psqt(pos: &Position, color: Color, params: &Params) -> Score {
    let mut score = Score::ZERO;
    for piece in Piece::ALL {
        for sq in pos.colored(color, piece) {
            score += entry(params, color, piece, sq);
        }
    }
    score
}
