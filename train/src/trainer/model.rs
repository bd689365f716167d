//! The network in floating point for training: its shape, its parameters
//! and the forward and backward pass of one sample. `quantise` turns the
//! parameters into the file the engine reads.

use super::sample::Sample;
use castella_eval::nnue::{
    self, output_bucket, Inputs, INPUTS, MAX_ACTIVE, MAX_BUCKETS, MAX_HIDDEN, QB, QB_FINE, SCALE,
};
use rand::rngs::StdRng;
use rand::Rng;
use std::ops::Range;

/// Where the hidden weights start in the flat parameter vector (see
/// [`Shape::b1`] for the rest).
pub const W1: usize = 0;
/// Largest weight magnitude: keeps `i16` hidden sums and output weights
/// in range once quantised (a SCReLU output weight of 1.98 is 127 units
/// of 1/`QB`; with `QB_FINE` the output weights keep within half of it).
pub const CLIP: f32 = 1.98;

/// The hidden layer's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// Clipped ReLU: `clamp(x, 0, 1)`.
    CReLU,
    /// Squared clipped ReLU: `clamp(x, 0, 1)²`.
    SCReLU,
}

impl Activation {
    #[inline(always)]
    fn apply(self, x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        match self {
            Activation::CReLU => c,
            Activation::SCReLU => c * c,
        }
    }

    #[inline(always)]
    fn derivative(self, x: f32) -> f32 {
        if x <= 0.0 || x >= 1.0 {
            return 0.0;
        }
        match self {
            Activation::CReLU => 1.0,
            Activation::SCReLU => 2.0 * x,
        }
    }
}

/// What the network is and how its output is read.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Neurons in the hidden layer, per view: a multiple of
    /// `nnue::HIDDEN_STEP`, at most `nnue::MAX_HIDDEN`.
    pub hidden: usize,
    pub activation: Activation,
    /// Centipawns per logistic unit (see `sample::Target::scale`).
    pub scale: f32,
    /// Output buckets by material, 1 to `MAX_BUCKETS`.
    pub buckets: usize,
    /// Store the output weights in units of 1/`QB_FINE` (twice as fine,
    /// within ±0.99) instead of 1/`QB`.
    pub fine_output: bool,
    /// How the kings key the inputs: plain, or mirrored with king
    /// buckets (768 input rows per bucket).
    pub inputs: Inputs,
    /// Train 768 more input rows shared by every king bucket (the
    /// factoriser): each active input adds its bucket's row and the
    /// shared row of the same piece and square, so what holds for every
    /// king position is learnt from every position, and a bucket's rows
    /// learn only how its king positions differ. Quantising adds the
    /// shared rows into each bucket's, so the file and the engine never
    /// see them.
    pub factoriser: bool,
}

impl Shape {
    // Hidden weights (from `W1`), hidden biases, each output bucket's
    // weights (side to move, other side), each bucket's output bias:
    // offsets into one flat parameter vector. Room is kept for the most
    // buckets a file may have; a network with fewer leaves the rest
    // untouched and unwritten.

    /// Input rows trained: the file's (768 per king bucket), then the
    /// factoriser's 768 if there is one.
    pub fn rows(&self) -> usize {
        self.inputs.rows() + self.factoriser as usize * INPUTS
    }

    /// Where the factoriser's rows start, if there are any: past the
    /// bucket rows, which are all the file holds.
    pub fn factor_row(&self) -> Option<usize> {
        self.factoriser.then(|| self.inputs.rows())
    }

    /// The input weights the file holds: every king bucket's rows (a
    /// factoriser's follow them).
    pub fn bucket_weights(&self) -> Range<usize> {
        W1..W1 + self.inputs.rows() * self.hidden
    }

    /// This shape without a factoriser: the network as its file holds it.
    pub fn filed(&self) -> Shape {
        Shape {
            factoriser: false,
            ..*self
        }
    }

