//! One search thread: iterative deepening with aspiration windows over a
//! principal-variation alpha-beta search and a quiescence search.

use crate::accumulators::Accumulators;
use crate::correction::Correction;
use crate::draw::{is_insufficient_material, is_repetition};
use crate::features::Disabled;
use crate::history::{bonus, piece12, Context, History};
use crate::movepick::{self, is_bad_capture, MovePicker};
use crate::params;
use crate::see::see_ge;
use crate::time::TimeManager;
use crate::tt::{Bound as TtBound, Entry as TtEntry, TranspositionTable};
use crate::value::*;
use crate::{Bound, Event, Info, Limits, Reporter};
use arrayvec::ArrayVec;
use castella_eval::{add_hand_written, evaluate_cached, PawnTable, PIECE_VALUES};
use castella_movegen::{Move, Piece, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// State shared by the threads of one search.
pub struct Control {
    pub stop: AtomicBool,
    /// Set while pondering: the clock does not run and the search waits for
    /// `ponderhit` or `stop` before it reports a best move.
    pub pondering: AtomicBool,
    /// Nodes per thread, updated every few thousand nodes.
    pub nodes: Vec<AtomicU64>,
}

impl Control {
    pub fn new(threads: usize, pondering: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
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
}

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
        TtBound::Exact => v,
        TtBound::Lower if v > eval => v,
        TtBound::Upper if v < eval => v,
        _ => eval,
    }
}

/// Late-move reductions by depth and move number (log-log).
struct Reductions([[u8; 64]; 64]);

