//! Every weight of the evaluation, in one place.
//!
//! The weights live in [`Params`], one named field per term. [`Params::DEFAULT`]
//! holds the hand-written starting values (PeSTO-style piece-square tables,
//! classic-engine magnitudes elsewhere), Texel-tuned on Castella's games
//! before network 2 replaced this evaluation in the search (the tuner is in
//! the git history).
//!
//! Tables indexed by rank use the rank relative to the piece's owner (index 0
//! = its first rank); piece-square tables are written from White's side,
//! rank 8 at the top, files a to d (the e to h files mirror them, which keeps
//! the evaluation left-right symmetric, the natural choice in Chess960).

use crate::score::{Score, S};

/// Declares `Params` and its default values from a single list, each field
/// beside its value.
macro_rules! params {
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ty = $value:expr,)*) => {
        /// All evaluation weights.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Params {
            $($(#[doc = $doc])* pub $name: $ty,)*
        }

        impl Params {
            /// The hand-written starting values.
            pub const DEFAULT: Params = Params { $($name: $value,)* };
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
    material: [Score; 6] = [S(96, 95), S(369, 357), S(387, 372), S(508, 620), S(1101, 1098), S(0, 0)],

    /// Piece-square tables `[piece][row][file]`: row 0 is rank 8 from the
    /// owner's side, file 0..3 is a..d (mirrored onto h..e). PeSTO's tables
    /// averaged over the two wings; pieces other than the king are halved
    /// because mobility, outposts and pawn terms now carry part of what
    /// PeSTO's tables encode.
    psqt: [[[Score; 4]; 8]; 6] = [
        // Pawn
        [
            [S(0, 0), S(0, 0), S(0, 0), S(0, 0)],
            [S(79, 12), S(35, 81), S(48, 83), S(34, 70)],
            [S(10, 12), S(-9, 25), S(12, 27), S(31, 17)],
            [S(5, 6), S(0, 5), S(15, 2), S(21, -8)],
            [S(-17, 3), S(-15, 6), S(1, -1), S(12, -8)],
            [S(-30, 1), S(-17, 1), S(-19, 4), S(-15, 6)],
            [S(-25, 8), S(-5, 5), S(-12, 13), S(-12, 15)],
            [S(0, 0), S(0, 0), S(0, 0), S(0, 0)],
        ],
        // Knight
        [
            [S(-70, -24), S(-77, -18), S(-43, 0), S(-11, -9)],
            [S(-27, -4), S(-20, 2), S(16, 4), S(14, 12)],
            [S(-14, -1), S(24, -5), S(49, 7), S(53, 7)],
            [S(12, -3), S(26, 3), S(38, 10), S(52, 16)],
            [S(21, -21), S(19, 10), S(29, 12), S(26, 11)],
            [S(-12, -26), S(2, -15), S(9, -2), S(13, 6)],
            [S(-24, -29), S(-13, -16), S(-9, -20), S(2, -13)],
            [S(-38, -34), S(-26, -14), S(-24, -15), S(-15, -16)],
        ],
        // Bishop
        [
            [S(-32, -23), S(-32, 18), S(-51, 18), S(-21, -9)],
            [S(-4, 2), S(-17, -10), S(-7, 21), S(-16, 17)],
            [S(19, -1), S(29, 10), S(26, -26), S(36, 12)],
            [S(10, 1), S(14, 24), S(20, 11), S(33, 18)],
            [S(-2, 4), S(10, 10), S(25, 11), S(28, 15)],
            [S(10, -21), S(19, 2), S(-1, -13), S(10, 9)],
            [S(7, -11), S(5, -36), S(12, -10), S(7, -2)],
            [S(5, -22), S(0, -2), S(-4, 4), S(-6, -4)],
        ],
        // Rook
        [
            [S(21, 26), S(-17, 31), S(18, 24), S(34, 23)],
            [S(23, 14), S(14, 13), S(35, 12), S(45, 9)],
            [S(15, 20), S(19, 14), S(34, 9), S(39, 10)],
            [S(5, 11), S(18, 7), S(0, 16), S(9, 15)],
            [S(-18, 7), S(5, 2), S(-21, 17), S(-12, 10)],
            [S(-14, -11), S(-17, -17), S(-18, -5), S(-16, -6)],
            [S(-48, -6), S(-8, -26), S(-5, -19), S(-6, -16)],
            [S(-18, -5), S(4, -18), S(11, -19), S(14, -19)],
        ],
        // Queen
        [
            [S(-28, 9), S(-5, 1), S(51, 19), S(48, 11)],
            [S(-16, 28), S(-14, 50), S(-9, 62), S(-12, 70)],
            [S(1, 24), S(4, 25), S(26, 42), S(28, 39)],
            [S(0, 13), S(-3, 49), S(5, 54), S(10, 51)],
            [S(-10, 17), S(1, 36), S(13, 25), S(2, 37)],
            [S(-7, -18), S(2, 17), S(3, 16), S(0, 11)],
            [S(-10, -9), S(3, -49), S(16, -53), S(17, -40)],
            [S(-13, -76), S(-1, -36), S(5, -61), S(13, -52)],
        ],
        // King
        [
            [S(-32, -88), S(35, -2), S(11, -12), S(-25, -5)],
            [S(41, -31), S(1, 44), S(3, 16), S(25, 14)],
            [S(19, 15), S(-13, 20), S(-39, 40), S(-64, 32)],
            [S(-23, 10), S(-18, 19), S(-48, 28), S(-77, 31)],
            [S(-72, -2), S(13, 3), S(-27, 19), S(-48, 27)],
            [S(-44, -4), S(19, -8), S(0, 6), S(-14, 12)],
            [S(-10, -18), S(14, -12), S(-21, 5), S(-28, 6)],
            [S(-31, -45), S(1, -20), S(-33, -5), S(-45, -12)],
        ],
    ],

    // ---- Pawn structure (pawns.rs), indexed by relative rank ----------

    /// A pawn with another of ours in front of it on the same file.
    doubled: Score = S(-20, -21),
    /// A pawn with no pawn of ours on either neighbouring file.
    isolated: Score = S(-5, -7),
    /// A pawn whose neighbours have all advanced past it and whose stop
    /// square an enemy pawn controls.
    backward: Score = S(-3, -13),
    /// A pawn with a pawn of ours beside it on the same rank.
    phalanx: [Score; 8] = [
        S(0, 0), S(4, 1), S(7, 5), S(11, 11), S(9, 38), S(38, 53), S(49, 69), S(0, 0),
    ],
    /// A pawn defended by a pawn of ours.
    supported: [Score; 8] = [
        S(0, 0), S(0, 0), S(18, 8), S(14, 6), S(14, 15), S(34, 27), S(29, 54), S(0, 0),
    ],

    // ---- Passed pawns (pawns.rs) --------------------------------------

    /// A passed pawn: no enemy pawn in front on its own or adjacent files.
    passed: [Score; 8] = [
        S(0, 0), S(-6, -1), S(-14, 2), S(-9, 7), S(18, 20), S(70, 27), S(105, 37), S(0, 0),
    ],
    /// Extra for a passed pawn whose stop square is empty and not attacked
    /// by the enemy.
    passed_free: [Score; 8] = [
        S(0, 0), S(5, 8), S(2, 1), S(4, 11), S(-6, 24), S(-6, 59), S(31, 96), S(0, 0),
    ],
    /// Extra for a passed pawn whose whole path to promotion is empty of
    /// enemy pieces and not attacked by the enemy.
    passed_safe_path: [Score; 8] = [
        S(0, 0), S(-4, 20), S(-8, 21), S(-11, 20), S(-13, 22), S(3, 31), S(10, 31), S(0, 0),
    ],
    /// Extra for a passed pawn defended by one of our pawns.
    passed_supported: Score = S(4, 8),
    /// Per square of distance from our king to the stop square, times a
    /// weight growing with the pawn's rank.
    passed_own_king: Score = S(0, -5),
    /// Per square of distance from the enemy king to the stop square, times
    /// the same weight.
    passed_enemy_king: Score = S(-3, 12),

    // ---- Pieces (pieces.rs) -------------------------------------------

    /// Knight mobility by number of safe squares (0..=8).
    knight_mobility: [Score; 9] = [
        S(-32, -49), S(-16, -18), S(-5, 1), S(2, 7), S(8, 14), S(10, 19), S(15, 15), S(15, 13),
        S(6, -2),
    ],
    /// Bishop mobility (0..=13).
    bishop_mobility: [Score; 14] = [
        S(-34, -50), S(-27, -27), S(-8, -16), S(-1, -2), S(4, 1), S(9, 3), S(13, 11),
        S(12, 12), S(14, 15), S(22, 9), S(18, 14), S(-3, 13), S(11, 8), S(-39, 14),
    ],
    /// Rook mobility (0..=14).
    rook_mobility: [Score; 15] = [
        S(-33, -93), S(-18, -45), S(-9, -22), S(-5, -20), S(-7, -14), S(-5, -3), S(0, -1),
        S(2, 5), S(3, 12), S(6, 16), S(10, 15), S(6, 24), S(19, 20), S(10, 24), S(-10, 23),
    ],
    /// Queen mobility (0..=27).
    queen_mobility: [Score; 28] = [
        S(-64, -174), S(-50, -99), S(-35, -54), S(-29, -24), S(-20, -32), S(-14, -16),
        S(-10, -20), S(-7, -1), S(-3, 0), S(-2, 7), S(1, 20), S(2, 24), S(-2, 26),
        S(-2, 30), S(-1, 29), S(1, 32), S(3, 28), S(4, 22), S(16, 26), S(14, 14), S(15, 22), S(12, 5),
        S(20, 16), S(27, 21), S(16, 9), S(24, 20), S(23, 25), S(21, 31),
    ],
    /// Two bishops on squares of opposite colours.
    bishop_pair: Score = S(25, 55),
    /// A rook on a file with no pawns.
    rook_open_file: Score = S(43, 0),
    /// A rook on a file with enemy pawns only.
    rook_half_open_file: Score = S(15, 14),
    /// A rook on the 7th rank with the enemy king on the 8th or enemy pawns
    /// on the 7th.
    rook_on_seventh: Score = S(-22, 26),
    /// A rook with at most 3 safe squares shut in on the wing side of its
    /// own king; twice when that side can no longer castle at all.
    trapped_rook: Score = S(-16, -8),
    /// Per pawn of ours on the squares of a bishop's colour.
    bishop_pawns: Score = S(0, -5),
    /// A knight or bishop right behind a pawn of ours.
    minor_behind_pawn: Score = S(8, 6),
    /// Per square of distance between a knight or bishop and our king.
    king_protector: Score = S(-4, -1),
    /// A knight on ranks 4 to 6, defended by a pawn, that no enemy pawn can
    /// ever attack.
    knight_outpost: Score = S(25, 13),
    /// The same for a bishop.
    bishop_outpost: Score = S(24, 6),

    // ---- Threats (threats.rs), indexed by the attacked piece ----------

    /// An enemy piece attacked by one of our pawns.
    threat_by_pawn: [Score; 6] = [S(0, 0), S(63, 12), S(63, 35), S(41, 32), S(57, -9), S(0, 0)],
    /// An enemy piece attacked by one of our knights or bishops: pawns only
    /// when weak, other pieces always.
    threat_by_minor: [Score; 6] = [S(0, 13), S(21, 19), S(37, 13), S(50, 12), S(42, 20), S(0, 0)],
    /// An enemy queen attacked by one of our rooks.
    threat_by_rook: Score = S(48, 5),
    /// A weak enemy piece (attacked by us, not defended by a pawn nor by more
    /// attackers than ours) that is undefended or that we attack twice.
    hanging: Score = S(17, 12),
    /// A weak enemy piece our king attacks.
    threat_by_king: Score = S(-6, 28),
    /// A square both sides attack that the enemy does not strongly hold.
    restricted: Score = S(4, 0),
    /// A safe pawn push that would attack an enemy piece.
    pawn_push_threat: Score = S(17, 11),
    /// A safe square from which one of our knights could attack the enemy
    /// queen next move.
    knight_on_queen: Score = S(7, 3),
    /// The same for a bishop or rook, on squares we attack twice.
    slider_on_queen: Score = S(9, 2),

    // ---- King safety (king.rs) ----------------------------------------

    /// Attack units per king-zone square attacked, by attacker (pawn and
    /// king unused).
    king_attack_weight: [i32; 6] = [0, 2, 2, 2, 2, 0],
    /// Attack units for a safe check available to an attacker kind.
    king_safe_check: [i32; 6] = [0, 9, 6, 9, 11, 0],
    /// Attack units per square of the king zone that the attacker hits and
    /// the defender holds only with the king or queen, or not at all.
    king_weak_square: i32 = 2,
    /// Attack units for checks available that are not safe (once).
    king_unsafe_check: i32 = 5,
    /// Units removed when the attacker has no queen.
    king_no_queen: i32 = 22,
    /// The king-safety penalty is `units² × king_danger / 1024`.
    king_danger: Score = S(202, 82),
    /// Per square of distance from our king to our nearest pawn.
    king_pawn_distance: Score = S(-1, -19),
    /// Pawn shield per file around the king, by distance of our nearest
    /// pawn in front of the king: none, 1, 2, 3 or more ranks.
    pawn_shield: [Score; 4] = [S(-24, 1), S(12, -13), S(0, -4), S(-6, -3)],
    /// Pawn storm per file around the king, by distance of the nearest enemy
    /// pawn in front of it: none (or 5 and more), 1, 2, 3, 4 ranks.
    pawn_storm: [Score; 5] = [S(-8, 7), S(47, -9), S(-43, 7), S(-16, 8), S(-8, 7)],

    // ---- Chess960 (chess960.rs) ---------------------------------------

    /// A bishop on a long diagonal that sees two centre squares past pawns.
    long_diagonal_bishop: Score = S(22, 31),
    /// A knight or bishop still on our back rank.
    undeveloped_minor: Score = S(5, -11),
    /// A bishop in one of our corners whose diagonal is closed by one of our
    /// pawns (b2 for a bishop on a1): 4x when that pawn cannot advance, 2x
    /// when a second pawn of ours stands next on the diagonal (c3).
    cornered_bishop: Score = S(-18, -31),
    /// A knight in one of our corners with no safe square to go to.
    cornered_knight: Score = S(-7, -52),
    /// Our pawn attacked by the enemy and defended by nothing.
    hanging_pawn: Score = S(12, -8),

    // ---- Tempo --------------------------------------------------------

    /// The side to move's bonus.
    tempo: Score = S(29, 20),
}
