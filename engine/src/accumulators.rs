//! The network's hidden sums along the search path, one per ply, updated
//! lazily: playing a move only records what changed, and the sums are
//! brought up to date when a position is evaluated, from the nearest
//! ancestor that has them. Positions whose evaluation comes from the
//! transposition table never pay for an update. Each view is kept on its
//! own: a king move that changes a view's king bucket cuts that view's
//! chain, and the view is computed again where it is next needed, from
//! the sums its bucket last had (a [`RefreshTable`]).

use crate::value::MAX_PLY;
use castella_eval::nnue::{Accumulator, Delta, Network, RefreshTable};
use castella_movegen::Position;
use std::sync::Arc;

const LEN: usize = MAX_PLY + 2;
/// Beyond this many pending updates a refresh from scratch is cheaper.
const MAX_CHAIN: usize = 8;

pub struct Accumulators {
    net: Arc<Network>,
    sums: Box<[Accumulator; LEN]>,
    deltas: Box<[Delta; LEN]>,
    /// Whether each ply's sums are up to date, per view (White's first).
    valid: [[bool; 2]; LEN],
    /// Each king bucket's last sums, for king-bucketed networks.
    buckets: Option<Box<RefreshTable>>,
}

impl Default for Accumulators {
    /// Sums for the embedded network.
    fn default() -> Accumulators {
        let mut acc = Accumulators {
            net: castella_eval::embedded_network(),
            sums: Box::new([Accumulator::default(); LEN]),
            deltas: Box::new([Delta::default(); LEN]),
            valid: [[false; 2]; LEN],
            buckets: None,
        };
        acc.set_network(acc.net.clone());
        acc
    }
}

impl Accumulators {
    /// Evaluates with `net` from now on; every sum is stale.
    pub fn set_network(&mut self, net: Arc<Network>) {
        self.buckets = net
            .inputs()
            .keyed()
            .then(|| Box::new(RefreshTable::new(&net)));
        self.net = net;
        self.valid = [[false; 2]; LEN];
    }

    /// Forgets the root's sums: a new root position is coming.
    #[inline]
    pub fn new_root(&mut self) {
        self.valid[0] = [false; 2];
    }

    /// Records the move from `parent` to `child`, which sits at `ply`.
    #[inline]
    pub fn push(&mut self, ply: usize, parent: &Position, child: &Position) {
        self.deltas[ply] = Delta::between(parent, child, self.net.inputs());
        self.valid[ply] = [false; 2];
    }

