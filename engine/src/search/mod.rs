//! One search thread: iterative deepening with aspiration windows over a
//! principal-variation alpha-beta search and a quiescence search.
//!
//! The thread's state and small helpers live here; each job has a file:
//! `shared.rs` the state the threads share and what a search returns,
//! `iterate.rs` iterative deepening at the root with its reporting,
//! `node.rs` the node search, `qsearch.rs` the quiescence search.

mod iterate;
mod node;
mod qsearch;
mod shared;

pub use shared::{Control, Job, RootMove, ThreadResult};

use crate::ablation::Disabled;
use crate::accumulators::Accumulators;
use crate::correction::Correction;
use crate::history::{piece12, Context, History};
use crate::params;
use crate::tablebase::{ProbeOptions, Tablebases};
use crate::time::TimeManager;
use crate::tt::{Entry as TtEntry, EntryBound, TranspositionTable};
use crate::value::*;
use castella_movegen::{Move, Piece, Position};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The continuation-history key of a move: the moving piece and its target.
#[inline]
fn moved_key(pos: &Position, mv: Move) -> (usize, usize) {
    let piece = pos.piece_on(mv.from()).unwrap_or(Piece::King);
    (piece12(pos.side_to_move(), piece), mv.to().index())
}

/// The static evaluation `eval` corrected by the table: its value is a
/// better guess when its bound allows (exact, or a bound on the side away
/// from `eval`). Mate scores are left out.
#[inline]
fn table_adjusted(entry: Option<TtEntry>, eval: i32, ply: usize) -> i32 {
    let Some(e) = entry.filter(|e| !is_mate(e.value)) else {
        return eval;
    };
    let v = from_tt(e.value, ply);
    match e.bound {
        EntryBound::Exact => v,
        EntryBound::Lower if v > eval => v,
        EntryBound::Upper if v < eval => v,
        _ => eval,
    }
}

/// A ply in the units late-move reductions are summed in, so that the
/// adjustments can be fractions of a ply (tuned as such) and only their
/// sum is rounded.
pub(super) const PLY: i32 = 1024;

/// Late-move reductions by depth and move number (log-log), in 1/`PLY`
/// plies.
struct Reductions([[u16; 64]; 64]);

impl Reductions {
    fn new() -> Reductions {
        let mut t = [[0u16; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let plies = params::lmr_base() as f64 / 100.0
                    + (d as f64).ln() * (m as f64).ln() / (params::lmr_div() as f64 / 100.0);
                *r = (plies * PLY as f64) as u16;
            }
        }
        Reductions(t)
    }

    /// The base reduction, in 1/`PLY` plies.
    #[inline]
    fn get(&self, depth: i32, moves: usize) -> i32 {
        self.0[(depth as usize).min(63)][moves.min(63)] as i32
    }

    /// The base reduction in whole plies (rounded down).
    #[inline]
    fn plies(&self, depth: i32, moves: usize) -> i32 {
        self.get(depth, moves) / PLY
    }
}

/// What one thread's search reads and never changes, borrowed from its
/// [`Job`] for as long as the search runs: a search cannot start without
/// it, nor keep the shared table once it has returned.
struct Run<'a> {
    tt: &'a TranspositionTable,
    control: &'a Control,
    time: TimeManager,
    /// Syzygy tables for this search, and how to probe them: `tb_pieces`
    /// is the most pieces a probe may see (0: none).
    tb: Option<&'a Tablebases>,
    tb_options: ProbeOptions,
    tb_pieces: usize,
    /// The tables' value of the root, when they cover it.
    tb_root: Option<i32>,
    node_limit: u64,
}

/// One thread's searcher; kept between searches so its history carries over
/// within a game.
pub struct Searcher {
    pub id: usize,
    pub history: History,
    /// The static evaluation's recent errors by pawn structure.
    pub correction: Correction,
    reductions: Reductions,
    keys: Vec<u64>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    evals: [i32; MAX_PLY + 2],
    played: [Move; MAX_PLY + 2],
    /// (piece12, to) of the move played at each ply, for continuation history.
    moved: [Option<(usize, usize)>; MAX_PLY + 2],
    /// The move left out at each ply by a singular-extension search.
    excluded: [Move; MAX_PLY + 2],
    /// Double extensions on the path to each ply.
    double_exts: [u8; MAX_PLY + 2],
    /// The network's hidden sums along the current line.
    nnue: Accumulators,
    nodes: u64,
    /// Tablebase probes that answered since the last report to Control.
    tbhits: u64,
    seldepth: usize,
    root_depth: i32,
    /// Features turned off for an ablation test (all on normally).
    disabled: Disabled,
    stopped: bool,
}

