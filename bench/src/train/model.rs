//! The network in floating point for training: its parameters, the
//! forward and backward pass of one sample, and the quantised file the
//! engine reads (`castella_eval::nnue`).

use super::sample::Sample;
use castella_eval::nnue::{HIDDEN, INPUTS, MAX_ACTIVE, QA, QB, RESIDUAL, SCALE, SCRELU};
use rand::rngs::StdRng;
use rand::Rng;

/// Hidden weights, hidden biases, output weights (side to move, other
/// side), output bias: offsets into one flat parameter vector.
pub const W1: usize = 0;
pub const B1: usize = W1 + INPUTS * HIDDEN;
pub const W2: usize = B1 + HIDDEN;
pub const B2: usize = W2 + 2 * HIDDEN;
pub const PARAMS: usize = B2 + 1;
/// Largest weight magnitude: keeps `i16` hidden sums and output weights
/// in range once quantised.
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
    pub activation: Activation,
    /// The output is a correction added to the hand-written evaluation.
    pub residual: bool,
    /// Centipawns per logistic unit (see `sample::Target::scale`).
    pub scale: f32,
}

impl Shape {
    /// The logistic's slope for the raw output (1.0 = `SCALE` cp).
    fn slope(&self) -> f32 {
        SCALE as f32 / self.scale
    }
}

/// Random starting weights; with `residual` the output starts at zero, so
/// the correction starts by adding nothing.
pub fn init(rng: &mut StdRng, residual: bool) -> Vec<f32> {
    let mut p = vec![0f32; PARAMS];
    let w1 = 1.0 / (MAX_ACTIVE as f32).sqrt();
    for w in &mut p[W1..B1] {
        *w = rng.gen_range(-w1..w1);
    }
    if !residual {
        let w2 = 1.0 / ((2 * HIDDEN) as f32).sqrt();
        for w in &mut p[W2..B2] {
            *w = rng.gen_range(-w2..w2);
        }
    }
    p
}

/// The hidden sums of one view.
#[inline]
fn hidden(p: &[f32], inputs: &[u16], mirror: u16) -> [f32; HIDDEN] {
    let mut acc = [0f32; HIDDEN];
    acc.copy_from_slice(&p[B1..B1 + HIDDEN]);
    for &f in inputs {
        let row = &p[W1 + (f ^ mirror) as usize * HIDDEN..][..HIDDEN];
        for (a, w) in acc.iter_mut().zip(row) {
            *a += w;
        }
    }
    acc
}

/// Squared error of one sample, and (when `grad` is given) its gradient
/// added to `grad`. `mirror` is 7 to see the position mirrored left to
/// right (files a <-> h), 0 to see it as it is.
#[inline]
pub fn step(p: &[f32], s: &Sample, shape: &Shape, mirror: u16, grad: Option<&mut [f32]>) -> f32 {
    let n = s.count as usize;
    let us = hidden(p, &s.us[..n], mirror);
    let them = hidden(p, &s.them[..n], mirror);
    let act = shape.activation;
    let mut out = p[B2];
    for h in 0..HIDDEN {
        out += act.apply(us[h]) * p[W2 + h] + act.apply(them[h]) * p[W2 + HIDDEN + h];
    }
    if shape.residual {
        out += s.hce;
    }
    let slope = shape.slope();
    let pred = 1.0 / (1.0 + (-out * slope).exp());
    let err = pred - s.target;
    if let Some(g) = grad {
        let d_out = 2.0 * err * pred * (1.0 - pred) * slope;
        g[B2] += d_out;
        for (half, acc, inputs) in [(0, &us, &s.us[..n]), (1, &them, &s.them[..n])] {
            let mut d_acc = [0f32; HIDDEN];
            let w2 = W2 + half * HIDDEN;
            for h in 0..HIDDEN {
                g[w2 + h] += d_out * act.apply(acc[h]);
                d_acc[h] = d_out * p[w2 + h] * act.derivative(acc[h]);
            }
            for h in 0..HIDDEN {
                g[B1 + h] += d_acc[h];
            }
            for &f in inputs {
                let row = &mut g[W1 + (f ^ mirror) as usize * HIDDEN..][..HIDDEN];
                for (r, d) in row.iter_mut().zip(&d_acc) {
                    *r += d;
                }
            }
        }
    }
    err * err
}

/// The network's output in centipawns (without the hand-written part),
/// as the float model computes it.
pub fn output_cp(p: &[f32], s: &Sample, activation: Activation) -> f32 {
    let n = s.count as usize;
    let us = hidden(p, &s.us[..n], 0);
    let them = hidden(p, &s.them[..n], 0);
    let mut out = p[B2];
    for h in 0..HIDDEN {
        out += activation.apply(us[h]) * p[W2 + h] + activation.apply(them[h]) * p[W2 + HIDDEN + h];
    }
    out * SCALE as f32
}

/// The network quantised, in the format `castella_eval::nnue` reads.
pub fn quantise(p: &[f32], shape: &Shape) -> Vec<u8> {
    let q = |x: f32, scale: i32| (x * scale as f32).round() as i16;
    let mut flags = 0;
    if shape.residual {
        flags |= RESIDUAL;
    }
    if shape.activation == Activation::SCReLU {
        flags |= SCRELU;
    }
    let mut bytes = Vec::with_capacity(12 + 2 * PARAMS + 4);
    bytes.extend_from_slice(b"CSNN");
    bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
    bytes.extend_from_slice(&flags.to_le_bytes());
    for &w in &p[W1..W2] {
        bytes.extend_from_slice(&q(w, QA).to_le_bytes());
    }
    for &w in &p[W2..B2] {
        bytes.extend_from_slice(&q(w, QB).to_le_bytes());
    }
    let bias = (p[B2] * (QA * QB) as f32).round() as i32;
    bytes.extend_from_slice(&bias.to_le_bytes());
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Scored;
    use crate::train::sample::Target;
    use castella_eval::nnue::Network;
    use castella_movegen::Position;
    use rand::SeedableRng;

    /// The quantised network's output stays within 8 centipawns of the
    /// float model it came from, for both activations (rounding the output
    /// weights to 1/64 costs most of it; seen here: up to 6.5).
    #[test]
    fn quantised_output_is_close_to_the_float_model() {
        let mut rng = StdRng::seed_from_u64(11);
        let target = Target {
            lambda: 0.0,
            scale: 400.0,
        };
        for activation in [Activation::CReLU, Activation::SCReLU] {
            let mut p = init(&mut rng, false);
            // Biases and a larger output so that activations vary.
            for (i, b) in p[B1..W2].iter_mut().enumerate() {
                *b = (i % 7) as f32 * 0.08;
            }
            p[B2] = 0.05;
            let shape = Shape {
                activation,
                residual: false,
                scale: 400.0,
            };
            let net = Network::from_bytes(&quantise(&p, &shape)).unwrap();
            for fen in [
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            ] {
                let pos = Position::from_fen(fen).unwrap();
                let s = Scored {
                    pos,
                    mv: pos.legal_moves()[0],
                    score: 0,
                    ply: 0,
                };
                let sample = Sample::new(&s, 0.5, target, false).unwrap();
                let float = output_cp(&p, &sample, activation);
                let int = net.evaluate(&pos) as f32;
                assert!(
                    (float - int).abs() <= 8.0,
                    "{activation:?} {fen}: float {float}, quantised {int}"
                );
            }
        }
    }
}