    /// Where the hidden biases start.
    pub fn b1(&self) -> usize {
        W1 + self.rows() * self.hidden
    }

    /// Where the output weights start.
    pub fn w2(&self) -> usize {
        self.b1() + self.hidden
    }

    /// Where the output biases start.
    pub fn b2(&self) -> usize {
        self.w2() + MAX_BUCKETS * 2 * self.hidden
    }

    /// How many parameters the network has.
    pub fn params(&self) -> usize {
        self.b2() + MAX_BUCKETS
    }

    /// The logistic's slope for the raw output (1.0 = `SCALE` cp).
    fn slope(&self) -> f32 {
        SCALE as f32 / self.scale
    }

    /// What 1.0 of an output weight is stored as.
    pub fn qb(&self) -> i32 {
        if self.fine_output {
            QB_FINE
        } else {
            QB
        }
    }

    /// The largest output weight the file can hold.
    pub fn output_clip(&self) -> f32 {
        CLIP * QB as f32 / self.qb() as f32
    }

    /// The offsets of the output weights and bias that read a sample.
    #[inline(always)]
    fn output_of(&self, s: &Sample) -> (usize, usize) {
        let b = output_bucket(s.count as usize, self.buckets);
        (self.w2() + b * 2 * self.hidden, self.b2() + b)
    }
}

/// Random starting weights.
pub fn init(rng: &mut StdRng, shape: &Shape) -> Vec<f32> {
    let mut p = vec![0f32; shape.params()];
    let w1 = 1.0 / (MAX_ACTIVE as f32).sqrt();
    // The factoriser starts at zero: the network starts as one without it.
    for w in &mut p[shape.bucket_weights()] {
        *w = rng.gen_range(-w1..w1);
    }
    let w2 = 1.0 / ((2 * shape.hidden) as f32).sqrt();
    for w in &mut p[shape.w2()..shape.b2()] {
        *w = rng.gen_range(-w2..w2);
    }
    p
}

/// The output, in network units (1.0 = `SCALE` cp), from both views'
/// hidden sums and the output weights and bias at `w2` and `b2`.
#[inline(always)]
fn output(p: &[f32], act: Activation, us: &[f32], them: &[f32], (w2, b2): (usize, usize)) -> f32 {
    let n = us.len();
    let (w_us, w_them) = p[w2..w2 + 2 * n].split_at(n);
    // Eight running sums, added together at the end: one sum would wait
    // on each addition in turn (floats are added in the order written).
    let mut lanes = [0f32; 8];
    let rows = us.chunks_exact(8).zip(them.chunks_exact(8));
    let rows = rows.zip(w_us.chunks_exact(8).zip(w_them.chunks_exact(8)));
    for ((us, them), (w_us, w_them)) in rows {
        for l in 0..8 {
            lanes[l] += act.apply(us[l]) * w_us[l] + act.apply(them[l]) * w_them[l];
        }
    }
    p[b2] + lanes.iter().sum::<f32>()
}

/// The hidden sums of one view (the first `shape.hidden` of them) from
/// its input `rows` ([`rows_of`]), into `sums`. `BLOCK` neurons at a
/// time, so that a block's sums stay in registers while every row is
/// added; each sum adds the bias and
/// then the rows in input order whatever the block, so every block size
/// gives the same floats.
#[inline(always)]
fn hidden_into<const BLOCK: usize>(p: &[f32], shape: &Shape, rows: &[u16], sums: &mut [f32]) {
    let n = shape.hidden;
    let bias = &p[shape.b1()..][..n];
    for c in (0..n).step_by(BLOCK) {
        let mut a: [f32; BLOCK] = bias[c..c + BLOCK].try_into().unwrap();
        for &r in rows {
            let row = &p[W1 + r as usize * n + c..][..BLOCK];
            for (a, w) in a.iter_mut().zip(row) {
                *a += w;
            }
        }
        sums[c..c + BLOCK].copy_from_slice(&a);
    }
}

