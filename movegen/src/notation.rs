//! Moves as UCI text, both ways.
//!
//! Castling is written king-onto-rook (`e1h1`) in Chess960 mode, and
//! king-to-destination (`e1g1`) otherwise, as standard-chess GUIs expect.
//! Reading is lenient where the meaning is unambiguous: either form of a
//! castle is accepted in either mode, and so are `O-O` and `O-O-O`.

use crate::castling::CastleSide;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{Piece, Square};
use std::fmt;

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `e2e4`, `e7e8q`, `O-O`.
    Syntax(String),
    /// Well formed, but not a legal move here.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "'{s}' is not a move in UCI notation"),
            MoveError::Illegal(s) => write!(f, "'{s}' is not a legal move in this position"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Position {
    /// `mv` as UCI text. With `chess960` castling is king-onto-rook;
    /// otherwise the king's destination (unless the king does not move, where
    /// only the rook square can say which castle it is).
    pub fn move_to_uci(&self, mv: Move, chess960: bool) -> String {
        if mv.is_null() {
            return "0000".to_string();
        }
        let to = match mv.kind() {
            MoveKind::Castle if !chess960 => {
                let (kto, _) = self.castle_destinations(mv);
                if kto == mv.from() {
                    mv.to()
                } else {
                    kto
                }
            }
            _ => mv.to(),
        };
        let mut s = format!("{}{}", mv.from(), to);
        if let Some(p) = mv.promotion_piece() {
            s.push(p.char());
        }
        s
    }

    /// Reads a move in UCI notation (either castling form, or `O-O`,
    /// `O-O-O`) and checks it is legal here.
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveError> {
        let legal = self.legal_moves();
        let castle = |side: CastleSide| {
            legal
                .iter()
                .copied()
                .find(|m| m.is_castle() && CastleSide::of(m.from(), m.to()) == side)
                .ok_or_else(|| MoveError::Illegal(text.to_string()))
        };
        match text {
            "O-O" | "0-0" | "o-o" => return castle(CastleSide::H),
            "O-O-O" | "0-0-0" | "o-o-o" => return castle(CastleSide::A),
            _ => {}
        }
        let syntax = || MoveError::Syntax(text.to_string());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(syntax());
        }
        let from: Square = text[0..2].parse().map_err(|_| syntax())?;
        let to: Square = text[2..4].parse().map_err(|_| syntax())?;
        let promo = match text[4..].chars().next() {
            None => None,
            Some(c) => match Piece::from_char(c) {
                Some(p @ (Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen)) => Some(p),
                _ => return Err(syntax()),
            },
        };
        // An ordinary move first: in 960 "f1g1" may be a plain king step.
        if let Some(m) = legal.iter().find(|m| {
            !m.is_castle() && m.from() == from && m.to() == to && m.promotion_piece() == promo
        }) {
            return Ok(*m);
        }
        if promo.is_none() {
            for m in legal.iter().filter(|m| m.is_castle() && m.from() == from) {
                let (kto, _) = self.castle_destinations(*m);
                if m.to() == to || kto == to {
                    return Ok(*m);
                }
            }
        }
        Err(MoveError::Illegal(text.to_string()))
    }
}

