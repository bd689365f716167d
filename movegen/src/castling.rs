//! Castling rights, kept as the squares of the rooks that may still castle.
//!
//! In Chess960 the king and rooks start on any files, so a right is not "king
//! side" or "queen side" but a particular rook: the one on the a-side of the
//! king (queen side) or on the h-side (king side). Wherever they start,
//! castling ends with king and rook on the standard squares: a-side Kc1 Rd1,
//! h-side Kg1 Rf1 (rank 8 for Black).

use crate::bitboard::Bitboard;
use crate::types::{Color, File, Square};

/// Which side of its king a castling rook stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CastleSide {
    /// Towards the a-file: "queen side", O-O-O.
    A = 0,
    /// Towards the h-file: "king side", O-O.
    H = 1,
}

impl CastleSide {
    pub const ALL: [CastleSide; 2] = [CastleSide::A, CastleSide::H];

    /// The side of `king` that `rook` stands on.
    #[inline(always)]
    pub fn of(king: Square, rook: Square) -> CastleSide {
        if rook.file() < king.file() {
            CastleSide::A
        } else {
            CastleSide::H
        }
    }

    /// Where the king and the rook end: (king, rook).
    #[inline(always)]
    pub fn destinations(self, color: Color) -> (Square, Square) {
        let rank = color.back_rank();
        match self {
            CastleSide::A => (
                Square::from_coords(File::C, rank),
                Square::from_coords(File::D, rank),
            ),
            CastleSide::H => (
                Square::from_coords(File::G, rank),
                Square::from_coords(File::F, rank),
            ),
        }
    }
}

/// The rooks that may still castle, per colour and side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights {
    rooks: [[Option<Square>; 2]; 2],
}

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights {
        rooks: [[None; 2]; 2],
    };

    /// The rook that may castle on `side`, if any.
    #[inline(always)]
    pub fn rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        self.rooks[color.index()][side as usize]
    }

    #[inline(always)]
    pub(crate) fn set(&mut self, color: Color, side: CastleSide, rook: Option<Square>) {
        self.rooks[color.index()][side as usize] = rook;
    }

    /// No right left for anyone.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        *self == CastlingRights::NONE
    }

    /// The squares of all rooks with a right.
    #[inline(always)]
    pub fn squares(&self) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in self.rooks.iter().flatten().flatten() {
            b |= *sq;
        }
        b
    }

    /// Every rook square with a right: (colour, side, square).
    pub fn iter(&self) -> impl Iterator<Item = (Color, CastleSide, Square)> + '_ {
        Color::ALL.into_iter().flat_map(move |c| {
            CastleSide::ALL
                .into_iter()
                .filter_map(move |s| self.rook(c, s).map(|r| (c, s, r)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations() {
        assert_eq!(
            CastleSide::H.destinations(Color::White),
            (Square::G1, Square::F1)
        );
        let (k, r) = CastleSide::A.destinations(Color::Black);
        assert_eq!((k.to_string(), r.to_string()), ("c8".into(), "d8".into()));
        assert_eq!(CastleSide::of(Square::E1, Square::H1), CastleSide::H);
        assert_eq!(CastleSide::of(Square::E1, Square::A1), CastleSide::A);
    }
}
