//! Move-ordering memory of one search thread: killer moves, counter-moves
//! and butterfly history with gravity.

use crate::value::MAX_PLY;
use castella_movegen::{Color, Move, Position};

const HISTORY_MAX: i32 = 16_384;

/// Per-thread ordering statistics.
pub struct History {
    /// [side][from][to]
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// Two quiet moves per ply that caused a cutoff.
    killers: [[Move; 2]; MAX_PLY + 2],
    /// The quiet reply that refuted a move, by [side][from][to] of that move.
    counters: Box<[[[Move; 64]; 64]; 2]>,
}

impl Default for History {
    fn default() -> History {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            counters: Box::new([[[Move::NULL; 64]; 64]; 2]),
        }
    }
}

/// The bonus for a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 16 + 32 * depth).min(1600)
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Forgets the killers (kept per ply, meaningless in a new search).
    pub fn new_search(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 2];
    }

    #[inline]
    pub fn quiet(&self, side: Color, mv: Move) -> i32 {
        self.butterfly[side.index()][mv.from().index()][mv.to().index()]
    }

    /// Moves an entry towards +-HISTORY_MAX, more slowly the closer it is.
    #[inline]
    pub fn update_quiet(&mut self, side: Color, mv: Move, delta: i32) {
        let e = &mut self.butterfly[side.index()][mv.from().index()][mv.to().index()];
        *e += delta - *e * delta.abs() / HISTORY_MAX;
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
