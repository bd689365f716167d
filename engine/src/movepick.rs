//! Move ordering in stages: the table move, winning captures by MVV-LVA,
//! killers and the counter-move, quiet moves by history, and losing
//! captures last.
//!
//! Each stage is generated only when the one before is used up, so a cutoff
//! by the table move or a capture never pays for generating and scoring the
//! quiet moves. Within a stage moves are picked best-first by selection.

use crate::history::{piece12, Context, History};
use crate::see::{captured_value, see_ge};
use arrayvec::ArrayVec;
use castella_movegen::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks_all, queen_attacks, rook_attacks,
};
use castella_movegen::{Bitboard, CheckInfo, GenType, Move, MoveList, Piece, Position, MAX_MOVES};

const TT_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER: i32 = 1_000_000;
/// The counter-move's ordering score; killers rank above it, quiet moves
/// by history below (the search reduces these first-tried quiets less).
pub(crate) const COUNTER: i32 = 900_000;
const BAD_CAPTURE: i32 = -2_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TableMove,
    GenerateCaptures,
    GoodCaptures,
    /// Index into the killers-then-counter refutation slots.
    Refutations(usize),
    GenerateQuiets,
    Quiets,
    /// Index into the losing captures.
    BadCaptures(usize),
    Done,
}

/// Picks the moves of one node in order. The caller passes the position and
/// the history on every call: the history changes while the node's moves are
/// searched, and quiet moves are scored only once they are reached.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    /// Killer 1, killer 2, counter-move (quiet refutations tried early).
    refutations: [Move; 3],
    /// Captures and promotions only (the quiescence search out of check).
    noisy_only: bool,
    /// Late-move pruning or futility has given up on quiet moves: only
    /// quiet checks still come, unsorted.
    only_checks: bool,
    /// How this node's moves give check, once asked.
    check_info: Option<CheckInfo>,
    /// What the side not to move attacks, once a quiet move is scored.
    threats: Option<Threats>,
    moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    /// The next move of the current stage to look at.
    cur: usize,
    /// Losing captures are moved to the front of the list, `0..bad_end`.
    bad_end: usize,
}

impl MovePicker {
    /// A picker for every legal move (or, with `noisy_only` and not in
    /// check, only captures and promotions).
    pub fn new(
        pos: &Position,
        tt_move: Move,
        history: &History,
        ply: usize,
        prev: Move,
        noisy_only: bool,
    ) -> MovePicker {
        let noisy_only = noisy_only && !pos.in_check();
        let [k1, k2] = history.killers(ply);
        MovePicker {
            stage: Stage::TableMove,
            tt_move,
            refutations: [k1, k2, history.counter(pos, prev)],
            noisy_only,
            only_checks: false,
            check_info: None,
            threats: None,
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            cur: 0,
            bad_end: 0,
        }
    }

    /// Give no more quiet moves but checks, refutations included (late-move
    /// pruning or futility has given up on the others); losing captures
    /// still come. The checks come in generation order: no sorting is spent
    /// on a node that is being pruned.
    pub fn only_checks(&mut self) {
        self.only_checks = true;
    }

    /// Whether the legal move `mv` of `pos` (this node's position) gives
    /// check: the pruning of a node asks it of many of its quiet moves.
    #[inline]
    pub fn gives_check(&mut self, pos: &Position, mv: Move) -> bool {
        self.check_info
            .get_or_insert_with(|| pos.check_info())
            .gives_check(pos, mv)
    }

    /// Every square the side not to move attacks in `pos` (this node's
    /// position): quiet moves' history is kept by it.
    #[inline]
    pub fn threats(&mut self, pos: &Position) -> Bitboard {
        self.threat_map(pos).all
    }

    /// This node's [`Threats`], worked out once.
    #[inline]
    fn threat_map(&mut self, pos: &Position) -> Threats {
        *self.threats.get_or_insert_with(|| Threats::new(pos))
    }

