//! The hidden sums each king bucket last had, per view, with the pieces
//! they were computed from ("Finny tables"): a king move into a bucket
//! recomputes its view from the bucket's last sums by the pieces that
//! changed since, a few rows instead of one per piece on the board.

use super::features::feature;
use super::{Accumulator, Network, MAX_ACTIVE, MAX_KING_BUCKETS};
use castella_movegen::{Bitboard, Color, Piece, Position};

use super::simd::Row;

/// One view's sums in one bucket (and side of the board), and the pieces
/// of each colour and kind they count.
#[derive(Clone)]
struct Entry {
    sums: Row,
    pieces: [[Bitboard; 6]; 2],
}

/// The cache of one search thread, for one network: every entry starts
/// as the sums of an empty board (the biases).
pub struct RefreshTable {
    /// `[view][key slot]`, flattened.
    entries: Vec<Entry>,
}

const SLOTS: usize = 2 * MAX_KING_BUCKETS;

impl RefreshTable {
    /// An empty table for `net`.
    pub fn new(net: &Network) -> RefreshTable {
        let empty = Entry {
            sums: net.hidden_bias,
            pieces: [[Bitboard::EMPTY; 6]; 2],
        };
        RefreshTable {
            entries: vec![empty; 2 * SLOTS],
        }
    }
}

impl Network {
    /// The hidden sums of `view` (0 White's, 1 Black's) of `pos`, into
    /// `acc`, from `table`'s entry for the view's king key, which then
    /// holds them: what [`refresh_views`](Self::refresh_views) computes,
    /// from the pieces that differ from the entry's.
    pub fn refresh_view_cached(
        &self,
        pos: &Position,
        acc: &mut Accumulator,
        view: usize,
        table: &mut RefreshTable,
    ) {
        let side = Color::ALL[view];
        let key = self.inputs.key(pos, side);
        let entry = &mut table.entries[view * SLOTS + key.slot()];
        let mut subs: [&Row; MAX_ACTIVE] = [&self.hidden_bias; MAX_ACTIVE];
        let mut adds: [&Row; MAX_ACTIVE] = [&self.hidden_bias; MAX_ACTIVE];
        let (mut ns, mut na) = (0, 0);
        let mut overflow = false;
        for color in Color::ALL {
            for piece in Piece::ALL {
                let now = pos.colored(color, piece);
                let was = &mut entry.pieces[color.index()][piece.index()];
                for (changed, rows, n) in [
                    (*was & !now, &mut subs, &mut ns),
                    (now & !*was, &mut adds, &mut na),
                ] {
                    for sq in changed {
                        // A legal position has at most 32 pieces, so
                        // neither list can overflow.
                        if *n == MAX_ACTIVE {
                            overflow = true;
                            break;
                        }
                        rows[*n] = &self.hidden_weights[feature(side, key, color, piece, sq)];
                        *n += 1;
                    }
                }
                *was = now;
            }
        }
        if overflow {
            // More pieces than a position may have: computed as a refresh
            // computes them, and the entry starts again from empty.
            self.refresh_views(pos, acc, [view == 0, view == 1]);
            entry.sums = self.hidden_bias;
            entry.pieces = [[Bitboard::EMPTY; 6]; 2];
            return;
        }
        self.kernels.update(
            &mut acc.0[view],
            &entry.sums,
            &subs[..ns],
            &adds[..na],
            self.hidden,
        );
        entry.sums[..self.hidden].copy_from_slice(&acc.0[view][..self.hidden]);
    }
}
