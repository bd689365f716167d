//! Move ordering: the table move, winning captures by MVV-LVA, killers, the
//! counter-move, quiet moves by history, and losing captures last.
//!
//! All legal moves are generated once and scored; moves are then picked
//! best-first by selection, so a cutoff early saves the sorting.

use crate::history::{piece12, Context, History};
use crate::see::see_ge;
use castella_eval::PIECE_VALUES;
use castella_movegen::{GenType, Move, MoveList, Piece, Position};

const TT_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER: i32 = 1_000_000;
const COUNTER: i32 = 900_000;
const BAD_CAPTURE: i32 = -2_000_000;

/// Picks the moves of one node in order.
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; castella_movegen::MAX_MOVES],
    next: usize,
}

impl MovePicker {
    /// Orders every legal move (or only captures and promotions, for the
    /// quiescence search when not in check).
    pub fn new(
        pos: &Position,
        tt_move: Move,
        history: &History,
        ply: usize,
        prev: Move,
        ctx: &Context,
        noisy_only: bool,
    ) -> MovePicker {
        let mut moves = MoveList::new();
        if noisy_only && !pos.in_check() {
            pos.generate_moves(GenType::Noisy, &mut moves);
        } else {
            pos.generate_moves(GenType::All, &mut moves);
        }
        let killers = history.killers(ply);
        let counter = history.counter(pos, prev);
        let side = pos.side_to_move();
        let mut scores = [0; castella_movegen::MAX_MOVES];
        for (i, &mv) in moves.iter().enumerate() {
            scores[i] = if mv == tt_move {
                TT_MOVE
            } else if pos.is_noisy(mv) {
                let victim = pos.captured(mv).map_or(0, |p| PIECE_VALUES[p.index()]);
                let attacker = pos.piece_on(mv.from()).map_or(0, |p| p.index() as i32);
                let promo = match mv.promotion_piece() {
                    Some(Piece::Queen) => 900,
                    Some(_) => -200,
                    None => 0,
                };
                let base = if see_ge(pos, mv, 0) {
                    GOOD_CAPTURE
                } else {
                    BAD_CAPTURE
                };
                base + 10 * (victim + promo) - attacker
            } else if mv == killers[0] {
                KILLER + 1
            } else if mv == killers[1] {
                KILLER
            } else if mv == counter {
                COUNTER
            } else {
                let piece = pos.piece_on(mv.from()).unwrap_or(Piece::King);
                history.quiet(side, mv, piece12(side, piece), ctx)
            };
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Number of legal moves generated (all of them unless noisy-only).
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// The next move, best first, with its ordering score.
    #[inline]
    pub fn next(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let i = self.next;
        self.next += 1;
        Some((self.moves[i], self.scores[i]))
    }
}

/// Whether a picked score marks a capture that loses material.
#[inline]
pub fn is_bad_capture(score: i32) -> bool {
    score < BAD_CAPTURE / 2
}