/// The input rows one view of `s` adds, in order: each active input's
/// (those of the position mirrored left to right, with `mirror`) and,
/// after each where there is a factoriser, its shared row of the same
/// piece and square. Their number is the second value.
#[inline(always)]
fn rows_of(
    shape: &Shape,
    inputs: &[u16; MAX_ACTIVE],
    n: usize,
    mirror: bool,
) -> ([u16; 2 * MAX_ACTIVE], usize) {
    let mut rows = [0; 2 * MAX_ACTIVE];
    let mut len = 0;
    for &f in &inputs[..n] {
        let f = if mirror {
            shape.inputs.mirror_feature(f as usize)
        } else {
            f as usize
        };
        rows[len] = f as u16;
        len += 1;
        if let Some(shared) = shape.factor_row() {
            rows[len] = (shared + f % INPUTS) as u16;
            len += 1;
        }
    }
    (rows, len)
}

/// Both views' hidden sums of `s` (the first `shape.hidden` of each)
/// and the output, in network units.
#[inline(always)]
fn forward<const BLOCK: usize>(
    p: &[f32],
    s: &Sample,
    shape: &Shape,
    mirror: bool,
) -> ([f32; MAX_HIDDEN], [f32; MAX_HIDDEN], f32) {
    let (n, h) = (s.count as usize, shape.hidden);
    let mut us = [0f32; MAX_HIDDEN];
    let mut them = [0f32; MAX_HIDDEN];
    let (rows, len) = rows_of(shape, &s.us, n, mirror);
    hidden_into::<BLOCK>(p, shape, &rows[..len], &mut us);
    let (rows, len) = rows_of(shape, &s.them, n, mirror);
    hidden_into::<BLOCK>(p, shape, &rows[..len], &mut them);
    let out = output(
        p,
        shape.activation,
        &us[..h],
        &them[..h],
        shape.output_of(s),
    );
    (us, them, out)
}

/// Neurons a block of [`hidden_into`] and [`step_with`] take on the
/// portable path (16 SSE registers) and the AVX2 one (16 wider ones).
const PORTABLE_BLOCK: usize = 32;
#[cfg(target_arch = "x86_64")]
const AVX2_BLOCK: usize = 64;
const _: () = assert!(nnue::HIDDEN_STEP.is_multiple_of(PORTABLE_BLOCK));
#[cfg(target_arch = "x86_64")]
const _: () = assert!(nnue::HIDDEN_STEP.is_multiple_of(AVX2_BLOCK));

/// Squared error of one sample, and (when `grad` is given) its gradient
/// added to `grad`. With `mirror` the network sees the position mirrored
/// left to right (files a <-> h) instead of as it is. Compiled twice, and the
/// AVX2 copy taken where the CPU has it: the two give the same floats
/// (no fused multiply-adds, the same order of operations).
#[inline]
pub fn step(p: &[f32], s: &Sample, shape: &Shape, mirror: bool, grad: Option<&mut [f32]>) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has just said it has AVX2.
        return unsafe { step_avx2(p, s, shape, mirror, grad) };
    }
    step_with::<PORTABLE_BLOCK>(p, s, shape, mirror, grad)
}

/// [`step`] compiled for AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn step_avx2(
    p: &[f32],
    s: &Sample,
    shape: &Shape,
    mirror: bool,
    grad: Option<&mut [f32]>,
) -> f32 {
    step_with::<AVX2_BLOCK>(p, s, shape, mirror, grad)
}

