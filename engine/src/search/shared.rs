//! What the threads of one search share, and what a search returns.

use crate::limits::Limits;
use crate::report::Reporter;
use crate::tablebase::{ProbeOptions, Tablebases};
use crate::time::TimeManager;
use crate::tt::TranspositionTable;
use castella_movegen::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What one search gives each of its threads: the game's earlier
/// positions, the limits, the shared table and control, the clock, and,
/// for the main thread, where to report.
#[derive(Clone, Copy)]
pub struct Job<'a> {
    /// Keys of the game's earlier positions, oldest first.
    pub game_keys: &'a [u64],
    pub limits: &'a Limits,
    /// Principal variations to search and report (helpers search one).
    pub multipv: usize,
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    pub time: TimeManager,
    pub report: Option<&'a Reporter>,
    /// Syzygy tables, if loaded, and how to use them.
    pub tablebases: Option<&'a Tablebases>,
    pub syzygy: ProbeOptions,
}

/// State shared by the threads of one search.
pub struct Control {
    pub stop: AtomicBool,
    /// Set while pondering: the clock does not run and the search waits for
    /// `ponderhit` or `stop` before it reports a best move.
    pub pondering: AtomicBool,
    /// Nodes per thread, updated every few thousand nodes.
    pub nodes: Vec<AtomicU64>,
    /// Tablebase hits, all threads together.
    pub tbhits: AtomicU64,
}

impl Control {
    pub fn new(threads: usize, pondering: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            tbhits: AtomicU64::new(0),
        }
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// A root move with its latest score and principal variation.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub seldepth: u32,
    pub pv: Vec<Move>,
}

/// What a finished search found.
#[derive(Clone, Debug, Default)]
pub struct ThreadResult {
    pub best: Move,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: u32,
    /// The MultiPV moves with their scores, best first (for the strength
    /// limit's choice).
    pub candidates: Vec<(Move, i32)>,
    /// The best move's line as an `info` would report it.
    pub line: Option<crate::report::Info>,
    /// The first move of the last line reported by the thread (thread 0
    /// reports each finished iteration): when the move played is another,
    /// its `line` is reported before `bestmove`.
    pub shown: Move,
}
