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
