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
    material: [Score; 6] = [S(90, 96), S(364, 351), S(382, 369), S(502, 612), S(1094, 1077), S(0, 0)],

    /// Piece-square tables `[piece][row][file]`: row 0 is rank 8 from the
    /// owner's side, file 0..3 is a..d (mirrored onto h..e). PeSTO's tables
    /// averaged over the two wings; pieces other than the king are halved
    /// because mobility, outposts and pawn terms now carry part of what
    /// PeSTO's tables encode.
    psqt: [[[Score; 4]; 8]; 6] = [
        // Pawn
        [
            [S(0, 0), S(0, 0), S(0, 0), S(0, 0)],
            [S(71, 19), S(37, 82), S(49, 84), S(36, 71)],
            [S(11, 12), S(-8, 25), S(10, 27), S(27, 17)],
            [S(7, 7), S(0, 6), S(11, 3), S(15, -6)],
            [S(-16, 3), S(-15, 7), S(0, 0), S(9, -7)],
            [S(-30, 2), S(-17, 1), S(-17, 4), S(-13, 5)],
            [S(-24, 9), S(-5, 5), S(-8, 11), S(-8, 13)],
            [S(0, 0), S(0, 0), S(0, 0), S(0, 0)],
        ],
        // Knight
        [
            [S(-70, -27), S(-69, -21), S(-41, -3), S(-11, -12)],
            [S(-27, -6), S(-20, 1), S(15, 2), S(13, 10)],
            [S(-13, -2), S(23, -5), S(48, 7), S(52, 7)],
            [S(12, -3), S(26, 3), S(38, 10), S(53, 15)],
            [S(21, -21), S(18, 9), S(29, 13), S(27, 11)],
            [S(-15, -24), S(-1, -13), S(6, 0), S(11, 8)],
            [S(-24, -28), S(-13, -16), S(-9, -18), S(2, -12)],
            [S(-38, -34), S(-26, -14), S(-23, -14), S(-14, -16)],
        ],
        // Bishop
        [
            [S(-36, -23), S(-27, 15), S(-50, 16), S(-23, -10)],
            [S(-4, 1), S(-20, -10), S(-8, 20), S(-17, 15)],
            [S(20, -1), S(28, 10), S(25, -26), S(35, 12)],
            [S(9, 1), S(14, 24), S(20, 11), S(32, 18)],
            [S(-4, 4), S(8, 10), S(24, 12), S(27, 15)],
            [S(7, -20), S(17, 2), S(-2, -13), S(9, 9)],
            [S(7, -11), S(5, -36), S(12, -9), S(8, -3)],
            [S(6, -23), S(1, -3), S(-2, 3), S(-4, -5)],
        ],
        // Rook
        [
            [S(22, 23), S(-13, 27), S(17, 21), S(31, 21)],
            [S(22, 12), S(13, 11), S(33, 10), S(42, 7)],
            [S(15, 18), S(20, 12), S(35, 7), S(39, 9)],
            [S(5, 10), S(19, 6), S(1, 14), S(10, 13)],
            [S(-19, 7), S(4, 2), S(-20, 17), S(-11, 10)],
            [S(-18, -10), S(-16, -16), S(-16, -5), S(-14, -5)],
            [S(-56, -4), S(-11, -24), S(-5, -18), S(-4, -15)],
            [S(-26, -1), S(-1, -14), S(12, -18), S(16, -18)],
        ],
        // Queen
        [
            [S(-26, 7), S(-5, 1), S(48, 20), S(44, 13)],
            [S(-16, 26), S(-15, 47), S(-11, 55), S(-17, 66)],
            [S(3, 21), S(2, 22), S(23, 40), S(23, 39)],
            [S(1, 14), S(-4, 48), S(2, 53), S(6, 49)],
            [S(-9, 16), S(0, 34), S(12, 25), S(1, 37)],
            [S(-7, -16), S(1, 18), S(3, 16), S(0, 12)],
            [S(-7, -8), S(5, -47), S(18, -52), S(19, -40)],
            [S(-11, -73), S(2, -37), S(9, -63), S(17, -52)],
        ],
        // King
        [
            [S(-31, -83), S(30, -6), S(7, -14), S(-27, -7)],
            [S(34, -31), S(-3, 42), S(1, 14), S(18, 13)],
            [S(13, 14), S(-8, 19), S(-33, 38), S(-57, 31)],
            [S(-23, 10), S(-18, 20), S(-45, 28), S(-70, 31)],
            [S(-65, -4), S(10, 4), S(-28, 20), S(-46, 27)],
            [S(-43, -4), S(20, -6), S(0, 6), S(-13, 12)],
            [S(-6, -18), S(16, -11), S(-21, 7), S(-30, 8)],
            [S(-30, -44), S(3, -19), S(-33, -4), S(-51, -9)],
        ],
    ],

    // ---- Pawn structure (pawns.rs), indexed by relative rank ----------

    /// A pawn with another of ours in front of it on the same file.
    doubled: Score = S(-19, -22),
    /// A pawn with no pawn of ours on either neighbouring file.
    isolated: Score = S(-5, -7),
    /// A pawn whose neighbours have all advanced past it and whose stop
    /// square an enemy pawn controls.
    backward: Score = S(-2, -13),
    /// A pawn with a pawn of ours beside it on the same rank.
    phalanx: [Score; 8] = [
        S(0, 0), S(4, 1), S(7, 5), S(11, 11), S(10, 37), S(37, 49), S(47, 61), S(0, 0),
    ],
    /// A pawn defended by a pawn of ours.
    supported: [Score; 8] = [
        S(0, 0), S(0, 0), S(19, 8), S(14, 6), S(12, 16), S(34, 26), S(31, 49), S(0, 0),
    ],

    // ---- Passed pawns (pawns.rs) --------------------------------------

    /// A passed pawn: no enemy pawn in front on its own or adjacent files.
    passed: [Score; 8] = [
        S(0, 0), S(-8, 1), S(-16, 4), S(-11, 10), S(15, 25), S(64, 36), S(101, 47), S(0, 0),
    ],
    /// Extra for a passed pawn whose stop square is empty and not attacked
    /// by the enemy.
    passed_free: [Score; 8] = [
        S(0, 0), S(5, 11), S(0, 6), S(2, 17), S(-7, 32), S(-5, 73), S(36, 107), S(0, 0),
    ],
    /// Extra for a passed pawn defended by one of our pawns.
    passed_supported: Score = S(4, 8),
    /// Per square of distance from our king to the stop square, times a
    /// weight growing with the pawn's rank.
    passed_own_king: Score = S(1, -5),
    /// Per square of distance from the enemy king to the stop square, times
    /// the same weight.
    passed_enemy_king: Score = S(-3, 12),

    // ---- Pieces (pieces.rs) -------------------------------------------

    /// Knight mobility by number of safe squares (0..=8).
    knight_mobility: [Score; 9] = [
        S(-33, -50), S(-17, -19), S(-6, 1), S(0, 6), S(6, 14), S(9, 19), S(15, 16), S(15, 13),
        S(7, -2),
    ],
    /// Bishop mobility (0..=13).
    bishop_mobility: [Score; 14] = [
        S(-35, -52), S(-29, -29), S(-10, -18), S(-3, -4), S(2, 0), S(7, 2), S(11, 10),
        S(10, 11), S(12, 14), S(20, 9), S(16, 13), S(-6, 14), S(11, 8), S(-29, 14),
    ],
    /// Rook mobility (0..=14).
    rook_mobility: [Score; 15] = [
        S(-39, -100), S(-23, -54), S(-14, -29), S(-9, -23), S(-8, -11), S(-6, -1), S(0, 1),
        S(1, 8), S(3, 14), S(6, 18), S(11, 16), S(8, 25), S(21, 20), S(14, 24), S(-8, 24),
    ],
    /// Queen mobility (0..=27).
    queen_mobility: [Score; 28] = [
        S(-63, -162), S(-48, -95), S(-33, -54), S(-28, -28), S(-19, -34), S(-13, -21),
        S(-9, -23), S(-7, -3), S(-3, -4), S(-3, 4), S(0, 18), S(1, 22), S(-3, 23),
        S(-3, 28), S(-3, 28), S(-1, 31), S(1, 27), S(2, 21), S(14, 23), S(12, 13), S(14, 20), S(11, 5),
        S(19, 16), S(25, 22), S(17, 11), S(24, 21), S(23, 25), S(22, 33),
    ],
    /// Two bishops on squares of opposite colours.
    bishop_pair: Score = S(26, 54),
    /// A rook on a file with no pawns.
    rook_open_file: Score = S(43, 0),
    /// A rook on a file with enemy pawns only.
    rook_half_open_file: Score = S(16, 13),
    /// A rook on the 7th rank with the enemy king on the 8th or enemy pawns
    /// on the 7th.
    rook_on_seventh: Score = S(-19, 26),
    /// Per pawn of ours on the squares of a bishop's colour.
    bishop_pawns: Score = S(0, -5),
    /// A knight or bishop right behind a pawn of ours.
    minor_behind_pawn: Score = S(8, 6),
    /// Per square of distance between a knight or bishop and our king.
    king_protector: Score = S(-4, -1),
    /// A knight on ranks 4 to 6, defended by a pawn, that no enemy pawn can
    /// ever attack.
    knight_outpost: Score = S(26, 13),
    /// The same for a bishop.
    bishop_outpost: Score = S(24, 5),

    // ---- Threats (threats.rs), indexed by the attacked piece ----------

    /// An enemy piece attacked by one of our pawns.
    threat_by_pawn: [Score; 6] = [S(0, 0), S(63, 12), S(63, 34), S(41, 32), S(55, -3), S(0, 0)],
    /// An enemy piece attacked by one of our knights or bishops: pawns only
    /// when weak, other pieces always.
    threat_by_minor: [Score; 6] = [S(1, 12), S(21, 19), S(36, 13), S(50, 12), S(42, 20), S(0, 0)],
    /// An enemy queen attacked by one of our rooks.
    threat_by_rook: Score = S(53, 7),
    /// A weak enemy piece (attacked by us, not defended by a pawn nor by more
    /// attackers than ours) that is undefended or that we attack twice.
    hanging: Score = S(17, 11),
    /// A weak enemy piece our king attacks.
    threat_by_king: Score = S(-6, 29),
    /// A square both sides attack that the enemy does not strongly hold.
    restricted: Score = S(4, 0),
    /// A safe pawn push that would attack an enemy piece.
    pawn_push_threat: Score = S(16, 10),

    // ---- King safety (king.rs) ----------------------------------------

    /// Attack units per king-zone square attacked, by attacker (pawn and
    /// king unused).
    king_attack_weight: [i32; 6] = [0, 2, 2, 2, 2, 0],
    /// Attack units for a safe check available to an attacker kind.
    king_safe_check: [i32; 6] = [0, 9, 6, 9, 10, 0],
    /// Attack units per square of the king zone that the attacker hits and
    /// the defender holds only with the king or queen, or not at all.
    king_weak_square: i32 = 2,
    /// Attack units for checks available that are not safe (once).
    king_unsafe_check: i32 = 5,
    /// Units removed when the attacker has no queen.
    king_no_queen: i32 = 21,
    /// The king-safety penalty is `units² × king_danger / 1024`.
    king_danger: Score = S(202, 80),
    /// Per square of distance from our king to our nearest pawn.
    king_pawn_distance: Score = S(-1, -18),
    /// Pawn shield per file around the king, by distance of our nearest
    /// pawn in front of the king: none, 1, 2, 3 or more ranks.
    pawn_shield: [Score; 4] = [S(-25, 1), S(11, -14), S(-1, -5), S(-7, -3)],
    /// Pawn storm per file around the king, by distance of the nearest enemy
    /// pawn in front of it: none (or 5 and more), 1, 2, 3, 4 ranks.
    pawn_storm: [Score; 5] = [S(-7, 6), S(41, -8), S(-43, 8), S(-17, 9), S(-8, 7)],

    // ---- Chess960 (chess960.rs) ---------------------------------------

    /// A bishop on a long diagonal that sees two centre squares past pawns.
    long_diagonal_bishop: Score = S(22, 31),
    /// A knight or bishop still on our back rank.
    undeveloped_minor: Score = S(4, -9),
    /// A bishop in one of our corners whose diagonal is closed by one of our
    /// pawns (b2 for a bishop on a1): 4x when that pawn cannot advance, 2x
    /// when a second pawn of ours stands next on the diagonal (c3).
    cornered_bishop: Score = S(-19, -31),
    /// A knight in one of our corners with no safe square to go to.
    cornered_knight: Score = S(-7, -49),
    /// Our pawn attacked by the enemy and defended by nothing.
    hanging_pawn: Score = S(12, -9),

    // ---- Tempo --------------------------------------------------------

    /// The side to move's bonus.
    tempo: Score = S(29, 19),
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
