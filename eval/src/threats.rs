//! Enemy pieces attacked by cheaper pieces of ours.
//!
//! Attacks on more valuable pieces are a classic source of static value: the
//! search sees the capture only at the next ply, and the victim must spend a
//! tempo to escape.

use crate::params::Params;
use crate::score::Score;
use crate::Info;
use castella_movegen::{Color, Piece, Position};

/// Threats by `color` against the other side's pieces.
#[inline(always)]
pub(crate) fn threats(pos: &Position, color: Color, params: &Params, info: &Info) -> Score {
    let them = !color;
    let by = &info.attacked_by[color.index()];
    let mut score = Score::ZERO;

    for piece in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        let victims = pos.colored(them, piece);
        score += params.threat_by_pawn[piece.index()]
            * (by[Piece::Pawn.index()] & victims).count() as i32;
    }
    let minors = by[Piece::Knight.index()] | by[Piece::Bishop.index()];
    for piece in [Piece::Rook, Piece::Queen] {
        let victims = pos.colored(them, piece);
        score += params.threat_by_minor[piece.index()] * (minors & victims).count() as i32;
    }
    let queens = pos.colored(them, Piece::Queen);
    score += params.threat_by_rook * (by[Piece::Rook.index()] & queens).count() as i32;
    score
}
