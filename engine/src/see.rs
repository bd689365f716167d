//! Static exchange evaluation: whether a move wins or loses material once
//! all the captures on its square are played out, cheapest attacker first.

use castella_eval::PIECE_VALUES;
use castella_movegen::attacks::{bishop_attacks, rook_attacks};
use castella_movegen::{Bitboard, Move, MoveKind, Piece, Position};

fn value(p: Piece) -> i32 {
    PIECE_VALUES[p.index()]
}

/// The material `mv` captures (0 for a quiet move or a promotion onto an
/// empty square), as the exchange counts it.
#[inline]
pub fn captured_value(pos: &Position, mv: Move) -> i32 {
    pos.captured(mv).map_or(0, value)
}

/// Whether the exchange started by `mv` gains at least `threshold`.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    if mv.kind() != MoveKind::Normal {
        // Castling, en passant and promotions: treat as at least even.
        return threshold <= 0;
    }
    let (from, to) = (mv.from(), mv.to());
    let mut swap = pos.piece_on(to).map_or(0, value) - threshold;
    if swap < 0 {
        return false;
    }
    let Some(moving) = pos.piece_on(from) else {
        return false;
    };
    swap = value(moving) - swap;
    if swap <= 0 {
        return true;
    }

    let mut occ = pos.occupied() ^ from ^ to;
    let mut stm = pos.side_to_move();
    let mut attackers = pos.attackers_to(to, occ);
    let queens = pos.pieces(Piece::Queen);
    let diag = pos.pieces(Piece::Bishop) | queens;
    let orth = pos.pieces(Piece::Rook) | queens;
    let mut result = true;
    loop {
        stm = stm.flip();
        attackers &= occ;
        let mine = attackers & pos.color(stm);
        if mine.is_empty() {
            break;
        }
        // Each capture hands the exchange to the other side. Pins are not
        // looked at: a pinned piece takes part like any other.
        result = !result;
        let Some((piece, sq)) = least_valuable(pos, mine) else {
            break;
        };
        if piece == Piece::King {
            // The king may only take last.
            if (attackers & pos.color(stm.flip())).any() {
                result = !result;
            }
            break;
        }
        swap = value(piece) - swap;
        if swap < result as i32 {
            break;
        }
        occ ^= sq;
        if matches!(piece, Piece::Pawn | Piece::Bishop | Piece::Queen) {
            attackers |= bishop_attacks(to, occ) & diag;
        }
        if matches!(piece, Piece::Rook | Piece::Queen) {
            attackers |= rook_attacks(to, occ) & orth;
        }
    }
    result
}

fn least_valuable(pos: &Position, set: Bitboard) -> Option<(Piece, castella_movegen::Square)> {
    Piece::ALL
        .into_iter()
        .find_map(|p| (set & pos.pieces(p)).first().map(|sq| (p, sq)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, t: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        see_ge(&pos, pos.parse_uci_move(mv).unwrap(), t)
    }

    #[test]
    fn exchanges() {
        // Pawn takes an undefended knight.
        assert!(see("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 300));
        // Queen takes a pawn defended by a pawn: loses.
        assert!(!see("4k3/2p5/3p4/8/8/8/3Q4/4K3 w - - 0 1", "d2d6", 0));
        // Rook takes a rook defended by a rook, with a second rook behind.
        assert!(see("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 0));
        // Knight takes a pawn defended by a pawn.
        assert!(!see("4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5", 0));
        assert!(see("4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5", -300));
    }
}
