//! What a `go` command asks for.

use castella_movegen::Move;

/// Search limits, as given by UCI `go`. Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Start no new iteration once this many nodes are searched (data
    /// generation's soft limit; `nodes` stays the hard cap).
    pub soft_nodes: Option<u64>,
    pub movetime: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    /// Start in ponder mode: no time limit until `ponderhit`.
    pub ponder: bool,
    /// Restrict the root to these moves (all legal moves if empty).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// Whether the search only ends on `stop` (or a depth/nodes/mate limit).
    pub fn has_clock(&self) -> bool {
        self.wtime.is_some() || self.btime.is_some() || self.movetime.is_some()
    }
}
