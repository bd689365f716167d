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
    material: [Score; 6] = [S(93, 92), S(350, 336), S(367, 344), S(498, 589), S(1076, 1041), S(0, 0)],

    /// Piece-square tables `[piece][row][file]`: row 0 is rank 8 from the
    /// owner's side, file 0..3 is a..d (mirrored onto h..e). PeSTO's tables
    /// averaged over the two wings; pieces other than the king are halved
    /// because mobility, outposts and pawn terms now carry part of what
    /// PeSTO's tables encode.
    psqt: [[[Score; 4]; 8]; 6] = [
        // Pawn
        [
            [S(0, 0), S(0, 0), S(0, 0), S(0, 0)],
            [S(59, 29), S(40, 84), S(50, 85), S(37, 71)],
            [S(10, 14), S(-7, 23), S(11, 27), S(29, 16)],
            [S(5, 6), S(0, 4), S(13, 2), S(20, -9)],
            [S(-17, 2), S(-14, 5), S(1, 0), S(12, -8)],
            [S(-30, 1), S(-16, 1), S(-17, 6), S(-14, 6)],
            [S(-23, 8), S(-3, 7), S(-9, 14), S(-9, 16)],
            [S(0, 0), S(0, 0), S(0, 0), S(0, 0)],
        ],
        // Knight
        [
            [S(-71, -32), S(-61, -25), S(-39, -7), S(-11, -15)],
            [S(-31, -10), S(-26, -2), S(11, -1), S(9, 6)],
            [S(-18, -4), S(19, -6), S(42, 6), S(47, 7)],
            [S(6, -3), S(20, 3), S(35, 11), S(49, 15)],
            [S(16, -20), S(17, 9), S(28, 14), S(27, 13)],
            [S(-15, -25), S(2, -12), S(11, 2), S(18, 9)],
            [S(-22, -26), S(-6, -15), S(-2, -16), S(10, -11)],
            [S(-40, -33), S(-26, -14), S(-20, -14), S(-10, -15)],
        ],
        // Bishop
        [
            [S(-40, -23), S(-21, 11), S(-49, 12), S(-25, -12)],
            [S(-13, -1), S(-27, -13), S(-11, 16), S(-21, 12)],
            [S(11, -2), S(23, 10), S(20, -27), S(32, 11)],
            [S(4, 1), S(9, 24), S(16, 11), S(29, 18)],
            [S(-8, 3), S(7, 9), S(24, 11), S(29, 15)],
            [S(8, -20), S(19, 1), S(4, -14), S(16, 9)],
            [S(8, -10), S(11, -35), S(18, -8), S(16, -2)],
            [S(2, -23), S(-1, -6), S(1, 4), S(0, -5)],
        ],
        // Rook
        [
            [S(23, 21), S(-8, 24), S(16, 21), S(28, 21)],
            [S(19, 12), S(12, 9), S(31, 9), S(40, 6)],
            [S(14, 17), S(20, 10), S(34, 6), S(36, 9)],
            [S(5, 10), S(19, 5), S(0, 13), S(9, 12)],
            [S(-19, 6), S(4, 1), S(-21, 17), S(-12, 9)],
            [S(-17, -11), S(-16, -15), S(-15, -6), S(-14, -7)],
            [S(-53, -5), S(-8, -24), S(-3, -18), S(-4, -15)],
            [S(-23, -2), S(1, -14), S(13, -18), S(17, -18)],
        ],
        // Queen
        [
            [S(-23, 6), S(-3, 4), S(45, 22), S(40, 16)],
            [S(-16, 21), S(-15, 43), S(-8, 47), S(-16, 60)],
            [S(0, 18), S(1, 16), S(21, 36), S(21, 38)],
            [S(-2, 16), S(-6, 45), S(0, 50), S(4, 46)],
            [S(-10, 17), S(0, 32), S(9, 23), S(-2, 36)],
            [S(-6, -17), S(2, 15), S(3, 14), S(-1, 10)],
            [S(-7, -7), S(5, -46), S(17, -51), S(18, -41)],
            [S(-10, -67), S(4, -36), S(11, -61), S(17, -51)],
        ],
        // King
        [
            [S(-30, -78), S(24, -13), S(2, -19), S(-30, -12)],
            [S(26, -34), S(-8, 35), S(-2, 9), S(13, 13)],
            [S(6, 8), S(-1, 17), S(-26, 36), S(-49, 31)],
            [S(-22, 8), S(-18, 23), S(-40, 32), S(-62, 36)],
            [S(-58, -7), S(7, 9), S(-29, 27), S(-43, 34)],
            [S(-43, -4), S(18, -3), S(-1, 12), S(-13, 18)],
            [S(-12, -18), S(12, -9), S(-18, 8), S(-23, 9)],
            [S(-39, -45), S(-2, -21), S(-29, -8), S(-43, -14)],
        ],
    ],

    // ---- Pawn structure (pawns.rs), indexed by relative rank ----------

    /// A pawn with another of ours in front of it on the same file.
    doubled: Score = S(-19, -21),
    /// A pawn with no pawn of ours on either neighbouring file.
    isolated: Score = S(-5, -7),
    /// A pawn whose neighbours have all advanced past it and whose stop
    /// square an enemy pawn controls.
    backward: Score = S(-2, -14),
    /// A pawn with a pawn of ours beside it on the same rank.
    phalanx: [Score; 8] = [
        S(0, 0), S(4, -3), S(6, 3), S(10, 10), S(9, 35), S(37, 46), S(45, 53), S(0, 0),
    ],
    /// A pawn defended by a pawn of ours.
    supported: [Score; 8] = [
        S(0, 0), S(0, 0), S(18, 6), S(13, 5), S(13, 14), S(34, 24), S(33, 45), S(0, 0),
    ],

    // ---- Passed pawns (pawns.rs) --------------------------------------

    /// A passed pawn: no enemy pawn in front on its own or adjacent files.
    passed: [Score; 8] = [
        S(0, 0), S(-9, 3), S(-15, 5), S(-12, 17), S(12, 36), S(58, 50), S(94, 60), S(0, 0),
    ],
    /// Extra for a passed pawn whose stop square is empty and not attacked
    /// by the enemy.
    passed_free: [Score; 8] = [
        S(0, 0), S(5, 9), S(-2, 6), S(1, 15), S(-8, 29), S(-2, 68), S(35, 99), S(0, 0),
    ],
    /// Extra for a passed pawn defended by one of our pawns.
    passed_supported: Score = S(3, 8),
    /// Per square of distance from our king to the stop square, times a
    /// weight growing with the pawn's rank.
    passed_own_king: Score = S(1, -6),
    /// Per square of distance from the enemy king to the stop square, times
    /// the same weight.
    passed_enemy_king: Score = S(-3, 11),

    // ---- Pieces (pieces.rs) -------------------------------------------

    /// Knight mobility by number of safe squares (0..=8).
    knight_mobility: [Score; 9] = [
        S(-34, -51), S(-19, -20), S(-8, 0), S(-2, 4), S(4, 12), S(7, 17), S(12, 13), S(13, 9),
        S(6, -6),
    ],
    /// Bishop mobility (0..=13).
    bishop_mobility: [Score; 14] = [
        S(-36, -55), S(-30, -34), S(-12, -22), S(-6, -8), S(-1, -4), S(4, -2), S(7, 6),
        S(7, 8), S(9, 11), S(16, 8), S(13, 11), S(-8, 16), S(11, 9), S(-18, 17),
    ],
    /// Rook mobility (0..=14).
    rook_mobility: [Score; 15] = [
        S(-42, -97), S(-27, -52), S(-16, -29), S(-11, -24), S(-9, -12), S(-7, -3), S(0, -1),
        S(2, 5), S(4, 11), S(7, 15), S(12, 12), S(9, 21), S(22, 16), S(14, 22), S(-7, 22),
    ],
    /// Queen mobility (0..=27).
    queen_mobility: [Score; 28] = [
        S(-66, -146), S(-52, -93), S(-36, -57), S(-30, -32), S(-22, -37), S(-15, -25),
        S(-10, -27), S(-8, -7), S(-4, -9), S(-3, 1), S(0, 13), S(1, 19), S(-3, 20),
        S(-4, 25), S(-3, 24), S(0, 27), S(1, 23), S(0, 19), S(14, 21), S(11, 13), S(15, 18), S(11, 6),
        S(19, 16), S(24, 23), S(19, 14), S(24, 22), S(23, 25), S(23, 35),
    ],
    /// Two bishops on squares of opposite colours.
    bishop_pair: Score = S(25, 53),
    /// A rook on a file with no pawns.
    rook_open_file: Score = S(41, -1),
    /// A rook on a file with enemy pawns only.
    rook_half_open_file: Score = S(15, 14),
    /// A rook on the 7th rank with the enemy king on the 8th or enemy pawns
    /// on the 7th.
    rook_on_seventh: Score = S(-17, 25),
    /// A knight on ranks 4 to 6, defended by a pawn, that no enemy pawn can
    /// ever attack.
    knight_outpost: Score = S(25, 13),
    /// The same for a bishop.
    bishop_outpost: Score = S(23, 3),

    // ---- Threats (threats.rs), indexed by the attacked piece ----------

    /// An enemy piece attacked by one of our pawns.
    threat_by_pawn: [Score; 6] = [S(0, 0), S(60, 13), S(61, 32), S(40, 32), S(52, 2), S(0, 0)],
    /// An enemy piece attacked by one of our knights or bishops: pawns only
    /// when weak, other pieces always.
    threat_by_minor: [Score; 6] = [S(0, 12), S(20, 17), S(33, 13), S(47, 14), S(42, 21), S(0, 0)],
    /// An enemy queen attacked by one of our rooks.
    threat_by_rook: Score = S(53, 9),
    /// A weak enemy piece (attacked by us, not defended by a pawn nor by more
    /// attackers than ours) that is undefended or that we attack twice.
    hanging: Score = S(17, 10),
    /// A weak enemy piece our king attacks.
    threat_by_king: Score = S(-1, 29),
    /// A square both sides attack that the enemy does not strongly hold.
    restricted: Score = S(4, -1),
    /// A safe pawn push that would attack an enemy piece.
    pawn_push_threat: Score = S(16, 10),

    // ---- King safety (king.rs) ----------------------------------------

    /// Attack units per king-zone square attacked, by attacker (pawn and
    /// king unused).
    king_attack_weight: [i32; 6] = [0, 2, 2, 2, 2, 0],
    /// Attack units for a safe check available to an attacker kind.
    king_safe_check: [i32; 6] = [0, 8, 6, 9, 10, 0],
    /// Attack units per square of the king zone that the attacker hits and
    /// the defender holds only with the king or queen, or not at all.
    king_weak_square: i32 = 2,
    /// Attack units for checks available that are not safe (once).
    king_unsafe_check: i32 = 4,
    /// Units removed when the attacker has no queen.
    king_no_queen: i32 = 18,
    /// The king-safety penalty is `units² × king_danger / 1024`.
    king_danger: Score = S(221, 82),
    /// Pawn shield per file around the king, by distance of our nearest
    /// pawn in front of the king: none, 1, 2, 3 or more ranks.
    pawn_shield: [Score; 4] = [S(-22, 0), S(12, -5), S(2, -4), S(-4, -5)],
    /// Pawn storm per file around the king, by distance of the nearest enemy
    /// pawn in front of it: none (or 5 and more), 1, 2, 3, 4 ranks.
    pawn_storm: [Score; 5] = [S(-7, 5), S(35, -4), S(-43, 11), S(-17, 9), S(-8, 8)],

    // ---- Chess960 (chess960.rs) ---------------------------------------

    /// A bishop on a long diagonal that sees two centre squares past pawns.
    long_diagonal_bishop: Score = S(21, 33),
    /// A knight or bishop still on our back rank.
    undeveloped_minor: Score = S(9, -10),
    /// A bishop in one of our corners whose diagonal is closed by one of our
    /// pawns (b2 for a bishop on a1): 4x when that pawn cannot advance, 2x
    /// when a second pawn of ours stands next on the diagonal (c3).
    cornered_bishop: Score = S(-18, -29),
    /// A knight in one of our corners with no safe square to go to.
    cornered_knight: Score = S(-6, -46),
    /// Our pawn attacked by the enemy and defended by nothing.
    hanging_pawn: Score = S(13, -10),

    // ---- Tempo --------------------------------------------------------

    /// The side to move's bonus.
    tempo: Score = S(28, 19),
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
