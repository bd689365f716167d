//! Correction history: how far the static evaluation has lately missed the
//! search's own result in positions with the same pawns.
//!
//! A static evaluation errs the same way in positions that share a pawn
//! structure (a blocked centre, a pawn storm it underrates), so the
//! search's verdicts, averaged per pawn structure and side to move, are a
//! good correction of the next static evaluation there. Two more tables,
//! keyed by where each side's pieces other than pawns stand, learn what the
//! pawn table leaves: the same errors recur while the pieces stay put, and
//! more so in a search than in a game. A last table, keyed by the two moves
//! that led to the position, learns what follows a given move and reply (a
//! threat the evaluation does not see, a trade it misjudges). Each thread
//! keeps its own tables, cleared with the other histories by `ucinewgame`.

use crate::history::Context;
use castella_movegen::{Color, Position};

/// Slots per side to move; a pawn structure is found by a hash of its pawns.
const SIZE: usize = 1 << 14;
/// Entries hold centipawns times `GRAIN`, so that small updates count;
/// `LIMIT * GRAIN` fits an `i16`, which halves the tables' cache footprint.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const LIMIT: i32 = 64;
// Every entry stays within ±LIMIT * GRAIN (clamped, or blended towards a
// clamped target), so the `as i16` casts below never wrap.
const _: () = assert!(LIMIT * GRAIN <= i16::MAX as i32);

/// Per-thread correction of the static evaluation by pawn structure and
/// by each side's other pieces.
pub struct Correction {
    /// [side to move][pawn hash], in centipawns times `GRAIN`.
    table: Box<[[i16; SIZE]; 2]>,
    /// [side to move][colour][non-pawn hash of that colour], in
    /// centipawns times `GRAIN`: what the pawn entry leaves.
    pieces: Box<[[[i16; SIZE]; 2]; 2]>,
    /// [side to move][hash of the last two moves], in centipawns times
    /// `GRAIN`: learned with the piece entries.
    moves: Box<[[i16; SIZE]; 2]>,
}

impl Default for Correction {
    fn default() -> Correction {
        Correction {
            table: Box::new([[0; SIZE]; 2]),
            pieces: Box::new([[[0; SIZE]; 2]; 2]),
            moves: Box::new([[0; SIZE]; 2]),
        }
    }
}

/// The entries of `pos`: side to move, pawn slot, one non-pawn slot per
/// colour.
#[inline]
fn slots(pos: &Position) -> (usize, usize, [usize; 2]) {
    (
        pos.side_to_move().index(),
        (pos.pawn_hash() >> 50) as usize,
        Color::ALL.map(|c| (pos.non_pawn_hash(c) >> 50) as usize),
    )
}

/// The slot of the last two moves (piece and target of each; none at the
/// root or after a null move).
#[inline]
fn moves_slot(ctx: &Context) -> usize {
    // 0 for no move, else 1 + piece · 64 + target: 12 · 64 + 1 codes.
    const CODES: u64 = 12 * 64 + 1;
    let code = |m: Option<(usize, usize)>| m.map_or(0, |(piece, to)| 1 + piece * 64 + to) as u64;
    let pair = code(ctx[0]) * CODES + code(ctx[1]);
    (pair.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50) as usize
}

/// Moves `e` towards `target` by `weight`/256.
#[inline]
fn blend(e: &mut i16, target: i32, weight: i32) {
    *e = ((i32::from(*e) * (256 - weight) + target * weight) / 256) as i16;
}

impl Correction {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = Correction::default();
    }

    /// The correction, in centipawns, to add to the static evaluation of `pos`.
    #[inline]
    pub fn get(&self, pos: &Position, ctx: &Context) -> i32 {
        let (side, i, [w, b]) = slots(pos);
        let sum = i32::from(self.table[side][i])
            + i32::from(self.pieces[side][0][w])
            + i32::from(self.pieces[side][1][b])
            + i32::from(self.moves[side][moves_slot(ctx)]);
        (sum / GRAIN).clamp(-LIMIT, LIMIT)
    }

    /// Moves the entries of `pos` towards `error` (search result minus the
    /// uncorrected static evaluation), the more the deeper the search was.
    #[inline]
    pub fn update(&mut self, pos: &Position, ctx: &Context, depth: i32, error: i32) {
        let (side, i, [w, b]) = slots(pos);
        let m = moves_slot(ctx);
        let weight = (depth + 1).clamp(1, 16);
        let pawn = &mut self.table[side][i];
        // What the pawn entry does not yet explain, before it learns; the
        // two piece entries together learn it (least mean squares: each
        // moves by their joint miss).
        let rest = error * GRAIN - i32::from(*pawn);
        blend(pawn, error.clamp(-LIMIT, LIMIT) * GRAIN, weight);
        let [white, black] = &mut self.pieces[side];
        let moves = &mut self.moves[side][m];
        let miss = rest - i32::from(white[w]) - i32::from(black[b]) - i32::from(*moves);
        let step = miss * weight / 256;
        for e in [&mut white[w], &mut black[b], moves] {
            *e = (i32::from(*e) + step).clamp(-LIMIT * GRAIN, LIMIT * GRAIN) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::NO_CONTEXT;

    #[test]
    fn corrections_follow_the_errors_within_the_limit() {
        let pos = Position::startpos();
        let mut c = Correction::default();
        assert_eq!(c.get(&pos, &NO_CONTEXT), 0);
        for _ in 0..200 {
            c.update(&pos, &NO_CONTEXT, 15, 40);
        }
        let g = c.get(&pos, &NO_CONTEXT);
        assert!((38..=40).contains(&g), "{g}");
        for _ in 0..400 {
            c.update(&pos, &NO_CONTEXT, 15, -1000);
        }
        assert!((-LIMIT..=-LIMIT + 2).contains(&c.get(&pos, &NO_CONTEXT)));
        // The other side to move has its own entry.
        let mut other = pos;
        other.make_null();
        assert_eq!(c.get(&other, &NO_CONTEXT), 0);
        c.clear();
        assert_eq!(c.get(&pos, &NO_CONTEXT), 0);
    }

    #[test]
    fn the_piece_tables_tell_apart_positions_with_the_same_pawns() {
        // Same pawns, a knight on b1 or on c3 (same side to move).
        let a =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let b = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR w KQkq - 0 1")
            .unwrap();
        let mut c = Correction::default();
        for _ in 0..400 {
            c.update(&a, &NO_CONTEXT, 15, 40);
            c.update(&b, &NO_CONTEXT, 15, -20);
        }
        let (ga, gb) = (c.get(&a, &NO_CONTEXT), c.get(&b, &NO_CONTEXT));
        assert!((34..=46).contains(&ga), "{ga}");
        assert!((-26..=-14).contains(&gb), "{gb}");
    }

    #[test]
    fn the_move_table_tells_apart_the_moves_that_led_to_a_position() {
        // One position reached by two different last moves (a knight to c3
        // or to f3 a ply back, the same reply two plies back).
        let pos = Position::startpos();
        let a: Context = [Some((1, 18)), Some((7, 45))];
        let b: Context = [Some((1, 21)), Some((7, 45))];
        let mut c = Correction::default();
        for _ in 0..400 {
            c.update(&pos, &a, 15, 30);
            c.update(&pos, &b, 15, -10);
        }
        let (ga, gb) = (c.get(&pos, &a), c.get(&pos, &b));
        assert!(ga > gb + 20, "{ga} {gb}");
        assert!((24..=36).contains(&ga), "{ga}");
        assert!((-16..=-4).contains(&gb), "{gb}");
    }
}