    /// The network's evaluation of `pos`, which sits at `ply`, from the
    /// side to move's view: [`castella_eval::static_eval_with`], found
    /// incrementally.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        if self.net.inputs().keyed() {
            self.catch_up_by_view(pos, ply);
        } else {
            self.catch_up(pos, ply);
        }
        castella_eval::bounded(self.net.output(&self.sums[ply], pos))
    }

    /// Brings the sums at `ply` up to date when the kings never force a
    /// refresh: both views move together.
    #[inline(always)]
    fn catch_up(&mut self, pos: &Position, ply: usize) {
        let net = &*self.net;
        let mut base = ply;
        while !self.valid[base][0] && base > 0 && ply - base < MAX_CHAIN {
            base -= 1;
        }
        if self.valid[base][0] {
            for p in base + 1..=ply {
                let (done, todo) = self.sums.split_at_mut(p);
                net.update(&done[p - 1], &self.deltas[p], &mut todo[0]);
                self.valid[p] = [true; 2];
            }
        } else {
            // In place: a returned accumulator would be zeroed and copied
            // whole, room past the network's size included.
            net.refresh_views(pos, &mut self.sums[ply], [true, true]);
            self.valid[ply] = [true; 2];
        }
    }

    /// The same with king buckets, view by view: a delta that needs a
    /// refresh of a view ends that view's chain.
    #[inline(always)]
    fn catch_up_by_view(&mut self, pos: &Position, ply: usize) {
        let net = &*self.net;
        let mut refresh = [false; 2];
        for (view, refresh) in refresh.iter_mut().enumerate() {
            let mut base = ply;
            while !self.valid[base][view] {
                if base == 0 || ply - base >= MAX_CHAIN || self.deltas[base].needs_refresh(view) {
                    break;
                }
                base -= 1;
            }
            if !self.valid[base][view] {
                *refresh = true;
                continue;
            }
            for p in base + 1..=ply {
                let (done, todo) = self.sums.split_at_mut(p);
                net.update_view(&done[p - 1], &self.deltas[p], &mut todo[0], view);
                self.valid[p][view] = true;
            }
        }
        if refresh[0] || refresh[1] {
            match self.buckets.as_deref_mut() {
                Some(table) => {
                    for view in (0..2).filter(|&v| refresh[v]) {
                        net.refresh_view_cached(pos, &mut self.sums[ply], view, table);
                    }
                }
                None => net.refresh_views(pos, &mut self.sums[ply], refresh),
            }
            self.valid[ply] = [true; 2];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use castella_eval::nnue::file::{king_bucketed, king_bucketed_as};
    use castella_eval::nnue::{Inputs, KING_SQUARES};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Random games through castling (both sides, 960 placements), en
    /// passant, promotions and captures: every incremental evaluation with
    /// `net` equals the evaluation from scratch, also after null moves and
    /// when plies are skipped (evaluated only now and then, as the search
    /// does).
    fn assert_incremental_matches_a_refresh(net: Arc<Network>) {
        let fens = [
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let mut rng = StdRng::seed_from_u64(7);
        for fen in fens {
            for _ in 0..20 {
                let mut acc = Accumulators::default();
                acc.set_network(net.clone());
                acc.new_root();
                let mut pos = Position::from_fen(fen).unwrap();
                for ply in 0..60 {
                    if rng.gen_bool(0.5) || ply == 0 {
                        assert_eq!(
                            acc.evaluate(&pos, ply),
                            castella_eval::static_eval_with(&net, &pos),
                            "{pos:?} at ply {ply}"
                        );
                    }
                    let moves = pos.legal_moves();
                    if moves.is_empty() || ply + 1 >= LEN {
                        break;
                    }
                    let mut child = pos;
                    if rng.gen_bool(0.1) && !pos.in_check() {
                        child.make_null();
                    } else {
                        child.make(moves[rng.gen_range(0..moves.len())]);
                    }
                    acc.push(ply + 1, &pos, &child);
                    pos = child;
                }
            }
        }
    }

    #[test]
    fn incremental_updates_match_a_refresh() {
        assert_incremental_matches_a_refresh(castella_eval::embedded_network());
    }

    /// With king buckets a king move can cut one view's chain of updates
    /// and not the other's.
    #[test]
    fn incremental_updates_match_a_refresh_with_king_buckets() {
        let mut map = [2; KING_SQUARES];
        map[..4].copy_from_slice(&[0, 0, 1, 1]);
        let file = king_bucketed(castella_eval::NETWORK_FILE, &map, 5).unwrap();
        assert_incremental_matches_a_refresh(Arc::new(Network::from_bytes(&file).unwrap()));
    }

    /// The same with king buckets on a board that is not mirrored: a
    /// king move across the middle refreshes only where it changes the
    /// bucket.
    #[test]
    fn incremental_updates_match_a_refresh_with_unmirrored_king_buckets() {
        let map = std::array::from_fn(|sq| match sq / 8 {
            0 => (sq % 8 / 2) as u8,
            _ => 4 + (sq % 8 / 4) as u8,
        });
        let inputs = Inputs::king_buckets_unmirrored(&map).unwrap();
        let file = king_bucketed_as(castella_eval::NETWORK_FILE, &inputs, 5).unwrap();
        assert_incremental_matches_a_refresh(Arc::new(Network::from_bytes(&file).unwrap()));
    }
}
