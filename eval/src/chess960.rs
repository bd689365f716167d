//! Terms Chess960 needs that tables tuned on standard chess miss.
//!
//! Pieces start on any back-rank square: bishops in corners behind a pawn,
//! knights in corners, bishops aiming down a long diagonal from move one,
//! and pawns attacked from the start. Standard-chess tables, tuned on games
//! where this never happens, have no opinion about any of it.

use crate::masks::{push, CENTER, LONG_DIAGONALS};
use crate::params::Params;
use crate::score::Score;
use crate::Info;
use castella_movegen::attacks::{bishop_attacks, knight_attacks};
use castella_movegen::{Bitboard, Color, File, Piece, Position, Square};

/// `color`'s Chess960 terms.
#[inline(always)]
pub(crate) fn chess960(pos: &Position, color: Color, params: &Params, info: &Info) -> Score {
    let us = color.index();
    let them = (!color).index();
    let our_pawns = pos.colored(color, Piece::Pawn);
    let bishops = pos.colored(color, Piece::Bishop);
    let knights = pos.colored(color, Piece::Knight);
    let mut score = Score::ZERO;

    // A bishop on a long diagonal that reaches the centre past the pawns.
    for sq in bishops & LONG_DIAGONALS {
        if (bishop_attacks(sq, pos.pieces(Piece::Pawn)) & CENTER).many() {
            score += params.long_diagonal_bishop;
        }
    }

    // Minor pieces still at home (worth anything only in the middlegame,
    // which the default's zero endgame half expresses).
    let home = Bitboard::rank(color.back_rank());
    score += params.undeveloped_minor * ((bishops | knights) & home).count() as i32;

    // Pieces shut in our own corners.
    for corner in [Square::A1, Square::H1] {
        let corner = corner.relative(color);
        let inward: i8 = if corner.file() == File::A { 1 } else { -1 };
        if bishops.has(corner) {
            // The pawn on b2 (for a1) closes the diagonal; worse when it is
            // blocked, or when c3 is ours too.
            let step = push(color) + inward;
            let pawn = corner.offset(step);
            if our_pawns.has(pawn) {
                let factor = if info.occ.has(pawn.offset(push(color))) {
                    4
                } else if our_pawns.has(pawn.offset(step)) {
                    2
                } else {
                    1
                };
                score += params.cornered_bishop * factor;
            }
        }
        if knights.has(corner) {
            let exits = knight_attacks(corner)
                - pos.color(color)
                - info.attacked_by[them][Piece::Pawn.index()];
            if exits.is_empty() {
                score += params.cornered_knight;
            }
        }
    }

    // Our pawns the enemy attacks and nothing of ours defends.
    let hanging = our_pawns & info.attacked[them] & !info.attacked[us];
    score += params.hanging_pawn * hanging.count() as i32;
    score
}
