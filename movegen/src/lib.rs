//! Castella's move generator: bitboards with magic sliders, exact Chess960
//! castling, FEN (X-FEN and Shredder-FEN), Scharnagl start positions, legal
//! move generation and perft.

#![allow(long_running_const_eval)]

pub mod attacks;
pub mod bitboard;
pub mod castling;
mod check;
pub mod chess960;
pub mod fen;
pub mod generate;
mod magic;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use castling::{CastleSide, CastlingRights};
pub use check::CheckInfo;
pub use fen::{CastlingNotation, FenError};
pub use generate::{GenType, MoveCounter, MoveSink};
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use notation::MoveError;
pub use perft::{divide, perft, perft_until};
pub use position::Position;
pub use types::{Color, File, Piece, Rank, Square};
