//! Every weight of the evaluation, in one place.
//!
//! The weights live in [`Params`], one named field per term. [`Params::DEFAULT`]
//! holds the hand-written starting values (PeSTO-style piece-square tables,
//! classic-engine magnitudes elsewhere). A Texel tuner reads and writes them as
//! one flat vector: [`Params::to_vec`], [`Params::from_vec`] and
//! [`Params::names`] list the fields in declaration order, every [`Score`] as
//! two entries (middlegame, then endgame) and every plain `i32` as one.
//!
//! Tables indexed by rank use the rank relative to the piece's owner (index 0
//! = its first rank); piece-square tables are written from White's side,
//! rank 8 at the top, files a to d (the e to h files mirror them, which keeps
//! the evaluation left-right symmetric, the natural choice in Chess960).

use crate::score::{Score, S};

/// A value the tuner can flatten to and rebuild from `i32`s.
pub trait Flat {
    /// Appends this value's entries.
    fn flatten(&self, out: &mut Vec<i32>);
    /// Reads this value's entries back; `None` when `input` runs out.
    fn unflatten(&mut self, input: &mut std::slice::Iter<'_, i32>) -> Option<()>;
    /// Appends one name per entry, starting with `prefix`.
    fn names(&self, prefix: &str, out: &mut Vec<String>);
}

impl Flat for i32 {
    fn flatten(&self, out: &mut Vec<i32>) {
        out.push(*self);
    }
    fn unflatten(&mut self, input: &mut std::slice::Iter<'_, i32>) -> Option<()> {
        *self = *input.next()?;
        Some(())
    }
    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        out.push(prefix.to_string());
    }
}

impl Flat for Score {
    fn flatten(&self, out: &mut Vec<i32>) {
        out.push(self.mg());
        out.push(self.eg());
    }
    fn unflatten(&mut self, input: &mut std::slice::Iter<'_, i32>) -> Option<()> {
        let mg = *input.next()?;
        let eg = *input.next()?;
        *self = S(mg, eg);
        Some(())
    }
    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        out.push(format!("{prefix}.mg"));
        out.push(format!("{prefix}.eg"));
    }
}

impl<T: Flat, const N: usize> Flat for [T; N] {
    fn flatten(&self, out: &mut Vec<i32>) {
        self.iter().for_each(|x| x.flatten(out));
    }
    fn unflatten(&mut self, input: &mut std::slice::Iter<'_, i32>) -> Option<()> {
        self.iter_mut().try_for_each(|x| x.unflatten(input))
    }
    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        for (i, x) in self.iter().enumerate() {
            x.names(&format!("{prefix}[{i}]"), out);
        }
    }
}

/// Declares `Params`, its default values and the flat-vector conversions
/// from a single list, so that a new field cannot be forgotten in one of them.
macro_rules! params {
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ty = $value:expr,)*) => {
        /// All evaluation weights. See the module documentation for the
        /// layout of the flat vector.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Params {
            $($(#[doc = $doc])* pub $name: $ty,)*
        }

        impl Params {
            /// The hand-written starting values.
            pub const DEFAULT: Params = Params { $($name: $value,)* };

            /// Every weight as a flat vector, fields in declaration order.
            pub fn to_vec(&self) -> Vec<i32> {
                let mut out = Vec::new();
                $(self.$name.flatten(&mut out);)*
                out
            }

            /// Rebuilds parameters from a vector laid out as by
            /// [`Params::to_vec`]; `None` unless the length matches exactly.
            pub fn from_vec(values: &[i32]) -> Option<Params> {
                let mut params = Params::DEFAULT;
                let mut input = values.iter();
                $(params.$name.unflatten(&mut input)?;)*
                input.next().is_none().then_some(params)
            }

            /// One name per entry of [`Params::to_vec`], e.g.
            /// `passed[6].eg`.
            pub fn names(&self) -> Vec<String> {
                let mut out = Vec::new();
                $(self.$name.names(stringify!($name), &mut out);)*
                out
            }
        }

        impl Default for Params {
            fn default() -> Params {
                Params::DEFAULT
            }
        }
    };
}

