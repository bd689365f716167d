//! Chess960 start positions in Scharnagl numbering (0..960; 518 is the
//! standard start), Double-FRC pairs, and random starts.

use crate::position::Position;
use crate::types::Piece;
use rand::Rng;

/// Number of Chess960 start positions.
pub const COUNT: u16 = 960;

/// Which free squares the two knights take, indexed by `n / 96`.
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// White's back rank (a-file first) of start position `n` (0..960).
pub fn back_rank(n: u16) -> Option<[Piece; 8]> {
    if n >= COUNT {
        return None;
    }
    let mut n = n as usize;
    let mut rank: [Option<Piece>; 8] = [None; 8];
    rank[2 * (n % 4) + 1] = Some(Piece::Bishop); // light squares: b, d, f, h
    n /= 4;
    rank[2 * (n % 4)] = Some(Piece::Bishop); // dark squares: a, c, e, g
    n /= 4;
    place_nth_free(&mut rank, n % 6, Piece::Queen);
    n /= 6;
    let (a, b) = KNIGHTS[n];
    // Place the second knight first so the first's index is unaffected.
    place_nth_free(&mut rank, b, Piece::Knight);
    place_nth_free(&mut rank, a, Piece::Knight);
    for piece in [Piece::Rook, Piece::King, Piece::Rook] {
        place_nth_free(&mut rank, 0, piece);
    }
    let mut out = [Piece::Pawn; 8];
    for (o, p) in out.iter_mut().zip(rank) {
        *o = p?;
    }
    Some(out)
}

fn place_nth_free(rank: &mut [Option<Piece>; 8], n: usize, piece: Piece) {
    if let Some(slot) = rank.iter_mut().filter(|s| s.is_none()).nth(n) {
        *slot = Some(piece);
    }
}

/// The Scharnagl number of a back rank, if it is a Chess960 start array.
pub fn index_of(rank: &[Piece; 8]) -> Option<u16> {
    (0..COUNT).find(|&n| back_rank(n).as_ref() == Some(rank))
}

fn rank_text(rank: &[Piece; 8]) -> String {
    rank.iter().map(|p| p.char()).collect()
}

impl Position {
    /// Chess960 start position `n` (Scharnagl numbering, 0..960; 518 is the
    /// standard position), with all four castling rights.
    pub fn chess960(n: u16) -> Option<Position> {
        Position::double_chess960(n, n)
    }

    /// A Double-FRC start: White's back rank from `white`, Black's from
    /// `black`, with every castling right.
    pub fn double_chess960(white: u16, black: u16) -> Option<Position> {
        let (w, b) = (back_rank(white)?, back_rank(black)?);
        let rooks = |rank: &[Piece; 8]| -> String {
            let mut files: Vec<char> = (0..8)
                .filter(|&i| rank[i] == Piece::Rook)
                .map(|i| (b'a' + i as u8) as char)
                .collect();
            files.reverse();
            files.into_iter().collect()
        };
        let fen = format!(
            "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w {}{} - 0 1",
            rank_text(&b),
            rank_text(&w).to_ascii_uppercase(),
            rooks(&w).to_ascii_uppercase(),
            rooks(&b)
        );
        Position::from_fen(&fen).ok()
    }

    /// A uniformly random Chess960 start position.
    pub fn random_chess960<R: Rng + ?Sized>(rng: &mut R) -> Position {
        let n = rng.gen_range(0..COUNT);
        Position::chess960(n).unwrap_or_else(Position::startpos)
    }

    /// The standard start position (Chess960 number 518).
    pub fn startpos() -> Position {
        Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .expect("the standard start position is valid")
    }

    /// The Scharnagl number if this is exactly a Chess960 start position.
    pub fn scharnagl_index(&self) -> Option<u16> {
        use crate::types::{Color, File, Square};
        let mut rank = [Piece::Pawn; 8];
        for file in File::ALL {
            let sq = Square::from_coords(file, crate::types::Rank::R1);
            if self.color_on(sq) != Some(Color::White) {
                return None;
            }
            rank[file.index()] = self.piece_on(sq)?;
        }
        let n = index_of(&rank)?;
        (Position::chess960(n)? == *self).then_some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_numbers() {
        assert_eq!(rank_text(&back_rank(518).unwrap()), "rnbqkbnr");
        assert_eq!(rank_text(&back_rank(0).unwrap()), "bbqnnrkr");
        assert_eq!(rank_text(&back_rank(959).unwrap()), "rkrnnqbb");
        assert!(back_rank(960).is_none());
        assert_eq!(Position::chess960(518).unwrap(), Position::startpos());
    }
}
