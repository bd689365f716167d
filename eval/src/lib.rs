//! Castella's static evaluation: the network ([`nnue`], [`static_eval`])
//! and the hand-written, tapered (middlegame / endgame) evaluation it
//! replaced, which a correction network loaded with `EvalFile` still adds
//! to.
//!
//! Each idea of the hand-written evaluation lives in its own module and scores one side at a time; this
//! module runs them for both colours, blends the sum by the game phase and
//! returns it from the side to move's point of view. All weights are in
//! [`params::Params`].
//!
//! The evaluation is exactly colour-symmetric: mirroring the board top to
//! bottom and swapping the colours (and the side to move) gives the same
//! score. With symmetric piece-square tables it is also left-right
//! symmetric.

mod chess960;
mod explain;
mod king;
mod masks;
mod material;
pub mod nnue;
pub mod params;
mod pawn_table;
mod pawns;
mod pieces;
mod psqt;
mod scale;
pub mod score;
mod threats;

#[cfg(test)]
mod tests;

use castella_movegen::attacks::king_attacks;
use castella_movegen::{Bitboard, Color, Piece, Position};
use masks::{pawn_attacks_all, pawn_double_attacks, push};
pub use material::phase;
use params::Params;
pub use pawn_table::PawnTable;
use pawn_table::PawnTerms;
use score::{taper, Score};
use std::sync::Arc;

/// Material values in centipawns, pawn to king (king 0), for SEE and
/// MVV-LVA in the search. The evaluation's own, phase-dependent values are
/// `Params::material`.
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 0];

/// The evaluation never leaves this range, far from the search's mate
/// scores.
pub const EVAL_LIMIT: i32 = 8000;

/// The default weights, as a static so every call reads the same tables.
static DEFAULT_PARAMS: Params = Params::DEFAULT;

/// The static evaluation in centipawns from the side to move's point of
/// view, including the tempo bonus. Allocates nothing, never panics and
/// stays within ±8000.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    from_white(pos, Breakdown::uncached(pos, &DEFAULT_PARAMS).white_score())
}

/// [`evaluate`], with the pawn terms taken from (and added to) `table`;
/// the same score, found faster.
#[inline]
pub fn evaluate_cached(pos: &Position, table: &mut PawnTable) -> i32 {
    let params = &DEFAULT_PARAMS;
    let pawn_terms = table.get(pos, params);
    from_white(pos, Breakdown::new(pos, params, &pawn_terms).white_score())
}

/// The network embedded in the binary: `eval/nets/castella.nnue`, or the
/// file named by `EVALFILE` when the build was asked for one (see
/// `build.rs`).
pub(crate) static NETWORK_FILE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded.nnue"));
static NETWORK: std::sync::OnceLock<Arc<nnue::Network>> = std::sync::OnceLock::new();

/// The embedded evaluation network, parsed on first use.
pub fn network() -> &'static nnue::Network {
    embedded()
}

/// The embedded network, shared: what the search starts with until a UCI
/// `EvalFile` replaces it.
pub fn embedded_network() -> Arc<nnue::Network> {
    embedded().clone()
}

fn embedded() -> &'static Arc<nnue::Network> {
    NETWORK.get_or_init(|| {
        Arc::new(
            nnue::Network::from_bytes(NETWORK_FILE)
                .expect("the embedded network is valid (tested)"),
        )
    })
}

/// The complete static evaluation with the embedded network, as the search
/// sees it (see [`static_eval_with`]).
pub fn static_eval(pos: &Position) -> i32 {
    static_eval_with(network(), pos)
}

/// The complete static evaluation, from the side to move's view: `net`'s
/// output, plus the hand-written evaluation when `net` is a correction,
/// within ±8000. Computed from scratch; the search updates the network's
/// part incrementally instead.
pub fn static_eval_with(net: &nnue::Network, pos: &Position) -> i32 {
    add_hand_written(net, net.evaluate(pos), || evaluate(pos))
}

/// The static evaluation from `net`'s output for a position: plus the
/// hand-written evaluation (computed only then) when the network is a
/// correction, within ±8000. The search calls it with its incremental
/// output and pawn-cached evaluation.
#[inline]
pub fn add_hand_written(
    net: &nnue::Network,
    network_output: i32,
    hand_written: impl FnOnce() -> i32,
) -> i32 {
    let v = if net.is_residual() {
        hand_written() + network_output
    } else {
        network_output
    };
    v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// A score from White's view turned to the side to move's.
#[inline(always)]
fn from_white(pos: &Position, white: i32) -> i32 {
    match pos.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// A human-readable table of every term (each side's middlegame and endgame
/// values and the difference), the phase, the endgame scale and the final
/// score from White's and from the side to move's view, for the UCI `eval`
/// command. Every line, the last included, ends with `'\n'`.
pub fn explain(pos: &Position, net: &nnue::Network) -> String {
    explain::explain(pos, &DEFAULT_PARAMS, net)
}

/// The evaluation's terms, in the order `explain` prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Term {
    Material,
    Psqt,
    Pawns,
    Passed,
    Mobility,
    Pieces,
    Threats,
    King,
    Chess960,
    Tempo,
}

impl Term {
    pub(crate) const COUNT: usize = 10;
    pub(crate) const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::Psqt,
        Term::Pawns,
        Term::Passed,
        Term::Mobility,
        Term::Pieces,
        Term::Threats,
        Term::King,
        Term::Chess960,
        Term::Tempo,
    ];

    /// The name `explain` prints.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Psqt => "Piece-square",
            Term::Pawns => "Pawns",
            Term::Passed => "Passed pawns",
            Term::Mobility => "Mobility",
            Term::Pieces => "Pieces",
            Term::Threats => "Threats",
            Term::King => "King safety",
            Term::Chess960 => "Chess960",
            Term::Tempo => "Tempo",
        }
    }
}

