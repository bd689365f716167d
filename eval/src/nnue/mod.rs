//! A small efficiently-updatable neural network evaluation (NNUE).
//!
//! Shape: 768 inputs (colour × piece × square, seen from one side) feed a
//! hidden layer of 128 to 512 neurons (the file says how many), computed
//! twice: once from the side to move's view and once from the other
//! side's (the board flipped top to bottom and the colours swapped). One
//! output neuron reads both halves, side to move first, through a clipped
//! ReLU, or its square (SCReLU) when the file says so. The output
//! neuron may come in material buckets: one per range of piece counts, so
//! that the middlegame and the endgame read the hidden layer differently.
//! Chess960 needs no special inputs: where the pieces stand is all the
//! network sees. A file may key each view's inputs on its own king's
//! square (mirroring and king buckets, see [`Inputs`]).
//!
//! Weights are trained in floating point by `bench`'s `nnue-train` and
//! stored quantised: the hidden layer in units of 1/[`QA`], the output
//! weights in units of 1/[`QB`] or 1/[`QB_FINE`]; [`file`](mod@file) reads them.

mod features;
pub mod file;
mod refresh;
pub mod simd;

pub use features::{
    feature, for_each_feature, Delta, Inputs, ViewKey, INPUTS, KING_SQUARES, MAX_ACTIVE,
    MAX_KING_BUCKETS,
};
pub use file::{BUCKETS, FINE_OUTPUT, KING_BUCKETS, RESIDUAL, SCRELU, UNMIRRORED};
pub use refresh::RefreshTable;

use castella_movegen::{Color, Position, Square};
use features::pair;
use simd::{Kernels, Row};

/// The hidden layer's size, per view, is a multiple of this many neurons
/// (one block of the SIMD kernels)...
pub const HIDDEN_STEP: usize = 128;
/// ... and at most this many: the room every accumulator keeps.
pub const MAX_HIDDEN: usize = 512;

/// Whether a network may have `hidden` neurons per view: what network
/// files and the trainer's `--hidden` are checked against.
pub fn is_valid_hidden(hidden: usize) -> bool {
    hidden > 0 && hidden <= MAX_HIDDEN && hidden.is_multiple_of(HIDDEN_STEP)
}
/// Quantisation of the hidden layer: 1.0 is stored as `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 is stored as `QB`.
pub const QB: i32 = 64;
/// The finer quantisation of the output weights a file may choose: twice
/// the precision, for weights within ±1 (a SCReLU network's products
/// must fit the SIMD kernels' `i16`s, see [`simd::MAX_SQUARED_WEIGHT`]).
pub const QB_FINE: i32 = 128;
/// The network's output 1.0 is this many centipawns.
pub const SCALE: i32 = 400;
/// The most output buckets a network file may have.
pub const MAX_BUCKETS: usize = 8;

/// The output bucket of a position with `pieces` pieces (kings included)
/// in a network with `buckets` of them: equal ranges of piece counts from
/// 2 to 32, fewest pieces first.
#[inline(always)]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / 31).min(buckets - 1)
}

/// The hidden sums of one position from both views (White's first),
/// before activation: what an incremental update carries from a position
/// to its child. Only the network's first `hidden` lanes are used.
#[derive(Clone, Copy)]
#[repr(align(64))]
pub struct Accumulator([Row; 2]);

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator([[0; MAX_HIDDEN]; 2])
    }
}

/// A quantised network, ready to evaluate positions. Rows keep room for
/// [`MAX_HIDDEN`] neurons; the first `hidden` are the network's.
pub struct Network {
    hidden: usize,
    inputs: Inputs,
    /// One row per input: `inputs.rows()` of them.
    hidden_weights: Box<[Row]>,
    hidden_bias: Row,
    output_weights: [[Row; 2]; MAX_BUCKETS],
    output_bias: [i32; MAX_BUCKETS],
    buckets: usize,
    /// What 1.0 of an output weight is stored as: `QB` or `QB_FINE`.
    qb: i32,
    squared: bool,
    kernels: Kernels,
}

const _: () = assert!(MAX_HIDDEN.is_multiple_of(HIDDEN_STEP));