    /// Whether [`MovePicker::only_checks`] was called: every quiet move it
    /// gives from then on is known to give check.
    pub fn giving_only_checks(&self) -> bool {
        self.only_checks
    }

    /// The next move with its ordering score, best first.
    pub fn next(
        &mut self,
        pos: &Position,
        history: &History,
        ctx: &Context,
    ) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::GenerateCaptures;
                    let tt = self.tt_move;
                    if !tt.is_null() && (!self.noisy_only || pos.is_noisy(tt)) && pos.is_legal(tt) {
                        return Some((tt, TT_MOVE));
                    }
                    self.tt_move = Move::NULL;
                }
                Stage::GenerateCaptures => {
                    pos.generate_moves(GenType::Noisy, &mut self.moves);
                    for &mv in self.moves.iter() {
                        self.scores.push(mvv_lva(pos, mv));
                    }
                    self.cur = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    let Some(i) = self.pick(self.moves.len()) else {
                        self.stage = if self.noisy_only {
                            Stage::BadCaptures(0)
                        } else {
                            Stage::Refutations(0)
                        };
                        continue;
                    };
                    let (mv, score) = (self.moves[i], self.scores[i]);
                    if mv == self.tt_move {
                        continue;
                    }
                    if !see_ge(pos, mv, 0) {
                        // Keep it for the end, in the order found.
                        self.moves.swap(i, self.bad_end);
                        self.scores.swap(i, self.bad_end);
                        self.bad_end += 1;
                        continue;
                    }
                    return Some((mv, GOOD_CAPTURE + score));
                }
                Stage::Refutations(k) => {
                    if k >= self.refutations.len() || self.only_checks {
                        // Untried slots are cleared so that the quiet stage
                        // does not skip those moves (a checking killer
                        // still comes there).
                        for r in self.refutations.iter_mut().skip(k) {
                            *r = Move::NULL;
                        }
                        self.stage = Stage::GenerateQuiets;
                        continue;
                    }
                    self.stage = Stage::Refutations(k + 1);
                    let mv = self.refutations[k];
                    let seen = mv == self.tt_move || self.refutations[..k].contains(&mv);
                    if mv.is_null() || seen || pos.is_noisy(mv) || !pos.is_legal(mv) {
                        // Not tried in this slot, so the quiet stage must not
                        // skip it on its account (a duplicate is skipped on
                        // the table move's or the earlier slot's account).
                        self.refutations[k] = Move::NULL;
                        continue;
                    }
                    let score = [KILLER + 1, KILLER, COUNTER][k];
                    return Some((mv, score));
                }
                Stage::GenerateQuiets => {
                    self.cur = self.moves.len();
                    pos.generate_moves(GenType::Quiet, &mut self.moves);
                    let side = pos.side_to_move();
                    let threats = self.threat_map(pos);
                    for &mv in &self.moves[self.cur..] {
                        let piece = pos.piece_on(mv.from()).unwrap_or(Piece::King);
                        self.scores.push(
                            history.quiet(side, mv, piece12(side, piece), ctx, threats.all)
                                + threats.escape(piece, mv),
                        );
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    let next = if self.only_checks {
                        self.next_check(pos)
                    } else {
                        self.pick(self.moves.len())
                    };
                    let Some(i) = next else {
                        self.stage = Stage::BadCaptures(0);
                        continue;
                    };
                    let mv = self.moves[i];
                    if mv == self.tt_move || self.refutations.contains(&mv) {
                        continue;
                    }
                    return Some((mv, self.scores[i]));
                }
                Stage::BadCaptures(i) => {
                    if i >= self.bad_end {
                        self.stage = Stage::Done;
                        continue;
                    }
                    self.stage = Stage::BadCaptures(i + 1);
                    return Some((self.moves[i], BAD_CAPTURE + self.scores[i]));
                }
                Stage::Done => return None,
            }
        }
    }

    /// The index of the next move of `cur..` that gives check, stepping
    /// past it.
    #[inline]
    fn next_check(&mut self, pos: &Position) -> Option<usize> {
        while self.cur < self.moves.len() {
            self.cur += 1;
            if self.gives_check(pos, self.moves[self.cur - 1]) {
                return Some(self.cur - 1);
            }
        }
        None
    }

    /// Swaps the best-scored move of `cur..end` to `cur`, steps past it and
    /// returns its index.
    #[inline]
    fn pick(&mut self, end: usize) -> Option<usize> {
        if self.cur >= end {
            return None;
        }
        // The first of the highest scores, as a plain scan would find it,
        // with the best score kept at hand and no bounds checks.
        let scores = &self.scores[self.cur..end];
        let (mut best, mut top) = (0, scores[0]);
        for (i, &s) in scores.iter().enumerate().skip(1) {
            if s > top {
                (best, top) = (i, s);
            }
        }
        let best = self.cur + best;
        self.moves.swap(self.cur, best);
        self.scores.swap(self.cur, best);
        self.cur += 1;
        Some(self.cur - 1)
    }
}