#[inline(always)]
fn step_with<const BLOCK: usize>(
    p: &[f32],
    s: &Sample,
    shape: &Shape,
    mirror: bool,
    grad: Option<&mut [f32]>,
) -> f32 {
    let (n, h) = (s.count as usize, shape.hidden);
    let (us, them, out) = forward::<BLOCK>(p, s, shape, mirror);
    let act = shape.activation;
    let (w2, b2) = shape.output_of(s);
    let slope = shape.slope();
    let pred = 1.0 / (1.0 + (-out * slope).exp());
    let err = pred - s.target;
    if let Some(g) = grad {
        let d_out = 2.0 * err * pred * (1.0 - pred) * slope;
        g[b2] += d_out;
        let b1 = shape.b1();
        for (half, acc, inputs) in [(0, &us, &s.us), (1, &them, &s.them)] {
            let (rows, len) = rows_of(shape, inputs, n, mirror);
            let mut d_acc = [0f32; MAX_HIDDEN];
            let d_acc = &mut d_acc[..h];
            let w2 = w2 + half * h;
            for i in 0..h {
                g[w2 + i] += d_out * act.apply(acc[i]);
                d_acc[i] = d_out * p[w2 + i] * act.derivative(acc[i]);
            }
            for (g, d) in g[b1..b1 + h].iter_mut().zip(d_acc.iter()) {
                *g += d;
            }
            // Block by block, each row's share added in input order as
            // one row at a time would.
            for c in (0..h).step_by(BLOCK) {
                let d: [f32; BLOCK] = d_acc[c..c + BLOCK].try_into().unwrap();
                for &r in &rows[..len] {
                    let row = &mut g[W1 + r as usize * h + c..][..BLOCK];
                    for (x, d) in row.iter_mut().zip(&d) {
                        *x += d;
                    }
                }
            }
        }
    }
    err * err
}

/// The network's output in centipawns, as the float model computes it.
pub fn output_cp(p: &[f32], s: &Sample, shape: &Shape) -> f32 {
    forward::<PORTABLE_BLOCK>(p, s, shape, false).2 * SCALE as f32
}

#[cfg(test)]
pub(crate) mod testing {
    //! Random networks, the shapes to try them in, and samples to feed
    //! them: for the trainer's tests.
    use super::*;
    use castella_eval::nnue::{KING_SQUARES, QA};
    use castella_movegen::Position;

    /// The float network on random weights, with biases and a larger
    /// output so that activations vary; with `on_grid` every parameter is
    /// first rounded to what the file can hold.
    pub(crate) fn random_network(rng: &mut StdRng, shape: &Shape, on_grid: bool) -> Vec<f32> {
        let mut p = init(rng, shape);
        let (b1, w2, b2) = (shape.b1(), shape.w2(), shape.b2());
        // A factoriser starts at zero in training: here it is as live
        // as the buckets' rows, so that adding it in is tested.
        if let Some(shared) = shape.factor_row() {
            let w1 = 1.0 / (MAX_ACTIVE as f32).sqrt();
            for w in &mut p[W1 + shared * shape.hidden..b1] {
                *w = rng.gen_range(-w1..w1);
            }
        }
        for (i, b) in p[b1..w2].iter_mut().enumerate() {
            *b = (i % 7) as f32 * 0.08;
        }
        for (i, b) in p[b2..].iter_mut().enumerate() {
            *b = 0.05 - 0.02 * i as f32;
        }
        if on_grid {
            let round = |x: &mut f32, unit: i32| *x = (*x * unit as f32).round() / unit as f32;
            p[W1..w2].iter_mut().for_each(|w| round(w, QA));
            let clip = shape.output_clip();
            for w in &mut p[w2..b2] {
                *w = w.clamp(-clip, clip);
                round(w, shape.qb());
            }
            p[b2..].iter_mut().for_each(|w| round(w, QA * shape.qb()));
        }
        p
    }

    /// Mirrored inputs with the king on rank 1 in two buckets (files
    /// a–b, c–d) and anywhere else in a third.
    pub(crate) fn three_king_buckets() -> Inputs {
        let mut map = [2; KING_SQUARES];
        map[..4].copy_from_slice(&[0, 0, 1, 1]);
        Inputs::king_buckets(&map).unwrap()
    }