params! {
    /// Material, pawn to king (the king's entry is unused).
    material: [Score; 6] = [S(91, 86), S(341, 327), S(361, 335), S(489, 570), S(1067, 1020), S(0, 0)],

    /// Piece-square tables `[piece][row][file]`: row 0 is rank 8 from the
    /// owner's side, file 0..3 is a..d (mirrored onto h..e). PeSTO's tables
    /// averaged over the two wings; pieces other than the king are halved
    /// because mobility, outposts and pawn terms now carry part of what
    /// PeSTO's tables encode.
    psqt: [[[Score; 4]; 8]; 6] = [
        // Pawn
        [
            [S(0, 0), S(0, 0), S(0, 0), S(0, 0)],
            [S(41, 36), S(44, 81), S(51, 81), S(41, 68)],
            [S(9, 14), S(-4, 23), S(14, 27), S(30, 16)],
            [S(5, 7), S(2, 5), S(15, 3), S(22, -8)],
            [S(-15, 4), S(-11, 6), S(4, 0), S(16, -7)],
            [S(-29, 4), S(-15, 3), S(-16, 8), S(-12, 9)],
            [S(-23, 11), S(-3, 10), S(-10, 17), S(-9, 19)],
            [S(0, 0), S(0, 0), S(0, 0), S(0, 0)],
        ],
        // Knight
        [
            [S(-69, -36), S(-49, -25), S(-33, -5), S(-8, -18)],
            [S(-25, -13), S(-25, -3), S(14, -4), S(10, 3)],
            [S(-13, -5), S(21, -7), S(38, 7), S(44, 8)],
            [S(8, -2), S(13, 5), S(24, 13), S(33, 18)],
            [S(13, -19), S(10, 8), S(18, 14), S(18, 12)],
            [S(-11, -22), S(2, -13), S(11, 0), S(19, 8)],
            [S(-18, -24), S(-3, -16), S(2, -17), S(15, -12)],
            [S(-36, -32), S(-23, -14), S(-16, -14), S(-6, -15)],
        ],
        // Bishop
        [
            [S(-38, -23), S(-12, 8), S(-45, 9), S(-24, -13)],
            [S(-13, -2), S(-28, -13), S(-8, 14), S(-21, 8)],
            [S(8, -1), S(25, 10), S(21, -26), S(35, 8)],
            [S(4, 2), S(4, 23), S(14, 12), S(28, 19)],
            [S(-8, 1), S(3, 8), S(19, 12), S(25, 16)],
            [S(8, -18), S(18, 1), S(3, -12), S(15, 10)],
            [S(10, -9), S(12, -33), S(19, -9), S(16, -2)],
            [S(1, -22), S(-2, -7), S(-1, 3), S(-3, -5)],
        ],
        // Rook
        [
            [S(25, 20), S(1, 21), S(17, 20), S(29, 20)],
            [S(17, 11), S(11, 9), S(29, 9), S(38, 6)],
            [S(13, 17), S(19, 9), S(32, 6), S(30, 10)],
            [S(6, 9), S(16, 3), S(-4, 12), S(7, 10)],
            [S(-20, 4), S(0, 0), S(-25, 16), S(-16, 8)],
            [S(-15, -11), S(-16, -12), S(-15, -6), S(-13, -7)],
            [S(-48, -6), S(-6, -23), S(-1, -17), S(-2, -14)],
            [S(-21, -2), S(3, -14), S(14, -16), S(18, -16)],
        ],
        // Queen
        [
            [S(-15, 6), S(2, 8), S(41, 25), S(39, 22)],
            [S(-13, 16), S(-15, 38), S(-3, 38), S(-15, 52)],
            [S(1, 14), S(4, 10), S(21, 33), S(17, 36)],
            [S(-7, 18), S(-13, 40), S(-5, 44), S(-1, 43)],
            [S(-13, 17), S(-6, 29), S(3, 22), S(-9, 37)],
            [S(-5, -17), S(3, 15), S(4, 13), S(-1, 7)],
            [S(-4, -6), S(8, -42), S(20, -48), S(21, -42)],
            [S(-9, -58), S(6, -34), S(13, -57), S(19, -47)],
        ],
        // King
        [
            [S(-28, -67), S(19, -15), S(-3, -20), S(-32, -10)],
            [S(20, -23), S(-12, 34), S(-5, 10), S(7, 16)],
            [S(0, 8), S(7, 19), S(-18, 36), S(-41, 30)],
            [S(-20, 7), S(-16, 24), S(-35, 31), S(-51, 35)],
            [S(-50, -9), S(1, 11), S(-31, 27), S(-41, 33)],
            [S(-40, -4), S(11, -2), S(-9, 12), S(-17, 18)],
            [S(-10, -19), S(12, -11), S(-16, 5), S(-23, 7)],
            [S(-34, -46), S(1, -23), S(-25, -11), S(-39, -16)],
        ],
    ],

    // ---- Pawn structure (pawns.rs), indexed by relative rank ----------

    /// A pawn with another of ours in front of it on the same file.
    doubled: Score = S(-19, -20),
    /// A pawn with no pawn of ours on either neighbouring file.
    isolated: Score = S(-5, -7),
    /// A pawn whose neighbours have all advanced past it and whose stop
    /// square an enemy pawn controls.
    backward: Score = S(-4, -14),
    /// A pawn with a pawn of ours beside it on the same rank.
    phalanx: [Score; 8] = [
        S(0, 0), S(4, -2), S(8, 2), S(11, 10), S(10, 34), S(36, 42), S(43, 44), S(0, 0),
    ],
    /// A pawn defended by a pawn of ours.
    supported: [Score; 8] = [
        S(0, 0), S(0, 0), S(19, 6), S(13, 5), S(13, 16), S(38, 24), S(36, 41), S(0, 0),
    ],

    // ---- Passed pawns (pawns.rs) --------------------------------------

    /// A passed pawn: no enemy pawn in front on its own or adjacent files.
    passed: [Score; 8] = [
        S(0, 0), S(-6, 3), S(-11, 3), S(-12, 15), S(10, 33), S(53, 46), S(84, 56), S(0, 0),
    ],
    /// Extra for a passed pawn whose stop square is empty and not attacked
    /// by the enemy.
    passed_free: [Score; 8] = [
        S(0, 0), S(7, 8), S(-4, 6), S(1, 15), S(-9, 29), S(5, 63), S(32, 85), S(0, 0),
    ],
    /// Extra for a passed pawn defended by one of our pawns.
    passed_supported: Score = S(1, 10),
    /// Per square of distance from our king to the stop square, times a
    /// weight growing with the pawn's rank.
    passed_own_king: Score = S(1, -6),
    /// Per square of distance from the enemy king to the stop square, times
    /// the same weight.
    passed_enemy_king: Score = S(-3, 11),

    // ---- Pieces (pieces.rs) -------------------------------------------

    /// Knight mobility by number of safe squares (0..=8).
    knight_mobility: [Score; 9] = [
        S(-38, -51), S(-23, -22), S(-12, -2), S(-5, 3), S(3, 11), S(7, 16), S(13, 12), S(15, 9),
        S(12, -7),
    ],
    /// Bishop mobility (0..=13).
    bishop_mobility: [Score; 14] = [
        S(-36, -56), S(-31, -36), S(-14, -24), S(-8, -9), S(-2, -5), S(2, -1), S(6, 7),
        S(4, 8), S(7, 10), S(13, 8), S(10, 9), S(-7, 15), S(11, 9), S(-6, 14),
    ],
    /// Rook mobility (0..=14).
    rook_mobility: [Score; 15] = [
        S(-41, -97), S(-27, -52), S(-17, -30), S(-12, -24), S(-10, -13), S(-8, -4), S(-2, -2),
        S(1, 4), S(3, 10), S(6, 14), S(11, 12), S(8, 20), S(23, 17), S(16, 21), S(-3, 21),
    ],
    /// Queen mobility (0..=27).
    queen_mobility: [Score; 28] = [
        S(-63, -126), S(-50, -88), S(-34, -59), S(-30, -37), S(-22, -41), S(-16, -27),
        S(-11, -31), S(-9, -12), S(-5, -13), S(-4, -1), S(-1, 8), S(0, 14), S(-5, 17),
        S(-5, 22), S(-4, 22), S(0, 24), S(1, 22), S(-1, 17), S(13, 20), S(12, 14), S(18, 19), S(13, 9),
        S(19, 17), S(21, 21), S(21, 19), S(24, 23), S(23, 25), S(24, 37),
    ],
    /// Two bishops on squares of opposite colours.
    bishop_pair: Score = S(25, 55),
    /// A rook on a file with no pawns.
    rook_open_file: Score = S(38, 1),
    /// A rook on a file with enemy pawns only.
    rook_half_open_file: Score = S(13, 14),
    /// A rook on the 7th rank with the enemy king on the 8th or enemy pawns
    /// on the 7th.
    rook_on_seventh: Score = S(-15, 24),
    /// A knight on ranks 4 to 6, defended by a pawn, that no enemy pawn can
    /// ever attack.
    knight_outpost: Score = S(29, 15),
    /// The same for a bishop.
    bishop_outpost: Score = S(27, 2),

    // ---- Threats (threats.rs), indexed by the attacked piece ----------

    /// An enemy piece attacked by one of our pawns.
    threat_by_pawn: [Score; 6] = [S(0, 0), S(55, 17), S(64, 29), S(41, 34), S(53, 10), S(0, 0)],
    /// An enemy rook or queen attacked by one of our knights or bishops.
    threat_by_minor: [Score; 6] = [S(0, 0), S(0, 0), S(0, 0), S(48, 21), S(46, 23), S(0, 0)],
    /// An enemy queen attacked by one of our rooks.
    threat_by_rook: Score = S(56, 12),

    // ---- King safety (king.rs) ----------------------------------------

    /// Attack units per king-zone square attacked, by attacker (pawn and
    /// king unused).
    king_attack_weight: [i32; 6] = [0, 3, 2, 3, 3, 0],
    /// Attack units for a safe check available to an attacker kind.
    king_safe_check: [i32; 6] = [0, 9, 6, 10, 10, 0],
    /// Units removed when the attacker has no queen.
    king_no_queen: i32 = 19,
    /// The king-safety penalty is `units² × king_danger / 1024`.
    king_danger: Score = S(230, 88),
    /// Pawn shield per file around the king, by distance of our nearest
    /// pawn in front of the king: none, 1, 2, 3 or more ranks.
    pawn_shield: [Score; 4] = [S(-22, 1), S(13, -5), S(3, -4), S(-3, -5)],
    /// Pawn storm per file around the king, by distance of the nearest enemy
    /// pawn in front of it: none (or 5 and more), 1, 2, 3, 4 ranks.
    pawn_storm: [Score; 5] = [S(-6, 5), S(27, 10), S(-45, 7), S(-16, 8), S(-8, 8)],

    // ---- Chess960 (chess960.rs) ---------------------------------------

    /// A bishop on a long diagonal that sees two centre squares past pawns.
    long_diagonal_bishop: Score = S(21, 32),
    /// A knight or bishop still on our back rank.
    undeveloped_minor: Score = S(12, -9),
    /// A bishop in one of our corners whose diagonal is closed by one of our
    /// pawns (b2 for a bishop on a1): 4x when that pawn cannot advance, 2x
    /// when a second pawn of ours stands next on the diagonal (c3).
    cornered_bishop: Score = S(-16, -30),
    /// A knight in one of our corners with no safe square to go to.
    cornered_knight: Score = S(-6, -42),
    /// Our pawn attacked by the enemy and defended by nothing.
    hanging_pawn: Score = S(-1, -24),

    // ---- Tempo --------------------------------------------------------

    /// The side to move's bonus.
    tempo: Score = S(25, 16),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_vector_round_trips() {
        let p = Params::DEFAULT;
        let v = p.to_vec();
        assert_eq!(v.len(), p.names().len());
        assert_eq!(Params::from_vec(&v), Some(p.clone()));
        assert!(Params::from_vec(&v[1..]).is_none());
        let mut longer = v.clone();
        longer.push(0);
        assert!(Params::from_vec(&longer).is_none());

        let names = p.names();
        let i = names.iter().position(|n| n == "passed[6].eg").unwrap();
        let mut w = v;
        w[i] += 5;
        assert_eq!(
            Params::from_vec(&w).unwrap().passed[6].eg(),
            p.passed[6].eg() + 5
        );
    }
}
