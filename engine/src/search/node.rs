//! The principal-variation node search: table cutoffs, pruning,
//! extensions, reductions and the history updates of a node.

use super::{moved_key, table_adjusted, Run, Searcher, PLY};
use crate::ablation::Disabled;
use crate::draw::{is_insufficient_material, is_repetition};
use crate::history::{bonus, malus, NO_CONTEXT};
use crate::movepick::{self, is_bad_capture, MovePicker, Threats};
use crate::params;
use crate::see::see_ge;
use crate::tt::{Entry as TtEntry, EntryBound};
use crate::value::TB_WIN_BOUND;
use crate::value::*;
use arrayvec::ArrayVec;
use castella_movegen::{Move, Piece, Position};

impl Searcher {
    /// The principal-variation search. Fail-soft: the value may lie outside
    /// (alpha, beta).
    // The arguments are the recursion's state; a struct of them would be
    // built and torn down at every node.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search(
        &mut self,
        run: &Run,
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
            return self.qsearch(run, pos, alpha, beta, ply);
        }
        self.nodes += 1;
        if self.check_stop(run) {
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
        // The moves one and two plies back: continuation history and the
        // correction history read them.
        let ctx = self.context(ply);
        self.double_exts[ply + 1] = self.double_exts[ply];
        // A search that leaves a move out is not this position's search:
        // it neither takes nor leaves a table entry.
        let entry = if excluded.is_null() {
            run.tt.probe(key)
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
                    EntryBound::Exact => true,
                    EntryBound::Lower => v >= beta,
                    EntryBound::Upper => v <= alpha,
                }
            {
                // A quiet table move that still holds is a good move here:
                // credit it as if this node had searched it.
                if v >= beta
                    && !tt_move.is_null()
                    && !self.disabled.contains(Disabled::TT_HIST)
                    && !pos.is_noisy(tt_move)
                    && pos.is_legal(tt_move)
                {
                    let mk = moved_key(pos, tt_move);
                    self.history.update_quiet(
                        pos.side_to_move(),
                        tt_move,
                        mk.0,
                        &ctx,
                        Threats::new(pos).all,
                        bonus(depth),
                    );
                }
                return v;
            }
        }

        // Syzygy: after a capture or pawn move, with few enough pieces and
        // no castling rights left (read from the rights, never guessed from
        // where kings and rooks stand: wrong in Chess960).
        let pieces = pos.occupied().count() as usize;
        if pieces <= run.tb_pieces
            && excluded.is_null()
            && pos.halfmove_clock() == 0
            && pos.castling().is_empty()
            && (depth >= run.tb_options.depth || pieces < run.tb_pieces)
        {
            if let Some(outcome) = run.tb.and_then(|tb| tb.probe_wdl(pos)) {
                self.tbhits += 1;
                let v = outcome.value(ply, run.tb_options.rule50);
                // A win is at least this (a mate may be better), a loss at
                // most; a draw is exact.
                let holds = if v >= TB_WIN_BOUND {
                    v >= beta
                } else if v <= -TB_WIN_BOUND {
                    v <= alpha
                } else {
                    true
                };
                if holds {
                    return v;
                }
            }
        }

        // The static evaluation (from the table when it has one), that
        // plus the correction history, and that adjusted by the table's
        // value; in check there is none.
        let (raw_eval, corrected_eval, eval) = if in_check {
            (0, -INFINITE, -INFINITE)
        } else {
            let raw = entry.map_or_else(|| self.static_eval(pos, ply), |e| e.eval);
            let corrected = self.corrected(pos, raw, &ctx);
            (raw, corrected, table_adjusted(entry, corrected, ply))
        };
        self.evals[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];

        if !pv_node && !in_check {
            // Razoring: far below alpha at low depth, only captures can
            // save the node; if the capture search agrees, give up.
            if depth <= 3
                && !self.disabled.contains(Disabled::RAZOR)
                && excluded.is_null()
                && eval + params::razor_base() + params::razor_depth_sq() * depth * depth < alpha
                && alpha.abs() < MATE_BOUND
            {
                let v = self.qsearch(run, pos, alpha - 1, alpha, ply);
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
                let child = self.play_null(run, pos, ply);
                self.played[ply] = Move::NULL;
                self.moved[ply] = None;
                self.keys.push(key);
                let v = -self.search(run, &child, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
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
            && !self.disabled.contains(Disabled::PROBCUT)
            && excluded.is_null()
            && beta.abs() < MATE_BOUND
            && !entry.is_some_and(|e| e.depth >= depth - 3 && from_tt(e.value, ply) < probcut_beta)
        {
            let mut picker = MovePicker::new(pos, tt_move, &self.history, ply, Move::NULL, true);
            let mut cut = None;
            self.keys.push(key);
            while let Some((mv, order)) = picker.next(pos, &self.history, &NO_CONTEXT) {
                if is_bad_capture(order) || !see_ge(pos, mv, probcut_beta - eval) {
                    continue;
                }
                let child = self.play(run, pos, mv, ply);
                self.played[ply] = mv;
                self.moved[ply] = Some(moved_key(pos, mv));
                let mut v = -self.qsearch(run, &child, -probcut_beta, -probcut_beta + 1, ply + 1);
                if v >= probcut_beta && !self.stopped {
                    v = -self.search(
                        run,
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
                run.tt.store(
                    key,
                    TtEntry {
                        mv,
                        value: to_tt(v, ply),
                        eval: raw_eval,
                        depth: depth - 3,
                        bound: EntryBound::Lower,
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
            && !self.disabled.contains(Disabled::IIR)
        {
            depth -= 1;
        }

        let prev = self.played[ply - 1];
        // Singular extension: if every move but the table move fails well
        // below the table's value, the table move is the only good one and
        // is searched a ply deeper. If even without it the search beats
        // beta, several moves do (multi-cut) and the node is cut.
        let mut tt_ext = 0;
        if let Some(e) = entry {
            let v = from_tt(e.value, ply);
            if depth >= params::se_depth()
                && !self.disabled.contains(Disabled::SINGULAR)
                && ply < 2 * self.root_depth as usize
                && e.depth >= depth - 3
                && e.bound != EntryBound::Upper
                && !is_mate(e.value)
                && pos.is_legal(tt_move)
            {
                let s_beta = v - params::se_margin() * depth;
                self.excluded[ply] = tt_move;
                let s = self.search(run, pos, s_beta - 1, s_beta, (depth - 1) / 2, ply, cut_node);
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
                    tt_ext = if !pv_node && far && !self.disabled.contains(Disabled::DOUBLE_EXT) {
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
                self.history.quiet(us, mv, mk.0, &ctx, picker.threats(pos))
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
                        if !picker.gives_check(pos, mv) {
                            continue;
                        }
                    }
                    // Futility and history pruning judge each move at the
                    // depth late-move reductions would give it.
                    let lmr_depth = (depth - 1 - self.reductions.plies(depth, moves_searched)
                        + hist / params::lmr_hist_div())
                    .max(0);
                    let futile = !in_check
                        && lmr_depth <= params::futility_depth()
                        && eval
                            + params::futility_base()
                            + params::futility_per_depth() * lmr_depth
                            <= alpha
                        && !self.disabled.contains(Disabled::FUTILITY);
                    let unpromising = lmr_depth < params::hist_prune_depth()
                        && hist < -params::hist_prune_margin() * (depth - 1)
                        && !self.disabled.contains(Disabled::HIST_PRUNE);
                    if (futile || unpromising) && !picker.gives_check(pos, mv) {
                        continue;
                    }
                    if !see_ge(pos, mv, -params::see_quiet_margin() * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else if depth <= params::see_capture_depth()
                    && is_bad_capture(order)
                    && !see_ge(pos, mv, -params::see_capture_margin() * depth)
                {
                    continue;
                }
            }

            let child = self.play(run, pos, mv, ply);
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
                    run,
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
                    // Summed in fractions of a ply, rounded once.
                    let mut f = self.reductions.get(depth, moves_searched);
                    f += params::lmr_not_pv() * !tt_pv as i32
                        + params::lmr_not_improving() * !improving as i32
                        + params::lmr_cut_node() * cut_node as i32;
                    // Killers and the counter-move.
                    f -= params::lmr_refutation() * (order >= movepick::COUNTER) as i32;
                    f -= params::lmr_check() * gives_check as i32;
                    if quiet {
                        f -= hist * PLY / params::lmr_hist_div();
                    }
                    r = (f / PLY).clamp(0, new_depth - 1);
                }
                let reduced = new_depth - r;
                let mut s = -self.search(run, &child, -alpha - 1, -alpha, reduced, ply + 1, true);
                let mut full = new_depth;
                if s > alpha && r > 0 {
                    // The reduced search beat alpha: search at full depth,
                    // a ply deeper if it beat the best score by far, a ply
                    // shallower if only just.
                    if !self.disabled.contains(Disabled::DEEPER) {
                        full += (s > best_score
                            + params::deeper_base()
                            + params::deeper_per_depth() * new_depth)
                            as i32;
                        full -= (s < best_score + new_depth) as i32;
                    }
                    if full > reduced {
                        s = -self.search(run, &child, -alpha - 1, -alpha, full, ply + 1, !cut_node);
                    }
                }
                if pv_node && s > alpha && s < beta {
                    s = -self.search(run, &child, -beta, -alpha, full, ply + 1, false);
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
                            let threats = picker.threats(pos);
                            let b = bonus(depth);
                            self.history.update_quiet(us, mv, mk.0, &ctx, threats, b);
                            let m = malus(depth);
                            for &(q, qp) in &quiets {
                                self.history.update_quiet(us, q, qp, &ctx, threats, -m);
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
            EntryBound::Lower
        } else if alpha > original_alpha {
            EntryBound::Exact
        } else {
            EntryBound::Upper
        };
        // Teach the correction history how far the static evaluation missed,
        // when the result says so: not after a capture or promotion (the
        // evaluation is not meant to see those), and only on the side the
        // bound allows.
        let bound_agrees = match bound {
            EntryBound::Exact => true,
            EntryBound::Lower => best_score > corrected_eval,
            EntryBound::Upper => best_score < corrected_eval,
        };
        if !in_check
            && bound_agrees
            && (best_move.is_null() || !pos.is_noisy(best_move))
            && !is_mate(best_score)
        {
            self.correction
                .update(pos, &ctx, depth, best_score - raw_eval);
        }
        // The static evaluation (0 in check), not the corrected or
        // table-adjusted guess: the next probe adjusts it again.
        run.tt.store(
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
}
