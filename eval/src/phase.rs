//! The game phase: how much non-pawn material is left. The network does
//! not read it; the trainer uses it to tell openings from endings.

use castella_movegen::{Piece, Position};

/// The game phase when all minor and major pieces are on the board.
pub const PHASE_MAX: i32 = 24;

/// Phase weight of each piece kind: minor 1, rook 2, queen 4, so the full
/// set is 4 + 4 + 8 + 8 = 24 = [`PHASE_MAX`].
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The game phase from the non-pawn material on the board: [`PHASE_MAX`]
/// with all pieces on (or more, after promotions: capped), 0 with none.
#[inline]
pub fn phase(pos: &Position) -> i32 {
    let phase: i32 = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
        .iter()
        .map(|&p| PHASE_WEIGHT[p.index()] * pos.pieces(p).count() as i32)
        .sum();
    phase.min(PHASE_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_at_the_start_and_none_with_kings_and_pawns() {
        assert_eq!(phase(&Position::startpos()), PHASE_MAX);
        let pawns = Position::from_fen("4k3/pppp4/8/8/8/8/4PPPP/4K3 w - - 0 1").unwrap();
        assert_eq!(phase(&pawns), 0);
        let rook_and_knight = Position::from_fen("4k3/8/8/8/8/8/8/R3K1n1 w - - 0 1").unwrap();
        assert_eq!(phase(&rook_and_knight), 3);
        let queens = Position::from_fen("6k1/8/8/8/8/8/8/QQQQQQKN w - - 0 1").unwrap();
        assert_eq!(phase(&queens), PHASE_MAX);
    }
}
