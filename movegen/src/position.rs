//! The board: piece placement, side to move, castling rights, en passant,
//! clocks, the Zobrist key, and the check information the generator needs.

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_rays,
};
use crate::bitboard::Bitboard;
use crate::castling::{CastleSide, CastlingRights};
use crate::moves::{Move, MoveKind};
use crate::types::{Color, Piece, Square};
use crate::zobrist;

const NO_PIECE: u8 = 0xff;

/// A chess position. Cheap to copy (about 170 bytes): the search and perft
/// use copy-make, which measured faster here than make/unmake with an undo
/// stack.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pieces: [Bitboard; 6],
    colors: [Bitboard; 2],
    /// `color << 3 | piece` per square, or `NO_PIECE`.
    board: [u8; 64],
    key: u64,
    checkers: Bitboard,
    /// Pieces of the side to move that are pinned to their king.
    pinned: Bitboard,
    castling: CastlingRights,
    ep: Option<Square>,
    side: Color,
    halfmove: u16,
    fullmove: u16,
}

impl Position {
    /// An empty board, White to move; filled in by the FEN parser.
    pub(crate) fn empty() -> Position {
        Position {
            pieces: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            board: [NO_PIECE; 64],
            key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            castling: CastlingRights::NONE,
            ep: None,
            side: Color::White,
            halfmove: 0,
            fullmove: 1,
        }
    }

