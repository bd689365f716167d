//! Small square-set helpers the terms share, all computed at compile time.

pub use castella_movegen::attacks::pawn_attacks_all;
use castella_movegen::{Bitboard, Color, File, Rank, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// The two long diagonals, a1-h8 and h1-a8.
pub const LONG_DIAGONALS: Bitboard = Bitboard(0x8040_2010_0804_0201 | 0x0102_0408_1020_4080);

/// d4, e4, d5, e5.
pub const CENTER: Bitboard = Bitboard(1 << 27 | 1 << 28 | 1 << 35 | 1 << 36);

/// The dark squares (a1 is dark).
pub const DARK_SQUARES: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);

const fn adjacent_table() -> [Bitboard; 8] {
    let mut out = [Bitboard::EMPTY; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            out[f].0 |= FILE_A << (f - 1);
        }
        if f < 7 {
            out[f].0 |= FILE_A << (f + 1);
        }
        f += 1;
    }
    out
}

const fn forward_table() -> [[Bitboard; 8]; 2] {
    let mut out = [[Bitboard::EMPTY; 8]; 2];
    let mut r = 0;
    while r < 8 {
        // White: every rank above r; Black: every rank below r.
        out[0][r] = Bitboard(if r == 7 { 0 } else { !0u64 << (8 * (r + 1)) });
        out[1][r] = Bitboard(if r == 0 { 0 } else { !0u64 >> (8 * (8 - r)) });
        r += 1;
    }
    out
}

static ADJACENT_FILES: [Bitboard; 8] = adjacent_table();
static FORWARD_RANKS: [[Bitboard; 8]; 2] = forward_table();

/// The files beside `file` (one or two of them).
#[inline(always)]
pub fn adjacent_files(file: File) -> Bitboard {
    ADJACENT_FILES[file.index()]
}

/// Every square on a rank strictly in front of `rank` from `color`'s side.
#[inline(always)]
pub fn forward_ranks(color: Color, rank: Rank) -> Bitboard {
    FORWARD_RANKS[color.index()][rank.index()]
}

/// The squares in front of `sq` on its own file, from `color`'s side.
#[inline(always)]
pub fn front_span(color: Color, sq: Square) -> Bitboard {
    forward_ranks(color, sq.rank()) & Bitboard::file(sq.file())
}

/// One step towards the enemy: +8 for White, -8 for Black.
#[inline(always)]
pub const fn push(color: Color) -> i8 {
    match color {
        Color::White => 8,
        Color::Black => -8,
    }
}

/// Every square attacked by two of `color`'s pawns in `pawns`.
#[inline(always)]
pub fn pawn_double_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let west = pawns.0 & !FILE_A;
    let east = pawns.0 & !FILE_H;
    Bitboard(match color {
        Color::White => (west << 7) & (east << 9),
        Color::Black => (west >> 9) & (east >> 7),
    })
}

/// Of the squares in `set`, the one nearest to `color`'s side of the board
/// (the lowest rank for White, the highest for Black). `set` must not be
/// empty.
#[inline(always)]
pub fn nearest(color: Color, set: Bitboard) -> Square {
    match color {
        Color::White => set.lsb(),
        Color::Black => Square::new(63 - set.0.leading_zeros() as u8),
    }
}

/// King moves between two squares (Chebyshev distance).
#[inline(always)]
pub fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

/// Ranks between two squares.
#[inline(always)]
pub fn rank_distance(a: Square, b: Square) -> i32 {
    (a.rank().index() as i32 - b.rank().index() as i32).abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn masks() {
        assert_eq!(adjacent_files(File::A), Bitboard::file(File::B));
        assert_eq!(adjacent_files(File::E).count(), 16);
        assert_eq!(
            forward_ranks(Color::White, Rank::R7),
            Bitboard::rank(Rank::R8)
        );
        assert_eq!(
            forward_ranks(Color::Black, Rank::R2),
            Bitboard::rank(Rank::R1)
        );
        assert!(forward_ranks(Color::White, Rank::R8).is_empty());
        assert!(forward_ranks(Color::Black, Rank::R1).is_empty());
        assert_eq!(front_span(Color::White, sq("e6")).count(), 2);
        assert!(LONG_DIAGONALS.has(sq("a8")) && LONG_DIAGONALS.has(sq("h8")));
        assert_eq!(LONG_DIAGONALS.count(), 16);
        assert!(DARK_SQUARES.has(sq("a1")) && !DARK_SQUARES.has(sq("h1")));
        let pawns = Bitboard::from(sq("a2")) | sq("h7");
        assert_eq!(
            pawn_attacks_all(Color::White, pawns),
            Bitboard::from(sq("b3")) | sq("g8")
        );
        assert_eq!(
            pawn_attacks_all(Color::Black, pawns),
            Bitboard::from(sq("b1")) | sq("g6")
        );
        let set = Bitboard::from(sq("c3")) | sq("c6");
        assert_eq!(nearest(Color::White, set), sq("c3"));
        assert_eq!(nearest(Color::Black, set), sq("c6"));
        assert_eq!(distance(sq("a1"), sq("h8")), 7);
        assert_eq!(distance(sq("e4"), sq("f6")), 2);
    }
}
