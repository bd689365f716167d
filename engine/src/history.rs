//! Move-ordering memory of one search thread: killer moves, counter-moves,
//! butterfly history and continuation history (by the moves one and two
//! plies earlier), all with gravity.

use crate::params;
use crate::value::MAX_PLY;
use castella_movegen::{Color, Move, Piece, Position};

const HISTORY_MAX: i32 = 16_384;

/// A piece with its colour, 0..12, for continuation-history indices.
#[inline]
pub fn piece12(side: Color, piece: Piece) -> usize {
    side.index() * 6 + piece.index()
}

/// The earlier moves a quiet move is scored against: (piece12, to) of the
/// moves one and two plies before, if they were real moves.
pub type Context = [Option<(usize, usize)>; 2];

/// The context of a move with no real move before it (the root, or the
/// orderings that ignore continuation history).
pub const NO_CONTEXT: Context = [None, None];

const CONT_SIZE: usize = 12 * 64 * 12 * 64;

#[inline]
fn cont_index(prev: (usize, usize), piece: usize, to: usize) -> usize {
    ((prev.0 * 64 + prev.1) * 12 + piece) * 64 + to
}

#[inline]
fn gravity(e: &mut i32, delta: i32) {
    *e += delta - *e * delta.abs() / HISTORY_MAX;
}

/// Per-thread ordering statistics.
pub struct History {
    /// [side][from][to]
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// Two quiet moves per ply that caused a cutoff.
    killers: [[Move; 2]; MAX_PLY + 2],
    /// The quiet reply that refuted a move, by [side][from][to] of that move.
    counters: Box<[[[Move; 64]; 64]; 2]>,
    /// [earlier piece][earlier to][piece][to], flattened.
    continuation: Box<[i32]>,
}

impl Default for History {
    fn default() -> History {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            counters: Box::new([[[Move::NULL; 64]; 64]; 2]),
            continuation: vec![0; CONT_SIZE].into_boxed_slice(),
        }
    }
}

/// The history bonus for a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (params::hist_bonus_quad() * depth * depth + params::hist_bonus_lin() * depth)
        .min(params::hist_bonus_max())
}

/// The history malus, at a cutoff at `depth`, of each quiet move tried
/// before the one that cut off.
#[inline]
pub fn malus(depth: i32) -> i32 {
    bonus(depth) * params::hist_malus_pct() / 100
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Forgets the killers (kept per ply, meaningless in a new search).
    pub fn new_search(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 2];
    }

    /// The ordering score of a quiet move of `piece` (a piece12 index).
    #[inline]
    pub fn quiet(&self, side: Color, mv: Move, piece: usize, ctx: &Context) -> i32 {
        let mut score = self.butterfly[side.index()][mv.from().index()][mv.to().index()];
        for prev in ctx.iter().flatten() {
            score += self.continuation[cont_index(*prev, piece, mv.to().index())];
        }
        score
    }

    /// Moves the entries of a quiet move towards +-HISTORY_MAX, more slowly
    /// the closer they are.
    #[inline]
    pub fn update_quiet(&mut self, side: Color, mv: Move, piece: usize, ctx: &Context, delta: i32) {
        gravity(
            &mut self.butterfly[side.index()][mv.from().index()][mv.to().index()],
            delta,
        );
        for prev in ctx.iter().flatten() {
            gravity(
                &mut self.continuation[cont_index(*prev, piece, mv.to().index())],
                delta,
            );
        }
    }

    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    #[inline]
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
    }

    #[inline]
    pub fn counter(&self, pos: &Position, prev: Move) -> Move {
        if prev.is_null() {
            return Move::NULL;
        }
        self.counters[pos.side_to_move().index()][prev.from().index()][prev.to().index()]
    }

    #[inline]
    pub fn set_counter(&mut self, pos: &Position, prev: Move, mv: Move) {
        if !prev.is_null() {
            self.counters[pos.side_to_move().index()][prev.from().index()][prev.to().index()] = mv;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_earlier_move_of_the_context_counts() {
        let pos = Position::startpos();
        let mv = pos.legal_moves()[0];
        let piece = piece12(Color::White, Piece::Knight);
        let mut h = History::default();
        // Two distinct earlier moves: an update under one context is seen
        // by a context that shares either of them.
        let (a, b) = (Some((6, 10)), Some((1, 20)));
        h.update_quiet(Color::White, mv, piece, &[a, b], 1000);
        let butterfly_only = h.quiet(Color::White, mv, piece, &NO_CONTEXT);
        assert!(butterfly_only > 0);
        for ctx in [[a, None], [None, b]] {
            let s = h.quiet(Color::White, mv, piece, &ctx);
            assert_eq!(s, 2 * butterfly_only, "{ctx:?}");
        }
        assert_eq!(
            h.quiet(Color::White, mv, piece, &[a, b]),
            3 * butterfly_only
        );
        // A move of another piece to the same square shares only the
        // butterfly entry.
        let other = piece12(Color::White, Piece::Bishop);
        assert_eq!(h.quiet(Color::White, mv, other, &[a, b]), butterfly_only);
    }
}