    /// Unmirrored inputs with the king on rank 1 in two buckets (files
    /// a–d, e–h) and anywhere else in a third.
    pub(crate) fn three_unmirrored_buckets() -> Inputs {
        let map = std::array::from_fn(|sq| if sq < 8 { (sq >= 4) as u8 } else { 2 });
        Inputs::king_buckets_unmirrored(&map).unwrap()
    }

    /// Both activations, with and without buckets and fine output
    /// weights, at both hidden sizes, and with mirrored and king-bucketed
    /// inputs (mirrored and not), with and without a factoriser.
    pub(crate) fn shapes() -> Vec<Shape> {
        let mirrored = Inputs::king_buckets(&[0; KING_SQUARES]).unwrap();
        let mut v = Vec::new();
        // King-bucketed shapes last, so that the random networks of the
        // others stay what the tests' bounds were seen on.
        for inputs in [
            Inputs::PLAIN,
            mirrored,
            three_king_buckets(),
            three_unmirrored_buckets(),
        ] {
            for activation in [Activation::CReLU, Activation::SCReLU] {
                let sizes: &[(usize, usize, bool)] = if inputs.keyed() {
                    &[(128, 1, true), (256, 8, true)]
                } else {
                    &[
                        (128, 1, false),
                        (128, 8, false),
                        (256, 8, false),
                        (256, 8, true),
                    ]
                };
                for &(hidden, buckets, fine_output) in sizes {
                    v.push(Shape {
                        hidden,
                        activation,
                        scale: 400.0,
                        buckets,
                        fine_output,
                        inputs,
                        factoriser: false,
                    });
                }
            }
        }
        // Factorised king buckets last of all, for the same reason.
        let keyed: Vec<Shape> = v.iter().filter(|s| s.inputs.keyed()).copied().collect();
        v.extend(keyed.into_iter().map(|s| Shape {
            factoriser: true,
            ..s
        }));
        v
    }

