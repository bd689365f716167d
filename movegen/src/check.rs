//! Whether a move gives check, without playing it: the search asks this
//! of the quiet moves it may prune, and keeps the checks.

use crate::attacks::{
    bishop_attacks, bishop_rays, knight_attacks, line, pawn_attacks, rook_attacks, rook_rays,
};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{Color, Piece, Square};

/// What it takes to check the side not to move, worked out once for a
/// position that asks about many of its moves.
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// The enemy king's square.
    king: Square,
    /// By piece type: the squares from which that piece of ours would
    /// attack the enemy king.
    squares: [Bitboard; 6],
    /// Our pieces that alone stand between one of our sliders and the
    /// enemy king: moving one off that line is a discovered check.
    discoverers: Bitboard,
}

impl Position {
    /// Whether the legal move `mv` gives check. Direct checks by the moved
    /// piece (or the castling rook), discovered checks through the vacated
    /// square or squares, and the en-passant discovery through the
    /// captured pawn's square are all found.
    pub fn gives_check(&self, mv: Move) -> bool {
        if matches!(mv.kind(), MoveKind::Normal | MoveKind::Promotion(_)) {
            return self.gives_check_plain(mv);
        }
        self.gives_check_by_board(mv)
    }

    /// [`CheckInfo`] for this position, for [`CheckInfo::gives_check`].
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side_to_move();
        let king = self.king(!us);
        let occ = self.occupied();
        let diagonal = bishop_attacks(king, occ);
        let straight = rook_attacks(king, occ);
        let queens = self.colored(us, Piece::Queen);
        let (_, blockers) = self.slider_lines(
            king,
            self.colored(us, Piece::Bishop) | queens,
            self.colored(us, Piece::Rook) | queens,
        );
        let discoverers = blockers & self.color(us);
        CheckInfo {
            king,
            squares: [
                pawn_attacks(!us, king),
                knight_attacks(king),
                diagonal,
                straight,
                diagonal | straight,
                Bitboard::EMPTY,
            ],
            discoverers,
        }
    }

    /// A normal move or a promotion: a direct check by the piece as it
    /// lands, or a discovered one by a slider behind the square it leaves
    /// (only when that square lines up with the enemy king).
    #[inline]
    fn gives_check_plain(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let ksq = self.king(!us);
        let (from, to) = (mv.from(), mv.to());
        let occ = (self.occupied() ^ from) | to;
        let placed = match mv.kind() {
            MoveKind::Promotion(p) => p,
            _ => self.piece_on(from).unwrap_or(Piece::King),
        };
        let direct = match placed {
            Piece::Pawn => pawn_attacks(us, to).has(ksq),
            Piece::Knight => knight_attacks(to).has(ksq),
            Piece::Bishop => bishop_attacks(to, occ).has(ksq),
            Piece::Rook => rook_attacks(to, occ).has(ksq),
            Piece::Queen => (bishop_attacks(to, occ) | rook_attacks(to, occ)).has(ksq),
            Piece::King => false,
        };
        if direct {
            return true;
        }
        let queens = self.colored(us, Piece::Queen);
        let diagonal = (self.colored(us, Piece::Bishop) | queens) - Bitboard::from(from);
        let straight = (self.colored(us, Piece::Rook) | queens) - Bitboard::from(from);
        (bishop_rays(ksq).has(from) && (bishop_attacks(ksq, occ) & diagonal).any())
            || (rook_rays(ksq).has(from) && (rook_attacks(ksq, occ) & straight).any())
    }

    /// Any move, castling and en passant included: which of our pieces
    /// attack the enemy king on the board after the move.
    #[cold]
    fn gives_check_by_board(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let ksq = self.king(!us);
        let (from, to) = (mv.from(), mv.to());
        let mut occ = self.occupied();
        let mut pieces = [Bitboard::EMPTY; 6];
        for p in Piece::ALL {
            pieces[p.index()] = self.colored(us, p);
        }
        match mv.kind() {
            MoveKind::Castle => {
                let (kto, rto) = self.castle_destinations(mv);
                occ = (occ - Bitboard::from(from) - Bitboard::from(to)) | kto | rto;
                pieces[Piece::Rook.index()] =
                    (pieces[Piece::Rook.index()] - Bitboard::from(to)) | rto;
            }
            kind => {
                let moved = self.piece_on(from).unwrap_or(Piece::King);
                if kind == MoveKind::EnPassant {
                    occ ^= to.offset(if us == Color::White { -8 } else { 8 });
                }
                let placed = match kind {
                    MoveKind::Promotion(p) => p,
                    _ => moved,
                };
                occ = (occ - Bitboard::from(from)) | to;
                pieces[moved.index()] ^= from;
                pieces[placed.index()] |= to;
            }
        }
        let queens = pieces[Piece::Queen.index()];
        ((pawn_attacks(!us, ksq) & pieces[Piece::Pawn.index()])
            | (knight_attacks(ksq) & pieces[Piece::Knight.index()])
            | (bishop_attacks(ksq, occ) & (pieces[Piece::Bishop.index()] | queens))
            | (rook_attacks(ksq, occ) & (pieces[Piece::Rook.index()] | queens)))
            .any()
    }
}

impl CheckInfo {
    /// [`Position::gives_check`] for a legal move of `pos`, the position
    /// this was made for.
    #[inline]
    pub fn gives_check(&self, pos: &Position, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        match mv.kind() {
            MoveKind::Normal => {
                // The landing square as the board stands: the square the
                // piece leaves cannot open its own line to the king (it
                // would be giving check already).
                let piece = pos.piece_on(from).unwrap_or(Piece::King);
                self.squares[piece.index()].has(to)
                    || (self.discoverers.has(from) && !line(self.king, from).has(to))
            }
            // A promoted piece may check through the square its pawn left.
            _ => pos.gives_check(mv),
        }
    }
}
