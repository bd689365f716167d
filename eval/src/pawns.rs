//! Pawn structure and passed pawns.
//!
//! Structure (doubled, isolated, backward, phalanx, supported) depends on
//! pawns only. Passed pawns are found at the same time but scored later,
//! once the attack maps are known, because "free to advance" asks whether
//! the enemy controls the stop square.

use crate::masks::{adjacent_files, distance, forward_ranks, front_span, push};
use crate::params::Params;
use crate::score::Score;
use crate::Info;
use castella_movegen::attacks::pawn_attacks;
use castella_movegen::{Bitboard, Color, Piece, Position};

/// `color`'s pawn structure; returns the score and `color`'s passed pawns.
#[inline(always)]
pub(crate) fn structure(pos: &Position, color: Color, params: &Params) -> (Score, Bitboard) {
    let ours = pos.colored(color, Piece::Pawn);
    let theirs = pos.colored(!color, Piece::Pawn);
    let mut score = Score::ZERO;
    let mut passed = Bitboard::EMPTY;

    for sq in ours {
        let file = Bitboard::file(sq.file());
        let neighbours = adjacent_files(sq.file());
        let ahead = forward_ranks(color, sq.rank());
        let rank = color.relative_rank(sq.rank()).index();

        let isolated = (ours & neighbours).is_empty();
        let doubled = (ours & front_span(color, sq)).any();
        let phalanx = (ours & neighbours & Bitboard::rank(sq.rank())).any();
        let supported = (pawn_attacks(!color, sq) & ours).any();

        if doubled {
            score += params.doubled;
        }
        if isolated {
            score += params.isolated;
        } else if (ours & neighbours & !ahead).is_empty() {
            // Every neighbour is ahead of us, so none can ever defend this
            // pawn; it is stuck if an enemy pawn controls the stop square.
            // (A pawn never stands on the last rank, so the stop square is
            // on the board.)
            let stop = sq.offset(push(color));
            if (pawn_attacks(color, stop) & theirs).any() {
                score += params.backward;
            }
        }
        if phalanx {
            score += params.phalanx[rank];
        }
        if supported {
            score += params.supported[rank];
        }
        // Passed: no enemy pawn in front on this or a neighbouring file, and
        // only the front pawn of a doubled pair counts.
        if !doubled && (theirs & ahead & (file | neighbours)).is_empty() {
            passed |= sq;
        }
    }
    (score, passed)
}

/// `color`'s passed pawns, found by [`structure`].
#[inline(always)]
pub(crate) fn passed(pos: &Position, color: Color, params: &Params, info: &Info) -> Score {
    let mut score = Score::ZERO;
    let our_king = pos.king(color);
    let their_king = pos.king(!color);
    let ours = pos.colored(color, Piece::Pawn);

    for sq in info.passed[color.index()] {
        let rank = color.relative_rank(sq.rank()).index();
        let stop = sq.offset(push(color));
        score += params.passed[rank];

        if !info.occ.has(stop) && !info.attacked[(!color).index()].has(stop) {
            score += params.passed_free[rank];
        }
        let path = front_span(color, sq);
        if (path & (pos.color(!color) | info.attacked[(!color).index()])).is_empty() {
            score += params.passed_safe_path[rank];
        }
        if (pawn_attacks(!color, sq) & ours).any() {
            score += params.passed_supported;
        }
        // Kings matter more the further the pawn has come: weight 1 on the
        // 4th rank up to 4 on the 7th. Being only linear in the two
        // parameters keeps this easy to tune.
        let weight = rank as i32 - 2;
        if weight > 0 {
            score += params.passed_own_king * (weight * distance(our_king, stop));
            score += params.passed_enemy_king * (weight * distance(their_king, stop));
        }
    }
    score
}
