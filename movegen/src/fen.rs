//! FEN reading and writing, with X-FEN and Shredder-FEN castling fields.
//!
//! Reading is strict about what cannot be a position (errors name the
//! problem) and lenient, as Stockfish is, about what GUIs commonly send
//! loosely: castling rights with no matching king and rook are dropped, an
//! en-passant square no pawn can capture on is cleared, missing clocks
//! default to `0 1`.

use crate::attacks::pawn_attacks;
use crate::bitboard::Bitboard;
use crate::castling::CastleSide;
use crate::position::Position;
use crate::types::{Color, File, Piece, Rank, Square};
use std::fmt;

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    FieldCount(usize),
    RankCount(usize),
    BadPiece(char),
    RankLength { rank: usize, squares: usize },
    BadSide(String),
    BadCastling(char),
    BadEnPassant(String),
    EnPassantRank(Square),
    BadClock(String),
    KingCount { color: Color, count: u32 },
    PawnOnBackRank(Square),
    TooManyPieces(Color),
    OpponentInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |c: &Color| if *c == Color::White { "White" } else { "Black" };
        match self {
            FenError::FieldCount(n) => write!(f, "FEN has {n} fields; expected 4 to 6"),
            FenError::RankCount(n) => write!(f, "board has {n} ranks; expected 8"),
            FenError::BadPiece(c) => write!(f, "'{c}' is not a piece letter"),
            FenError::RankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares; expected 8")
            }
            FenError::BadSide(s) => write!(f, "side to move '{s}' is not 'w' or 'b'"),
            FenError::BadCastling(c) => write!(f, "'{c}' is not a castling letter"),
            FenError::BadEnPassant(s) => write!(f, "en-passant field '{s}' is not a square"),
            FenError::EnPassantRank(sq) => {
                write!(f, "en-passant square {sq} is not on the 3rd or 6th rank")
            }
            FenError::BadClock(s) => write!(f, "move counter '{s}' is not a number"),
            FenError::KingCount { color, count } => {
                write!(f, "{} has {count} kings; expected 1", name(color))
            }
            FenError::PawnOnBackRank(sq) => write!(f, "pawn on {sq}, on the first or last rank"),
            FenError::TooManyPieces(c) => write!(f, "{} has more than 16 pieces", name(c)),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

/// How to write the castling field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingNotation {
    /// `KQkq` where that names the outermost rook, a file letter otherwise.
    XFen,
    /// Always the rook's file letter (`HAha`).
    Shredder,
}

impl Position {
    /// Reads a FEN (standard, X-FEN or Shredder-FEN castling field).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with_warnings(fen).map(|(pos, _)| pos)
    }

    /// Reads a FEN and also returns what was normalised on the way (dropped
    /// castling rights, a cleared en-passant square).
    pub fn from_fen_with_warnings(fen: &str) -> Result<(Position, Vec<String>), FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut warnings = Vec::new();
        let mut pos = Position::empty();
        parse_board(&mut pos, fields[0])?;

        let side = match fields[1] {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            s => return Err(FenError::BadSide(s.to_string())),
        };
        pos.set_side(side);

        for color in Color::ALL {
            let count = pos.colored(color, Piece::King).count();
            if count != 1 {
                return Err(FenError::KingCount { color, count });
            }
            if pos.color(color).count() > 16 {
                return Err(FenError::TooManyPieces(color));
            }
        }
        let back_ranks = Bitboard::rank(Rank::R1) | Bitboard::rank(Rank::R8);
        if let Some(sq) = (pos.pieces(Piece::Pawn) & back_ranks).first() {
            return Err(FenError::PawnOnBackRank(sq));
        }
        let them = side.flip();
        if pos.is_attacked(pos.king(them), side, pos.occupied()) {
            return Err(FenError::OpponentInCheck);
        }

        parse_castling(&mut pos, fields[2], &mut warnings)?;
        parse_en_passant(&mut pos, fields[3], &mut warnings)?;

        let clock = |i: usize, default: u16| -> Result<u16, FenError> {
            match fields.get(i) {
                None => Ok(default),
                Some(s) => s
                    .parse::<u32>()
                    .map(|n| n.min(u16::MAX as u32) as u16)
                    .map_err(|_| FenError::BadClock(s.to_string())),
            }
        };
        pos.set_clocks(clock(4, 0)?, clock(5, 1)?);
        pos.update_check_info();
        Ok((pos, warnings))
    }

    /// The FEN with an X-FEN castling field (`KQkq` unless a file letter is
    /// needed to name the rook).
    pub fn fen(&self) -> String {
        self.fen_with(CastlingNotation::XFen)
    }

    /// The FEN with a Shredder-FEN castling field (`HAha`).
    pub fn fen_shredder(&self) -> String {
        self.fen_with(CastlingNotation::Shredder)
    }

    pub fn fen_with(&self, notation: CastlingNotation) -> String {
        let mut s = String::with_capacity(90);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                let sq = Square::from_coords(file, *rank);
                match (self.piece_on(sq), self.color_on(sq)) {
                    (Some(p), Some(c)) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        let ch = p.char();
                        s.push(if c == Color::White {
                            ch.to_ascii_uppercase()
                        } else {
                            ch
                        });
                    }
                    _ => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if *rank != Rank::R1 {
                s.push('/');
            }
        }
        s.push_str(if self.side_to_move() == Color::White {
            " w "
        } else {
            " b "
        });
        s.push_str(&self.castling_field(notation));
        s.push(' ');
        match self.ep_square() {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(
            " {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        s
    }

    fn castling_field(&self, notation: CastlingNotation) -> String {
        let mut s = String::new();
        for color in Color::ALL {
            let king = self.king(color);
            for side in [CastleSide::H, CastleSide::A] {
                let Some(rook) = self.castling().rook(color, side) else {
                    continue;
                };
                let outermost = outermost_rook(self, color, king, side) == Some(rook);
                let ch = match (notation, side) {
                    (CastlingNotation::XFen, CastleSide::H) if outermost => 'k',
                    (CastlingNotation::XFen, CastleSide::A) if outermost => 'q',
                    _ => rook.file().char(),
                };
                s.push(if color == Color::White {
                    ch.to_ascii_uppercase()
                } else {
                    ch
                });
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

fn parse_board(pos: &mut Position, board: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::from_index(7 - i as u8);
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
            } else {
                let piece = Piece::from_char(c).ok_or(FenError::BadPiece(c))?;
                if file < 8 {
                    let color = if c.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    pos.put(
                        color,
                        piece,
                        Square::from_coords(File::from_index(file as u8), rank),
                    );
                }
                file += 1;
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: 8 - i,
                squares: file,
            });
        }
    }
    Ok(())
}