impl Position {
    /// `mv` in Standard Algebraic Notation (`Nf3`, `exd5`, `O-O`, `e8=Q+`).
    pub fn move_to_san(&self, mv: Move) -> String {
        if mv.is_null() {
            return "--".to_string();
        }
        let mut s = String::new();
        if mv.is_castle() {
            s.push_str(match CastleSide::of(mv.from(), mv.to()) {
                CastleSide::H => "O-O",
                CastleSide::A => "O-O-O",
            });
        } else {
            let piece = self.piece_on(mv.from()).unwrap_or(Piece::Pawn);
            let capture = self.captured(mv).is_some();
            if piece == Piece::Pawn {
                if capture {
                    s.push(mv.from().file().char());
                }
            } else {
                s.push(piece.char().to_ascii_uppercase());
                // Disambiguate among same pieces that can reach the square.
                let rivals: Vec<Move> = self
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|m| {
                        !m.is_castle()
                            && m.to() == mv.to()
                            && m.from() != mv.from()
                            && self.piece_on(m.from()) == Some(piece)
                    })
                    .collect();
                if !rivals.is_empty() {
                    let same_file = rivals.iter().any(|m| m.from().file() == mv.from().file());
                    let same_rank = rivals.iter().any(|m| m.from().rank() == mv.from().rank());
                    if !same_file {
                        s.push(mv.from().file().char());
                    } else if !same_rank {
                        s.push(mv.from().rank().char());
                    } else {
                        s.push_str(&mv.from().to_string());
                    }
                }
            }
            if capture {
                s.push('x');
            }
            s.push_str(&mv.to().to_string());
            if let Some(p) = mv.promotion_piece() {
                s.push('=');
                s.push(p.char().to_ascii_uppercase());
            }
        }
        let next = self.play(mv);
        if next.in_check() {
            s.push(if next.count_legal() == 0 { '#' } else { '+' });
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn san(fen: &str, uci: &str) -> String {
        let pos = Position::from_fen(fen).unwrap();
        pos.move_to_san(pos.parse_uci_move(uci).unwrap())
    }

    #[test]
    fn uci_text_both_ways() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let oo = pos.parse_uci_move("e1h1").unwrap();
        assert!(oo.is_castle());
        assert_eq!(pos.parse_uci_move("e1g1").unwrap(), oo);
        assert_eq!(pos.parse_uci_move("O-O").unwrap(), oo);
        assert_eq!(pos.move_to_uci(oo, true), "e1h1");
        assert_eq!(pos.move_to_uci(oo, false), "e1g1");
        let ooo = pos.parse_uci_move("O-O-O").unwrap();
        assert_eq!(pos.move_to_uci(ooo, false), "e1c1");
        assert_eq!(pos.move_to_uci(ooo, true), "e1a1");
        assert!(matches!(
            pos.parse_uci_move("e1e3"),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            pos.parse_uci_move("e1"),
            Err(MoveError::Syntax(_))
        ));
        assert!(matches!(
            pos.parse_uci_move("e1e2k"),
            Err(MoveError::Syntax(_))
        ));
        assert!(matches!(
            pos.parse_uci_move("é1e2"),
            Err(MoveError::Syntax(_))
        ));
        // Kf1 with rook g1: f1g1 is the castle (king onto rook), and the
        // plain king step to g1 does not exist.
        let p = Position::from_fen("4k3/8/8/8/8/8/8/5KR1 w G - 0 1").unwrap();
        let m = p.parse_uci_move("f1g1").unwrap();
        assert!(m.is_castle());
        assert_eq!(p.move_to_uci(m, true), "f1g1");
        // King already on g1: only the rook square can name the castle.
        let p = Position::from_fen("4k3/8/8/8/8/8/8/6KR w H - 0 1").unwrap();
        let m = p.parse_uci_move("g1h1").unwrap();
        assert_eq!(p.move_to_uci(m, false), "g1h1");
    }

    #[test]
    fn san_text() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(san(start, "g1f3"), "Nf3");
        assert_eq!(san(start, "e2e4"), "e4");
        assert_eq!(san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1"), "O-O");
        assert_eq!(san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1a1"), "O-O-O");
        assert_eq!(san("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), "exd5");
        assert_eq!(san("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), "a8=Q+");
        assert_eq!(san("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1"), "Rad1");
        assert_eq!(san("6k1/5ppp/8/8/8/8/8/3R2K1 w - - 0 1", "d1d8"), "Rd8#");
        assert_eq!(san("4k3/8/8/N7/8/8/8/N3K3 w - - 0 1", "a1b3"), "N1b3");
    }
}
