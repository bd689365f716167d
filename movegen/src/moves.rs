//! Moves packed in 16 bits, and the fixed-capacity move list.

use crate::types::{Piece, Square};
use arrayvec::ArrayVec;
use std::fmt;

/// What kind of move a `Move` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Normal,
    /// Stored as king square → own rook square (Chess960 convention).
    Castle,
    EnPassant,
    Promotion(Piece),
}

/// A move in 16 bits: from (6), to (6), kind (4).
///
/// Castling is stored king-onto-own-rook so that one encoding serves both
/// Chess960 and standard chess; `Position::castle_squares` gives the king's
/// and rook's destinations.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const NORMAL: u16 = 0;
const CASTLE: u16 = 1;
const EN_PASSANT: u16 = 2;
const PROMO: u16 = 4; // 4 + (piece - Knight): 4 knight .. 7 queen

impl Move {
    /// A placeholder that is never a legal move (a1 to a1).
    pub const NULL: Move = Move(0);

    #[inline(always)]
    const fn pack(from: Square, to: Square, kind: u16) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | kind << 12)
    }

    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, NORMAL)
    }

    /// Castling: the king's square and the castling rook's square.
    #[inline(always)]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move::pack(king, rook, CASTLE)
    }

    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, EN_PASSANT)
    }

    /// A promotion to knight, bishop, rook or queen.
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, piece: Piece) -> Move {
        Move::pack(from, to, PROMO + piece as u16 - Piece::Knight as u16)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new(self.0 as u8 & 63)
    }

    /// The destination; for castling, the castling rook's square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6) as u8 & 63)
    }

    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            CASTLE => MoveKind::Castle,
            EN_PASSANT => MoveKind::EnPassant,
            k if k >= PROMO => MoveKind::Promotion(Piece::from_index((k - PROMO) as u8 + 1)),
            _ => MoveKind::Normal,
        }
    }

    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == CASTLE
    }

    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == EN_PASSANT
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 >> 12 >= PROMO
    }

    /// The promotion piece, if any.
    #[inline(always)]
    pub const fn promotion_piece(self) -> Option<Piece> {
        if self.is_promotion() {
            Some(Piece::from_index((self.0 >> 12) as u8 - PROMO as u8 + 1))
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The raw 16 bits (for hash tables).
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// A move from raw bits; it is not checked to be meaningful.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }
}

/// Coordinates only; use `Position::move_to_uci` for protocol text, which
/// knows how castling must be written.
impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        match self.kind() {
            MoveKind::Promotion(p) => write!(f, "{}", p.char()),
            MoveKind::Castle => write!(f, "(castle)"),
            MoveKind::EnPassant => write!(f, "(ep)"),
            MoveKind::Normal => Ok(()),
        }
    }
}

/// Legal moves of a position: no chess position has more than 218.
pub const MAX_MOVES: usize = 256;

/// A list of moves with no heap allocation.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing() {
        let (a, b) = (Square::new(12), Square::new(63));
        let m = Move::promotion(a, b, Piece::Rook);
        assert_eq!((m.from(), m.to()), (a, b));
        assert_eq!(m.kind(), MoveKind::Promotion(Piece::Rook));
        assert_eq!(m.promotion_piece(), Some(Piece::Rook));
        for p in [Piece::Knight, Piece::Bishop, Piece::Queen] {
            assert_eq!(Move::promotion(a, b, p).promotion_piece(), Some(p));
        }
        assert!(Move::castle(Square::E1, Square::H1).is_castle());
        assert!(Move::en_passant(a, b).is_en_passant());
        assert_eq!(Move::normal(a, b).kind(), MoveKind::Normal);
        assert!(Move::NULL.is_null());
        assert!(!Move::normal(a, b).is_null());
        assert_eq!(Move::from_bits(m.bits()), m);
    }
}