/// The rook of `color` furthest from its king on `side`, on the back rank.
fn outermost_rook(pos: &Position, color: Color, king: Square, side: CastleSide) -> Option<Square> {
    let rooks = pos.colored(color, Piece::Rook) & Bitboard::rank(color.back_rank());
    let mut candidates = rooks.filter(|r| CastleSide::of(king, *r) == side && *r != king);
    match side {
        CastleSide::A => candidates.next(),
        CastleSide::H => candidates.last(),
    }
}

fn parse_castling(
    pos: &mut Position,
    field: &str,
    warnings: &mut Vec<String>,
) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back = color.back_rank();
        let king = pos.king(color);
        if king.rank() != back {
            warnings.push(format!(
                "castling right '{c}' dropped: the king is not on its first rank"
            ));
            continue;
        }
        let rook = match c.to_ascii_lowercase() {
            'k' => outermost_rook(pos, color, king, CastleSide::H),
            'q' => outermost_rook(pos, color, king, CastleSide::A),
            f @ 'a'..='h' => {
                let sq = Square::from_coords(File::from_char(f).unwrap_or(File::A), back);
                (pos.piece_on(sq) == Some(Piece::Rook) && pos.color_on(sq) == Some(color))
                    .then_some(sq)
            }
            _ => return Err(FenError::BadCastling(c)),
        };
        let Some(rook) = rook.filter(|r| *r != king) else {
            warnings.push(format!("castling right '{c}' dropped: no rook for it"));
            continue;
        };
        let side = CastleSide::of(king, rook);
        match pos.castling().rook(color, side) {
            Some(old) if old != rook => warnings.push(format!(
                "castling right '{c}' dropped: that side already castles with {old}"
            )),
            _ => pos.set_castling(color, side, Some(rook)),
        }
    }
    Ok(())
}

fn parse_en_passant(
    pos: &mut Position,
    field: &str,
    warnings: &mut Vec<String>,
) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let ep: Square = field
        .parse()
        .map_err(|_| FenError::BadEnPassant(field.to_string()))?;
    if ep.rank() != Rank::R3 && ep.rank() != Rank::R6 {
        return Err(FenError::EnPassantRank(ep));
    }
    let us = pos.side_to_move();
    let them = us.flip();
    let expected_rank = us.relative_rank(Rank::R6);
    let forward = if us == Color::White { 8 } else { -8 };
    let pushed = ep.offset(-forward);
    let consistent = ep.rank() == expected_rank
        && pos.piece_on(pushed) == Some(Piece::Pawn)
        && pos.color_on(pushed) == Some(them)
        && pos.piece_on(ep).is_none()
        && pos.piece_on(ep.offset(forward)).is_none();
    if !consistent {
        warnings.push(format!(
            "en-passant square {ep} cleared: no pawn just pushed past it"
        ));
        return Ok(());
    }
    // Standard FEN writes the square after every double push; keep it only
    // where a pawn can capture (the X-FEN rule), so keys match positions
    // reached by moves.
    if (pawn_attacks(them, ep) & pos.colored(us, Piece::Pawn)).any() {
        pos.set_ep(Some(ep));
    }
    Ok(())
}
