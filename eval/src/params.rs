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
    material: [Score; 6] = [S(82, 94), S(337, 281), S(365, 297), S(477, 512), S(1025, 936), S(0, 0)],

    /// Piece-square tables `[piece][row][file]`: row 0 is rank 8 from the
    /// owner's side, file 0..3 is a..d (mirrored onto h..e). PeSTO's tables
    /// averaged over the two wings; pieces other than the king are halved
    /// because mobility, outposts and pawn terms now carry part of what
    /// PeSTO's tables encode.
    psqt: [[[Score; 4]; 8]; 6] = [
        // Pawn
        [
            [S(0, 0), S(0, 0), S(0, 0), S(0, 0)],
            [S(22, 91), S(42, 85), S(47, 73), S(41, 70)],
            [S(-7, 45), S(8, 46), S(21, 35), S(24, 31)],
            [S(-9, 12), S(8, 10), S(5, 4), S(11, 1)],
            [S(-13, 3), S(2, 3), S(0, -3), S(7, -4)],
            [S(-10, -1), S(7, 2), S(0, -3), S(-2, 0)],
            [S(-14, 2), S(9, 3), S(1, 2), S(-10, 6)],
            [S(0, 0), S(0, 0), S(0, 0), S(0, 0)],
        ],
        // Knight
        [
            [S(-69, -39), S(-26, -25), S(-33, -10), S(3, -15)],
            [S(-23, -19), S(-9, -8), S(34, -13), S(15, -3)],
            [S(-1, -16), S(33, -10), S(42, 0), S(37, 2)],
            [S(3, -9), S(9, 3), S(22, 8), S(23, 11)],
            [S(-5, -9), S(6, -1), S(9, 8), S(10, 10)],
            [S(-10, -11), S(4, -6), S(7, -1), S(7, 6)],
            [S(-12, -22), S(-17, -11), S(2, -8), S(-1, -2)],
            [S(-32, -23), S(-10, -25), S(-22, -10), S(-13, -9)],
        ],
        // Bishop
        [
            [S(-9, -10), S(3, -10), S(-31, -5), S(-16, -4)],
            [S(-18, -6), S(9, -2), S(10, -2), S(4, -4)],
            [S(-5, 2), S(19, -2), S(23, 2), S(19, -1)],
            [S(-2, 0), S(3, 3), S(14, 6), S(22, 6)],
            [S(-1, -4), S(6, 0), S(6, 6), S(15, 7)],
            [S(3, -7), S(8, -3), S(11, 3), S(7, 6)],
            [S(1, -10), S(12, -8), S(9, -4), S(2, 1)],
            [S(-14, -10), S(-11, -4), S(-7, -10), S(-9, -4)],
        ],
        // Rook
        [
            [S(19, 5), S(18, 5), S(10, 8), S(29, 7)],
            [S(18, 4), S(15, 5), S(31, 4), S(36, 2)],
            [S(3, 1), S(20, 1), S(18, 1), S(13, 2)],
            [S(-11, 2), S(-5, 1), S(11, 4), S(13, 1)],
            [S(-15, -2), S(-5, -1), S(-5, 1), S(2, 0)],
            [S(-20, -5), S(-8, -2), S(-4, -4), S(-4, -2)],
            [S(-29, -2), S(-6, -4), S(-2, -2), S(-3, -2)],
            [S(-11, -7), S(-13, 2), S(2, -3), S(8, -2)],
        ],
        // Queen
        [
            [S(4, 3), S(11, 8), S(18, 10), S(18, 14)],
            [S(8, -4), S(-3, 13), S(13, 14), S(-4, 25)],
            [S(11, -3), S(8, 6), S(16, 11), S(9, 24)],
            [S(-7, 10), S(-7, 20), S(0, 16), S(-4, 26)],
            [S(-3, 1), S(-6, 17), S(-3, 13), S(-3, 20)],
            [S(-2, -3), S(4, -4), S(-2, 8), S(-2, 4)],
            [S(-9, -14), S(-3, -15), S(7, -13), S(3, -8)],
            [S(-13, -19), S(-12, -12), S(-9, -14), S(-1, -12)],
        ],
        // King
        [
            [S(-26, -46), S(13, -16), S(-9, -2), S(-36, -15)],
            [S(0, -1), S(-20, 20), S(-12, 26), S(-8, 17)],
            [S(-16, 12), S(23, 31), S(4, 34), S(-18, 18)],
            [S(-27, -3), S(-17, 24), S(-19, 29), S(-29, 27)],
            [S(-50, -15), S(-17, 3), S(-36, 22), S(-43, 26)],
            [S(-21, -14), S(-15, 2), S(-26, 14), S(-45, 22)],
            [S(5, -22), S(8, -8), S(-12, 4), S(-54, 14)],
            [S(-1, -48), S(30, -29), S(-8, -18), S(-23, -20)],
        ],
    ],

    // ---- Pawn structure (pawns.rs), indexed by relative rank ----------

    /// A pawn with another of ours in front of it on the same file.
    doubled: Score = S(-10, -20),
    /// A pawn with no pawn of ours on either neighbouring file.
    isolated: Score = S(-6, -12),
    /// A pawn whose neighbours have all advanced past it and whose stop
    /// square an enemy pawn controls.
    backward: Score = S(-6, -8),
    /// A pawn with a pawn of ours beside it on the same rank.
    phalanx: [Score; 8] = [
        S(0, 0), S(2, 1), S(4, 2), S(8, 5), S(14, 10), S(24, 20), S(40, 30), S(0, 0),
    ],
    /// A pawn defended by a pawn of ours.
    supported: [Score; 8] = [
        S(0, 0), S(0, 0), S(8, 4), S(8, 5), S(12, 8), S(20, 15), S(30, 25), S(0, 0),
    ],

    // ---- Passed pawns (pawns.rs) --------------------------------------

    /// A passed pawn: no enemy pawn in front on its own or adjacent files.
    passed: [Score; 8] = [
        S(0, 0), S(2, 8), S(3, 12), S(8, 22), S(18, 40), S(35, 70), S(60, 110), S(0, 0),
    ],
    /// Extra for a passed pawn whose stop square is empty and not attacked
    /// by the enemy.
    passed_free: [Score; 8] = [
        S(0, 0), S(0, 0), S(0, 2), S(2, 5), S(5, 12), S(10, 25), S(20, 45), S(0, 0),
    ],
    /// Extra for a passed pawn defended by one of our pawns.
    passed_supported: Score = S(4, 12),
    /// Per square of distance from our king to the stop square, times a
    /// weight growing with the pawn's rank.
    passed_own_king: Score = S(0, -2),
    /// Per square of distance from the enemy king to the stop square, times
    /// the same weight.
    passed_enemy_king: Score = S(0, 4),

    // ---- Pieces (pieces.rs) -------------------------------------------

    /// Knight mobility by number of safe squares (0..=8).
    knight_mobility: [Score; 9] = [
        S(-33, -34), S(-28, -26), S(-8, -15), S(-3, -10), S(0, 0), S(5, 2), S(9, 4), S(13, 6),
        S(17, 8),
    ],
    /// Bishop mobility (0..=13).
    bishop_mobility: [Score; 14] = [
        S(-50, -46), S(-37, -32), S(-20, -26), S(-12, -18), S(-7, -14), S(0, -6), S(0, 0),
        S(4, 1), S(5, 4), S(8, 6), S(13, 9), S(15, 12), S(19, 13), S(22, 17),
    ],
    /// Rook mobility (0..=14).
    rook_mobility: [Score; 15] = [
        S(-45, -82), S(-27, -55), S(-15, -42), S(-14, -32), S(-13, -20), S(-8, -9), S(-5, -8),
        S(0, 0), S(6, 4), S(6, 7), S(6, 12), S(8, 15), S(14, 17), S(14, 19), S(19, 21),
    ],
    /// Queen mobility (0..=27).
    queen_mobility: [Score; 28] = [
        S(-49, -69), S(-43, -61), S(-39, -53), S(-39, -43), S(-26, -34), S(-22, -28),
        S(-23, -26), S(-16, -20), S(-14, -19), S(-8, -12), S(-2, -12), S(-1, -9), S(0, 0),
        S(1, 2), S(1, 3), S(1, 4), S(1, 5), S(2, 6), S(3, 9), S(4, 10), S(11, 12), S(18, 18),
        S(18, 19), S(19, 19), S(22, 22), S(23, 24), S(23, 25), S(25, 39),
    ],
    /// Two bishops on squares of opposite colours.
    bishop_pair: Score = S(30, 50),
    /// A rook on a file with no pawns.
    rook_open_file: Score = S(25, 10),
    /// A rook on a file with enemy pawns only.
    rook_half_open_file: Score = S(12, 6),
    /// A rook on the 7th rank with the enemy king on the 8th or enemy pawns
    /// on the 7th.
    rook_on_seventh: Score = S(10, 20),
    /// A knight on ranks 4 to 6, defended by a pawn, that no enemy pawn can
    /// ever attack.
    knight_outpost: Score = S(20, 10),
    /// The same for a bishop.
    bishop_outpost: Score = S(10, 5),

    // ---- Threats (threats.rs), indexed by the attacked piece ----------

    /// An enemy piece attacked by one of our pawns.
    threat_by_pawn: [Score; 6] = [S(0, 0), S(35, 20), S(35, 20), S(50, 25), S(50, 25), S(0, 0)],
    /// An enemy rook or queen attacked by one of our knights or bishops.
    threat_by_minor: [Score; 6] = [S(0, 0), S(0, 0), S(0, 0), S(25, 15), S(30, 15), S(0, 0)],
    /// An enemy queen attacked by one of our rooks.
    threat_by_rook: Score = S(30, 10),

    // ---- King safety (king.rs) ----------------------------------------

    /// Attack units per king-zone square attacked, by attacker (pawn and
    /// king unused).
    king_attack_weight: [i32; 6] = [0, 2, 2, 3, 5, 0],
    /// Attack units for a safe check available to an attacker kind.
    king_safe_check: [i32; 6] = [0, 6, 5, 8, 7, 0],
    /// Units removed when the attacker has no queen.
    king_no_queen: i32 = 12,
    /// The king-safety penalty is `units² × king_danger / 1024`.
    king_danger: Score = S(256, 64),
    /// Pawn shield per file around the king, by distance of our nearest
    /// pawn in front of the king: none, 1, 2, 3 or more ranks.
    pawn_shield: [Score; 4] = [S(-18, 0), S(16, 0), S(6, 0), S(-6, 0)],
    /// Pawn storm per file around the king, by distance of the nearest enemy
    /// pawn in front of it: none (or 5 and more), 1, 2, 3, 4 ranks.
    pawn_storm: [Score; 5] = [S(0, 0), S(-6, 0), S(-28, -4), S(-14, 0), S(-6, 0)],

    // ---- Chess960 (chess960.rs) ---------------------------------------

    /// A bishop on a long diagonal that sees two centre squares past pawns.
    long_diagonal_bishop: Score = S(15, 0),
    /// A knight or bishop still on our back rank.
    undeveloped_minor: Score = S(-10, 0),
    /// A bishop in one of our corners whose diagonal is closed by one of our
    /// pawns (b2 for a bishop on a1): 4x when that pawn cannot advance, 2x
    /// when a second pawn of ours stands next on the diagonal (c3).
    cornered_bishop: Score = S(-25, -25),
    /// A knight in one of our corners with no safe square to go to.
    cornered_knight: Score = S(-15, -10),
    /// Our pawn attacked by the enemy and defended by nothing.
    hanging_pawn: Score = S(-10, -15),

    // ---- Tempo --------------------------------------------------------

    /// The side to move's bonus.
    tempo: Score = S(15, 10),
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
