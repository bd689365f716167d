//! King safety: attack units on the king zone and safe checks, turned into
//! a quadratic penalty; the pawn shield and the enemy pawn storm in front of
//! the king.

use crate::masks::{distance, forward_ranks, nearest, rank_distance};
use crate::params::Params;
use crate::score::{Score, S};
use crate::Info;
use castella_movegen::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use castella_movegen::{Bitboard, Color, File, Piece, Position};

/// Attack units are capped here, so the penalty stays bounded (60² / 4 =
/// 900 cp in the middlegame with the default weights).
const MAX_UNITS: i32 = 60;

/// `color`'s pawn shelter: the shield and the enemy storm in front of the
/// king, and the king's distance to its nearest pawn. It depends on the
/// pawns and the king's square only, so [`crate::pawn_table`] caches it.
#[inline(always)]
pub(crate) fn shelter(pos: &Position, color: Color, params: &Params) -> Score {
    let them = !color;
    let ksq = pos.king(color);
    let mut score = Score::ZERO;

    // Shield and storm on the king's file and its neighbours, counting only
    // pawns in front of the king.
    let ahead = forward_ranks(color, ksq.rank());
    let ours = pos.colored(color, Piece::Pawn) & ahead;
    let theirs = pos.colored(them, Piece::Pawn) & ahead;
    let kf = ksq.file().index();
    for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
        let file = Bitboard::file(File::from_index(f as u8));
        let shield = ours & file;
        let d = if shield.any() {
            rank_distance(nearest(color, shield), ksq).min(3)
        } else {
            0
        };
        score += params.pawn_shield[d as usize];

        let storm = theirs & file;
        let d = if storm.any() {
            rank_distance(nearest(color, storm), ksq)
        } else {
            0
        };
        if d <= 4 {
            score += params.pawn_storm[d as usize];
        }
    }

    // In the endgame the king belongs near its pawns.
    let closest = pos
        .colored(color, Piece::Pawn)
        .map(|p| distance(p, ksq))
        .min()
        .unwrap_or(0);
    score + params.king_pawn_distance * closest
}

/// `color`'s king safety from the pieces (a penalty, so usually negative);
/// the pawn shelter is [`shelter`].
#[inline(always)]
pub(crate) fn king(pos: &Position, color: Color, params: &Params, info: &Info) -> Score {
    let them = !color;
    let ksq = pos.king(color);
    let mut score = Score::ZERO;

    // A lone attacker rarely mates: zone attacks count from two attackers
    // on, safe checks always.
    let by = &info.attacked_by[them.index()];
    let mut units = if info.king_attackers[them.index()] >= 2 {
        info.king_units[them.index()]
    } else {
        0
    };
    let (us, att) = (color.index(), them.index());
    // Squares near our king we hold badly: attacked, not defended twice,
    // and defended at most by the king or the queen.
    let weak = info.attacked[att]
        & !info.attacked2[us]
        & (!info.attacked[us]
            | info.attacked_by[us][Piece::King.index()]
            | info.attacked_by[us][Piece::Queen.index()]);
    units += params.king_weak_square * (info.king_zone[us] & weak).count() as i32;
    // A checking square is safe if we do not defend it, or defend it only
    // weakly while the attacker hits it twice.
    let safe = !pos.color(them) & (!info.attacked[us] | (weak & info.attacked2[att]));
    let mut unsafe_check = false;
    let diagonal = bishop_attacks(ksq, info.occ);
    let straight = rook_attacks(ksq, info.occ);
    let checks = [
        (Piece::Knight, knight_attacks(ksq)),
        (Piece::Bishop, diagonal),
        (Piece::Rook, straight),
        (Piece::Queen, diagonal | straight),
    ];
    for (piece, from) in checks {
        let checks = from & by[piece.index()] & !pos.color(them);
        if (checks & safe).any() {
            units += params.king_safe_check[piece.index()];
        } else if checks.any() {
            unsafe_check = true;
        }
    }
    if unsafe_check {
        units += params.king_unsafe_check;
    }
    if pos.colored(them, Piece::Queen).is_empty() {
        units -= params.king_no_queen;
    }

    let units = units.clamp(0, MAX_UNITS);
    let square = units * units;
    let danger = params.king_danger;
    score -= S(danger.mg() * square / 1024, danger.eg() * square / 1024);
    score
}
