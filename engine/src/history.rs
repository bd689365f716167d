//! Move-ordering memory of one search thread: killer moves, counter-moves,
//! butterfly history (by whether the enemy attacks the squares the move
//! leaves and enters) and continuation history (by the moves one and two
//! plies earlier), all with gravity.

use crate::params;
use crate::value::MAX_PLY;
use castella_movegen::{Bitboard, Color, Move, Piece, Position};

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

const BUTTERFLY_SIZE: usize = 2 * 4 * 64 * 64;

/// The butterfly entry of a move of `side`, in the table chosen by whether
/// the squares it leaves and enters are attacked (`threats`: every square
/// the side not to move attacks): the same move is good or bad for
/// different reasons when it escapes an attack, walks into one, or neither.
#[inline]
fn butterfly_index(side: Color, mv: Move, threats: Bitboard) -> usize {
    let threat = 2 * threats.has(mv.from()) as usize + threats.has(mv.to()) as usize;
    ((side.index() * 4 + threat) * 64 + mv.from().index()) * 64 + mv.to().index()
}

#[inline]
fn gravity(e: &mut i32, delta: i32) {
    *e += delta - *e * delta.abs() / HISTORY_MAX;
}

/// Per-thread ordering statistics.
pub struct History {
    /// [side][attacked from, attacked to][from][to], flattened.
    butterfly: Box<[i32]>,
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
            butterfly: vec![0; BUTTERFLY_SIZE].into_boxed_slice(),
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

    /// The ordering score of a quiet move of `piece` (a piece12 index),
    /// where the enemy attacks the squares `threats`.
    #[inline]
    pub fn quiet(
        &self,
        side: Color,
        mv: Move,
        piece: usize,
        ctx: &Context,
        threats: Bitboard,
    ) -> i32 {
        let mut score = self.butterfly[butterfly_index(side, mv, threats)];
        for prev in ctx.iter().flatten() {
            score += self.continuation[cont_index(*prev, piece, mv.to().index())];
        }
        score
    }

    /// Moves the entries of a quiet move towards +-HISTORY_MAX, more slowly
    /// the closer they are.
    #[inline]
    pub fn update_quiet(
        &mut self,
        side: Color,
        mv: Move,
        piece: usize,
        ctx: &Context,
        threats: Bitboard,
        delta: i32,
    ) {
        gravity(
            &mut self.butterfly[butterfly_index(side, mv, threats)],
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
        let none = Bitboard::EMPTY;
        let mut h = History::default();
        // Two distinct earlier moves: an update under one context is seen
        // by a context that shares either of them.
        let (a, b) = (Some((6, 10)), Some((1, 20)));
        h.update_quiet(Color::White, mv, piece, &[a, b], none, 1000);
        let butterfly_only = h.quiet(Color::White, mv, piece, &NO_CONTEXT, none);
        assert!(butterfly_only > 0);
        for ctx in [[a, None], [None, b]] {
            let s = h.quiet(Color::White, mv, piece, &ctx, none);
            assert_eq!(s, 2 * butterfly_only, "{ctx:?}");
        }
        assert_eq!(
            h.quiet(Color::White, mv, piece, &[a, b], none),
            3 * butterfly_only
        );
        // A move of another piece to the same square shares only the
        // butterfly entry.
        let other = piece12(Color::White, Piece::Bishop);
        assert_eq!(
            h.quiet(Color::White, mv, other, &[a, b], none),
            butterfly_only
        );
    }

    /// The same move escaping an attack, walking into one, or both, has a
    /// butterfly entry of its own for each.
    #[test]
    fn attacks_on_either_square_keep_their_own_butterfly_entry() {
        let pos = Position::startpos();
        let mv = pos.legal_moves()[0];
        let piece = piece12(Color::White, Piece::Knight);
        let (from, to) = (Bitboard::from(mv.from()), Bitboard::from(mv.to()));
        let cases = [Bitboard::EMPTY, from, to, from | to];
        for (i, &updated) in cases.iter().enumerate() {
            let mut h = History::default();
            h.update_quiet(Color::White, mv, piece, &NO_CONTEXT, updated, 1000);
            for (j, &read) in cases.iter().enumerate() {
                let s = h.quiet(Color::White, mv, piece, &NO_CONTEXT, read);
                assert_eq!(s > 0, i == j, "updated {i}, read {j}: {s}");
            }
            // Attacks elsewhere on the board do not matter.
            let elsewhere = !(from | to);
            let s = h.quiet(Color::White, mv, piece, &NO_CONTEXT, updated | elsewhere);
            assert!(s > 0, "updated {i} with attacks elsewhere: {s}");
        }
    }
}