/// The squares the side not to move attacks: with cheap pieces, to order
/// first the quiet moves that take an attacked piece out of a cheaper
/// piece's reach, and last those that walk into one; with any, for the
/// history.
#[derive(Clone, Copy)]
pub struct Threats {
    /// By pawns; by pawns and minor pieces; by those and rooks.
    by: [Bitboard; 3],
    /// By every piece.
    pub all: Bitboard,
}

impl Threats {
    #[inline]
    pub fn new(pos: &Position) -> Threats {
        let them = !pos.side_to_move();
        let occ = pos.occupied();
        let pawns = pawn_attacks_all(them, pos.colored(them, Piece::Pawn));
        let mut minors = pawns;
        for sq in pos.colored(them, Piece::Knight) {
            minors |= knight_attacks(sq);
        }
        for sq in pos.colored(them, Piece::Bishop) {
            minors |= bishop_attacks(sq, occ);
        }
        let mut rooks = minors;
        for sq in pos.colored(them, Piece::Rook) {
            rooks |= rook_attacks(sq, occ);
        }
        let mut all = rooks | king_attacks(pos.king(them));
        for sq in pos.colored(them, Piece::Queen) {
            all |= queen_attacks(sq, occ);
        }
        Threats {
            by: [pawns, minors, rooks],
            all,
        }
    }

    /// The ordering bonus (or malus) of a quiet move of `piece`.
    #[inline]
    fn escape(&self, piece: Piece, mv: Move) -> i32 {
        let (danger, value) = match piece {
            Piece::Queen => (self.by[2], 16_000),
            Piece::Rook => (self.by[1], 10_000),
            Piece::Knight | Piece::Bishop => (self.by[0], 6_000),
            _ => return 0,
        };
        match (danger.has(mv.from()), danger.has(mv.to())) {
            (true, false) => value,
            (false, true) => -value,
            _ => 0,
        }
    }
}

/// Most valuable victim, then least valuable attacker; queen promotions
/// count as winning a queen's worth, under-promotions as losing a little.
#[inline]
fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    let victim = captured_value(pos, mv);
    let attacker = pos.piece_on(mv.from()).map_or(0, |p| p.index() as i32);
    let promo = match mv.promotion_piece() {
        Some(Piece::Queen) => 900,
        Some(_) => -200,
        None => 0,
    };
    10 * (victim + promo) - attacker
}

