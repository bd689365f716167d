//! `nnue-train`: trains the evaluation network (`castella_eval::nnue`).
//!
//! ```text
//! nnue-train --data FILE [--epochs N] [--batch N] [--lr X] [--lam X]
//!            [--k K] [--decay X] [--residual] [--mirror] [--seed S]
//!            [--threads T] [--out FILE]
//! ```
//!
//! Data lines are `FEN | result | cp`: the game result from White's view
//! (1, 0.5 or 0) and a teacher's evaluation in centipawns from White's view
//! (`label-with-stockfish.py --raw` writes them). The target is
//! `lam * 1/(1 + 10^(-cp/210)) + (1 - lam) * result`, as for the Texel
//! tuner, and the network's output `e` (centipawns) is fitted through
//! `1/(1 + 10^(-K*e/400))` with the hand-written evaluation's `K`, so that
//! the network's centipawns mean what the search's margins expect.
//!
//! With `--residual` the network learns a correction: its output is added
//! to the hand-written evaluation (which it starts from, adding nothing)
//! and the file says so, so that the engine adds the two as well. With
//! little data this is what works: a network alone must learn material and
//! everything else from scratch and overfits. `--mirror` shows half the
//! positions mirrored left to right (a different half each epoch), which
//! the network cannot tell from new positions; `--decay` is decoupled
//! weight decay (AdamW), which keeps unproven corrections small.
//!
//! Training is plain mini-batch Adam on the squared error, in `f32`, with
//! the weights clipped so that the quantised network cannot overflow; the
//! learning rate drops tenfold for the last quarter of the epochs. The
//! last hundredth of the file (whole games, unless the file is shuffled) is
//! held out; the network written is the one with the lowest error there,
//! and the hand-written evaluation's error on it is printed first to
//! compare with.

use castella_eval::nnue::{for_each_feature, HIDDEN, INPUTS, MAX_ACTIVE, QA, QB, RESIDUAL, SCALE};
use castella_movegen::{Color, Position};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::io::BufRead;
use std::time::Instant;

/// Hidden weights, hidden biases, output weights (side to move, other
/// side), output bias.
const W1: usize = 0;
const B1: usize = W1 + INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + 2 * HIDDEN;
const PARAMS: usize = B2 + 1;
/// Largest weight magnitude: keeps `i16` hidden sums and output weights
/// in range once quantised.
const CLIP: f32 = 1.98;

struct Config {
    data: String,
    epochs: usize,
    batch: usize,
    lr: f32,
    lam: f32,
    k: f32,
    seed: u64,
    threads: Option<usize>,
    out: String,
    residual: bool,
    mirror: bool,
    decay: f32,
}