impl Network {
    /// A short description: size, activation and output quantisation.
    pub fn describe(&self) -> String {
        let output = match self.buckets {
            1 => "1".to_string(),
            n => format!("1 x {n} buckets"),
        };
        let inputs = match (self.inputs.keyed(), self.inputs.buckets()) {
            (false, _) => "768".to_string(),
            (true, 1) => "768 mirrored".to_string(),
            (true, n) if self.inputs.mirrored() => format!("768 x {n} king buckets, mirrored"),
            (true, n) => format!("768 x {n} king buckets"),
        };
        format!(
            "({inputs} -> {}) x 2 -> {output}, {}, output weights in 1/{}",
            self.hidden,
            if self.squared { "SCReLU" } else { "CReLU" },
            self.qb,
        )
    }

    /// Neurons in the hidden layer, per view.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// How the network's inputs are keyed on the kings: what a [`Delta`]
    /// between two positions needs.
    pub fn inputs(&self) -> &Inputs {
        &self.inputs
    }

    /// Output buckets by material.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// Whether the activation is SCReLU (else CReLU).
    pub fn screlu(&self) -> bool {
        self.squared
    }

    /// Whether the output weights are stored in units of 1/[`QB_FINE`].
    pub fn fine_output(&self) -> bool {
        self.qb == QB_FINE
    }