    // ---- Queries -------------------------------------------------------

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Pieces of one kind, both colours.
    #[inline(always)]
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        self.pieces[piece.index()]
    }

    /// All pieces of one colour.
    #[inline(always)]
    pub fn color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// Pieces of one kind and colour.
    #[inline(always)]
    pub fn colored(&self, color: Color, piece: Piece) -> Bitboard {
        self.pieces[piece.index()] & self.colors[color.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.colored(color, Piece::King).lsb()
    }

    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        let b = self.board[sq.index()];
        (b != NO_PIECE).then(|| Piece::from_index(b & 7))
    }

    #[inline(always)]
    pub fn color_on(&self, sq: Square) -> Option<Color> {
        let b = self.board[sq.index()];
        (b != NO_PIECE).then_some(if b >> 3 == 0 {
            Color::White
        } else {
            Color::Black
        })
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Pieces of the side to move pinned to their king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    #[inline(always)]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The en-passant target square, kept only when a pawn of the side to move
    /// attacks it (the X-FEN rule; the capture may still be illegal).
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The Zobrist key, maintained incrementally.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// A hash of the two pawn sets alone (computed, not incremental: one
    /// multiply), for caches keyed by the pawn structure. Its high bits are
    /// the well-mixed ones.
    #[inline(always)]
    pub fn pawn_hash(&self) -> u64 {
        let white = self.colored(Color::White, Piece::Pawn).0;
        let black = self.colored(Color::Black, Piece::Pawn).0;
        (white ^ black.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// A hash of where `color`'s pieces other than pawns stand (computed,
    /// like [`Position::pawn_hash`]; its high bits are the well-mixed ones).
    #[inline(always)]
    pub fn non_pawn_hash(&self, color: Color) -> u64 {
        let minors = self.colored(color, Piece::Knight).0
            ^ self.colored(color, Piece::Bishop).0.rotate_left(19);
        let majors = self.colored(color, Piece::Rook).0.rotate_left(37)
            ^ self.colored(color, Piece::Queen).0.rotate_left(53)
            ^ self.colored(color, Piece::King).0.rotate_left(11);
        (minors ^ majors ^ color.index() as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)
    }

    /// Pieces of either colour attacking `sq`, with `occ` as the occupancy.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        (knight_attacks(sq) & self.pieces(Piece::Knight))
            | (king_attacks(sq) & self.pieces(Piece::King))
            | (pawn_attacks(Color::White, sq) & self.colored(Color::Black, Piece::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.colored(Color::White, Piece::Pawn))
            | (rook_attacks(sq, occ) & (self.pieces(Piece::Rook) | self.pieces(Piece::Queen)))
            | (bishop_attacks(sq, occ) & (self.pieces(Piece::Bishop) | self.pieces(Piece::Queen)))
    }

    /// Whether `by` attacks `sq`, with `occ` as the occupancy.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.color(by);
        let queens = self.pieces(Piece::Queen);
        // A slider's attack is looked up only when one stands on a ray of
        // `sq` on the empty board: most squares have none.
        let straight = them & (self.pieces(Piece::Rook) | queens);
        let diagonal = them & (self.pieces(Piece::Bishop) | queens);
        (knight_attacks(sq) & them & self.pieces(Piece::Knight)).any()
            || (pawn_attacks(by.flip(), sq) & them & self.pieces(Piece::Pawn)).any()
            || (king_attacks(sq) & them & self.pieces(Piece::King)).any()
            || ((rook_rays(sq) & straight).any() && (rook_attacks(sq, occ) & straight).any())
            || ((bishop_rays(sq) & diagonal).any() && (bishop_attacks(sq, occ) & diagonal).any())
    }

    /// The king's and rook's destinations for a castling move.
    #[inline]
    pub fn castle_destinations(&self, mv: Move) -> (Square, Square) {
        CastleSide::of(mv.from(), mv.to()).destinations(self.side)
    }

    /// The piece `mv` captures, if any (a pawn for en passant; castling
    /// captures nothing).
    #[inline]
    pub fn captured(&self, mv: Move) -> Option<Piece> {
        match mv.kind() {
            MoveKind::EnPassant => Some(Piece::Pawn),
            MoveKind::Castle => None,
            _ => self.piece_on(mv.to()),
        }
    }

    /// Whether `mv` is a capture or a promotion.
    #[inline]
    pub fn is_noisy(&self, mv: Move) -> bool {
        mv.is_promotion() || self.captured(mv).is_some()
    }

    /// The key `play(mv)` will have, cheaply and nearly always: exact for
    /// every move but castling, en passant, a move that changes a castling
    /// right and a double step that allows an en-passant reply. For
    /// prefetching the transposition table before the move is made; never
    /// for lookups.
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let mut key = self.key ^ zobrist::side();
        if let Some(ep) = self.ep {
            key ^= zobrist::en_passant(ep);
        }
        if mv.kind() == MoveKind::Castle {
            return key;
        }
        let (us, from, to) = (self.side, mv.from(), mv.to());
        let moved = self.piece_on(from).unwrap_or(Piece::King);
        if let Some(captured) = self.piece_on(to) {
            key ^= zobrist::piece(us.flip(), captured, to);
        }
        let placed = match mv.kind() {
            MoveKind::Promotion(p) => p,
            _ => moved,
        };
        key ^ zobrist::piece(us, moved, from) ^ zobrist::piece(us, placed, to)
    }

    /// The key computed from scratch; always equal to `key()`.
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied() {
            key ^= zobrist::piece(self.color_on(sq).unwrap(), self.piece_on(sq).unwrap(), sq);
        }
        for (_, _, rook) in self.castling.iter() {
            key ^= zobrist::castling(rook);
        }
        if let Some(ep) = self.ep {
            key ^= zobrist::en_passant(ep);
        }
        if self.side == Color::Black {
            key ^= zobrist::side();
        }
        key
    }

    // ---- Setup ---------------------------------------------------------

    #[inline(always)]
    pub(crate) fn put(&mut self, color: Color, piece: Piece, sq: Square) {
        self.place::<true>(color, piece, sq);
    }

    /// [`put`](Self::put), updating the key only with `KEYS`.
    #[inline(always)]
    fn place<const KEYS: bool>(&mut self, color: Color, piece: Piece, sq: Square) {
        self.pieces[piece.index()] |= sq;
        self.colors[color.index()] |= sq;
        self.board[sq.index()] = (color as u8) << 3 | piece as u8;
        if KEYS {
            self.key ^= zobrist::piece(color, piece, sq);
        }
    }

    /// Takes `piece` of `color` off `sq`, updating the key only with
    /// `KEYS`.
    #[inline(always)]
    fn remove<const KEYS: bool>(&mut self, color: Color, piece: Piece, sq: Square) {
        self.pieces[piece.index()] ^= sq;
        self.colors[color.index()] ^= sq;
        self.board[sq.index()] = NO_PIECE;
        if KEYS {
            self.key ^= zobrist::piece(color, piece, sq);
        }
    }

    pub(crate) fn set_side(&mut self, side: Color) {
        if self.side != side {
            self.key ^= zobrist::side();
        }
        self.side = side;
    }

    pub(crate) fn set_castling(&mut self, color: Color, side: CastleSide, rook: Option<Square>) {
        self.set_castling_with::<true>(color, side, rook);
    }

    #[inline(always)]
    fn set_castling_with<const KEYS: bool>(
        &mut self,
        color: Color,
        side: CastleSide,
        rook: Option<Square>,
    ) {
        if KEYS {
            if let Some(old) = self.castling.rook(color, side) {
                self.key ^= zobrist::castling(old);
            }
            if let Some(new) = rook {
                self.key ^= zobrist::castling(new);
            }
        }
        self.castling.set(color, side, rook);
    }

    pub(crate) fn set_ep(&mut self, ep: Option<Square>) {
        if let Some(old) = self.ep {
            self.key ^= zobrist::en_passant(old);
        }
        if let Some(new) = ep {
            self.key ^= zobrist::en_passant(new);
        }
        self.ep = ep;
    }

    pub(crate) fn set_clocks(&mut self, halfmove: u16, fullmove: u16) {
        self.halfmove = halfmove;
        self.fullmove = fullmove.max(1);
    }

    /// Recomputes checkers and pins for the side to move.
    #[inline]
    pub(crate) fn update_check_info(&mut self) {
        let us = self.side;
        let them = us.flip();
        let ksq = self.king(us);
        let their = self.color(them);
        let queens = self.pieces(Piece::Queen);
        let (sliding, blockers) = self.slider_lines(
            ksq,
            (self.pieces(Piece::Bishop) | queens) & their,
            (self.pieces(Piece::Rook) | queens) & their,
        );
        self.checkers = sliding
            | (knight_attacks(ksq) & self.pieces(Piece::Knight) & their)
            | (pawn_attacks(us, ksq) & self.pieces(Piece::Pawn) & their);
        self.pinned = blockers & self.color(us);
    }

    /// The sliders among `diagonal` (bishops and queens) and `straight`
    /// (rooks and queens) that attack `ksq`, and the pieces of either
    /// colour that alone stand between one of the others and `ksq`: the
    /// checkers and pinned pieces of a king, or the pieces that would
    /// uncover a check on the enemy king.
    #[inline(always)]
    pub(crate) fn slider_lines(
        &self,
        ksq: Square,
        diagonal: Bitboard,
        straight: Bitboard,
    ) -> (Bitboard, Bitboard) {
        let occ = self.occupied();
        let mut attackers = Bitboard::EMPTY;
        let mut blockers = Bitboard::EMPTY;
        // Only sliders on the king's empty-board rays can check or pin.
        for s in (bishop_rays(ksq) & diagonal) | (rook_rays(ksq) & straight) {
            let on_line = between(ksq, s) & occ;
            if on_line.is_empty() {
                attackers |= s;
            } else if !on_line.many() {
                blockers |= on_line;
            }
        }
        (attackers, blockers)
    }

    /// Whether a pawn of `by` could capture onto `sq` (used to keep the
    /// en-passant square only when it matters, the X-FEN rule).
    #[inline(always)]
    pub(crate) fn pawn_attacks_square(&self, sq: Square, by: Color) -> bool {
        (pawn_attacks(by.flip(), sq) & self.colored(by, Piece::Pawn)).any()
    }

    // ---- Making moves --------------------------------------------------

    /// The position after `mv`, which must be legal here.
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        let mut next = *self;
        next.make(mv);
        next
    }

    /// Plays `mv`, which must be legal in this position (from the generator or
    /// `parse_uci_move`). An illegal move leaves the position inconsistent.
    pub fn make(&mut self, mv: Move) {
        self.make_with::<true>(mv);
    }

    /// [`make`](Self::make), inlined where it is called (perft's copy
    /// compiled for newer CPUs compiles it so too), and with `KEYS`
    /// false leaving the Zobrist key as it was: perft, which never reads
    /// it, need not pay for it. Such a position must not reach anything
    /// that reads its key.
    #[inline(always)]
    pub(crate) fn make_with<const KEYS: bool>(&mut self, mv: Move) {
        let us = self.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());

        if let Some(ep) = self.ep.take() {
            if KEYS {
                self.key ^= zobrist::en_passant(ep);
            }
        }
        self.halfmove += 1;

        let moved = self.piece_on(from).unwrap_or(Piece::King);
        match mv.kind() {
            MoveKind::Castle => {
                let (kto, rto) = self.castle_destinations(mv);
                self.remove::<KEYS>(us, Piece::King, from);
                self.remove::<KEYS>(us, Piece::Rook, to);
                self.place::<KEYS>(us, Piece::King, kto);
                self.place::<KEYS>(us, Piece::Rook, rto);
            }
            kind => {
                if kind == MoveKind::EnPassant {
                    self.remove::<KEYS>(
                        them,
                        Piece::Pawn,
                        to.offset(if us == Color::White { -8 } else { 8 }),
                    );
                } else if let Some(captured) = self.piece_on(to) {
                    self.remove::<KEYS>(them, captured, to);
                    self.halfmove = 0;
                }
                self.remove::<KEYS>(us, moved, from);
                let placed = match kind {
                    MoveKind::Promotion(p) => p,
                    _ => moved,
                };
                self.place::<KEYS>(us, placed, to);
                if moved == Piece::Pawn {
                    self.halfmove = 0;
                    if from.index() ^ to.index() == 16 {
                        let ep = Square::new(((from.index() + to.index()) / 2) as u8);
                        if self.pawn_attacks_square(ep, them) {
                            self.ep = Some(ep);
                            if KEYS {
                                self.key ^= zobrist::en_passant(ep);
                            }
                        }
                    }
                }
            }
        }

        if !self.castling.is_empty() {
            let touched = Bitboard::from(from) | to;
            if (touched & self.castling.squares()).any() || moved == Piece::King {
                self.update_castling::<KEYS>(us, moved, from, to);
            }
        }

        self.side = them;
        if KEYS {
            self.key ^= zobrist::side();
        }
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.update_check_info();
    }

    /// A right goes when the king moves, when its rook moves, and when its
    /// rook is captured on its square.
    #[inline(always)]
    fn update_castling<const KEYS: bool>(
        &mut self,
        us: Color,
        moved: Piece,
        from: Square,
        to: Square,
    ) {
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling.rook(color, side) {
                    let king_moved = color == us && moved == Piece::King;
                    if king_moved || rook == from || rook == to {
                        self.set_castling_with::<KEYS>(color, side, None);
                    }
                }
            }
        }
    }

    /// The same position seen from the other side: ranks mirrored, colours
    /// swapped, the other side to move (castling rights and the en-passant
    /// square follow). The evaluation of the two must be equal.
    pub fn flipped(&self) -> Position {
        let mut out = Position::empty();
        for sq in self.occupied() {
            if let (Some(p), Some(c)) = (self.piece_on(sq), self.color_on(sq)) {
                out.put(c.flip(), p, sq.flip_rank());
            }
        }
        out.set_side(self.side.flip());
        for (color, side, rook) in self.castling.iter() {
            out.set_castling(color.flip(), side, Some(rook.flip_rank()));
        }
        out.set_ep(self.ep.map(Square::flip_rank));
        out.set_clocks(self.halfmove, self.fullmove);
        out.update_check_info();
        out
    }

    /// Passes the move to the other side (for null-move pruning). The side to
    /// move must not be in check.
    pub fn make_null(&mut self) {
        if let Some(ep) = self.ep.take() {
            self.key ^= zobrist::en_passant(ep);
        }
        self.halfmove += 1;
        self.side = self.side.flip();
        self.key ^= zobrist::side();
        self.update_check_info();
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structure_hashes_follow_only_their_own_pieces() {
        let start = Position::startpos();
        let play = |uci: &str| start.play(start.parse_uci_move(uci).unwrap());
        let (pawns, white, black) = (
            start.pawn_hash(),
            start.non_pawn_hash(Color::White),
            start.non_pawn_hash(Color::Black),
        );
        assert_ne!(white, black);
        // A pawn move changes the pawn hash alone, a knight move its own
        // side's non-pawn hash alone.
        let pawn = play("e2e4");
        assert_ne!(pawn.pawn_hash(), pawns);
        assert_eq!(pawn.non_pawn_hash(Color::White), white);
        assert_eq!(pawn.non_pawn_hash(Color::Black), black);
        let knight = play("g1f3");
        assert_eq!(knight.pawn_hash(), pawns);
        assert_ne!(knight.non_pawn_hash(Color::White), white);
        assert_eq!(knight.non_pawn_hash(Color::Black), black);
    }

    /// `key_after` is the key `play` gives for every move it promises to
    /// predict, along random Chess960 games.
    #[test]
    fn key_after_predicts_the_played_key() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(11);
        let (mut exact, mut all) = (0, 0);
        for _ in 0..30 {
            let mut pos = Position::random_chess960(&mut rng);
            for _ in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &mv in moves.iter() {
                    let next = pos.play(mv);
                    let promised = !matches!(mv.kind(), MoveKind::Castle | MoveKind::EnPassant)
                        && next.castling() == pos.castling()
                        && next.ep_square().is_none();
                    all += 1;
                    if pos.key_after(mv) == next.key() {
                        exact += 1;
                    } else {
                        assert!(!promised, "{mv:?} in {}", pos.fen());
                    }
                }
                pos = pos.play(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(exact * 100 > all * 95, "{exact} of {all}");
    }
}