impl Searcher {
    pub fn new(id: usize) -> Searcher {
        Searcher {
            id,
            history: History::default(),
            correction: Correction::default(),
            reductions: Reductions::new(),
            keys: Vec::with_capacity(1024),
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 2],
            played: [Move::NULL; MAX_PLY + 2],
            moved: [None; MAX_PLY + 2],
            excluded: [Move::NULL; MAX_PLY + 2],
            double_exts: [0; MAX_PLY + 2],
            nnue: Accumulators::default(),
            nodes: 0,
            tbhits: 0,
            seldepth: 0,
            root_depth: 0,
            disabled: Disabled::from_env().0,
            stopped: false,
        }
    }

    /// Evaluates with `net` from the next search on.
    pub fn set_network(&mut self, net: Arc<castella_eval::nnue::Network>) {
        self.nnue.set_network(net);
    }

    /// The static evaluation of `pos` at `ply`: the network's output, its
    /// hidden sums updated along the line ([`castella_eval::static_eval`]
    /// computes it from scratch), damped as the fifty-move counter grows
    /// (to half at 100 plies), so that in a won position the search prefers
    /// lines that make progress (a capture or a pawn move) to shuffling.
    #[inline]
    fn static_eval(&mut self, pos: &Position, ply: usize) -> i32 {
        let v = self.nnue.evaluate(pos, ply);
        v * (200 - pos.halfmove_clock().min(100) as i32) / 200
    }

    /// `raw` (the static evaluation of `pos`) plus the correction history's
    /// learned error for its pawn structure, its other pieces and the two
    /// moves `ctx` that led to it, kept clear of the mate range.
    #[inline]
    fn corrected(&self, pos: &Position, raw: i32, ctx: &Context) -> i32 {
        if self.disabled.contains(Disabled::CORRECTION) {
            return raw;
        }
        (raw + self.correction.get(pos, ctx)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Whether a node is on a principal variation now or was when the
    /// table's entry for it was made.
    #[inline]
    fn on_pv(&self, pv_node: bool, entry: Option<TtEntry>) -> bool {
        pv_node || (entry.is_some_and(|e| e.pv) && !self.disabled.contains(Disabled::TT_PV))
    }

    /// The moves one and two plies back, which continuation history pairs
    /// with the moves at `ply`.
    #[inline]
    fn context(&self, ply: usize) -> Context {
        [
            self.moved[ply - 1],
            if ply >= 2 { self.moved[ply - 2] } else { None },
        ]
    }

    /// `pos` after `mv`. The child's table bucket starts loading before
    /// the move is made (the child probes it at once), from the predicted
    /// key, and again from the real one in the rare case they differ.
    #[inline]
    fn play(&mut self, run: &Run, pos: &Position, mv: Move, ply: usize) -> Position {
        let predicted = pos.key_after(mv);
        run.tt.prefetch(predicted);
        let child = pos.play(mv);
        if child.key() != predicted {
            run.tt.prefetch(child.key());
        }
        self.nnue.push(ply + 1, pos, &child);
        child
    }

    /// `pos` with the move passed to the opponent, prefetched like [`Self::play`].
    #[inline]
    fn play_null(&mut self, run: &Run, pos: &Position, ply: usize) -> Position {
        let mut child = *pos;
        child.make_null();
        run.tt.prefetch(child.key());
        self.nnue.push(ply + 1, pos, &child);
        child
    }

    /// Adds this thread's new tablebase hits to the search's total.
    fn publish_tbhits(&mut self, run: &Run) {
        if self.tbhits > 0 {
            let hits = std::mem::take(&mut self.tbhits);
            run.control.tbhits.fetch_add(hits, Ordering::Relaxed);
        }
    }

    /// Called at each node: every 1024 nodes publishes the node count, and
    /// on the main thread enforces the hard time and node limits.
    #[inline]
    fn check_stop(&mut self, run: &Run) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 == 0 {
            self.publish_tbhits(run);
            let control = run.control;
            control.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if self.id == 0 {
                let pondering = control.pondering.load(Ordering::Relaxed);
                let out_of_time = !pondering && run.time.hard_exceeded();
                let out_of_nodes =
                    run.node_limit != u64::MAX && control.total_nodes() >= run.node_limit;
                if out_of_time || out_of_nodes {
                    control.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        if self.id == 0 && self.nodes >= run.node_limit {
            run.control.stop.store(true, Ordering::Relaxed);
        }
        self.stopped = run.control.stop.load(Ordering::Relaxed);
        self.stopped
    }

    /// The PV at `ply` becomes `mv` followed by the child's PV.
    #[inline]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply] = mv;
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_eval_fades_with_the_fifty_move_counter() {
        let mut searcher = Searcher::new(0);
        let fen = |clock: u32| format!("8/5k2/8/3R4/8/8/2K5/8 w - - {clock} 80");
        let fresh = Position::from_fen(&fen(0)).unwrap();
        let v = searcher.static_eval(&fresh, 0);
        assert_eq!(v, castella_eval::static_eval(&fresh));
        assert!(v > 300, "a rook up: {v}");
        // The evaluation proper does not see the clock.
        let stale = Position::from_fen(&fen(100)).unwrap();
        assert_eq!(searcher.static_eval(&stale, 0), v / 2);
        let half = Position::from_fen(&fen(50)).unwrap();
        assert_eq!(searcher.static_eval(&half, 0), v * 3 / 4);
    }
}
