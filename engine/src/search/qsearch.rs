//! The quiescence search: captures and promotions (every evasion in
//! check) until the position is quiet.

use super::{moved_key, table_adjusted, Run, Searcher};
use crate::ablation::Disabled;
use crate::draw::is_insufficient_material;
use crate::history::NO_CONTEXT;
use crate::movepick::{is_bad_capture, MovePicker};
use crate::params;
use crate::see::captured_value;
use crate::tt::{Entry as TtEntry, EntryBound};
use crate::value::*;
use castella_movegen::{Move, Position};

impl Searcher {
    /// Captures and promotions until the position is quiet (all evasions
    /// when in check), with stand-pat.
    pub(super) fn qsearch(
        &mut self,
        run: &Run,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        self.pv_len[ply] = ply;
        if self.check_stop(run) {
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
        let entry = run.tt.probe(key);
        let tt_pv = self.on_pv(beta - alpha > 1, entry);
        if let Some(e) = entry {
            let v = from_tt(e.value, ply);
            let usable = match e.bound {
                EntryBound::Exact => true,
                EntryBound::Lower => v >= beta,
                EntryBound::Upper => v <= alpha,
            };
            if usable && beta - alpha == 1 {
                return v;
            }
        }
        let (raw_eval, stand_pat) = if in_check {
            (0, -INFINITE)
        } else {
            let raw = entry.map_or_else(|| self.static_eval(pos, ply), |e| e.eval);
            let corrected = self.corrected(pos, raw, &self.context(ply));
            if self.disabled.contains(Disabled::QS_TT_EVAL) {
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
        // The square the opponent's last move went to: a recapture there
        // is never pruned by move count.
        let prev = self.played[ply - 1];
        let recapture_sq = (!prev.is_null()).then(|| prev.to());
        let mut legal_moves = 0usize;
        while let Some((mv, order)) = picker.next(pos, &self.history, &NO_CONTEXT) {
            legal_moves += 1;
            if !in_check {
                if is_bad_capture(order) {
                    break; // the rest lose material too
                }
                if !mv.is_promotion() && Some(mv.to()) != recapture_sq {
                    // Past the first two captures, only those that check.
                    if legal_moves > 2 && !picker.gives_check(pos, mv) {
                        continue;
                    }
                    // Fail-soft: a capture pruned here could have raised
                    // the score at most to its futility value.
                    let gain = captured_value(pos, mv);
                    let futility = stand_pat + gain + params::qs_futility();
                    if futility <= alpha {
                        best = best.max(futility);
                        continue;
                    }
                }
            }
            self.played[ply] = mv;
            self.moved[ply] = Some(moved_key(pos, mv));
            let child = self.play(run, pos, mv, ply);
            let score = -self.qsearch(run, &child, -beta, -alpha, ply + 1);
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
            EntryBound::Lower
        } else {
            EntryBound::Upper
        };
        run.tt.store(
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
}
