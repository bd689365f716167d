//! Attack tables: leapers, pawns, sliders (via `magic`), and the `between`
//! and `line` tables that pins and castling need. All built at compile time.

use crate::bitboard::Bitboard;
use crate::magic;
use crate::types::{Color, Square};

pub use crate::magic::{bishop_attacks, rook_attacks};

const fn leaper(deltas: &[(i8, i8); 8]) -> [Bitboard; 64] {
    let mut out = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, f) = ((sq / 8) as i8, (sq % 8) as i8);
        let mut i = 0;
        while i < 8 {
            let (nr, nf) = (r + deltas[i].0, f + deltas[i].1);
            if nr >= 0 && nr < 8 && nf >= 0 && nf < 8 {
                out[sq].0 |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    out
}

static KNIGHT: [Bitboard; 64] = leaper(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [Bitboard; 64] = leaper(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);

const fn pawn_table() -> [[Bitboard; 64]; 2] {
    let mut out = [[Bitboard::EMPTY; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (r, f) = (sq / 8, sq % 8);
        if r < 7 {
            if f > 0 {
                out[0][sq].0 |= 1 << (sq + 7);
            }
            if f < 7 {
                out[0][sq].0 |= 1 << (sq + 9);
            }
        }
        if r > 0 {
            if f > 0 {
                out[1][sq].0 |= 1 << (sq - 9);
            }
            if f < 7 {
                out[1][sq].0 |= 1 << (sq - 7);
            }
        }
        sq += 1;
    }
    out
}

static PAWN: [[Bitboard; 64]; 2] = pawn_table();

/// `BETWEEN[a][b]`: squares strictly between a and b on a shared line, else
/// empty. `LINE[a][b]`: the whole line through a and b, else empty.
const fn line_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (ba, bb) = (1u64 << a, 1u64 << b);
            if a != b {
                if magic::rook_rays(a) & bb != 0 {
                    let occ = ba | bb;
                    between[a][b].0 = magic::slide(a, occ, &ROOK) & magic::slide(b, occ, &ROOK);
                    line[a][b].0 = (magic::rook_rays(a) & magic::rook_rays(b)) | ba | bb;
                } else if magic::bishop_rays(a) & bb != 0 {
                    let occ = ba | bb;
                    between[a][b].0 = magic::slide(a, occ, &BISHOP) & magic::slide(b, occ, &BISHOP);
                    line[a][b].0 = (magic::bishop_rays(a) & magic::bishop_rays(b)) | ba | bb;
                }
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

const ROOK: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
static LINES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = line_tables();

const fn ray_table(bishop: bool) -> [Bitboard; 64] {
    let mut out = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        out[sq].0 = if bishop {
            magic::bishop_rays(sq)
        } else {
            magic::rook_rays(sq)
        };
        sq += 1;
    }
    out
}

static ROOK_RAYS: [Bitboard; 64] = ray_table(false);
static BISHOP_RAYS: [Bitboard; 64] = ray_table(true);

/// Rook attacks from `sq` on an empty board.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    ROOK_RAYS[sq.index()]
}

/// Bishop attacks from `sq` on an empty board.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    BISHOP_RAYS[sq.index()]
}

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

/// Every square attacked by `color`'s pawns in `pawns`, all at once.
#[inline(always)]
pub fn pawn_attacks_all(color: Color, pawns: Bitboard) -> Bitboard {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = FILE_A << 7;
    let west = pawns.0 & !FILE_A;
    let east = pawns.0 & !FILE_H;
    Bitboard(match color {
        Color::White => west << 7 | east << 9,
        Color::Black => west >> 9 | east >> 7,
    })
}

#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

/// Squares strictly between `a` and `b` if they share a rank, file or
/// diagonal; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    LINES.0[a.index()][b.index()]
}

/// The full line (edge to edge) through `a` and `b`, or empty if they are not
/// aligned.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINES.1[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn leapers() {
        assert_eq!(knight_attacks(sq("a1")).count(), 2);
        assert_eq!(knight_attacks(sq("d4")).count(), 8);
        assert_eq!(king_attacks(sq("h8")).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, sq("a2")),
            Bitboard::from_square(sq("b3"))
        );
        assert_eq!(pawn_attacks(Color::Black, sq("e5")).count(), 2);
        assert!(pawn_attacks(Color::White, sq("e8")).is_empty());
    }

    #[test]
    fn set_wise_pawn_attacks_are_the_union_of_each_pawns() {
        // Every square alone (edges wrap if the file masks are wrong), then
        // one crowded set.
        for color in [Color::White, Color::Black] {
            for i in 0..64u8 {
                let s = Square::new(i);
                assert_eq!(
                    pawn_attacks_all(color, Bitboard::from_square(s)),
                    pawn_attacks(color, s),
                    "{color:?} {s}"
                );
            }
            let set = Bitboard(0x00ff_8142_2418_ff00);
            let mut union = Bitboard::EMPTY;
            for s in set {
                union |= pawn_attacks(color, s);
            }
            assert_eq!(pawn_attacks_all(color, set), union);
        }
    }

    #[test]
    fn lines() {
        assert_eq!(between(sq("a1"), sq("h8")).count(), 6);
        assert_eq!(
            between(sq("e1"), sq("b1")),
            Bitboard::from(sq("c1")) | sq("d1")
        );
        assert!(between(sq("a1"), sq("b3")).is_empty());
        assert!(between(sq("a1"), sq("b2")).is_empty());
        assert_eq!(line(sq("c3"), sq("e5")).count(), 8);
        assert!(line(sq("a1"), sq("b3")).is_empty());
    }
}