impl Reductions {
    fn new() -> Reductions {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (params::lmr_base() as f64 / 100.0
                    + (d as f64).ln() * (m as f64).ln() / (params::lmr_div() as f64 / 100.0))
                    as u8;
            }
        }
        Reductions(t)
    }

    #[inline]
    fn get(&self, depth: i32, moves: usize) -> i32 {
        self.0[(depth as usize).min(63)][moves.min(63)] as i32
    }
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
    /// The evaluation's pawn terms, cached for this thread.
    pawns: PawnTable,
    /// The network's hidden sums along the current line.
    nnue: Accumulators,
    nodes: u64,
    seldepth: usize,
    root_depth: i32,
    /// Features turned off for an ablation test (all on normally).
    off: Disabled,
    // Per search:
    tt: Option<Arc<TranspositionTable>>,
    control: Option<Arc<Control>>,
    node_limit: u64,
    time: Option<TimeManager>,
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
            pawns: PawnTable::new(),
            nnue: Accumulators::default(),
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            off: Disabled::from_env().0,
            tt: None,
            control: None,
            node_limit: u64::MAX,
            time: None,
            stopped: false,
        }
    }

    /// Evaluates with `net` from the next search on.
    pub fn set_network(&mut self, net: Arc<castella_eval::nnue::Network>) {
        self.nnue.set_network(net);
    }

    /// The static evaluation of `pos` at `ply` (the hand-written one plus
    /// the network's correction, whose hidden sums are updated along the
    /// line; [`castella_eval::static_eval`] from scratch), damped as the fifty-move counter grows (to
    /// half at 100 plies), so that in a won position the search prefers
    /// lines that make progress (a capture or a pawn move) to shuffling.
    #[inline]
    fn static_eval(&mut self, pos: &Position, ply: usize) -> i32 {
        let v = if self.off.contains(Disabled::NNUE) {
            evaluate_cached(pos, &mut self.pawns)
        } else {
            let output = self.nnue.evaluate(pos, ply);
            let pawns = &mut self.pawns;
            add_hand_written(self.nnue.network(), output, || evaluate_cached(pos, pawns))
        };
        v * (200 - pos.halfmove_clock().min(100) as i32) / 200
    }

    /// `raw` (the static evaluation of `pos`) plus the correction history's
    /// learned error for its pawn structure, kept clear of the mate range.
    #[inline]
    fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        if self.off.contains(Disabled::CORRECTION) {
            return raw;
        }
        (raw + self.correction.get(pos)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Whether a node is on a principal variation now or was when the
    /// table's entry for it was made.
    #[inline]
    fn on_pv(&self, pv_node: bool, entry: Option<TtEntry>) -> bool {
        pv_node || (entry.is_some_and(|e| e.pv) && !self.off.contains(Disabled::TT_PV))
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

    /// `pos` after `mv`; the child's table bucket starts loading at once,
    /// so its probe a few steps later finds it in the cache.
    #[inline]
    fn play(&mut self, pos: &Position, mv: Move, ply: usize) -> Position {
        let child = pos.play(mv);
        self.tt().prefetch(child.key());
        self.nnue.push(ply + 1, pos, &child);
        child
    }

    /// `pos` with the move passed to the opponent, prefetched like [`Self::play`].
    #[inline]
    fn play_null(&mut self, pos: &Position, ply: usize) -> Position {
        let mut child = *pos;
        child.make_null();
        self.tt().prefetch(child.key());
        self.nnue.push(ply + 1, pos, &child);
        child
    }

    fn tt(&self) -> &TranspositionTable {
        self.tt.as_deref().expect("set for the search")
    }

    fn control(&self) -> &Control {
        self.control.as_deref().expect("set for the search")
    }

    /// Called every 1024 nodes and at each new node: publishes the node count,
    /// and on the main thread enforces the hard time and node limits.
    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 == 0 {
            let control = self.control();
            control.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if self.id == 0 {
                let pondering = control.pondering.load(Ordering::Relaxed);
                let out_of_time = !pondering && self.time.is_some_and(|t| t.hard_exceeded());
                let out_of_nodes =
                    self.node_limit != u64::MAX && control.total_nodes() >= self.node_limit;
                if out_of_time || out_of_nodes {
                    control.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        if self.id == 0 && self.nodes >= self.node_limit {
            self.control().stop.store(true, Ordering::Relaxed);
        }
        self.stopped = self.control().stop.load(Ordering::Relaxed);
        self.stopped
    }

    /// Iterative deepening from `root`. Thread 0 reports progress and owns
    /// the clock; helpers search the same tree and share the table.
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &mut self,
        root: &Position,
        history: &[u64],
        limits: &Limits,
        multipv: usize,
        tt: Arc<TranspositionTable>,
        control: Arc<Control>,
        time: TimeManager,
        report: Option<&Reporter>,
    ) -> ThreadResult {
        self.tt = Some(tt);
        self.control = Some(control);
        self.time = Some(time);
        self.nodes = 0;
        self.stopped = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.history.new_search();
        // A tune may have moved the reduction parameters since the table
        // was made.
        #[cfg(feature = "tune")]
        {
            self.reductions = Reductions::new();
        }
        self.keys.clear();
        self.keys.extend_from_slice(history);

        // The searchmoves, or every legal move if none of them is legal.
        let legal = root.legal_moves();
        let allowed = |m: &Move| limits.searchmoves.contains(m);
        let restrict = legal.iter().any(allowed);
        let mut root_moves: Vec<RootMove> = legal
            .iter()
            .filter(|m| !restrict || allowed(m))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                seldepth: 0,
                pv: vec![mv],
            })
            .collect();
        let mut result = ThreadResult::default();
        if root_moves.is_empty() {
            result.score = if root.in_check() { -MATE } else { DRAW };
            self.tt = None;
            self.control = None;
            return result;
        }
        result.best = root_moves[0].mv;
        let multipv = multipv.clamp(1, root_moves.len());
        let max_depth = limits
            .depth
            .map_or(MAX_PLY as u32 - 4, |d| d.clamp(1, MAX_PLY as u32 - 4));

        let mut stability = 0u32;
        let mut last_best = Move::NULL;
        let mut last_score = 0;
        for depth in 1..=max_depth {
            // Helpers skip some depths so the threads spread over the tree.
            if self.id > 0
                && depth > 1
                && (depth + self.id as u32).is_multiple_of(3)
                && self.id % 2 == 1
            {
                continue;
            }
            self.root_depth = depth as i32;
            for rm in root_moves.iter_mut() {
                rm.prev_score = rm.score;
                rm.score = -INFINITE;
            }
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                self.aspiration(root, &mut root_moves, pv_idx, depth as i32, report);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                // Keep what an unfinished iteration proved: a move that beat
                // the previous best is better; otherwise keep the old order.
                root_moves.sort_by_key(|rm| std::cmp::Reverse((rm.score, rm.prev_score)));
                if root_moves[0].score == -INFINITE {
                    for rm in root_moves.iter_mut() {
                        rm.score = rm.prev_score;
                    }
                }
                break;
            }
            result.depth = depth;
            if let Some(r) = report {
                self.report_iteration(root, &root_moves, multipv, depth, r);
            }

            let best = &root_moves[0];
            stability = if best.mv == last_best {
                stability + 1
            } else {
                0
            };
            let score_drop = (last_score - best.score).max(0);
            last_best = best.mv;
            last_score = best.score;

            if self.id == 0 {
                if let Some(mate) = limits.mate {
                    if best.score >= MATE_BOUND && (MATE - best.score + 1) / 2 <= mate as i32 {
                        break;
                    }
                }
                // A settled best move needs less time, a changing one or a
                // falling score more.
                let stable = stability.min(params::tm_stable_max() as u32) as f64;
                let scale = (params::tm_unstable() as f64 / 100.0
                    - params::tm_stable_step() as f64 / 100.0 * stable)
                    * (1.0
                        + (score_drop as f64 / params::tm_drop_div() as f64)
                            .min(params::tm_drop_max() as f64 / 100.0));
                let pondering = self.control().pondering.load(Ordering::Relaxed);
                if !pondering && self.time.is_some_and(|t| t.soft_exceeded(scale)) {
                    break;
                }
                if let Some(soft) = limits.soft_nodes {
                    if self.control().total_nodes().max(self.nodes) >= soft {
                        break;
                    }
                }
            }
        }
        let best = &root_moves[0];
        result.best = best.mv;
        result.score = if best.score == -INFINITE {
            best.prev_score
        } else {
            best.score
        };
        result.ponder = best.pv.get(1).copied();
        if result.ponder.is_none() {
            result.ponder = self.ponder_from_tt(root, best.mv);
        }
        self.control().nodes[self.id].store(self.nodes, Ordering::Relaxed);
        // Let go of the shared table so the engine can clear or resize it
        // in place.
        self.tt = None;
        self.control = None;
        result
    }

    fn ponder_from_tt(&self, root: &Position, best: Move) -> Option<Move> {
        let child = root.play(best);
        let mv = self.tt().probe(child.key())?.mv;
        child.is_legal(mv).then_some(mv)
    }

    fn aspiration(
        &mut self,
        root: &Position,
        root_moves: &mut [RootMove],
        pv_idx: usize,
        depth: i32,
        report: Option<&Reporter>,
    ) {
        let prev = root_moves[pv_idx].prev_score;
        let mut delta = params::asp_delta();
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.root_search(root, root_moves, pv_idx, alpha, beta, depth);
            if self.stopped {
                return;
            }
            root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                Bound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
                Bound::Lower
            } else {
                return;
            };
            if let Some(r) = report {
                if self.time.is_some_and(|t| t.elapsed_ms() > 2000) {
                    let info = self.info(root, &root_moves[pv_idx], pv_idx, depth as u32, bound);
                    r(Event::Info(info));
                }
            }
            delta += delta / 2;
        }
    }

    fn root_search(
        &mut self,
        root: &Position,
        root_moves: &mut [RootMove],
        pv_idx: usize,
        mut alpha: i32,
        beta: i32,
        depth: i32,
    ) -> i32 {
        let mut best = -INFINITE;
        self.nodes += 1;
        self.keys.push(root.key());
        self.nnue.new_root();
        self.evals[0] = if root.in_check() {
            -INFINITE
        } else {
            let raw = self.static_eval(root, 0);
            self.corrected(root, raw)
        };
        #[allow(clippy::needless_range_loop)]
        for i in pv_idx..root_moves.len() {
            let mv = root_moves[i].mv;
            let child = self.play(root, mv, 0);
            self.played[0] = mv;
            self.moved[0] = Some(moved_key(root, mv));
            let ext = child.in_check() as i32;
            let new_depth = depth - 1 + ext;
            let score = if i == pv_idx {
                -self.search(&child, -beta, -alpha, new_depth, 1, false)
            } else {
                let r = if depth >= 3 && !root.is_noisy(mv) && !child.in_check() {
                    (self.reductions.get(depth, i - pv_idx) - 1).clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut s = -self.search(&child, -alpha - 1, -alpha, new_depth - r, 1, true);
                if s > alpha && r > 0 {
                    s = -self.search(&child, -alpha - 1, -alpha, new_depth, 1, true);
                }
                if s > alpha && s < beta {
                    s = -self.search(&child, -beta, -alpha, new_depth, 1, false);
                }
                s
            };
            if self.stopped {
                break;
            }
            let rm = &mut root_moves[i];
            if i == pv_idx || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth as u32;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.keys.pop();
        best
    }

    /// The principal-variation search. Fail-soft: the value may lie outside
    /// (alpha, beta).
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        if pos.halfmove_clock() >= 100
            || is_insufficient_material(pos)
            || is_repetition(pos, &self.keys)
        {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return if pos.in_check() {
                DRAW
            } else {
                self.static_eval(pos, ply)
            };
        }
        // Mate distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let in_check = pos.in_check();
        let key = pos.key();
        let excluded = self.excluded[ply];
        self.double_exts[ply + 1] = self.double_exts[ply];
        // A search that leaves a move out is not this position's search:
        // it neither takes nor leaves a table entry.
        let entry = if excluded.is_null() {
            self.tt().probe(key)
        } else {
            None
        };
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        let tt_pv = self.on_pv(pv_node, entry);
        if let Some(e) = entry {
            let v = from_tt(e.value, ply);
            if !pv_node
                && e.depth >= depth
                && match e.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => v >= beta,
                    TtBound::Upper => v <= alpha,
                }
            {
                // A quiet table move that still holds is a good move here:
                // credit it as if this node had searched it.
                if v >= beta
                    && !tt_move.is_null()
                    && !self.off.contains(Disabled::TT_HIST)
                    && !pos.is_noisy(tt_move)
                    && pos.is_legal(tt_move)
                {
                    let ctx = self.context(ply);
                    let mk = moved_key(pos, tt_move);
                    self.history.update_quiet(
                        pos.side_to_move(),
                        tt_move,
                        mk.0,
                        &ctx,
                        bonus(depth),
                    );
                }
                return v;
            }
        }

        // The static evaluation (from the table when it has one), that
        // plus the correction history, and that adjusted by the table's
        // value; in check there is none.
        let (raw_eval, corrected_eval, eval) = if in_check {
            (0, -INFINITE, -INFINITE)
        } else {
            let raw = entry.map_or_else(|| self.static_eval(pos, ply), |e| e.eval);
            let corrected = self.corrected(pos, raw);
            (raw, corrected, table_adjusted(entry, corrected, ply))
        };
        self.evals[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];

        if !pv_node && !in_check {
            // Razoring: far below alpha at low depth, only captures can
            // save the node; if the capture search agrees, give up.
            if depth <= 3
                && !self.off.contains(Disabled::RAZOR)
                && excluded.is_null()
                && eval + params::razor_base() + params::razor_depth_sq() * depth * depth < alpha
                && alpha.abs() < MATE_BOUND
            {
                let v = self.qsearch(pos, alpha - 1, alpha, ply);
                if self.stopped {
                    return 0;
                }
                if v < alpha {
                    return v;
                }
            }
            // Reverse futility: far above beta, assume it holds, though
            // by less than the static evaluation claims.
            if depth <= params::rfp_depth()
                && eval.abs() < MATE_BOUND
                && eval
                    - (params::rfp_margin() - params::rfp_improving() * improving as i32) * depth
                    >= beta
            {
                return (eval + beta) / 2;
            }
            // Null move: if passing still beats beta, a real move will too.
            let non_pawn = pos.color(pos.side_to_move())
                ^ pos.colored(pos.side_to_move(), Piece::Pawn)
                ^ pos.colored(pos.side_to_move(), Piece::King);
            if depth >= params::nmp_min_depth()
                && excluded.is_null()
                && eval >= beta
                && non_pawn.any()
                && !self.played[ply - 1].is_null()
            {
                let r = params::nmp_base()
                    + depth / params::nmp_depth_div()
                    + ((eval - beta) / params::nmp_eval_div()).min(params::nmp_eval_max());
                let child = self.play_null(pos, ply);
                self.played[ply] = Move::NULL;
                self.moved[ply] = None;
                self.keys.push(key);
                let v = -self.search(&child, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        // ProbCut: a good capture that beats beta by a margin in a reduced
        // search very likely beats beta in the full one.
        let probcut_beta =
            beta + params::probcut_margin() - params::probcut_improving() * improving as i32;
        if !pv_node
            && !in_check
            && depth >= params::probcut_depth()
            && !self.off.contains(Disabled::PROBCUT)
            && excluded.is_null()
            && beta.abs() < MATE_BOUND
            && !entry.is_some_and(|e| e.depth >= depth - 3 && from_tt(e.value, ply) < probcut_beta)
        {
            let mut picker = MovePicker::new(pos, tt_move, &self.history, ply, Move::NULL, true);
            let mut cut = None;
            self.keys.push(key);
            while let Some((mv, order)) = picker.next(pos, &self.history, &[None, None]) {
                if is_bad_capture(order) || !see_ge(pos, mv, probcut_beta - eval) {
                    continue;
                }
                let child = self.play(pos, mv, ply);
                self.played[ply] = mv;
                self.moved[ply] = Some(moved_key(pos, mv));
                let mut v = -self.qsearch(&child, -probcut_beta, -probcut_beta + 1, ply + 1);
                if v >= probcut_beta && !self.stopped {
                    v = -self.search(
                        &child,
                        -probcut_beta,
                        -probcut_beta + 1,
                        depth - 4,
                        ply + 1,
                        !cut_node,
                    );
                }
                if self.stopped {
                    break;
                }
                if v >= probcut_beta {
                    cut = Some((mv, v));
                    break;
                }
            }
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if let Some((mv, v)) = cut {
                self.tt().store(
                    key,
                    TtEntry {
                        mv,
                        value: to_tt(v, ply),
                        eval: raw_eval,
                        depth: depth - 3,
                        bound: TtBound::Lower,
                        pv: tt_pv,
                    },
                );
                return v;
            }
        }

        // Internal iterative reduction: no table move, search shallower first.
        if depth >= params::iir_depth()
            && tt_move.is_null()
            && (pv_node || cut_node)
            && !self.off.contains(Disabled::IIR)
        {
            depth -= 1;
        }

        let prev = self.played[ply - 1];
        let ctx = self.context(ply);
        // Singular extension: if every move but the table move fails well
        // below the table's value, the table move is the only good one and
        // is searched a ply deeper. If even without it the search beats
        // beta, several moves do (multi-cut) and the node is cut.
        let mut tt_ext = 0;
        if let Some(e) = entry {
            let v = from_tt(e.value, ply);
            if depth >= params::se_depth()
                && !self.off.contains(Disabled::SINGULAR)
                && ply < 2 * self.root_depth as usize
                && e.depth >= depth - 3
                && e.bound != TtBound::Upper
                && !is_mate(e.value)
                && pos.is_legal(tt_move)
            {
                let s_beta = v - params::se_margin() * depth;
                self.excluded[ply] = tt_move;
                let s = self.search(pos, s_beta - 1, s_beta, (depth - 1) / 2, ply, cut_node);
                self.excluded[ply] = Move::NULL;
                self.evals[ply] = eval;
                if self.stopped {
                    return 0;
                }
                if s < s_beta {
                    // Far below: the table move alone holds, two plies
                    // deeper (a few times per line at most).
                    let far = s < s_beta - params::se_double_margin()
                        && (self.double_exts[ply] as i32) < params::se_double_max();
                    tt_ext = if !pv_node && far && !self.off.contains(Disabled::DOUBLE_EXT) {
                        2
                    } else {
                        1
                    };
                } else if s_beta >= beta {
                    return s_beta;
                } else if v >= beta {
                    tt_ext = -1;
                }
            }
        }

        let mut picker = MovePicker::new(pos, tt_move, &self.history, ply, prev, false);

        let us = pos.side_to_move();
        let mut best_score = -INFINITE;
        let mut best_move = Move::NULL;
        let mut moves_searched = 0usize;
        let mut quiets: ArrayVec<(Move, usize), 64> = ArrayVec::new();
        let mut legal_moves = 0usize;
        let original_alpha = alpha;
        self.keys.push(key);

        while let Some((mv, order)) = picker.next(pos, &self.history, &ctx) {
            if mv == excluded {
                continue;
            }
            legal_moves += 1;
            let quiet = !pos.is_noisy(mv);
            // The move's continuation-history key and, for a quiet move, its
            // history: pruning and the reduction both read them.
            let mk = moved_key(pos, mv);
            let hist = if quiet {
                self.history.quiet(us, mv, mk.0, &ctx)
            } else {
                0
            };
            if best_score > -MATE_BOUND && ply > 0 {
                if quiet {
                    // Late-move pruning and futility give up on the quiet
                    // moves of a node, but not on checks: they find the
                    // perpetuals and mating attacks that save nodes which
                    // look hopeless.
                    let lmp = (params::lmp_base() + depth * depth) / (2 - improving as i32);
                    let late =
                        !pv_node && depth <= params::lmp_depth() && moves_searched as i32 >= lmp;
                    // Once switched, the picker has checked each quiet move.
                    if late && !picker.giving_only_checks() {
                        picker.only_checks();
                        if !pos.gives_check(mv) {
                            continue;
                        }
                    }
                    // Futility and history pruning judge each move at the
                    // depth late-move reductions would give it.
                    let lmr_depth = (depth - 1 - self.reductions.get(depth, moves_searched)
                        + hist / params::lmr_hist_div())
                    .max(0);
                    let futile = !in_check
                        && lmr_depth <= params::futility_depth()
                        && eval
                            + params::futility_base()
                            + params::futility_per_depth() * lmr_depth
                            <= alpha
                        && !self.off.contains(Disabled::FUTILITY);
                    let unpromising = lmr_depth < params::hist_prune_depth()
                        && hist < -params::hist_prune_margin() * (depth - 1)
                        && !self.off.contains(Disabled::HIST_PRUNE);
                    if (futile || unpromising) && !pos.gives_check(mv) {
                        continue;
                    }
                    if depth <= params::see_quiet_depth()
                        && !see_ge(pos, mv, -params::see_quiet_margin() * depth)
                    {
                        continue;
                    }
                } else if depth <= params::see_capture_depth()
                    && is_bad_capture(order)
                    && !see_ge(pos, mv, -params::see_capture_margin() * depth)
                {
                    continue;
                }
            }

            let child = self.play(pos, mv, ply);
            self.played[ply] = mv;
            self.moved[ply] = Some(mk);
            let gives_check = child.in_check();
            let ext = (gives_check && ply < 2 * self.root_depth as usize) as i32;
            let ext = if mv == tt_move {
                (ext + tt_ext).min(tt_ext.max(1))
            } else {
                ext
            };
            self.double_exts[ply + 1] = self.double_exts[ply] + (ext > 1) as u8;
            let new_depth = depth - 1 + ext;

            let score = if moves_searched == 0 {
                -self.search(
                    &child,
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    !pv_node && !cut_node,
                )
            } else {
                let mut r = 0;
                if depth >= 3
                    && moves_searched > pv_node as usize
                    && (quiet || is_bad_capture(order))
                {
                    r = self.reductions.get(depth, moves_searched);
                    r += !tt_pv as i32 + !improving as i32 + cut_node as i32;
                    r -= (order >= movepick::COUNTER) as i32; // killers and the counter-move
                    r -= gives_check as i32;
                    if quiet {
                        r -= hist / params::lmr_hist_div();
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let reduced = new_depth - r;
                let mut s = -self.search(&child, -alpha - 1, -alpha, reduced, ply + 1, true);
                let mut full = new_depth;
                if s > alpha && r > 0 {
                    // The reduced search beat alpha: search at full depth,
                    // a ply deeper if it beat the best score by far, a ply
                    // shallower if only just.
                    if !self.off.contains(Disabled::DEEPER) {
                        full += (s > best_score
                            + params::deeper_base()
                            + params::deeper_per_depth() * new_depth)
                            as i32;
                        full -= (s < best_score + new_depth) as i32;
                    }
                    if full > reduced {
                        s = -self.search(&child, -alpha - 1, -alpha, full, ply + 1, !cut_node);
                    }
                }
                if pv_node && s > alpha && s < beta {
                    s = -self.search(&child, -beta, -alpha, full, ply + 1, false);
                }
                s
            };
            moves_searched += 1;
            if self.stopped {
                self.keys.pop();
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if quiet {
                            let b = bonus(depth);
                            self.history.update_quiet(us, mv, mk.0, &ctx, b);
                            for &(q, qp) in &quiets {
                                self.history.update_quiet(us, q, qp, &ctx, -b);
                            }
                            self.history.add_killer(ply, mv);
                            self.history.set_counter(pos, prev, mv);
                        }
                        break;
                    }
                }
            }
            if quiet && mv != best_move {
                let _ = quiets.try_push((mv, mk.0));
            }
        }
        self.keys.pop();
        if legal_moves == 0 {
            return if !excluded.is_null() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                DRAW
            };
        }
        if !excluded.is_null() {
            return best_score;
        }

        let bound = if best_score >= beta {
            TtBound::Lower
        } else if alpha > original_alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        // Teach the correction history how far the static evaluation missed,
        // when the result says so: not after a capture or promotion (the
        // evaluation is not meant to see those), and only on the side the
        // bound allows.
        let bound_agrees = match bound {
            TtBound::Exact => true,
            TtBound::Lower => best_score > corrected_eval,
            TtBound::Upper => best_score < corrected_eval,
        };
        if !in_check
            && bound_agrees
            && (best_move.is_null() || !pos.is_noisy(best_move))
            && !is_mate(best_score)
        {
            self.correction.update(pos, depth, best_score - raw_eval);
        }
        // The static evaluation (0 in check), not the corrected or
        // table-adjusted guess: the next probe adjusts it again.
        self.tt().store(
            key,
            TtEntry {
                mv: best_move,
                value: to_tt(best_score, ply),
                eval: raw_eval,
                depth,
                bound,
                pv: tt_pv,
            },
        );
        best_score
    }

    /// Captures and promotions until the position is quiet (all evasions
    /// when in check), with stand-pat.
    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.pv_len[ply] = ply;
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if pos.halfmove_clock() >= 100 || is_insufficient_material(pos) {
            return DRAW;
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                DRAW
            } else {
                self.static_eval(pos, ply)
            };
        }
        let key = pos.key();
        let entry = self.tt().probe(key);
        let tt_pv = self.on_pv(beta - alpha > 1, entry);
        if let Some(e) = entry {
            let v = from_tt(e.value, ply);
            let usable = match e.bound {
                TtBound::Exact => true,
                TtBound::Lower => v >= beta,
                TtBound::Upper => v <= alpha,
            };
            if usable && beta - alpha == 1 {
                return v;
            }
        }
        let (raw_eval, stand_pat) = if in_check {
            (0, -INFINITE)
        } else {
            let raw = entry.map_or_else(|| self.static_eval(pos, ply), |e| e.eval);
            let corrected = self.corrected(pos, raw);
            if self.off.contains(Disabled::QS_TT_EVAL) {
                (raw, corrected)
            } else {
                (raw, table_adjusted(entry, corrected, ply))
            }
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let mut best_move = Move::NULL;
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        let mut picker = MovePicker::new(pos, tt_move, &self.history, ply, Move::NULL, true);
        let mut legal_moves = 0usize;
        while let Some((mv, order)) = picker.next(pos, &self.history, &[None, None]) {
            legal_moves += 1;
            if !in_check {
                if is_bad_capture(order) {
                    break; // the rest lose material too
                }
                let gain = pos.captured(mv).map_or(0, |p| PIECE_VALUES[p.index()]);
                if !mv.is_promotion() && stand_pat + gain + params::qs_futility() <= alpha {
                    continue;
                }
            }
            let child = self.play(pos, mv, ply);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = mv;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal_moves == 0 {
            return mated_in(ply);
        }
        let bound = if best >= beta {
            TtBound::Lower
        } else {
            TtBound::Upper
        };
        self.tt().store(
            key,
            TtEntry {
                mv: best_move,
                value: to_tt(best, ply),
                eval: raw_eval,
                depth: 0,
                bound,
                pv: tt_pv,
            },
        );
        best
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

    fn info(
        &self,
        root: &Position,
        rm: &RootMove,
        pv_idx: usize,
        depth: u32,
        bound: Bound,
    ) -> Info {
        let _ = root;
        let control = self.control();
        let elapsed = self.time.map_or(0, |t| t.elapsed_ms());
        let nodes = control.total_nodes().max(self.nodes);
        let score = if rm.score == -INFINITE {
            rm.prev_score
        } else {
            rm.score
        };
        Info {
            depth,
            seldepth: rm.seldepth.max(depth),
            multipv: pv_idx + 1,
            score: to_uci(score),
            bound,
            wdl: wdl(score),
            nodes,
            nps: nodes * 1000 / elapsed.max(1),
            hashfull: self.tt().hashfull(),
            time_ms: elapsed,
            pv: rm.pv.clone(),
        }
    }

    fn report_iteration(
        &self,
        root: &Position,
        root_moves: &[RootMove],
        multipv: usize,
        depth: u32,
        report: &Reporter,
    ) {
        self.control().nodes[self.id].store(self.nodes, Ordering::Relaxed);
        for (i, rm) in root_moves.iter().take(multipv).enumerate() {
            report(Event::Info(self.info(root, rm, i, depth, Bound::Exact)));
        }
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
