//! The network's inputs: one per colour, piece and square, seen from
//! each side, and the inputs a move changes.
//!
//! A network may also key its inputs on where each view's own king
//! stands ([`Inputs`]): the king's square picks one of several sets of
//! 768 inputs (king buckets), and in the mirrored form the board is
//! mirrored left to right whenever that king is on files e–h (so it is
//! always on a–d). A king move that changes either for a view changes
//! every input of that view, so the view is computed again from scratch.

use castella_movegen::{Bitboard, Color, Piece, Position, Square};

/// Inputs per view (and per king bucket): two colours × six pieces × 64
/// squares.
pub const INPUTS: usize = 768;
/// The most active inputs a legal position can have (one per piece).
pub const MAX_ACTIVE: usize = 32;
/// The most king buckets a network may have.
pub const MAX_KING_BUCKETS: usize = 16;
/// King squares a mirrored bucket map names: files a–d of each rank,
/// seen from the king's own side (rank 1 is its home rank), rank by rank.
pub const KING_SQUARES: usize = 32;

/// How each view's own king chooses that view's inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inputs {
    /// Whether `bucket` chooses among `buckets` sets of inputs.
    keyed: bool,
    /// Whether the board is mirrored to bring the view's king to files
    /// a–d first.
    mirrored: bool,
    /// The bucket of each king square (from its own side, after any
    /// mirroring), all 64 of them.
    bucket: [u8; 64],
    buckets: u8,
    /// The bucket of the king's square mirrored left to right, by the
    /// bucket of the square: how a mirrored position's inputs are found
    /// from the position's (the identity where the board is mirrored
    /// anyway, or not keyed).
    mirror_bucket: [u8; MAX_KING_BUCKETS],
}

/// Where one view's inputs start and how its squares are mirrored: what
/// its king's square decides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ViewKey {
    base: u16,
    flip: u8,
}

impl ViewKey {
    /// The key as a number below `2 · MAX_KING_BUCKETS`: its bucket, and
    /// whether the board is mirrored.
    #[inline(always)]
    pub fn slot(self) -> usize {
        self.base as usize / INPUTS * 2 + (self.flip != 0) as usize
    }
}

impl Inputs {
    /// 768 inputs per view, whatever the kings do.
    pub const PLAIN: Inputs = Inputs {
        keyed: false,
        mirrored: false,
        bucket: [0; 64],
        buckets: 1,
        mirror_bucket: [0; MAX_KING_BUCKETS],
    };

    /// Mirrored inputs with king buckets: `map` gives the bucket of each
    /// of the [`KING_SQUARES`] (files a–d, rank 1 first); buckets count
    /// from 0 and every one up to the largest must be used.
    pub fn king_buckets(map: &[u8; KING_SQUARES]) -> Result<Inputs, String> {
        let buckets = check_map(map)?;
        let mut bucket = [0; 64];
        for (sq, b) in bucket.iter_mut().enumerate() {
            let (rank, file) = (sq / 8, sq % 8);
            *b = map[rank * 4 + file.min(7 - file)];
        }
        Ok(Inputs {
            keyed: true,
            mirrored: true,
            bucket,
            buckets,
            mirror_bucket: std::array::from_fn(|b| b as u8),
        })
    }

    /// King buckets without mirroring: `map` gives the bucket of each of
    /// the 64 king squares (from the king's own side, a1 first). Mirrored
    /// left to right it must map buckets onto buckets (a king on b1 and
    /// one on g1 may share a bucket or have two, but then every square of
    /// the one bucket mirrors into the other), so that a mirrored
    /// position is one of the network's own.
    pub fn king_buckets_unmirrored(map: &[u8; 64]) -> Result<Inputs, String> {
        let buckets = check_map(map)?;
        let mut mirror_bucket = [u8::MAX; MAX_KING_BUCKETS];
        for (sq, &b) in map.iter().enumerate() {
            let mirrored = map[sq ^ 7];
            let m = &mut mirror_bucket[b as usize];
            if *m != u8::MAX && *m != mirrored {
                return Err("the king bucket map does not mirror bucket onto bucket".into());
            }
            *m = mirrored;
        }
        Ok(Inputs {
            keyed: true,
            mirrored: false,
            bucket: *map,
            buckets,
            mirror_bucket: mirror_bucket.map(|m| if m == u8::MAX { 0 } else { m }),
        })
    }

    /// Whether the board is mirrored to bring each view's king to files
    /// a–d (only where the inputs are keyed).
    pub fn mirrored(&self) -> bool {
        self.mirrored
    }

