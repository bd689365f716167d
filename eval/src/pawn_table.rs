//! A per-thread cache of the evaluation's pawn terms.
//!
//! Pawn structure, passed-pawn detection and the king's pawn shelter depend
//! only on the pawns and the two kings' squares, which change far less often
//! than the rest of the board: in a search most evaluations find them here.
//! Each entry keeps the full pawn sets and king squares it was made from, so
//! a hit is exact and the cached evaluation equals the uncached one.

use crate::params::Params;
use crate::score::Score;
use crate::{king, pawns};
use castella_movegen::{Bitboard, Color, Piece, Position};

/// What the evaluation takes from the pawns and kings alone, per colour.
#[derive(Clone, Copy, Default)]
pub(crate) struct PawnTerms {
    pub(crate) structure: [Score; 2],
    pub(crate) passed: [Bitboard; 2],
    pub(crate) shelter: [Score; 2],
}

impl PawnTerms {
    #[inline(always)]
    pub(crate) fn compute(pos: &Position, params: &Params) -> PawnTerms {
        let mut t = PawnTerms::default();
        for color in Color::ALL {
            let c = color.index();
            (t.structure[c], t.passed[c]) = pawns::structure(pos, color, params);
            t.shelter[c] = king::shelter(pos, color, params);
        }
        t
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    pawns: [Bitboard; 2],
    kings: [u8; 2],
    terms: PawnTerms,
}

/// Entries in a table: 8192 of 56 bytes, under half a megabyte.
const ENTRIES: usize = 1 << 13;

/// A direct-mapped table of the pawn terms (structure, passed pawns, king
/// shelter) for the default weights; one per search thread. Use it through
/// [`crate::evaluate_cached`].
pub struct PawnTable {
    entries: Box<[Entry]>,
}

impl Default for PawnTable {
    fn default() -> Self {
        PawnTable::new()
    }
}

impl PawnTable {
    /// An empty table (every slot misses until filled).
    pub fn new() -> PawnTable {
        PawnTable {
            entries: vec![Entry::default(); ENTRIES].into_boxed_slice(),
        }
    }

    /// The pawn terms of `pos` under `params`, from the table or computed
    /// and stored. `params` must be the same on every call.
    #[inline(always)]
    pub(crate) fn get(&mut self, pos: &Position, params: &Params) -> PawnTerms {
        let pawns = [
            pos.colored(Color::White, Piece::Pawn),
            pos.colored(Color::Black, Piece::Pawn),
        ];
        let kings = [
            pos.king(Color::White).index() as u8,
            pos.king(Color::Black).index() as u8,
        ];
        // Any mix of the inputs will do: the entry is verified in full.
        let king_bits = (u64::from(kings[0]) << 6 | u64::from(kings[1]) | 1 << 12)
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let h = pos.pawn_hash() ^ king_bits;
        let entry = &mut self.entries[(h >> 51) as usize];
        // A default entry (no pawns, both kings on a1) matches no legal
        // position, so an empty slot never hits.
        if entry.pawns != pawns || entry.kings != kings {
            *entry = Entry {
                pawns,
                kings,
                terms: PawnTerms::compute(pos, params),
            };
        }
        entry.terms
    }
}
