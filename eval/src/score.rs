//! The middlegame/endgame score pair and the taper between them.
//!
//! Every evaluation term has one value for the middlegame and one for the
//! endgame. Both halves are packed into a single `i32` (middlegame in the high
//! 16 bits, endgame in the low 16 bits, the Stockfish trick) so that one
//! integer addition updates both; they are blended only once, at the end, by
//! the game phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A middlegame and an endgame value in centipawns, packed in one `i32`.
///
/// Each half must stay within `i16`; evaluation sums are far below that.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Score(i32);

/// Shorthand for [`Score::new`], used throughout the parameter tables.
#[allow(non_snake_case)]
#[inline(always)]
pub const fn S(mg: i32, eg: i32) -> Score {
    Score::new(mg, eg)
}

impl Score {
    /// Zero in both phases.
    pub const ZERO: Score = Score(0);

    /// Packs a middlegame and an endgame value.
    #[inline(always)]
    pub const fn new(mg: i32, eg: i32) -> Score {
        // `mg << 16` cannot overflow for |mg| < 2^15; adding a negative eg
        // borrows from the high half, which `mg()` undoes by rounding.
        Score((mg << 16).wrapping_add(eg))
    }

    /// The middlegame half.
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0.wrapping_add(0x8000) >> 16
    }

    /// The endgame half.
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        self.0 as i16 as i32
    }
}

impl std::fmt::Debug for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "S({}, {})", self.mg(), self.eg())
    }
}

impl Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, rhs: Score) -> Score {
        Score(self.0 + rhs.0)
    }
}

impl AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Score) {
        self.0 += rhs.0;
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, rhs: Score) -> Score {
        Score(self.0 - rhs.0)
    }
}

impl SubAssign for Score {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Score) {
        self.0 -= rhs.0;
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

/// Scales both halves by an integer (a count of pawns, squares, ...).
impl Mul<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn mul(self, rhs: i32) -> Score {
        Score(self.0 * rhs)
    }
}

/// The game phase when all minor and major pieces are on the board.
pub const PHASE_MAX: i32 = 24;

/// The scale factor that leaves the endgame half unchanged.
pub const SCALE_NORMAL: i32 = 64;

/// Blends the two halves: `phase` runs from [`PHASE_MAX`] (all pieces on,
/// pure middlegame) to 0 (bare kings and pawns, pure endgame). The endgame
/// half is first multiplied by `scale / 64`, which shrinks drawish endings.
///
/// Integer division truncates towards zero, so `taper(-s) == -taper(s)`: the
/// evaluation stays exactly colour-symmetric.
#[inline(always)]
pub fn taper(score: Score, phase: i32, scale: i32) -> i32 {
    let eg = score.eg() * scale / SCALE_NORMAL;
    (score.mg() * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_and_unpacks() {
        for mg in [-3000, -129, -1, 0, 1, 77, 3000] {
            for eg in [-3000, -200, -1, 0, 1, 99, 3000] {
                let s = S(mg, eg);
                assert_eq!((s.mg(), s.eg()), (mg, eg));
                assert_eq!(((-s).mg(), (-s).eg()), (-mg, -eg));
                let t = s * 3 - S(1, -1) + S(2, 2);
                assert_eq!((t.mg(), t.eg()), (3 * mg + 1, 3 * eg + 3));
            }
        }
    }

    #[test]
    fn taper_blends_and_is_odd() {
        let s = S(100, 20);
        assert_eq!(taper(s, PHASE_MAX, SCALE_NORMAL), 100);
        assert_eq!(taper(s, 0, SCALE_NORMAL), 20);
        assert_eq!(taper(s, 0, 32), 10);
        for phase in 0..=PHASE_MAX {
            for scale in [0, 16, 64] {
                let s = S(37, -101);
                assert_eq!(taper(-s, phase, scale), -taper(s, phase, scale));
            }
        }
    }
}