    /// The input of the position mirrored left to right that stands
    /// where `feature` stands in the position: the square mirrored and,
    /// with unmirrored king buckets, the bucket of the mirrored king.
    /// Mirrored king buckets see a mirrored position as it is, and give
    /// the input unchanged.
    #[inline(always)]
    pub fn mirror_feature(&self, feature: usize) -> usize {
        if self.mirrored {
            return feature;
        }
        let (bucket, within) = (feature / INPUTS, feature % INPUTS);
        self.mirror_bucket[bucket] as usize * INPUTS + (within ^ 7)
    }

    /// Whether the view's king chooses the inputs (mirroring and buckets).
    pub fn keyed(&self) -> bool {
        self.keyed
    }

    /// The number of king buckets (1 for plain inputs).
    pub fn buckets(&self) -> usize {
        self.buckets as usize
    }

    /// The bucket map as a file stores it: over the [`KING_SQUARES`] of
    /// files a–d where the board is mirrored, over all 64 squares where
    /// it is not.
    pub fn map(&self) -> Vec<u8> {
        if self.mirrored {
            (0..KING_SQUARES)
                .map(|i| self.bucket[(i / 4) * 8 + i % 4])
                .collect()
        } else {
            self.bucket.to_vec()
        }
    }

    /// Input rows in all: 768 per king bucket.
    pub fn rows(&self) -> usize {
        INPUTS * self.buckets as usize
    }

    /// What `view`'s king decides in `pos`.
    #[inline(always)]
    pub fn key(&self, pos: &Position, view: Color) -> ViewKey {
        if !self.keyed {
            return ViewKey::default();
        }
        let king = pos.king(view).relative(view);
        ViewKey {
            base: self.bucket[king.index()] as u16 * INPUTS as u16,
            flip: if self.mirrored && king.index() % 8 >= 4 {
                7
            } else {
                0
            },
        }
    }

    /// Both views' keys, White's first.
    #[inline(always)]
    pub fn keys(&self, pos: &Position) -> [ViewKey; 2] {
        [self.key(pos, Color::White), self.key(pos, Color::Black)]
    }
}

/// The number of buckets `map` uses (every one from 0 to the largest),
/// or why it cannot be read.
fn check_map(map: &[u8]) -> Result<u8, String> {
    let buckets = map.iter().max().map_or(0, |&m| m as usize + 1);
    if buckets > MAX_KING_BUCKETS {
        return Err(format!(
            "the network has {buckets} king buckets; this build reads up to {MAX_KING_BUCKETS}"
        ));
    }
    if (0..buckets).any(|b| !map.contains(&(b as u8))) {
        return Err("the king bucket map leaves a bucket unused".into());
    }
    Ok(buckets as u8)
}

/// The input for `piece` of `color` on `sq`, seen from `view`'s side
/// whose king decided `key`: the viewer's own pieces come first and its
/// home rank is always rank 1.
#[inline(always)]
pub fn feature(view: Color, key: ViewKey, color: Color, piece: Piece, sq: Square) -> usize {
    let side = (color != view) as usize;
    key.base as usize
        + side * 384
        + piece.index() * 64
        + (sq.relative(view).index() ^ key.flip as usize)
}

/// Calls `f` with the inputs of every piece on the board, from White's and
/// from Black's view.
#[inline(always)]
pub fn for_each_feature(pos: &Position, inputs: &Inputs, mut f: impl FnMut(usize, usize)) {
    let keys = inputs.keys(pos);
    for color in Color::ALL {
        for piece in Piece::ALL {
            for sq in pos.colored(color, piece) {
                let (white, black) = pair(keys, color, piece, sq);
                f(white as usize, black as usize);
            }
        }
    }
}

/// The inputs that change between a position and its child: at most four
/// pieces leave a square (castling: king and rook; a capturing promotion:
/// pawn and victim) and at most two arrive. Each input is given from both
/// views; a view whose king changed its key needs a refresh instead.
#[derive(Clone, Copy, Default)]
pub struct Delta {
    pub(super) removed: [(u16, u16); 4],
    pub(super) added: [(u16, u16); 4],
    pub(super) removed_len: u8,
    pub(super) added_len: u8,
    refresh: [bool; 2],
}

impl Delta {
    /// The change from `parent` to `child`, found by comparing their
    /// boards, so that castling, en passant and promotions need no
    /// special cases. Positions more than a move apart give a partial
    /// delta; the search only asks for parents and children.
    #[inline]
    pub fn between(parent: &Position, child: &Position, inputs: &Inputs) -> Delta {
        // Plain inputs get code of their own, with the keys' arithmetic
        // folded away: this runs at every node.
        if inputs.keyed {
            Delta::compare::<true>(parent, child, inputs)
        } else {
            Delta::compare::<false>(parent, child, inputs)
        }
    }

