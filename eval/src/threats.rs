//! Enemy pieces attacked by cheaper pieces of ours, weak and hanging
//! pieces, squares the enemy cannot hold, and pawn pushes that would attack
//! a piece.
//!
//! Attacks on more valuable or undefended pieces are a classic source of
//! static value: the search sees the capture only at the next ply, and the
//! victim must spend a tempo to escape.

use crate::masks::{pawn_attacks_all, push};
use crate::params::Params;
use crate::score::Score;
use crate::Info;
use castella_movegen::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use castella_movegen::{Bitboard, Color, Piece, Position, Rank};

/// Threats by `color` against the other side's pieces.
#[inline(always)]
pub(crate) fn threats(pos: &Position, color: Color, params: &Params, info: &Info) -> Score {
    let (us, them) = (color.index(), (!color).index());
    let by = &info.attacked_by[us];
    let mut score = Score::ZERO;

    for piece in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        let victims = pos.colored(!color, piece);
        score += params.threat_by_pawn[piece.index()]
            * (by[Piece::Pawn.index()] & victims).count() as i32;
    }

    // Held by a pawn, or by more attackers than we bring.
    let strongly_protected =
        info.attacked_by[them][Piece::Pawn.index()] | (info.attacked2[them] & !info.attacked2[us]);
    let enemies = pos.color(!color) - pos.colored(!color, Piece::King);
    let non_pawn = enemies - pos.colored(!color, Piece::Pawn);
    let weak = enemies & !strongly_protected & info.attacked[us];
    let defended = non_pawn & strongly_protected;

    let minors = by[Piece::Knight.index()] | by[Piece::Bishop.index()];
    // (The king is never a victim: `enemies` leaves it out.)
    for piece in Piece::ALL {
        let victims = pos.colored(!color, piece) & (defended | weak);
        score += params.threat_by_minor[piece.index()] * (minors & victims).count() as i32;
    }
    let queens = pos.colored(!color, Piece::Queen);
    score += params.threat_by_rook * (by[Piece::Rook.index()] & queens).count() as i32;

    let hanging = weak & (!info.attacked[them] | (non_pawn & info.attacked2[us]));
    score += params.hanging * hanging.count() as i32;
    score += params.threat_by_king * (weak & by[Piece::King.index()]).count() as i32;

    let restricted = info.attacked[them] & !strongly_protected & info.attacked[us];
    score += params.restricted * restricted.count() as i32;

    // Pawn pushes (single, or double from the start) onto squares where the
    // pawn would be safe, and that would attack a piece.
    let empty = !info.occ;
    let third = Bitboard::rank(color.relative_rank(Rank::R3));
    let single = pos.colored(color, Piece::Pawn).shift(push(color)) & empty;
    let pushes = single | ((single & third).shift(push(color)) & empty);
    let safe = pushes
        & !info.attacked_by[them][Piece::Pawn.index()]
        & (info.attacked[us] | !info.attacked[them]);
    score += params.pawn_push_threat * (pawn_attacks_all(color, safe) & non_pawn).count() as i32;

    // Squares from which we could attack a lone enemy queen next move.
    let queens = pos.colored(!color, Piece::Queen);
    if queens.count() == 1 {
        let q = queens.lsb();
        let safe =
            !pos.color(color) & !info.attacked_by[them][Piece::Pawn.index()] & !strongly_protected;
        let knight = knight_attacks(q) & by[Piece::Knight.index()];
        score += params.knight_on_queen * (knight & safe).count() as i32;
        let sliders = (bishop_attacks(q, info.occ) & by[Piece::Bishop.index()])
            | (rook_attacks(q, info.occ) & by[Piece::Rook.index()]);
        score += params.slider_on_queen * (sliders & safe & info.attacked2[us]).count() as i32;
    }
    score
}
