//! The network's inputs: one per colour, piece and square, seen from
//! each side, and the inputs a move changes.

use castella_movegen::{Bitboard, Color, Piece, Position, Square};

/// Inputs per view: two colours × six pieces × 64 squares.
pub const INPUTS: usize = 768;
/// The most active inputs a legal position can have (one per piece).
pub const MAX_ACTIVE: usize = 32;

/// The input for `piece` of `color` on `sq`, seen from `view`'s side: the
/// viewer's own pieces come first and its home rank is always rank 1.
#[inline(always)]
pub fn feature(view: Color, color: Color, piece: Piece, sq: Square) -> usize {
    let side = (color != view) as usize;
    side * 384 + piece.index() * 64 + sq.relative(view).index()
}

/// Calls `f` with the inputs of every piece on the board, from White's and
/// from Black's view.
#[inline(always)]
pub fn for_each_feature(pos: &Position, mut f: impl FnMut(usize, usize)) {
    for color in Color::ALL {
        for piece in Piece::ALL {
            for sq in pos.colored(color, piece) {
                let (white, black) = pair(color, piece, sq);
                f(white as usize, black as usize);
            }
        }
    }
}

/// The inputs that change between a position and its child: at most four
/// pieces leave a square (castling: king and rook; a capturing promotion:
/// pawn and victim) and at most two arrive. Each input is given from both
/// views.
#[derive(Clone, Copy, Default)]
pub struct Delta {
    pub(super) removed: [(u16, u16); 4],
    pub(super) added: [(u16, u16); 4],
    pub(super) removed_len: u8,
    pub(super) added_len: u8,
}

impl Delta {
    /// The change from `parent` to `child`, found by comparing their
    /// boards, so that castling, en passant and promotions need no
    /// special cases. Positions more than a move apart give a partial
    /// delta; the search only asks for parents and children.
    #[inline]
    pub fn between(parent: &Position, child: &Position) -> Delta {
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
        let mut d = Delta::default();
        for sq in touched {
            if let (Some(color), Some(piece)) = (parent.color_on(sq), parent.piece_on(sq)) {
                if (d.removed_len as usize) < d.removed.len() {
                    d.removed[d.removed_len as usize] = pair(color, piece, sq);
                    d.removed_len += 1;
                }
            }
            if let (Some(color), Some(piece)) = (child.color_on(sq), child.piece_on(sq)) {
                if (d.added_len as usize) < d.added.len() {
                    d.added[d.added_len as usize] = pair(color, piece, sq);
                    d.added_len += 1;
                }
            }
        }
        d
    }
}

/// The input of `piece` of `color` on `sq` from White's view and from
/// Black's.
#[inline(always)]
pub(super) fn pair(color: Color, piece: Piece, sq: Square) -> (u16, u16) {
    (
        feature(Color::White, color, piece, sq) as u16,
        feature(Color::Black, color, piece, sq) as u16,
    )
}
