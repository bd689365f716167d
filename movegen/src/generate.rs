//! Legal move generation with pins and check masks (no make-and-test).
//!
//! The generator hands whole target sets to a `MoveSink`: one call per piece
//! and a few set-wise calls for the pawns. A list sink expands them into
//! moves; a counting sink only adds popcounts, which is what makes bulk
//! counting at the last perft ply cheap.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::castling::CastleSide;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, File, Piece, Rank, Square};

/// Receives generated moves.
pub trait MoveSink {
    /// Non-pawn moves of the piece on `from` to each square of `to`.
    fn piece(&mut self, from: Square, to: Bitboard);
    /// Pawn moves that do not promote; each came from `to - delta`.
    fn pawns(&mut self, to: Bitboard, delta: i8);
    /// Pawn moves onto the last rank, four promotions each.
    fn promotions(&mut self, to: Bitboard, delta: i8);
    /// A single castling or en-passant move.
    fn special(&mut self, mv: Move);
}

/// Fills a `MoveList` (its capacity of 256 exceeds the 218 moves any
/// position can have).
impl MoveSink for MoveList {
    #[inline(always)]
    fn piece(&mut self, from: Square, to: Bitboard) {
        for t in to {
            self.push(Move::normal(from, t));
        }
    }

    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8) {
        for t in to {
            self.push(Move::normal(t.offset(-delta), t));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, delta: i8) {
        for t in to {
            let from = t.offset(-delta);
            for p in [Piece::Queen, Piece::Knight, Piece::Rook, Piece::Bishop] {
                self.push(Move::promotion(from, t, p));
            }
        }
    }

    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Counts moves without listing them.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn piece(&mut self, _from: Square, to: Bitboard) {
        self.0 += to.count() as u64;
    }

    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, _delta: i8) {
        self.0 += to.count() as u64;
    }

    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, _delta: i8) {
        self.0 += 4 * to.count() as u64;
    }

    #[inline(always)]
    fn special(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

/// Looks for one move without listing any: the legality test of a move
/// taken from a hash table or a killer slot.
struct MoveFinder {
    mv: Move,
    found: bool,
}

impl MoveSink for MoveFinder {
    #[inline(always)]
    fn piece(&mut self, from: Square, to: Bitboard) {
        self.found |= from == self.mv.from()
            && to.has(self.mv.to())
            && Move::normal(from, self.mv.to()) == self.mv;
    }

    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8) {
        let t = self.mv.to();
        self.found |= to.has(t)
            && t.offset(-delta) == self.mv.from()
            && Move::normal(self.mv.from(), t) == self.mv;
    }

    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, delta: i8) {
        let t = self.mv.to();
        if let Some(piece) = self.mv.promotion_piece() {
            self.found |= to.has(t)
                && t.offset(-delta) == self.mv.from()
                && Move::promotion(self.mv.from(), t, piece) == self.mv;
        }
    }

    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.found |= mv == self.mv;
    }
}

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenType {
    /// Every legal move.
    All,
    /// Captures (en passant included) and all promotions.
    Noisy,
    /// Everything else: quiet moves and castling.
    Quiet,
}

