//! Knights, bishops, rooks and queens: mobility, bishop pair, rooks on open
//! files and on the 7th rank, outposts.
//!
//! The same pass records every piece's attacks in [`Info`] (for threats,
//! king safety and passed pawns) and the attacks on the enemy king zone.

use crate::masks::{adjacent_files, distance, forward_ranks, push, DARK_SQUARES};
use crate::params::Params;
use crate::score::Score;
use crate::Info;
use castella_movegen::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use castella_movegen::{Bitboard, CastleSide, Color, File, Piece, Position, Rank, Square};

/// The squares a piece of kind `piece` on `sq` attacks.
#[inline(always)]
fn attacks(piece: Piece, sq: Square, occ: Bitboard) -> Bitboard {
    match piece {
        Piece::Knight => knight_attacks(sq),
        Piece::Bishop => bishop_attacks(sq, occ),
        Piece::Rook => rook_attacks(sq, occ),
        _ => queen_attacks(sq, occ),
    }
}

/// `color`'s pieces: returns (mobility, other piece terms).
#[inline(always)]
pub(crate) fn pieces(
    pos: &Position,
    color: Color,
    params: &Params,
    info: &mut Info,
) -> (Score, Score) {
    let us = color.index();
    let them = !color;
    let our_pawns = pos.colored(color, Piece::Pawn);
    let their_pawns = pos.colored(them, Piece::Pawn);
    // Squares worth counting: not ours, not covered by an enemy pawn.
    let area = !(pos.color(color) | info.attacked_by[them.index()][Piece::Pawn.index()]);
    let zone = info.king_zone[them.index()];
    let mut mobility = Score::ZERO;
    let mut score = Score::ZERO;

    for piece in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        let table: &[Score] = match piece {
            Piece::Knight => &params.knight_mobility,
            Piece::Bishop => &params.bishop_mobility,
            Piece::Rook => &params.rook_mobility,
            _ => &params.queen_mobility,
        };
        for sq in pos.colored(color, piece) {
            let att = attacks(piece, sq, info.occ);
            info.attacked_by[us][piece.index()] |= att;
            info.attacked2[us] |= info.attacked[us] & att;
            info.attacked[us] |= att;
            let safe_squares = (att & area).count();
            mobility += table[safe_squares as usize];

            let on_zone = att & zone;
            if on_zone.any() {
                info.king_attackers[us] += 1;
                info.king_units[us] +=
                    params.king_attack_weight[piece.index()] * on_zone.count() as i32;
            }

            match piece {
                Piece::Knight | Piece::Bishop => {
                    if (Bitboard::from(sq).shift(push(color)) & our_pawns).any() {
                        score += params.minor_behind_pawn;
                    }
                    score += params.king_protector * distance(sq, pos.king(color));
                    if piece == Piece::Bishop {
                        let same_colour = if DARK_SQUARES.has(sq) {
                            DARK_SQUARES
                        } else {
                            !DARK_SQUARES
                        };
                        score += params.bishop_pawns * (our_pawns & same_colour).count() as i32;
                    }
                    let rank = color.relative_rank(sq.rank());
                    let safe_from_pawns =
                        (their_pawns & adjacent_files(sq.file()) & forward_ranks(color, sq.rank()))
                            .is_empty();
                    if (Rank::R4..=Rank::R6).contains(&rank)
                        && safe_from_pawns
                        && info.attacked_by[us][Piece::Pawn.index()].has(sq)
                    {
                        score += if piece == Piece::Knight {
                            params.knight_outpost
                        } else {
                            params.bishop_outpost
                        };
                    }
                }
                Piece::Rook => {
                    // Shut in by its own king (a rook on the h-file with the
                    // king on g1): the king must move before the rook can.
                    let kf = pos.king(color).file();
                    let outside = if kf < File::E {
                        sq.file() < kf
                    } else {
                        sq.file() > kf
                    };
                    if safe_squares <= 3 && outside {
                        let can_castle = CastleSide::ALL
                            .iter()
                            .any(|&side| pos.castling().rook(color, side).is_some());
                        score += params.trapped_rook * (1 + !can_castle as i32);
                    }
                    let file = Bitboard::file(sq.file());
                    if (our_pawns & file).is_empty() {
                        score += if (their_pawns & file).is_empty() {
                            params.rook_open_file
                        } else {
                            params.rook_half_open_file
                        };
                    }
                    if color.relative_rank(sq.rank()) == Rank::R7
                        && (color.relative_rank(pos.king(them).rank()) == Rank::R8
                            || (their_pawns & Bitboard::rank(sq.rank())).any())
                    {
                        score += params.rook_on_seventh;
                    }
                }
                _ => {}
            }
        }
    }

    let bishops = pos.colored(color, Piece::Bishop);
    if (bishops & DARK_SQUARES).any() && (bishops - DARK_SQUARES).any() {
        score += params.bishop_pair;
    }
    (mobility, score)
}