    #[inline(always)]
    fn compare<const KEYED: bool>(parent: &Position, child: &Position, inputs: &Inputs) -> Delta {
        let mut d = Delta::default();
        let keys = if KEYED {
            let (before, keys) = (inputs.keys(parent), inputs.keys(child));
            d.refresh = [before[0] != keys[0], before[1] != keys[1]];
            keys
        } else {
            [ViewKey::default(); 2]
        };
        // A square whose piece changed shows in a colour set (a capture,
        // a move) or in a piece set (castling in Chess960 can swap king
        // and rook between two squares that stay White's or Black's).
        let mut touched = Bitboard::EMPTY;
        for color in Color::ALL {
            touched |= parent.color(color) ^ child.color(color);
        }
        for piece in Piece::ALL {
            touched |= parent.pieces(piece) ^ child.pieces(piece);
        }
        for sq in touched {
            if let (Some(color), Some(piece)) = (parent.color_on(sq), parent.piece_on(sq)) {
                if (d.removed_len as usize) < d.removed.len() {
                    d.removed[d.removed_len as usize] = pair(keys, color, piece, sq);
                    d.removed_len += 1;
                }
            }
            if let (Some(color), Some(piece)) = (child.color_on(sq), child.piece_on(sq)) {
                if (d.added_len as usize) < d.added.len() {
                    d.added[d.added_len as usize] = pair(keys, color, piece, sq);
                    d.added_len += 1;
                }
            }
        }
        d
    }

    /// Whether the child's view (0 White, 1 Black) must be computed from
    /// scratch: its king changed bucket or side of the board.
    #[inline(always)]
    pub fn needs_refresh(&self, view: usize) -> bool {
        self.refresh[view]
    }
}

/// The input of `piece` of `color` on `sq` from White's view and from
/// Black's, whose kings decided `keys`.
#[inline(always)]
pub(super) fn pair(keys: [ViewKey; 2], color: Color, piece: Piece, sq: Square) -> (u16, u16) {
    (
        feature(Color::White, keys[0], color, piece, sq) as u16,
        feature(Color::Black, keys[1], color, piece, sq) as u16,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_bucket_maps_are_checked_and_mirrored() {
        let mut map = [0u8; KING_SQUARES];
        map[1] = 1; // b1 (and g1)
        map[4..].fill(2); // rank 2 and up
        let inputs = Inputs::king_buckets(&map).unwrap();
        assert_eq!((inputs.buckets(), inputs.rows()), (3, 3 * INPUTS));
        assert_eq!(inputs.map(), map);
        // Kings on b1 and g1 share a bucket and their boards mirror.
        let b1 = Position::from_fen("4k3/8/8/8/8/8/8/1K6 w - - 0 1").unwrap();
        let g1 = Position::from_fen("4k3/8/8/8/8/8/8/6K1 w - - 0 1").unwrap();
        let (kb, kg) = (inputs.key(&b1, Color::White), inputs.key(&g1, Color::White));
        assert_eq!((kb.base, kb.flip), (INPUTS as u16, 0));
        assert_eq!((kg.base, kg.flip), (INPUTS as u16, 7));
        // Black's king on e8 is on its own rank 1, file e: mirrored to d.
        let kb = inputs.key(&b1, Color::Black);
        assert_eq!((kb.base, kb.flip), (0, 7));
        let skip = [0u8, 0, 2, 2].repeat(8).try_into().unwrap();
        assert!(Inputs::king_buckets(&skip).unwrap_err().contains("unused"));
        let many: [u8; KING_SQUARES] = std::array::from_fn(|i| i as u8);
        assert!(Inputs::king_buckets(&many)
            .unwrap_err()
            .contains("king buckets"));
    }

    /// A king move that keeps its bucket and side updates the view; one
    /// that crosses between files d and e needs a refresh of its view
    /// alone.
    #[test]
    fn deltas_ask_for_a_refresh_when_a_key_changes() {
        let inputs = Inputs::king_buckets(&[0; KING_SQUARES]).unwrap();
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/2K5 w - - 0 1").unwrap();
        let d = Delta::between(
            &pos,
            &pos.play(pos.parse_uci_move("c1d1").unwrap()),
            &inputs,
        );
        assert!(!d.needs_refresh(0) && !d.needs_refresh(1));
        let plain = Delta::between(&pos, &pos, &Inputs::PLAIN);
        assert!(!plain.needs_refresh(0));
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/3K4 w - - 0 1").unwrap();
        let d = Delta::between(
            &pos,
            &pos.play(pos.parse_uci_move("d1e1").unwrap()),
            &inputs,
        );
        assert!(d.needs_refresh(0) && !d.needs_refresh(1));
    }
}