    /// One sample of each of a few positions (castling rights, both sides
    /// to move, an ending), with targets spread over 0..1.
    pub(crate) fn samples(inputs: &Inputs) -> Vec<Sample> {
        [
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ]
        .iter()
        .enumerate()
        .map(|(i, fen)| {
            let pos = Position::from_fen(fen).unwrap();
            Sample::at(&pos, 0.2 + 0.3 * i as f32, inputs).unwrap()
        })
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;
    use castella_movegen::Position;
    use rand::SeedableRng;

    /// Where the CPU has AVX2, `step` takes its AVX2 copy: it gives the
    /// portable copy's floats exactly, the error and every gradient
    /// entry, mirrored or not.
    #[test]
    fn both_copies_of_a_training_step_agree_exactly() {
        let mut rng = StdRng::seed_from_u64(13);
        for shape in shapes() {
            let p = random_network(&mut rng, &shape, false);
            for s in samples(&shape.inputs) {
                for mirror in [false, true] {
                    let mut fast = vec![0f32; shape.params()];
                    let mut portable = fast.clone();
                    let e_fast = step(&p, &s, &shape, mirror, Some(&mut fast));
                    let e_portable =
                        step_with::<PORTABLE_BLOCK>(&p, &s, &shape, mirror, Some(&mut portable));
                    assert_eq!(e_fast.to_bits(), e_portable.to_bits(), "{shape:?}");
                    let bits = |g: &[f32]| g.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert!(bits(&fast) == bits(&portable), "{shape:?}, mirror {mirror}");
                }
            }
        }
    }

    /// A sample seen mirrored is the mirrored position's sample, whatever
    /// the inputs: plain, king buckets on a mirrored board, or king
    /// buckets on the board as it is (the king's bucket mirrored too).
    #[test]
    fn a_mirrored_sample_is_the_mirrored_position() {
        let mut rng = StdRng::seed_from_u64(19);
        let mirror = |fen: &str| {
            let (board, rest) = fen.split_once(' ').unwrap();
            let ranks: Vec<String> = board
                .split('/')
                .map(|r| r.chars().rev().collect())
                .collect();
            format!("{} {rest}", ranks.join("/"))
        };
        for shape in shapes() {
            let p = random_network(&mut rng, &shape, false);
            for fen in [
                "2rk4/pp6/8/8/8/8/PP6/2RK4 w - - 0 1",
                "6k1/pp3p2/8/3q4/8/2N5/1K6/8 b - - 0 1",
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            ] {
                let sample = |fen: &str| {
                    Sample::at(&Position::from_fen(fen).unwrap(), 0.3, &shape.inputs).unwrap()
                };
                let (s, m) = (sample(fen), sample(&mirror(fen)));
                // The same sums, added in another order.
                let (a, b) = (
                    step(&p, &s, &shape, true, None),
                    step(&p, &m, &shape, false, None),
                );
                assert!((a - b).abs() <= 1e-6 * a.abs(), "{shape:?} {fen}: {a} {b}");
                // Only inputs on a mirrored board see the two alike.
                let plain = step(&p, &s, &shape, false, None);
                let alike = (plain - b).abs() <= 1e-6 * plain.abs();
                assert_eq!(
                    alike,
                    shape.inputs.keyed() && shape.inputs.mirrored(),
                    "{shape:?} {fen}"
                );
            }
        }
    }

    /// The gradient a step adds is the slope of its error: central
    /// differences agree on parameters the sample reaches (its inputs'
    /// rows, the hidden biases, its bucket's output weights and bias),
    /// whether or not the gradient there is zero.
    #[test]
    fn training_steps_follow_the_error_s_slope() {
        let mut rng = StdRng::seed_from_u64(17);
        for shape in shapes() {
            let p = random_network(&mut rng, &shape, false);
            let h = shape.hidden;
            for s in samples(&shape.inputs) {
                let mut grad = vec![0f32; shape.params()];
                step(&p, &s, &shape, false, Some(&mut grad));
                let (w2, b2) = shape.output_of(&s);
                let n = s.count as usize;
                let mut reached: Vec<usize> = (shape.b1()..shape.b1() + h).collect();
                reached.extend(w2..w2 + 2 * h);
                reached.push(b2);
                for &f in s.us[..n].iter().chain(&s.them[..n]) {
                    let f = f as usize;
                    reached.extend(W1 + f * h..W1 + (f + 1) * h);
                    if let Some(shared) = shape.factor_row() {
                        let row = shared + f % INPUTS;
                        reached.extend(W1 + row * h..W1 + (row + 1) * h);
                    }
                }
                let (eps, close) = (1e-3, |a: f32, b: f32| {
                    (a - b).abs() <= 2e-4 + 0.02 * b.abs()
                });
                let here = step(&p, &s, &shape, false, None);
                let mut kinks = 0;
                for _ in 0..200 {
                    let i = reached[rng.gen_range(0..reached.len())];
                    let mut q = p.clone();
                    q[i] = p[i] + eps;
                    let up = step(&q, &s, &shape, false, None);
                    q[i] = p[i] - eps;
                    let down = step(&q, &s, &shape, false, None);
                    // A neuron within eps of a clamp bends the error there:
                    // the slopes either side differ, and neither is the
                    // gradient's.
                    let (right, left) = ((up - here) / eps, (here - down) / eps);
                    if !close(right, left) {
                        kinks += 1;
                        continue;
                    }
                    let slope = (up - down) / (2.0 * eps);
                    assert!(
                        close(slope, grad[i]),
                        "{shape:?}: parameter {i}, gradient {} against {slope}",
                        grad[i]
                    );
                }
                assert!(kinks < 10, "{shape:?}: {kinks} of 200 parameters at a kink");
            }
        }
    }
}
