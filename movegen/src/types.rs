//! Small value types: colours, piece kinds, files, ranks and squares.

use std::fmt;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The rank this side's pieces start on.
    #[inline(always)]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::R1,
            Color::Black => Rank::R8,
        }
    }

    /// `rank` as seen from this side (rank 1 for White is rank 8 for Black).
    #[inline(always)]
    pub const fn relative_rank(self, rank: Rank) -> Rank {
        match self {
            Color::White => rank,
            Color::Black => Rank::from_index(7 - rank as u8),
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

/// A kind of piece, without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Piece {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Piece {
    pub const ALL: [Piece; 6] = [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
        Piece::King,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_index(i: u8) -> Piece {
        match i {
            0 => Piece::Pawn,
            1 => Piece::Knight,
            2 => Piece::Bishop,
            3 => Piece::Rook,
            4 => Piece::Queen,
            _ => Piece::King,
        }
    }

    /// Lower-case letter as in FEN and UCI promotions.
    pub const fn char(self) -> char {
        match self {
            Piece::Pawn => 'p',
            Piece::Knight => 'n',
            Piece::Bishop => 'b',
            Piece::Rook => 'r',
            Piece::Queen => 'q',
            Piece::King => 'k',
        }
    }

    /// The piece for a letter of either case.
    pub fn from_char(c: char) -> Option<Piece> {
        Some(match c.to_ascii_lowercase() {
            'p' => Piece::Pawn,
            'n' => Piece::Knight,
            'b' => Piece::Bishop,
            'r' => Piece::Rook,
            'q' => Piece::Queen,
            'k' => Piece::King,
            _ => return None,
        })
    }
}

macro_rules! enum8 {
    ($name:ident, $doc:literal, [$($v:ident),*], $chars:literal) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum $name { $($v),* }

        impl $name {
            pub const ALL: [$name; 8] = [$($name::$v),*];

            #[inline(always)]
            pub const fn index(self) -> usize {
                self as usize
            }

            /// The value for an index; only the low three bits are used.
            #[inline(always)]
            pub const fn from_index(i: u8) -> $name {
                Self::ALL[(i & 7) as usize]
            }

            pub const fn char(self) -> char {
                $chars.as_bytes()[self as usize] as char
            }

            pub fn from_char(c: char) -> Option<$name> {
                $chars.find(c).map(|i| Self::from_index(i as u8))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.char())
            }
        }
    };
}

enum8!(
    File,
    "A file, a to h.",
    [A, B, C, D, E, F, G, H],
    "abcdefgh"
);
enum8!(
    Rank,
    "A rank, 1 to 8.",
    [R1, R2, R3, R4, R5, R6, R7, R8],
    "12345678"
);

/// A square, a1 = 0 ... h8 = 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const E8: Square = Square(60);
    pub const H8: Square = Square(63);

    /// The square with this index; only the low six bits are used.
    #[inline(always)]
    pub const fn new(i: u8) -> Square {
        Square(i & 63)
    }

    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> File {
        File::from_index(self.0 & 7)
    }

    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::from_index(self.0 >> 3)
    }

    /// The square mirrored top to bottom (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square mirrored left to right (a1 <-> h1).
    #[inline(always)]
    pub const fn flip_file(self) -> Square {
        Square(self.0 ^ 7)
    }

    /// The square as seen from `color` (a1 for White is a8 for Black).
    #[inline(always)]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_rank(),
        }
    }

    /// The square `delta` indices away; the caller knows it is on the board.
    #[inline(always)]
    pub const fn offset(self, delta: i8) -> Square {
        Square((self.0 as i8 + delta) as u8 & 63)
    }

    /// Iterates a1, b1, ..., h8.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), self.rank())
    }
}

impl std::str::FromStr for Square {
    type Err = String;

    fn from_str(s: &str) -> Result<Square, String> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => match (File::from_char(f), Rank::from_char(r)) {
                (Some(f), Some(r)) => Ok(Square::from_coords(f, r)),
                _ => Err(format!("'{s}' is not a square")),
            },
            _ => Err(format!("'{s}' is not a square")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
        }
        assert_eq!("e4".parse::<Square>().unwrap().index(), 28);
        assert!("i1".parse::<Square>().is_err());
        assert!("e".parse::<Square>().is_err());
        assert!("e44".parse::<Square>().is_err());
    }

    #[test]
    fn relative() {
        assert_eq!(Square::E1.relative(Color::Black), Square::E8);
        assert_eq!(Color::Black.relative_rank(Rank::R2), Rank::R7);
        assert_eq!(Square::A1.flip_file(), Square::H1);
    }
}