    /// The network's output for `pos` in centipawns from the side to
    /// move's view, computed from scratch.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(pos), pos)
    }

    /// The network's output for `pos` with the piece on `sq` taken off,
    /// from the side to move's view (the network reads only where pieces
    /// stand, so the position need not stay legal); the plain output when
    /// `sq` is empty.
    pub fn evaluate_without(&self, pos: &Position, sq: Square) -> i32 {
        let acc = self.refresh(pos);
        let (Some(color), Some(piece)) = (pos.color_on(sq), pos.piece_on(sq)) else {
            return self.output(&acc, pos);
        };
        let (w, b) = pair(self.inputs.keys(pos), color, piece, sq);
        let mut out = Accumulator::default();
        for (view, feature) in [w, b].into_iter().enumerate() {
            let row = &self.hidden_weights[feature as usize];
            self.kernels
                .update(&mut out.0[view], &acc.0[view], &[row], &[], self.hidden);
        }
        let pieces = pos.occupied().count() as usize - 1;
        self.output_with(&out, pos.side_to_move(), pieces)
    }

    /// The hidden sums of `pos`, computed from scratch.
    #[inline]
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::default();
        self.refresh_views(pos, &mut acc, [true, true]);
        acc
    }

    /// The hidden sums of `pos` from scratch, for the views (White's
    /// first) that `views` asks for.
    #[inline]
    pub fn refresh_views(&self, pos: &Position, acc: &mut Accumulator, views: [bool; 2]) {
        let mut rows: [[&Row; MAX_ACTIVE]; 2] = [[&self.hidden_bias; MAX_ACTIVE]; 2];
        let mut n = 0;
        for_each_feature(pos, &self.inputs, |w, b| {
            // A legal position has at most 32 pieces; more are ignored.
            if n < MAX_ACTIVE {
                rows[0][n] = &self.hidden_weights[w];
                rows[1][n] = &self.hidden_weights[b];
                n += 1;
            }
        });
        for view in 0..2 {
            if views[view] {
                self.kernels.update(
                    &mut acc.0[view],
                    &self.hidden_bias,
                    &[],
                    &rows[view][..n],
                    self.hidden,
                );
            }
        }
    }

    /// One view's hidden sums (0 White's, 1 Black's) of a child
    /// position: its parent's plus `delta`. A view for which
    /// [`Delta::needs_refresh`] holds must come from
    /// [`refresh_views`](Self::refresh_views) instead.
    #[inline]
    pub fn update_view(
        &self,
        parent: &Accumulator,
        delta: &Delta,
        child: &mut Accumulator,
        view: usize,
    ) {
        let (nr, na) = (delta.removed_len as usize, delta.added_len as usize);
        let rows = &self.hidden_weights;
        let mut subs = [&self.hidden_bias; 4];
        let mut adds = [&self.hidden_bias; 4];
        let pick = |(w, b): (u16, u16)| if view == 0 { w } else { b } as usize;
        for (i, &p) in delta.removed[..nr].iter().enumerate() {
            subs[i] = &rows[pick(p)];
        }
        for (i, &p) in delta.added[..na].iter().enumerate() {
            adds[i] = &rows[pick(p)];
        }
        self.kernels.update(
            &mut child.0[view],
            &parent.0[view],
            &subs[..nr],
            &adds[..na],
            self.hidden,
        );
    }

    /// The hidden sums of a child position: its parent's plus `delta`,
    /// for both views. Where [`Delta::needs_refresh`] holds for a view
    /// (only with king buckets), use [`update_view`](Self::update_view)
    /// for the other and [`refresh_views`](Self::refresh_views) for it.
    #[inline]
    pub fn update(&self, parent: &Accumulator, delta: &Delta, child: &mut Accumulator) {
        // Both views' rows in one pass, not two calls of `update_view`:
        // every plain network's node comes here, and the two calls (or
        // a shared helper returning the rows) cost 0.35-0.6% of the
        // bench's instructions under callgrind.
        let (nr, na) = (delta.removed_len as usize, delta.added_len as usize);
        let rows = &self.hidden_weights;
        let mut subs = [[&self.hidden_bias; 4]; 2];
        let mut adds = [[&self.hidden_bias; 4]; 2];
        for (i, &(w, b)) in delta.removed[..nr].iter().enumerate() {
            subs[0][i] = &rows[w as usize];
            subs[1][i] = &rows[b as usize];
        }
        for (i, &(w, b)) in delta.added[..na].iter().enumerate() {
            adds[0][i] = &rows[w as usize];
            adds[1][i] = &rows[b as usize];
        }
        for view in 0..2 {
            self.kernels.update(
                &mut child.0[view],
                &parent.0[view],
                &subs[view][..nr],
                &adds[view][..na],
                self.hidden,
            );
        }
    }

    /// The evaluation in centipawns of `pos`, whose hidden sums are `acc`,
    /// from the side to move's view.
    #[inline]
    pub fn output(&self, acc: &Accumulator, pos: &Position) -> i32 {
        self.output_with(acc, pos.side_to_move(), pos.occupied().count() as usize)
    }

    /// The evaluation in centipawns, for `stm` to move, of a position with
    /// `pieces` pieces whose hidden sums are `acc`.
    #[inline]
    fn output_with(&self, acc: &Accumulator, stm: Color, pieces: usize) -> i32 {
        let bucket = output_bucket(pieces, self.buckets);
        let weights = &self.output_weights[bucket];
        let [white, black] = &acc.0;
        let (us, them) = match stm {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let k = self.kernels;
        let sq = self.squared;
        let n = self.hidden;
        let mut sum = k.dot(us, &weights[0], sq, n) + k.dot(them, &weights[1], sq, n);
        if sq {
            // Products in units of QA² · QB, brought back to QA · QB.
            sum /= QA as i64;
        }
        // In i64: a file's extreme weights must not overflow here.
        ((sum + self.output_bias[bucket] as i64) * SCALE as i64 / (QA * self.qb) as i64) as i32
    }

    /// Which kernels evaluate this network (see [`simd::Kernels`]).
    pub fn kernels(&self) -> Kernels {
        self.kernels
    }

    /// The same network with other kernels (for tests and benchmarks).
    pub fn with_kernels(mut self, kernels: Kernels) -> Network {
        self.kernels = kernels;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network;

    const FENS: [&str; 6] = [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 b - - 0 1",
        // Chess960 castling that swaps king and rook (f1-g1, d1-c1): no
        // square changes colour.
        "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1",
        "2rk4/pp6/8/8/8/8/PP6/2RK4 w Cc - 0 1",
    ];

    #[test]
    fn output_buckets_split_the_piece_counts_evenly() {
        assert_eq!(output_bucket(32, 1), 0);
        assert_eq!(output_bucket(2, 8), 0);
        assert_eq!(output_bucket(32, 8), 7);
        let sizes: Vec<usize> = (0..8)
            .map(|b| (2..=32).filter(|&n| output_bucket(n, 8) == b).count())
            .collect();
        assert_eq!(sizes, [4, 4, 4, 4, 4, 4, 4, 3]);
        for n in 3..=32 {
            assert!(output_bucket(n, 8) >= output_bucket(n - 1, 8));
        }
    }

    #[test]
    fn the_embedded_network_loads() {
        let net = Network::from_bytes(crate::NETWORK_FILE).unwrap();
        let pos = Position::from_fen(FENS[0]).unwrap();
        assert_eq!(net.evaluate(&pos), network().evaluate(&pos));
    }

    /// A file is read as its bytes parse; a missing file is an error.
    #[test]
    fn network_files_are_read_from_disk() {
        let dir = std::env::temp_dir().join(format!("castella-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net.nnue");
        std::fs::write(&path, crate::NETWORK_FILE).unwrap();
        let net = Network::read(&path).unwrap();
        let pos = Position::from_fen(FENS[0]).unwrap();
        assert_eq!(net.evaluate(&pos), network().evaluate(&pos));
        std::fs::write(&path, b"CSNN").unwrap();
        assert!(Network::read(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(Network::read(&path).is_err());
    }

    /// Both views go through the same weights, so swapping the colours
    /// (and the side to move) swaps the views and leaves the output as is.
    #[test]
    fn the_network_is_colour_symmetric() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(
                network().evaluate(&pos),
                network().evaluate(&pos.flipped()),
                "{fen}"
            );
        }
    }

    /// `net` evaluates every test position from scratch, and each child
    /// through an incremental update, as `reference` does from scratch.
    fn assert_evaluates_as(net: &Network, reference: &Network) {
        let k = net.kernels();
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(net.evaluate(&pos), reference.evaluate(&pos), "{k:?} {fen}");
            for &mv in pos.legal_moves().iter() {
                let child = pos.play(mv);
                let mut a = Accumulator::default();
                let delta = Delta::between(&pos, &child, net.inputs());
                let refresh = [delta.needs_refresh(0), delta.needs_refresh(1)];
                let parent = net.refresh(&pos);
                for (view, _) in refresh.iter().enumerate().filter(|(_, r)| !**r) {
                    net.update_view(&parent, &delta, &mut a, view);
                }
                net.refresh_views(&child, &mut a, refresh);
                assert_eq!(
                    net.output(&a, &child),
                    reference.evaluate(&child),
                    "{k:?} {fen} {mv:?}"
                );
            }
        }
    }

    /// The whole network, refreshed and updated, gives the same output
    /// with every kernel this CPU runs.
    #[test]
    fn every_kernel_evaluates_alike() {
        let portable = Network::from_bytes(crate::NETWORK_FILE)
            .unwrap()
            .with_kernels(Kernels::Portable);
        for k in Kernels::available() {
            let net = Network::from_bytes(crate::NETWORK_FILE)
                .unwrap()
                .with_kernels(k);
            assert_evaluates_as(&net, &portable);
        }
    }

    /// Taking a piece off through the accumulator equals evaluating the
    /// position without it.
    #[test]
    fn evaluate_without_matches_the_smaller_position() {
        let net = network();
        let with = Position::from_fen("4k3/8/3n4/8/8/2N5/8/4K3 w - - 0 1").unwrap();
        let without = Position::from_fen("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1").unwrap();
        let d6 = Square::new(5 * 8 + 3);
        assert_eq!(net.evaluate_without(&with, d6), net.evaluate(&without));
        let empty = Square::new(0);
        assert_eq!(net.evaluate_without(&with, empty), net.evaluate(&with));
    }

    /// A network file with `to` hidden neurons per view: the first `to`
    /// of `file`'s, then silent ones (zero weights, bias and output).
    fn resized(file: &[u8], to: usize) -> Vec<u8> {
        let (hidden, header, buckets) = header_of(file);
        let mut out = file[..header].to_vec();
        out[4..8].copy_from_slice(&(to as u32).to_le_bytes());
        let rows = file[header..].chunks_exact(2 * hidden);
        // Hidden weight rows, the biases, each bucket's two output halves.
        for row in rows.take(INPUTS + 1 + 2 * buckets) {
            let keep = 2 * to.min(hidden);
            out.extend_from_slice(&row[..keep]);
            out.resize(out.len() + 2 * to - keep, 0);
        }
        out.extend_from_slice(&file[file.len() - 4 * buckets..]);
        out
    }

    /// A network file's hidden size, header length and output buckets.
    fn header_of(file: &[u8]) -> (usize, usize, usize) {
        let u32_at = |i: usize| u32::from_le_bytes(file[i..i + 4].try_into().unwrap()) as usize;
        if u32_at(8) as u32 & BUCKETS != 0 {
            (u32_at(4), 16, u32_at(12))
        } else {
            (u32_at(4), 12, 1)
        }
    }

    /// Networks of the smallest and largest hidden size load, and the
    /// small one padded with silent neurons evaluates every position
    /// (and update) as it does, on every kernel.
    #[test]
    fn hidden_sizes_load_and_agree() {
        let small_file = resized(&file::plain(crate::NETWORK_FILE).unwrap(), HIDDEN_STEP);
        let small = Network::from_bytes(&small_file).unwrap();
        assert_eq!(small.hidden(), HIDDEN_STEP);
        for k in Kernels::available() {
            let large = Network::from_bytes(&resized(&small_file, MAX_HIDDEN))
                .unwrap()
                .with_kernels(k);
            assert_eq!(large.hidden(), MAX_HIDDEN);
            assert!(large.describe().contains(&format!("-> {MAX_HIDDEN})")));
            assert_evaluates_as(&large, &small);
        }
    }

    /// Four king buckets: the home rank's files a–b and c–d, the second
    /// rank, the rest.
    const FOUR_BUCKETS: [u8; KING_SQUARES] = {
        let mut map = [3; KING_SQUARES];
        map[0] = 0;
        map[1] = 0;
        map[2] = 1;
        map[3] = 1;
        map[4] = 2;
        map[5] = 2;
        map[6] = 2;
        map[7] = 2;
        map
    };

    /// A plain network from the embedded one, whatever its inputs.
    fn plain_network() -> Network {
        Network::from_bytes(&file::plain(crate::NETWORK_FILE).unwrap()).unwrap()
    }

    fn four_bucket_network() -> Vec<u8> {
        file::king_bucketed(crate::NETWORK_FILE, &FOUR_BUCKETS, 5).unwrap()
    }

    /// The FEN of `fen`'s position mirrored left to right (no castling
    /// rights or en passant square).
    fn mirrored(fen: &str) -> String {
        let (board, rest) = fen.split_once(' ').unwrap();
        let ranks: Vec<String> = board
            .split('/')
            .map(|r| r.chars().rev().collect())
            .collect();
        format!("{} {rest}", ranks.join("/"))
    }

    /// With king buckets, every kernel's refreshes and updates (king moves
    /// across buckets and across the middle of the board included) agree
    /// with the portable refresh; colours and the left-right mirror leave
    /// the output as it is.
    #[test]
    fn king_bucket_networks_evaluate_alike() {
        let file = four_bucket_network();
        let portable = Network::from_bytes(&file)
            .unwrap()
            .with_kernels(Kernels::Portable);
        let plain = plain_network();
        let inputs = format!("768 x 4 king buckets, mirrored -> {}", plain.hidden());
        assert!(portable.describe().contains(&inputs));
        for k in Kernels::available() {
            assert_evaluates_as(
                &Network::from_bytes(&file).unwrap().with_kernels(k),
                &portable,
            );
        }
        let mut differ = false;
        for fen in FENS.iter().chain(&["3k4/8/8/8/8/8/3PP3/3K4 w - - 0 1"]) {
            let pos = Position::from_fen(fen).unwrap();
            let eval = portable.evaluate(&pos);
            assert_eq!(eval, portable.evaluate(&pos.flipped()), "{fen}");
            differ |= eval != plain.evaluate(&pos);
        }
        assert!(differ, "the buckets' weights were not used");
        for fen in [FENS[2], FENS[3]] {
            let (a, b) = (
                Position::from_fen(fen).unwrap(),
                Position::from_fen(&mirrored(fen)).unwrap(),
            );
            assert_eq!(portable.evaluate(&a), portable.evaluate(&b), "{fen}");
        }
    }

    /// Eight unmirrored king buckets: each half of the home rank in two,
    /// then the second rank and the rest, each in its two halves (a
    /// bucket's mirror image is the bucket across the middle).
    fn eight_unmirrored_buckets() -> [u8; 64] {
        std::array::from_fn(|sq| {
            let (rank, file) = (sq / 8, sq % 8);
            let half = (file >= 4) as u8;
            match rank {
                0 => file as u8 / 2,
                1 => 4 + half,
                _ => 6 + half,
            }
        })
    }

    /// Unmirrored king buckets: every kernel agrees with the portable
    /// refresh, colours leave the output as it is, and a mirrored
    /// position, whose kings stand in other buckets, is evaluated by
    /// other weights (the buckets' weights differ here).
    #[test]
    fn unmirrored_king_bucket_networks_evaluate_alike() {
        let inputs = Inputs::king_buckets_unmirrored(&eight_unmirrored_buckets()).unwrap();
        assert!(!inputs.mirrored() && inputs.buckets() == 8);
        let file = file::king_bucketed_as(crate::NETWORK_FILE, &inputs, 5).unwrap();
        let portable = Network::from_bytes(&file)
            .unwrap()
            .with_kernels(Kernels::Portable);
        assert_eq!(portable.inputs(), &inputs);
        assert!(portable.describe().contains("768 x 8 king buckets ->"));
        for k in Kernels::available() {
            assert_evaluates_as(
                &Network::from_bytes(&file).unwrap().with_kernels(k),
                &portable,
            );
        }
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(portable.evaluate(&pos), portable.evaluate(&pos.flipped()));
        }
        let (a, b) = (
            Position::from_fen(FENS[3]).unwrap(),
            Position::from_fen(&mirrored(FENS[3])).unwrap(),
        );
        assert_ne!(portable.evaluate(&a), portable.evaluate(&b));
        // With the plain weights in every bucket it is the plain network.
        let same = file::king_bucketed_as(crate::NETWORK_FILE, &inputs, 0).unwrap();
        let same = Network::from_bytes(&same).unwrap();
        let plain = plain_network();
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(same.evaluate(&pos), plain.evaluate(&pos), "{fen}");
        }
    }

    /// An unmirrored map must take each bucket's mirror image to one
    /// bucket; the features of a mirrored position follow it.
    #[test]
    fn unmirrored_maps_mirror_bucket_onto_bucket() {
        let map = eight_unmirrored_buckets();
        let inputs = Inputs::king_buckets_unmirrored(&map).unwrap();
        // a1's bucket (0) mirrors onto h1's (3); square a2 (8) onto h2.
        assert_eq!(inputs.mirror_feature(8), 3 * INPUTS + 15);
        assert_eq!(inputs.mirror_feature(4 * INPUTS + 9), 5 * INPUTS + 14);
        let mirrored = Inputs::king_buckets(&FOUR_BUCKETS).unwrap();
        assert_eq!(mirrored.mirror_feature(8), 8);
        assert_eq!(Inputs::PLAIN.mirror_feature(8), 15);
        let mut lopsided = map;
        lopsided[0] = 1; // a1 with b1, c1, d1: its mirror h1 stays with g1
        assert!(Inputs::king_buckets_unmirrored(&lopsided)
            .unwrap_err()
            .contains("mirror"));
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let good = &file::plain(crate::NETWORK_FILE).unwrap()[..];
        let err = |bytes: &[u8]| Network::from_bytes(bytes).err().unwrap();
        assert!(err(&good[..good.len() - 1]).contains("truncated"));
        assert!(err(b"NOPE").contains("magic"));
        let mut longer = good.to_vec();
        longer.push(0);
        assert!(err(&longer).contains("trailing"));
        let mut other_size = good.to_vec();
        other_size[4] ^= 1;
        assert!(err(&other_size).contains("hidden neurons"));
        let mut too_large = good.to_vec();
        too_large[4..8].copy_from_slice(&(MAX_HIDDEN as u32 + HIDDEN_STEP as u32).to_le_bytes());
        assert!(err(&too_large).contains("hidden neurons"));
        let mut flags = good.to_vec();
        flags[8] |= 64;
        assert!(err(&flags).contains("unknown network flags"));
        let mut flags = good.to_vec();
        flags[8] |= UNMIRRORED as u8;
        assert!(err(&flags).contains("unmirrored without king buckets"));
        let mut correction = good.to_vec();
        correction[8] |= RESIDUAL as u8;
        assert!(err(&correction).contains("hand-written evaluation"));
        let mut buckets = good.to_vec();
        buckets[8] |= BUCKETS as u8;
        buckets.splice(12..12, 9u32.to_le_bytes());
        assert!(err(&buckets).contains("output buckets"));
        // As SCReLU, an output weight too large for the SIMD products.
        let mut squared = good.to_vec();
        squared[8] |= SCRELU as u8;
        let (hidden, header, _) = header_of(good);
        let first_output = header + 2 * (INPUTS * hidden + hidden);
        squared[first_output..first_output + 2].copy_from_slice(&200i16.to_le_bytes());
        assert!(err(&squared).contains("output weights"));
        let keyed = four_bucket_network();
        let at = 16; // the map follows the output bucket count
        let mut gap = keyed.clone();
        gap[at..at + KING_SQUARES]
            .iter_mut()
            .for_each(|b| *b = 2 * (*b / 2));
        assert!(err(&gap).contains("unused"));
        let mut many = keyed.clone();
        many[at] = MAX_KING_BUCKETS as u8;
        assert!(err(&many).contains("king buckets"));
        assert!(err(&keyed[..keyed.len() - 1]).contains("truncated"));
        assert!(err(&keyed[..at + 10]).contains("truncated"));
        // Bucketing a bucketed network starts from its first bucket (here
        // the plain rows); plain inputs are not a bucketing.
        assert_eq!(file::plain(good).unwrap(), good);
        assert_eq!(
            file::king_bucketed(&keyed, &FOUR_BUCKETS, 5).unwrap(),
            keyed
        );
        assert!(file::king_bucketed_as(good, &Inputs::PLAIN, 0).is_err());
    }
}