impl Position {
    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<_, true, true>(&mut list);
        list
    }

    /// Legal moves of one type.
    pub fn generate_moves(&self, gen: GenType, list: &mut MoveList) {
        match gen {
            GenType::All => self.generate::<_, true, true>(list),
            GenType::Noisy => self.generate::<_, true, false>(list),
            GenType::Quiet => self.generate::<_, false, true>(list),
        }
    }

    /// The number of legal moves.
    #[inline]
    pub fn count_legal(&self) -> u64 {
        let mut counter = MoveCounter(0);
        self.generate::<_, true, true>(&mut counter);
        counter.0
    }

    /// Whether `mv` is legal here: exact for every 16-bit value, cheap
    /// enough for checking a move taken from a hash table or a killer slot.
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.is_null() || self.color_on(mv.from()) != Some(self.side_to_move()) {
            return false;
        }
        match mv.bits() >> 12 {
            // Normal moves and the four promotions: tested directly.
            0 | 4..=7 => self.is_legal_plain(mv),
            // Castling and en passant (rare here): the generator decides,
            // only the half of it that could produce the move.
            1 => {
                let mut finder = MoveFinder { mv, found: false };
                self.generate::<_, false, true>(&mut finder);
                finder.found
            }
            2 => {
                let mut finder = MoveFinder { mv, found: false };
                self.generate::<_, true, false>(&mut finder);
                finder.found
            }
            // Encodings the generator never makes.
            _ => false,
        }
    }

    /// A normal move or a promotion of the side to move's piece on
    /// `mv.from()`: the piece must reach the target the way the generator
    /// would move it, and the king must be safe afterwards (in check only
    /// a king move or a block or capture of the single checker; a pinned
    /// piece only along its pin).
    #[inline]
    fn is_legal_plain(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        if self.color(us).has(to) {
            return false;
        }
        let Some(piece) = self.piece_on(from) else {
            return false;
        };
        let occ = self.occupied();
        let promotion = mv.is_promotion();
        let reaches = match piece {
            Piece::Pawn => {
                // Onto the last rank a pawn move is a promotion, elsewhere never.
                if promotion != Bitboard::rank(us.relative_rank(Rank::R8)).has(to) {
                    return false;
                }
                if self.color(us.flip()).has(to) {
                    pawn_attacks(us, from).has(to)
                } else {
                    let up = if us == Color::White { 8 } else { -8 };
                    let single = Bitboard::from(from).shift(up) & !occ;
                    let third = Bitboard::rank(us.relative_rank(Rank::R3));
                    let double = (single & third).shift(up) & !occ;
                    (single | double).has(to)
                }
            }
            _ if promotion => return false,
            Piece::Knight => knight_attacks(from).has(to),
            Piece::Bishop => bishop_attacks(from, occ).has(to),
            Piece::Rook => rook_attacks(from, occ).has(to),
            Piece::Queen => (bishop_attacks(from, occ) | rook_attacks(from, occ)).has(to),
            Piece::King => {
                // Tested with the king lifted, as the generator does.
                return king_attacks(from).has(to) && !self.is_attacked(to, us.flip(), occ ^ from);
            }
        };
        if !reaches {
            return false;
        }
        let ksq = self.king(us);
        let pinned = self.pinned().has(from);
        let checkers = self.checkers();
        if let Some(checker) = checkers.first() {
            if checkers.many() || pinned || !(between(ksq, checker) | checker).has(to) {
                return false;
            }
        }
        !pinned || line(ksq, from).has(to)
    }

    /// Runs the generator into any sink. `NOISY`: captures and promotions;
    /// `QUIET`: the other moves.
    #[inline(always)]
    pub fn generate<S: MoveSink, const NOISY: bool, const QUIET: bool>(&self, sink: &mut S) {
        let us = self.side_to_move();
        let them = us.flip();
        let occ = self.occupied();
        let own = self.color(us);
        let enemy = self.color(them);
        let ksq = self.king(us);
        let checkers = self.checkers();

        let mut filter = Bitboard::EMPTY;
        if NOISY {
            filter |= enemy;
        }
        if QUIET {
            filter |= !occ;
        }

        // King moves: each target tested with the king lifted off the board,
        // so sliders see through the square it leaves.
        let mut king_to = Bitboard::EMPTY;
        let without_king = occ ^ ksq;
        for t in king_attacks(ksq) & filter {
            if !self.is_attacked(t, them, without_king) {
                king_to |= t;
            }
        }
        if king_to.any() {
            sink.piece(ksq, king_to);
        }

        if checkers.many() {
            return;
        }
        let check_mask = match checkers.first() {
            Some(c) => between(ksq, c) | c,
            None => Bitboard::FULL,
        };
        let targets = filter & check_mask;
        let pinned = self.pinned();
        // A pinned piece can never resolve a check.
        let movable = if checkers.any() { own & !pinned } else { own };

        for from in self.colored(us, Piece::Knight) & movable & !pinned {
            sink.piece(from, knight_attacks(from) & targets);
        }
        let queens = self.pieces(Piece::Queen);
        for from in (self.pieces(Piece::Bishop) | queens) & movable {
            let mut to = bishop_attacks(from, occ) & targets;
            if pinned.has(from) {
                to &= line(ksq, from);
            }
            sink.piece(from, to);
        }
        for from in (self.pieces(Piece::Rook) | queens) & movable {
            let mut to = rook_attacks(from, occ) & targets;
            if pinned.has(from) {
                to &= line(ksq, from);
            }
            sink.piece(from, to);
        }

        let pawns = self.colored(us, Piece::Pawn) & movable;
        self.pawn_moves::<S, NOISY, QUIET>(sink, pawns & !pinned, check_mask);
        for p in pawns & pinned {
            self.pawn_moves::<S, NOISY, QUIET>(sink, Bitboard::from(p), check_mask & line(ksq, p));
        }

        if NOISY {
            if let Some(ep) = self.ep_square() {
                self.en_passant(sink, ep);
            }
        }
        if QUIET && checkers.is_empty() && !self.castling().is_empty() {
            self.castling_moves(sink, ksq);
        }
    }

    /// Set-wise pawn pushes and captures of `pawns`, landing only on `allowed`.
    #[inline(always)]
    fn pawn_moves<S: MoveSink, const NOISY: bool, const QUIET: bool>(
        &self,
        sink: &mut S,
        pawns: Bitboard,
        allowed: Bitboard,
    ) {
        if pawns.is_empty() {
            return;
        }
        let us = self.side_to_move();
        let empty = !self.occupied();
        let enemy = self.color(us.flip());
        let (up, left, right) = match us {
            Color::White => (8i8, 7i8, 9i8),
            Color::Black => (-8, -9, -7),
        };
        let last = Bitboard::rank(us.relative_rank(Rank::R8));
        let third = Bitboard::rank(us.relative_rank(Rank::R3));

        let single = pawns.shift(up) & empty;
        if QUIET {
            let double = (single & third).shift(up) & empty & allowed;
            sink.pawns(single & (allowed - last), up);
            sink.pawns(double, 2 * up);
        }
        if NOISY {
            sink.promotions(single & allowed & last, up);
            let l = (pawns - Bitboard::file(File::A)).shift(left) & enemy & allowed;
            let r = (pawns - Bitboard::file(File::H)).shift(right) & enemy & allowed;
            sink.pawns(l - last, left);
            sink.pawns(r - last, right);
            sink.promotions(l & last, left);
            sink.promotions(r & last, right);
        }
    }

    /// En passant, tested in full: it removes two pawns from their squares,
    /// which can expose the king along a rank or diagonal.
    #[cold]
    fn en_passant<S: MoveSink>(&self, sink: &mut S, ep: Square) {
        let us = self.side_to_move();
        let them = us.flip();
        let ksq = self.king(us);
        let captured = ep.offset(if us == Color::White { -8 } else { 8 });
        let queens = self.pieces(Piece::Queen);
        let their_rq = (self.pieces(Piece::Rook) | queens) & self.color(them);
        let their_bq = (self.pieces(Piece::Bishop) | queens) & self.color(them);
        for from in pawn_attacks(them, ep) & self.colored(us, Piece::Pawn) {
            let occ = (self.occupied() ^ from ^ captured) | ep;
            let other_checkers = self.checkers() - Bitboard::from(captured);
            let attacked = (rook_attacks(ksq, occ) & their_rq).any()
                || (bishop_attacks(ksq, occ) & their_bq).any()
                || (other_checkers - (their_rq | their_bq)).any();
            if !attacked {
                sink.special(Move::en_passant(from, ep));
            }
        }
    }

    /// Chess960 castling. The squares between the king and its destination
    /// and between the rook and its destination (destinations included) must
    /// be empty but for these two pieces, and no square from the king's start
    /// to its destination may be attacked. The test is made with the castling
    /// rook lifted off the board: with an enemy rook or queen on a1 and our
    /// castling rook on b1, the king would stand in check on c1 once the rook
    /// has gone to d1, even though b1 shields c1 now.
    #[inline(always)]
    fn castling_moves<S: MoveSink>(&self, sink: &mut S, ksq: Square) {
        let us = self.side_to_move();
        let them = us.flip();
        let occ = self.occupied();
        for side in CastleSide::ALL {
            let Some(rook) = self.castling().rook(us, side) else {
                continue;
            };
            let (kto, rto) = side.destinations(us);
            let king_path = between(ksq, kto) | kto;
            let must_be_empty =
                (king_path | between(rook, rto) | rto) - (Bitboard::from(ksq) | rook);
            if (must_be_empty & occ).any() {
                continue;
            }
            let occ_without_rook = occ ^ rook;
            let mut safe = true;
            for s in king_path {
                if self.is_attacked(s, them, occ_without_rook) {
                    safe = false;
                    break;
                }
            }
            if !safe {
                continue;
            }
            sink.special(Move::castle(ksq, rook));
        }
    }
}
