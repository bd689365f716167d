//! Zobrist hashing keys, generated at compile time from a fixed seed.

use crate::types::{Color, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

struct Keys {
    pieces: [[[u64; 64]; 6]; 2],
    /// Indexed by the square of a rook that may castle (rank 1 or 8).
    castling: [u64; 64],
    en_passant: [u64; 8],
    side: u64,
}

const fn keys() -> Keys {
    let mut k = Keys {
        pieces: [[[0; 64]; 6]; 2],
        castling: [0; 64],
        en_passant: [0; 8],
        side: 0,
    };
    let mut state = 0x00c4_57e1_1a96_0960u64;
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < 6 {
            let mut s = 0;
            while s < 64 {
                let (ns, v) = splitmix(state);
                state = ns;
                k.pieces[c][p][s] = v;
                s += 1;
            }
            p += 1;
        }
        c += 1;
    }
    let mut s = 0;
    while s < 64 {
        let (ns, v) = splitmix(state);
        state = ns;
        k.castling[s] = v;
        s += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (ns, v) = splitmix(state);
        state = ns;
        k.en_passant[f] = v;
        f += 1;
    }
    k.side = splitmix(state).1;
    k
}

static KEYS: Keys = keys();

#[inline(always)]
pub fn piece(color: Color, piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[color.index()][piece.index()][sq.index()]
}

/// The key of a castling right, named by its rook's square.
#[inline(always)]
pub fn castling(rook: Square) -> u64 {
    KEYS.castling[rook.index()]
}

#[inline(always)]
pub fn en_passant(sq: Square) -> u64 {
    KEYS.en_passant[sq.file().index()]
}

/// Toggled when Black is to move.
#[inline(always)]
pub fn side() -> u64 {
    KEYS.side
}