/// What the terms share, filled in as the evaluation goes (all on the
/// stack). Indexed by colour first.
pub(crate) struct Info {
    pub(crate) occ: Bitboard,
    /// Squares attacked by each kind of piece of each colour.
    pub(crate) attacked_by: [[Bitboard; 6]; 2],
    /// Squares attacked by anything of each colour; complete only after the
    /// piece pass.
    pub(crate) attacked: [Bitboard; 2],
    /// Squares attacked at least twice by each colour (same completeness).
    pub(crate) attacked2: [Bitboard; 2],
    /// The king's square, its neighbours, and one rank further forward.
    pub(crate) king_zone: [Bitboard; 2],
    /// How many pieces of each colour attack the enemy king zone ...
    pub(crate) king_attackers: [i32; 2],
    /// ... and their weighted attacks there.
    pub(crate) king_units: [i32; 2],
    pub(crate) passed: [Bitboard; 2],
}

/// Every term for both colours, with the phase and the endgame scale.
pub(crate) struct Breakdown {
    /// `terms[term][colour]`, each from that colour's own point of view.
    pub(crate) terms: [[Score; 2]; Term::COUNT],
    pub(crate) phase: i32,
    pub(crate) scale: i32,
}

impl Breakdown {
    /// Evaluates every term.
    #[inline(always)]
    pub(crate) fn new(pos: &Position, params: &Params, pawn_terms: &PawnTerms) -> Breakdown {
        let mut terms = [[Score::ZERO; 2]; Term::COUNT];
        let mut info = Info {
            occ: pos.occupied(),
            attacked_by: [[Bitboard::EMPTY; 6]; 2],
            attacked: [Bitboard::EMPTY; 2],
            attacked2: [Bitboard::EMPTY; 2],
            king_zone: [Bitboard::EMPTY; 2],
            king_attackers: [0; 2],
            king_units: [0; 2],
            passed: [Bitboard::EMPTY; 2],
        };
        for color in Color::ALL {
            let c = color.index();
            let ksq = pos.king(color);
            let pawns = pos.colored(color, Piece::Pawn);
            let by_pawns = pawn_attacks_all(color, pawns);
            info.attacked_by[c][Piece::Pawn.index()] = by_pawns;
            info.attacked_by[c][Piece::King.index()] = king_attacks(ksq);
            info.attacked[c] = by_pawns | king_attacks(ksq);
            info.attacked2[c] = pawn_double_attacks(color, pawns) | (by_pawns & king_attacks(ksq));
            let zone = king_attacks(ksq) | ksq;
            info.king_zone[c] = zone | zone.shift(push(color));
        }

        for color in Color::ALL {
            let c = color.index();
            terms[Term::Material as usize][c] = material::material(pos, color, params);
            terms[Term::Psqt as usize][c] = psqt::psqt(pos, color, params);
            terms[Term::Pawns as usize][c] = pawn_terms.structure[c];
            info.passed[c] = pawn_terms.passed[c];
            let (mobility, pieces) = pieces::pieces(pos, color, params, &mut info);
            terms[Term::Mobility as usize][c] = mobility;
            terms[Term::Pieces as usize][c] = pieces;
        }
        for color in Color::ALL {
            let c = color.index();
            terms[Term::Passed as usize][c] = pawns::passed(pos, color, params, &info);
            terms[Term::Threats as usize][c] = threats::threats(pos, color, params, &info);
            terms[Term::King as usize][c] =
                pawn_terms.shelter[c] + king::king(pos, color, params, &info);
            terms[Term::Chess960 as usize][c] = chess960::chess960(pos, color, params, &info);
        }
        terms[Term::Tempo as usize][pos.side_to_move().index()] = params.tempo;

        let mut breakdown = Breakdown {
            terms,
            phase: material::phase(pos),
            scale: score::SCALE_NORMAL,
        };
        breakdown.scale = scale::scale(pos, breakdown.total().eg());
        breakdown
    }

    /// [`Breakdown::new`] with the pawn terms computed here rather than
    /// taken from a [`PawnTable`].
    #[inline(always)]
    pub(crate) fn uncached(pos: &Position, params: &Params) -> Breakdown {
        Breakdown::new(pos, params, &PawnTerms::compute(pos, params))
    }

    /// The sum of every term, White's minus Black's.
    #[inline(always)]
    pub(crate) fn total(&self) -> Score {
        self.terms
            .iter()
            .fold(Score::ZERO, |sum, t| sum + t[0] - t[1])
    }

    /// The final score in centipawns from White's point of view.
    #[inline(always)]
    pub(crate) fn white_score(&self) -> i32 {
        taper(self.total(), self.phase, self.scale).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}
