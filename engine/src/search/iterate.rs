//! Iterative deepening at the root: aspiration windows, the root move
//! loop, MultiPV, time checks between iterations, and the `info` lines.

use super::{moved_key, Job, RootMove, Run, Searcher, ThreadResult};
use crate::history::NO_CONTEXT;
use crate::params;
use crate::report::{Bound, Event, Info, Reporter};
use crate::tablebase::Outcome;
use crate::value::*;
use castella_movegen::{Move, Position};
use std::sync::atomic::Ordering;

impl Searcher {
    /// Iterative deepening from `root`. Thread 0 reports progress and owns
    /// the clock; helpers search the same tree and share the table.
    pub fn run(&mut self, root: &Position, job: Job) -> ThreadResult {
        let Job {
            game_keys,
            limits,
            multipv,
            tt,
            control,
            time,
            report,
            tablebases,
            syzygy,
        } = job;
        let mut run = Run {
            tt,
            control,
            time,
            tb: tablebases,
            tb_options: syzygy,
            tb_pieces: tablebases.map_or(0, |t| t.max_pieces().min(syzygy.limit)),
            tb_root: None,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
        };
        self.nodes = 0;
        self.stopped = false;
        self.history.new_search();
        // A tune may have moved the reduction parameters since the table
        // was made.
        #[cfg(feature = "tune")]
        {
            self.reductions = super::Reductions::new();
        }
        self.keys.clear();
        self.keys.extend_from_slice(game_keys);

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
        // In the tables: search only the moves that keep the best outcome
        // (and, winning, reach the next capture or pawn move soonest).
        // Every thread, so that whichever thread's move is played keeps it.
        if root.occupied().count() as usize <= run.tb_pieces {
            let ranked = tablebases.and_then(|tb| tb.rank_root(root, syzygy.rule50));
            if let Some((mut keep, outcome)) = ranked {
                self.tbhits += (self.id == 0) as u64;
                run.tb_root = Some(outcome.value(0, syzygy.rule50));
                // Winning, never step back into a position of the game:
                // with distances unknown (tables missing) the search could
                // otherwise walk into a repetition.
                if outcome == Outcome::Win {
                    let fresh: Vec<Move> = keep
                        .iter()
                        .copied()
                        .filter(|&m| !game_keys.contains(&root.play(m).key()))
                        .collect();
                    if !fresh.is_empty() {
                        keep = fresh;
                    }
                }
                if root_moves.iter().any(|rm| keep.contains(&rm.mv)) {
                    root_moves.retain(|rm| keep.contains(&rm.mv));
                }
            }
        }
        let run = &run;
        let mut result = ThreadResult::default();
        if root_moves.is_empty() {
            result.score = if root.in_check() { -MATE } else { DRAW };
            return result;
        }
        result.best = root_moves[0].mv;
        let multipv = multipv.clamp(1, root_moves.len());
        let max_depth = limits
            .depth
            .map_or(MAX_PLY as u32 - 4, |d| d.clamp(1, MAX_PLY as u32 - 4));

        let mut stability = 0u32;
        let mut last_best = Move::NULL;
        // The depth of an unfinished iteration in which another move
        // took over: its line is reported as a lower bound.
        let mut took_over = None;
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
                self.aspiration(run, root, &mut root_moves, pv_idx, depth as i32, report);
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
                if root_moves[0].mv != last_best {
                    took_over = Some(depth);
                }
                break;
            }
            result.depth = depth;
            if let Some(r) = report {
                self.report_iteration(run, root, &root_moves, multipv, depth, r);
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
                let pondering = run.control.pondering.load(Ordering::Relaxed);
                if !pondering && run.time.soft_exceeded(scale) {
                    break;
                }
                if let Some(soft) = limits.soft_nodes {
                    if run.control.total_nodes().max(self.nodes) >= soft {
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
        result.candidates = root_moves
            .iter()
            .take(multipv)
            .filter(|rm| rm.score != -INFINITE)
            .map(|rm| (rm.mv, rm.score))
            .collect();
        if result.ponder.is_none() {
            result.ponder = self.ponder_from_tt(run, root, best.mv);
        }
        run.control.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        let (depth, bound) = took_over.map_or((result.depth, Bound::Exact), |d| (d, Bound::Lower));
        result.line = Some(self.info(run, root, best, 0, depth, bound));
        // Nothing reported yet: nothing for the line to correct.
        result.shown = if last_best.is_null() {
            best.mv
        } else {
            last_best
        };
        self.publish_tbhits(run);
        result
    }

    fn ponder_from_tt(&self, run: &Run, root: &Position, best: Move) -> Option<Move> {
        let child = root.play(best);
        let mv = run.tt.probe(child.key())?.mv;
        child.is_legal(mv).then_some(mv)
    }

    fn aspiration(
        &mut self,
        run: &Run,
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
            let score = self.root_search(run, root, root_moves, pv_idx, alpha, beta, depth);
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
                if run.time.elapsed_ms() > 2000 {
                    let info =
                        self.info(run, root, &root_moves[pv_idx], pv_idx, depth as u32, bound);
                    r(Event::Info(info));
                }
            }
            delta += delta / 2;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn root_search(
        &mut self,
        run: &Run,
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
            self.corrected(root, raw, &NO_CONTEXT)
        };
        #[allow(clippy::needless_range_loop)]
        for i in pv_idx..root_moves.len() {
            let mv = root_moves[i].mv;
            let child = self.play(run, root, mv, 0);
            self.played[0] = mv;
            self.moved[0] = Some(moved_key(root, mv));
            let ext = child.in_check() as i32;
            let new_depth = depth - 1 + ext;
            let score = if i == pv_idx {
                -self.search(run, &child, -beta, -alpha, new_depth, 1, false)
            } else {
                let r = if depth >= 3 && !root.is_noisy(mv) && !child.in_check() {
                    (self.reductions.plies(depth, i - pv_idx) - 1).clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut s = -self.search(run, &child, -alpha - 1, -alpha, new_depth - r, 1, true);
                if s > alpha && r > 0 {
                    s = -self.search(run, &child, -alpha - 1, -alpha, new_depth, 1, true);
                }
                if s > alpha && s < beta {
                    s = -self.search(run, &child, -beta, -alpha, new_depth, 1, false);
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

    fn info(
        &self,
        run: &Run,
        root: &Position,
        rm: &RootMove,
        pv_idx: usize,
        depth: u32,
        bound: Bound,
    ) -> Info {
        let control = run.control;
        let elapsed = run.time.elapsed_ms();
        let nodes = control.total_nodes().max(self.nodes);
        let score = run.shown(if rm.score == -INFINITE {
            rm.prev_score
        } else {
            rm.score
        });
        Info {
            depth,
            seldepth: rm.seldepth.max(depth),
            multipv: pv_idx + 1,
            score: to_uci(normalize(score, wdl_material(root))),
            bound,
            wdl: wdl(score, wdl_material(root)),
            nodes,
            nps: nodes * 1000 / elapsed.max(1),
            hashfull: run.tt.hashfull(),
            tbhits: control.tbhits.load(Ordering::Relaxed) + self.tbhits,
            time_ms: elapsed,
            pv: rm.pv.clone(),
        }
    }

    fn report_iteration(
        &self,
        run: &Run,
        root: &Position,
        root_moves: &[RootMove],
        multipv: usize,
        depth: u32,
        report: &Reporter,
    ) {
        run.control.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        for (i, rm) in root_moves.iter().take(multipv).enumerate() {
            report(Event::Info(self.info(
                run,
                root,
                rm,
                i,
                depth,
                Bound::Exact,
            )));
        }
    }
}

impl Run<'_> {
    /// The value to report: the tables' verdict at a root they cover,
    /// unless the search found a mate.
    fn shown(&self, score: i32) -> i32 {
        match self.tb_root {
            Some(v) if !is_mate(score) => v,
            _ => score,
        }
    }
}
