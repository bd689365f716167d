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
    material: [Score; 6] = [S(93, 82), S(355, 315), S(370, 325), S(504, 556), S(1074, 1009), S(0, 0)],

    /// Piece-square tables `[piece][row][file]`: row 0 is rank 8 from the
    /// owner's side, file 0..3 is a..d (mirrored onto h..e). PeSTO's tables
    /// averaged over the two wings; pieces other than the king are halved
    /// because mobility, outposts and pawn terms now carry part of what
    /// PeSTO's tables encode.
    psqt: [[[Score; 4]; 8]; 6] = [
        // Pawn
        [
            [S(0, 0), S(0, 0), S(0, 0), S(0, 0)],
            [S(16, 49), S(50, 80), S(53, 75), S(50, 74)],
            [S(11, 8), S(-6, 29), S(19, 32), S(20, 14)],
            [S(4, 4), S(1, 5), S(14, 0), S(18, 3)],
            [S(-16, 5), S(-10, 1), S(6, -8), S(17, -8)],
            [S(-27, 1), S(-14, 4), S(-12, 2), S(-10, 11)],
            [S(-23, 9), S(-3, 9), S(-4, 11), S(-6, 23)],
            [S(0, 0), S(0, 0), S(0, 0), S(0, 0)],
        ],
        // Knight
        [
            [S(-67, -41), S(-36, -26), S(-26, -3), S(-6, -23)],
            [S(-20, -21), S(-23, -7), S(22, -5), S(13, 1)],
            [S(-5, -8), S(19, -6), S(34, 5), S(47, 6)],
            [S(6, -1), S(11, 6), S(23, 11), S(35, 16)],
            [S(5, -16), S(5, 4), S(18, 11), S(20, 13)],
            [S(-13, -15), S(1, -10), S(10, -1), S(12, 19)],
            [S(-19, -18), S(-9, -26), S(1, -12), S(12, -11)],
            [S(-30, -26), S(-20, -16), S(-20, -12), S(-6, -13)],
        ],
        // Bishop
        [
            [S(-34, -22), S(-2, 2), S(-42, 1), S(-24, -17)],
            [S(-14, -2), S(-29, -10), S(1, 6), S(-14, -6)],
            [S(3, 0), S(27, 13), S(18, -15), S(42, 9)],
            [S(-6, 4), S(2, 29), S(17, 9), S(32, 26)],
            [S(1, 2), S(3, 5), S(18, 12), S(22, 11)],
            [S(13, -15), S(18, -2), S(-1, -4), S(13, 8)],
            [S(7, -10), S(1, -28), S(16, -11), S(15, -2)],
            [S(-3, -26), S(-2, -15), S(-1, -1), S(-3, 1)],
        ],
        // Rook
        [
            [S(24, 16), S(11, 13), S(16, 20), S(28, 23)],
            [S(16, 11), S(13, 8), S(26, 6), S(32, 1)],
            [S(16, 15), S(23, 5), S(30, 5), S(19, 11)],
            [S(7, 8), S(27, 0), S(-2, 9), S(16, 6)],
            [S(-21, -3), S(3, 1), S(-26, 16), S(-9, 8)],
            [S(-12, -10), S(-26, -1), S(-15, -3), S(-9, -3)],
            [S(-44, -12), S(-10, -18), S(-6, -11), S(-8, -14)],
            [S(-19, -3), S(5, -14), S(12, -19), S(15, -14)],
        ],
        // Queen
        [
            [S(-7, 6), S(6, 9), S(34, 24), S(35, 26)],
            [S(-3, 11), S(-11, 29), S(8, 29), S(-10, 37)],
            [S(5, 8), S(12, 2), S(18, 25), S(14, 29)],
            [S(-15, 19), S(-13, 31), S(1, 32), S(10, 38)],
            [S(-9, 15), S(-14, 24), S(7, 20), S(-6, 37)],
            [S(-9, -17), S(3, 12), S(-2, 14), S(-3, -3)],
            [S(-12, -5), S(4, -30), S(17, -34), S(20, -36)],
            [S(-18, -41), S(-2, -27), S(9, -50), S(12, -27)],
        ],
        // King
        [
            [S(-26, -53), S(14, -18), S(-8, -20), S(-34, -8)],
            [S(14, -7), S(-20, 22), S(-10, 10), S(-1, 21)],
            [S(-9, 2), S(18, 23), S(-11, 29), S(-34, 22)],
            [S(-20, 1), S(-13, 24), S(-31, 24), S(-40, 29)],
            [S(-40, -15), S(-4, 10), S(-33, 19), S(-39, 33)],
            [S(-38, -5), S(0, 1), S(-20, 15), S(-28, 21)],
            [S(-1, -22), S(12, -11), S(-15, 7), S(-30, 13)],
            [S(-30, -45), S(10, -20), S(-22, -11), S(-32, -13)],
        ],
    ],

    // ---- Pawn structure (pawns.rs), indexed by relative rank ----------

    /// A pawn with another of ours in front of it on the same file.
    doubled: Score = S(-12, -22),
    /// A pawn with no pawn of ours on either neighbouring file.
    isolated: Score = S(-5, -6),
    /// A pawn whose neighbours have all advanced past it and whose stop
    /// square an enemy pawn controls.
    backward: Score = S(-5, -16),
    /// A pawn with a pawn of ours beside it on the same rank.
    phalanx: [Score; 8] = [
        S(0, 0), S(4, -1), S(8, 4), S(11, 13), S(13, 28), S(32, 32), S(41, 35), S(0, 0),
    ],
    /// A pawn defended by a pawn of ours.
    supported: [Score; 8] = [
        S(0, 0), S(0, 0), S(16, 7), S(13, 6), S(17, 17), S(53, 17), S(38, 35), S(0, 0),
    ],

    // ---- Passed pawns (pawns.rs) --------------------------------------

    /// A passed pawn: no enemy pawn in front on its own or adjacent files.
    passed: [Score; 8] = [
        S(0, 0), S(-5, 1), S(-4, 5), S(-7, 15), S(7, 32), S(42, 50), S(75, 68), S(0, 0),
    ],
    /// Extra for a passed pawn whose stop square is empty and not attacked
    /// by the enemy.
    passed_free: [Score; 8] = [
        S(0, 0), S(11, 6), S(-13, 9), S(-2, 21), S(-7, 28), S(10, 44), S(28, 60), S(0, 0),
    ],
    /// Extra for a passed pawn defended by one of our pawns.
    passed_supported: Score = S(-8, 12),
    /// Per square of distance from our king to the stop square, times a
    /// weight growing with the pawn's rank.
    passed_own_king: Score = S(2, -6),
    /// Per square of distance from the enemy king to the stop square, times
    /// the same weight.
    passed_enemy_king: Score = S(-3, 11),

    // ---- Pieces (pieces.rs) -------------------------------------------

    /// Knight mobility by number of safe squares (0..=8).
    knight_mobility: [Score; 9] = [
        S(-42, -50), S(-25, -23), S(-12, -3), S(-4, 0), S(5, 10), S(8, 13), S(16, 11), S(16, 6),
        S(14, -8),
    ],
    /// Bishop mobility (0..=13).
    bishop_mobility: [Score; 14] = [
        S(-39, -54), S(-34, -32), S(-15, -29), S(-8, -12), S(-3, -9), S(3, -3), S(6, 5),
        S(3, 7), S(3, 9), S(12, 5), S(4, 7), S(-3, 14), S(12, 12), S(8, 15),
    ],
    /// Rook mobility (0..=14).
    rook_mobility: [Score; 15] = [
        S(-39, -96), S(-27, -48), S(-16, -34), S(-13, -29), S(-11, -18), S(-10, -6), S(1, -7),
        S(2, 2), S(1, 8), S(7, 13), S(8, 10), S(9, 18), S(20, 19), S(15, 22), S(4, 23),
    ],
    /// Queen mobility (0..=27).
    queen_mobility: [Score; 28] = [
        S(-56, -100), S(-46, -80), S(-30, -58), S(-28, -43), S(-22, -39), S(-15, -26),
        S(-11, -26), S(-10, -17), S(-6, -20), S(-6, -3), S(-3, 1), S(-5, 8), S(-7, 12),
        S(-3, 16), S(-5, 17), S(2, 19), S(2, 17), S(-5, 13), S(9, 15), S(14, 17), S(19, 18), S(15, 13),
        S(16, 16), S(16, 17), S(22, 22), S(23, 23), S(23, 25), S(25, 39),
    ],
    /// Two bishops on squares of opposite colours.
    bishop_pair: Score = S(32, 57),
    /// A rook on a file with no pawns.
    rook_open_file: Score = S(40, 1),
    /// A rook on a file with enemy pawns only.
    rook_half_open_file: Score = S(17, 13),
    /// A rook on the 7th rank with the enemy king on the 8th or enemy pawns
    /// on the 7th.
    rook_on_seventh: Score = S(-13, 23),
    /// A knight on ranks 4 to 6, defended by a pawn, that no enemy pawn can
    /// ever attack.
    knight_outpost: Score = S(28, 16),
    /// The same for a bishop.
    bishop_outpost: Score = S(20, 2),

    // ---- Threats (threats.rs), indexed by the attacked piece ----------

    /// An enemy piece attacked by one of our pawns.
    threat_by_pawn: [Score; 6] = [S(0, 0), S(59, 23), S(67, 24), S(45, 33), S(59, 20), S(0, 0)],
    /// An enemy rook or queen attacked by one of our knights or bishops.
    threat_by_minor: [Score; 6] = [S(0, 0), S(0, 0), S(0, 0), S(48, 24), S(48, 20), S(0, 0)],
    /// An enemy queen attacked by one of our rooks.
    threat_by_rook: Score = S(51, 13),

    // ---- King safety (king.rs) ----------------------------------------

    /// Attack units per king-zone square attacked, by attacker (pawn and
    /// king unused).
    king_attack_weight: [i32; 6] = [0, 2, 3, 3, 3, 0],
    /// Attack units for a safe check available to an attacker kind.
    king_safe_check: [i32; 6] = [0, 10, 4, 8, 9, 0],
    /// Units removed when the attacker has no queen.
    king_no_queen: i32 = 17,
    /// The king-safety penalty is `units² × king_danger / 1024`.
    king_danger: Score = S(258, 64),
    /// Pawn shield per file around the king, by distance of our nearest
    /// pawn in front of the king: none, 1, 2, 3 or more ranks.
    pawn_shield: [Score; 4] = [S(-23, -3), S(10, -7), S(2, -8), S(-5, -8)],
    /// Pawn storm per file around the king, by distance of the nearest enemy
    /// pawn in front of it: none (or 5 and more), 1, 2, 3, 4 ranks.
    pawn_storm: [Score; 5] = [S(-6, 7), S(18, 12), S(-34, 8), S(-12, 8), S(-7, 10)],

    // ---- Chess960 (chess960.rs) ---------------------------------------

    /// A bishop on a long diagonal that sees two centre squares past pawns.
    long_diagonal_bishop: Score = S(25, 24),
    /// A knight or bishop still on our back rank.
    undeveloped_minor: Score = S(8, -7),
    /// A bishop in one of our corners whose diagonal is closed by one of our
    /// pawns (b2 for a bishop on a1): 4x when that pawn cannot advance, 2x
    /// when a second pawn of ours stands next on the diagonal (c3).
    cornered_bishop: Score = S(-14, -30),
    /// A knight in one of our corners with no safe square to go to.
    cornered_knight: Score = S(-3, -36),
    /// Our pawn attacked by the enemy and defended by nothing.
    hanging_pawn: Score = S(-3, -27),

    // ---- Tempo --------------------------------------------------------

    /// The side to move's bonus.
    tempo: Score = S(23, 10),
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
