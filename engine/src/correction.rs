//! Correction history: how far the static evaluation has lately missed the
//! search's own result in positions with the same pawns.
//!
//! A hand-written evaluation errs the same way in positions that share a
//! pawn structure (a blocked centre, a pawn storm it underrates), so the
//! search's verdicts, averaged per pawn structure and side to move, are a
//! good correction of the next static evaluation there. Each thread keeps
//! its own table, cleared with the other histories by `ucinewgame`.

use castella_movegen::Position;

/// Slots per side to move; a pawn structure is found by a hash of its pawns.
const SIZE: usize = 1 << 14;
/// Entries hold centipawns times `GRAIN`, so that small updates count.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const LIMIT: i32 = 64;

/// Per-thread correction of the static evaluation by pawn structure.
pub struct Correction {
    /// [side to move][pawn hash], in centipawns times `GRAIN`.
    table: Box<[[i32; SIZE]; 2]>,
}

impl Default for Correction {
    fn default() -> Correction {
        Correction {
            table: Box::new([[0; SIZE]; 2]),
        }
    }
}

#[inline]
fn slot(pos: &Position) -> (usize, usize) {
    (pos.side_to_move().index(), (pos.pawn_hash() >> 50) as usize)
}

impl Correction {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = Correction::default();
    }

    /// The correction, in centipawns, to add to the static evaluation of `pos`.
    #[inline]
    pub fn get(&self, pos: &Position) -> i32 {
        let (side, i) = slot(pos);
        self.table[side][i] / GRAIN
    }

    /// Moves the entry of `pos` towards `error` (search result minus the
    /// uncorrected static evaluation), the more the deeper the search was.
    #[inline]
    pub fn update(&mut self, pos: &Position, depth: i32, error: i32) {
        let (side, i) = slot(pos);
        let weight = (depth + 1).clamp(1, 16);
        let target = error.clamp(-LIMIT, LIMIT) * GRAIN;
        let e = &mut self.table[side][i];
        *e = (*e * (256 - weight) + target * weight) / 256;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_errors_within_the_limit() {
        let pos = Position::startpos();
        let mut c = Correction::default();
        assert_eq!(c.get(&pos), 0);
        for _ in 0..200 {
            c.update(&pos, 15, 40);
        }
        assert!((38..=40).contains(&c.get(&pos)), "{}", c.get(&pos));
        for _ in 0..400 {
            c.update(&pos, 15, -1000);
        }
        assert!((-LIMIT..=-LIMIT + 2).contains(&c.get(&pos)));
        // The other side to move has its own entry.
        let mut other = pos;
        other.make_null();
        assert_eq!(c.get(&other), 0);
        c.clear();
        assert_eq!(c.get(&pos), 0);
    }
}