/// Whether a picked score marks a capture that loses material.
#[inline]
pub fn is_bad_capture(score: i32) -> bool {
    score < BAD_CAPTURE / 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::NO_CONTEXT;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// All quiet moves in picking order, from a fresh history.
    fn quiets_in_order(fen: &str) -> Vec<(Piece, String)> {
        let pos = Position::from_fen(fen).unwrap();
        let history = History::default();
        let mut picker = MovePicker::new(&pos, Move::NULL, &history, 0, Move::NULL, false);
        let mut quiets = Vec::new();
        while let Some((mv, _)) = picker.next(&pos, &history, &NO_CONTEXT) {
            if !pos.is_noisy(mv) {
                quiets.push((pos.piece_on(mv.from()).unwrap(), mv.to().to_string()));
            }
        }
        quiets
    }

    /// With no history yet, a knight attacked by a pawn moves first, and a
    /// move into a pawn's reach comes last.
    #[test]
    fn threatened_pieces_step_away_first_and_not_into_attacks() {
        let order = quiets_in_order("4k3/8/3p4/4N3/8/8/8/4K3 w - - 0 1");
        assert_eq!(order.len(), 8 + 5, "{order:?}");
        assert!(order[..8].iter().all(|m| m.0 == Piece::Knight), "{order:?}");
        let order = quiets_in_order("4k3/8/8/8/3p4/8/8/1N2K3 w - - 0 1");
        assert_eq!(
            order.last(),
            Some(&(Piece::Knight, "c3".to_string())),
            "{order:?}"
        );
    }

    /// Every legal move comes exactly once, whatever the table move and
    /// killers (legal, illegal or from another position) are; noisy-only
    /// pickers give the captures and promotions (everything in check); once
    /// told to, the picker gives only checks of the quiet moves left.
    #[test]
    fn picks_each_legal_move_once() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut history = History::default();
        let mut checked = 0;
        for _ in 0..40 {
            let mut pos = Position::random_chess960(&mut rng);
            let mut earlier: Vec<Move> = Vec::new();
            for ply in 0..120 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mut guess = || {
                    if !earlier.is_empty() && rng.gen_bool(0.5) {
                        earlier[rng.gen_range(0..earlier.len())]
                    } else {
                        legal[rng.gen_range(0..legal.len())]
                    }
                };
                let tt = guess();
                history.add_killer(ply % 8, guess());
                history.add_killer(ply % 8, guess());
                let prev = guess();
                history.set_counter(&pos, prev, guess());
                for noisy_only in [false, true] {
                    let mut picker = MovePicker::new(&pos, tt, &history, ply % 8, prev, noisy_only);
                    let mut got = Vec::new();
                    while let Some((mv, score)) = picker.next(&pos, &history, &NO_CONTEXT) {
                        let losing = mv != tt && pos.is_noisy(mv) && !see_ge(&pos, mv, 0);
                        assert_eq!(is_bad_capture(score), losing, "{mv:?} in {}", pos.fen());
                        got.push(mv);
                    }
                    let mut want: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|&m| !noisy_only || pos.in_check() || pos.is_noisy(m))
                        .collect();
                    let key = |m: &Move| m.bits();
                    got.sort_by_key(key);
                    want.sort_by_key(key);
                    assert_eq!(got, want, "in {}", pos.fen());
                    checked += 1;
                }
                // Giving up on quiets part-way: every noisy move and every
                // quiet check still comes once, no other quiet move comes.
                let switch_at = rng.gen_range(1..=legal.len());
                let mut picker = MovePicker::new(&pos, tt, &history, ply % 8, prev, false);
                let mut got = Vec::new();
                while let Some((mv, _)) = picker.next(&pos, &history, &NO_CONTEXT) {
                    if got.len() >= switch_at {
                        assert!(pos.is_noisy(mv) || pos.gives_check(mv), "{mv:?}");
                    }
                    got.push(mv);
                    if got.len() == switch_at {
                        picker.only_checks();
                    }
                }
                let before: Vec<Move> = got[..switch_at.min(got.len())].to_vec();
                let mut want: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| before.contains(&m) || pos.is_noisy(m) || pos.gives_check(m))
                    .collect();
                let key = |m: &Move| m.bits();
                got.sort_by_key(key);
                want.sort_by_key(key);
                assert_eq!(got, want, "switch at {switch_at} in {}", pos.fen());
                earlier.extend(legal.iter().copied());
                pos = pos.play(legal[rng.gen_range(0..legal.len())]);
            }
        }
        assert!(checked > 2000, "{checked}");
    }
}
