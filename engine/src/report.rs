//! What the search tells its caller: scores, `info` lines and the best
//! move, through a callback.

use castella_movegen::Move;
use std::sync::Arc;

/// A score as reported to the GUI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

/// Whether a reported score is exact or a bound (fail high/low).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One `info` line's worth of search progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    /// Win/draw/loss per mille, from the side to move's view.
    pub wdl: (u32, u32, u32),
    pub nodes: u64,
    pub nps: u64,
    /// Per mille of the transposition table in use.
    pub hashfull: u32,
    /// Tablebase probes that gave an answer.
    pub tbhits: u64,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

/// What the engine reports.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Info(Info),
    /// Free text for an `info string` line.
    Message(String),
    /// The search is over; `best` is `Move::NULL` when there is no legal move.
    BestMove {
        best: Move,
        ponder: Option<Move>,
    },
}

/// Receives events, from the search threads.
pub type Reporter = Arc<dyn Fn(Event) + Send + Sync>;
