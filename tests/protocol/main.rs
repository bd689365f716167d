//! UCI protocol tests: the `castella` binary driven over pipes the way
//! Cutechess, fastchess and python-chess drive engines.
//!
//! Every wait has a timeout: the engine's stdout is read on a thread into a
//! channel, so a hung engine fails the test (with a transcript of the
//! conversation) instead of hanging CI. Searches are kept tiny (`go depth
//! 1..3`, `go nodes 5000`, short movetimes) so the tests run in seconds in
//! a debug build. Every best move is checked for legality, and for the
//! castling notation UCI_Chess960 asks for, with castella-movegen, and
//! every `info` line is checked for form and for a legal PV.
//!
//! Registered as a test of the `castella` package (uci/Cargo.toml), so
//! that cargo builds the binary first and sets CARGO_BIN_EXE_castella.
//! `driver` speaks to the engine, `checks` checks its answers, and each
//! other module holds one kind of test.

mod checks;
mod driver;
mod rng;

mod chess960;
mod commands;
mod options;
mod python;
mod rank960;
mod robustness;
mod search;
