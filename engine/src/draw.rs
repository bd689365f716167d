//! Draws by rule that the search detects: repetition, the fifty-move rule
//! and insufficient material.

use castella_movegen::{Piece, Position};

/// Whether the position repeats one in `keys` (the game and search path
/// before it, oldest first) since the last capture or pawn move. A single
/// repetition counts as a draw: if it was good once, the side that could
/// repeat will.
#[inline]
pub fn is_repetition(pos: &Position, keys: &[u64]) -> bool {
    let back = pos.halfmove_clock() as usize;
    let key = pos.key();
    keys.iter()
        .rev()
        .take(back)
        .skip(1)
        .step_by(2)
        .any(|&k| k == key)
}

/// No pawns, rooks or queens, and at most one minor piece on the board.
#[inline]
pub fn is_insufficient_material(pos: &Position) -> bool {
    let heavy = pos.pieces(Piece::Pawn) | pos.pieces(Piece::Rook) | pos.pieces(Piece::Queen);
    heavy.is_empty() && (pos.pieces(Piece::Knight) | pos.pieces(Piece::Bishop)).count() <= 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetition_after_knight_shuffle() {
        let mut pos = Position::startpos();
        let mut keys = Vec::new();
        for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            keys.push(pos.key());
            pos = pos.play(pos.parse_uci_move(mv).unwrap());
        }
        assert!(is_repetition(&pos, &keys));
        assert!(!is_repetition(&Position::startpos(), &[]));
        assert!(is_insufficient_material(
            &Position::from_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1").unwrap()
        ));
        assert!(!is_insufficient_material(
            &Position::from_fen("8/8/4k3/8/8/3PK3/8/8 w - - 0 1").unwrap()
        ));
    }
}