fn parse_args() -> Result<Config, String> {
    let mut c = Config {
        data: String::new(),
        epochs: 30,
        batch: 4096,
        lr: 0.002,
        lam: 1.0,
        k: 1.345,
        seed: 1,
        threads: None,
        out: "castella.nnue".into(),
        residual: false,
        mirror: false,
        decay: 1.0,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--residual" || flag == "--mirror" {
            c.residual |= flag == "--residual";
            c.mirror |= flag == "--mirror";
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = || format!("bad value for {flag}: {value}");
        match flag.as_str() {
            "--data" => c.data = value.clone(),
            "--epochs" => c.epochs = value.parse().map_err(|_| bad())?,
            "--batch" => c.batch = value.parse().map_err(|_| bad())?,
            "--lr" => c.lr = value.parse().map_err(|_| bad())?,
            "--lam" => c.lam = value.parse().map_err(|_| bad())?,
            "--k" => c.k = value.parse().map_err(|_| bad())?,
            "--seed" => c.seed = value.parse().map_err(|_| bad())?,
            "--threads" => c.threads = Some(value.parse().map_err(|_| bad())?),
            "--out" => c.out = value.clone(),
            "--decay" => c.decay = value.parse().map_err(|_| bad())?,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if c.data.is_empty() {
        return Err("--data is required".into());
    }
    if c.epochs == 0 || c.batch == 0 {
        return Err("--epochs and --batch must be positive".into());
    }
    Ok(c)
}

/// One training position: its inputs from the side to move's view and
/// from the other side's, and the target expected score for the side to
/// move.
struct Sample {
    us: [u16; MAX_ACTIVE],
    them: [u16; MAX_ACTIVE],
    count: u8,
    target: f32,
    /// The hand-written evaluation for the side to move, in network units
    /// (1.0 = SCALE centipawns): the network learns what to add to it when
    /// training with `--residual`.
    hce: f32,
}

fn parse_sample(line: &str, lam: f32) -> Option<Sample> {
    let mut parts = line.split('|').map(str::trim);
    let pos = Position::from_fen(parts.next()?).ok()?;
    let result: f32 = parts.next()?.parse().ok()?;
    let cp: f32 = parts.next()?.parse().ok()?;
    let white = lam / (1.0 + 10f32.powf(-cp / 210.0)) + (1.0 - lam) * result;
    let mut s = Sample {
        us: [0; MAX_ACTIVE],
        them: [0; MAX_ACTIVE],
        count: 0,
        target: white,
        hce: castella_eval::evaluate(&pos) as f32 / SCALE as f32,
    };
    let mut n = 0;
    let black_to_move = pos.side_to_move() == Color::Black;
    let mut ok = true;
    for_each_feature(&pos, |w, b| {
        if n == MAX_ACTIVE {
            ok = false;
            return;
        }
        let (us, them) = if black_to_move { (b, w) } else { (w, b) };
        s.us[n] = us as u16;
        s.them[n] = them as u16;
        n += 1;
    });
    if !ok {
        return None;
    }
    s.count = n as u8;
    if black_to_move {
        s.target = 1.0 - s.target;
    }
    Some(s)
}

fn load(path: &str, lam: f32) -> Result<Vec<Sample>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let lines: Vec<String> = std::io::BufReader::new(file)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{path}: {e}"))?;
    Ok(lines
        .par_iter()
        .filter_map(|l| parse_sample(l, lam))
        .collect())
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

/// The network's output (1.0 = [`SCALE`] centipawns) and the hidden sums.
#[inline]
fn forward(p: &[f32], s: &Sample, mirror: u16) -> (f32, [f32; HIDDEN], [f32; HIDDEN]) {
    let n = s.count as usize;
    let us = hidden(p, &s.us[..n], mirror);
    let them = hidden(p, &s.them[..n], mirror);
    let mut out = p[B2];
    for h in 0..HIDDEN {
        out += us[h].clamp(0.0, 1.0) * p[W2 + h];
        out += them[h].clamp(0.0, 1.0) * p[W2 + HIDDEN + h];
    }
    (out, us, them)
}

/// Squared error of one sample, and (when `grad` is given) its gradient
/// added to `grad`.
#[inline]
fn step(
    p: &[f32],
    s: &Sample,
    slope: f32,
    base: f32,
    mirror: u16,
    grad: Option<&mut [f32]>,
) -> f32 {
    let (out, us, them) = forward(p, s, mirror);
    let out = out + base * s.hce;
    let pred = 1.0 / (1.0 + (-out * slope).exp());
    let err = pred - s.target;
    if let Some(g) = grad {
        let d_out = 2.0 * err * pred * (1.0 - pred) * slope;
        g[B2] += d_out;
        let n = s.count as usize;
        for (half, acc, inputs) in [(0, &us, &s.us[..n]), (1, &them, &s.them[..n])] {
            let mut d_acc = [0f32; HIDDEN];
            for h in 0..HIDDEN {
                let a = acc[h];
                g[W2 + half * HIDDEN + h] += d_out * a.clamp(0.0, 1.0);
                if a > 0.0 && a < 1.0 {
                    d_acc[h] = d_out * p[W2 + half * HIDDEN + h];
                }
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

fn mean_error(p: &[f32], data: &[Sample], slope: f32, base: f32) -> f64 {
    let total: f64 = data
        .par_iter()
        .map(|s| step(p, s, slope, base, 0, None) as f64)
        .sum();
    total / data.len().max(1) as f64
}

fn init(rng: &mut StdRng) -> Vec<f32> {
    let mut p = vec![0f32; PARAMS];
    let w1 = 1.0 / (MAX_ACTIVE as f32).sqrt();
    for w in &mut p[W1..B1] {
        *w = rng.gen_range(-w1..w1);
    }
    let w2 = 1.0 / ((2 * HIDDEN) as f32).sqrt();
    for w in &mut p[W2..B2] {
        *w = rng.gen_range(-w2..w2);
    }
    p
}

/// Writes the network quantised, in the format `castella_eval::nnue`
/// reads.
fn save(p: &[f32], residual: bool, path: &str) -> Result<(), String> {
    let q = |x: f32, scale: i32| (x * scale as f32).round() as i16;
    let mut bytes = Vec::with_capacity(12 + 2 * PARAMS + 4);
    bytes.extend_from_slice(b"CSNN");
    bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
    bytes.extend_from_slice(&(if residual { RESIDUAL } else { 0 }).to_le_bytes());
    for &w in &p[W1..W2] {
        bytes.extend_from_slice(&q(w, QA).to_le_bytes());
    }
    for &w in &p[W2..B2] {
        bytes.extend_from_slice(&q(w, QB).to_le_bytes());
    }
    let bias = (p[B2] * (QA * QB) as f32).round() as i32;
    bytes.extend_from_slice(&bias.to_le_bytes());
    std::fs::write(path, bytes).map_err(|e| format!("{path}: {e}"))
}

fn train(c: &Config) -> Result<(), String> {
    let start = Instant::now();
    let mut data = load(&c.data, c.lam)?;
    if data.len() < 100 {
        return Err(format!("{}: too few positions ({})", c.data, data.len()));
    }
    let mut rng = StdRng::seed_from_u64(c.seed);
    // The last positions of the file, whole games apart from the first,
    // are held out: positions of one game resemble each other too much to
    // test on one and train on another.
    let valid = data.split_off(data.len() - data.len() / 100);
    eprintln!(
        "{} training and {} validation positions, loaded in {:.0} s",
        data.len(),
        valid.len(),
        start.elapsed().as_secs_f64()
    );
    // The network's output 1.0 is SCALE centipawns.
    let slope = c.k * std::f32::consts::LN_10 * SCALE as f32 / 400.0;
    let base = if c.residual { 1.0 } else { 0.0 };
    // A network that adds nothing: the hand-written evaluation alone.
    let hce_only = vec![0f32; PARAMS];
    eprintln!(
        "the hand-written evaluation's validation error: {:.6}",
        mean_error(&hce_only, &valid, slope, 1.0)
    );
    let mut p = init(&mut rng);
    if c.residual {
        // Start from adding nothing.
        p[W2..B2].fill(0.0);
    }
    let (mut m, mut v) = (vec![0f32; PARAMS], vec![0f32; PARAMS]);
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut t = 0i32;
    let threads = rayon::current_num_threads().max(1);
    let mut order: Vec<usize> = (0..data.len()).collect();
    let mut best_err = f64::INFINITY;
    for epoch in 1..=c.epochs {
        let lr = if epoch * 4 > c.epochs * 3 {
            c.lr / 10.0
        } else {
            c.lr
        };
        order.shuffle(&mut rng);
        let mut train_err = 0f64;
        for batch in order.chunks(c.batch) {
            let per = batch.len().div_ceil(threads);
            let (grad, err) = batch
                .par_chunks(per)
                .map(|chunk| {
                    let mut g = vec![0f32; PARAMS];
                    let mut e = 0f64;
                    for &i in chunk {
                        // Half the positions, a different half each epoch,
                        // are seen mirrored left to right (files a <-> h):
                        // the network sees no castling rights, and a
                        // mirrored Chess960 position is worth the same.
                        let mirror = if c.mirror && (i + epoch) % 2 == 1 {
                            7
                        } else {
                            0
                        };
                        e += step(&p, &data[i], slope, base, mirror, Some(&mut g)) as f64;
                    }
                    (g, e)
                })
                .reduce(
                    || (vec![0f32; PARAMS], 0.0),
                    |(mut a, ea), (b, eb)| {
                        for (x, y) in a.iter_mut().zip(&b) {
                            *x += y;
                        }
                        (a, ea + eb)
                    },
                );
            train_err += err;
            t += 1;
            let inv = 1.0 / batch.len() as f32;
            let (c1, c2) = (1.0 - beta1.powi(t), 1.0 - beta2.powi(t));
            for i in 0..PARAMS {
                let g = grad[i] * inv;
                m[i] = beta1 * m[i] + (1.0 - beta1) * g;
                v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
                p[i] -= lr * ((m[i] / c1) / ((v[i] / c2).sqrt() + eps) + c.decay * p[i]);
            }
            for w in &mut p[W1..B2] {
                *w = w.clamp(-CLIP, CLIP);
            }
        }
        let valid_err = mean_error(&p, &valid, slope, base);
        eprintln!(
            "epoch {epoch}: lr {lr}, train error {:.6}, validation error {valid_err:.6}, {:.0} s",
            train_err / data.len() as f64,
            start.elapsed().as_secs_f64()
        );
        // Keep the network that does best on positions it never saw.
        if valid_err < best_err {
            best_err = valid_err;
            save(&p, c.residual, &c.out)?;
        }
    }
    eprintln!("wrote {} (best validation error {best_err:.6})", c.out);
    Ok(())
}

fn main() {
    let c = parse_args().unwrap_or_else(|e| {
        eprintln!("nnue-train: {e}\nusage: nnue-train --data FILE [--epochs N] [--batch N] [--lr X] [--lam X] [--k K] [--decay X] [--residual] [--mirror] [--seed S] [--threads T] [--out FILE]");
        std::process::exit(2);
    });
    castella_bench::set_threads(c.threads);
    if let Err(e) = train(&c) {
        eprintln!("nnue-train: {e}");
        std::process::exit(1);
    }
}
