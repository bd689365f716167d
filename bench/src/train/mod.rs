//! The network trainer behind `nnue-train`: mini-batch AdamW on the
//! squared error of the expected score, in `f32`, on rayon's threads.

pub mod adam;
pub mod checkpoint;
pub mod model;
pub mod quantise;
pub mod sample;

use crate::filter::Filter;
use castella_eval::nnue::Network;
use checkpoint::Checkpoint;
use model::Shape;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;
use sample::{Distill, Labels, Sample, Target, Teacher};
use std::path::PathBuf;
use std::time::Instant;

/// Everything a training run is given.
#[derive(Clone, Debug)]
pub struct Config {
    /// Game files (`datagen`'s format).
    pub files: Vec<String>,
    pub filter: Filter,
    pub target: Target,
    pub shape: Shape,
    pub epochs: u32,
    pub batch: usize,
    /// The learning rate falls from `lr` to `lr_end` along a cosine.
    pub lr: f32,
    pub lr_end: f32,
    /// Decoupled weight decay (AdamW), per unit of learning rate.
    pub decay: f32,
    /// See half the positions mirrored left to right, a different half
    /// each epoch: a mirrored Chess960 position is worth the same.
    pub mirror: bool,
    /// Games whose index is a multiple of this are held out.
    pub hold_out_every: u32,
    pub seed: u64,
    /// The quantised network, written whenever validation improves.
    pub out: PathBuf,
    /// Go on from `out` + `.ckpt`, written after every epoch.
    pub resume: bool,
    /// Start from this checkpoint's parameters, or a network file's
    /// (`.nnue`, read back from its quantised weights), with a fresh
    /// optimiser and schedule: to fine-tune a distilled network on search
    /// scores, or the shipped network on new games.
    pub init: Option<PathBuf>,
    /// How a teacher labels training positions, if at all.
    pub distill: Distill,
    /// Network files whose whole evaluation's validation error is printed
    /// first, to compare with.
    pub baselines: Vec<PathBuf>,
    /// Network files whose mean is the teacher; none: the embedded one.
    pub teacher_nets: Vec<PathBuf>,
}

/// The network in the file at `path`; an error names the file.
fn read_network(path: &std::path::Path) -> Result<Network, String> {
    Network::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The learning rate after `done` of `total` steps.
fn learning_rate(c: &Config, done: u64, total: u64) -> f32 {
    let t = (done as f32 / total.max(1) as f32).min(1.0);
    c.lr_end + 0.5 * (c.lr - c.lr_end) * (1.0 + (std::f32::consts::PI * t).cos())
}

/// The mean squared error over `data`.
pub fn mean_error(p: &[f32], data: &[Sample], shape: &Shape) -> f64 {
    let total: f64 = data
        .par_iter()
        .map(|s| model::step(p, s, shape, 0, None) as f64)
        .sum();
    total / data.len().max(1) as f64
}

/// How many samples ahead of the one being learnt the trainer asks for.
const PREFETCH_AHEAD: usize = 4;

/// Loads the data, trains, and writes the best network to `c.out`.
pub fn run(c: &Config) -> Result<(), String> {
    let start = Instant::now();
    let teacher_nets = c
        .teacher_nets
        .iter()
        .map(|p| read_network(p))
        .collect::<Result<Vec<_>, _>>()?;
    let teacher = Teacher::ensemble(teacher_nets);
    let labels = Labels {
        target: c.target,
        distill: c.distill,
        teacher: &teacher,
    };
    let (train, valid) = sample::load(
        &c.files,
        &c.filter,
        labels,
        &c.shape.inputs,
        c.hold_out_every,
    )?;
    if train.len() < 100 || valid.is_empty() {
        return Err(format!(
            "too little data: {} training and {} validation positions",
            train.len(),
            valid.len()
        ));
    }
    eprintln!(
        "{} training and {} validation positions (held-out games), loaded in {:.0} s",
        train.len(),
        valid.len(),
        start.elapsed().as_secs_f64()
    );
    let error_of = |judge: &Teacher| {
        sample::baseline_error(&c.files, &c.filter, c.target, c.hold_out_every, judge)
    };
    for path in &c.baselines {
        let net = read_network(path)?;
        let described = net.describe();
        let err = error_of(&Teacher::ensemble(vec![net]))?;
        eprintln!(
            "validation error of {} ({described}): {err:.6}",
            path.display()
        );
    }
    if !c.teacher_nets.is_empty() {
        eprintln!(
            "validation error of the teacher, the mean of {} networks: {:.6}",
            c.teacher_nets.len(),
            error_of(&teacher)?
        );
    }
    let param_count = c.shape.params();

    let ckpt_path = c.out.with_extension("ckpt");
    let mut rng = StdRng::seed_from_u64(c.seed);
    let mut state = if c.resume {
        let ck = Checkpoint::load(&ckpt_path, param_count)?;
        eprintln!("resuming after epoch {} ({} steps)", ck.epoch, ck.steps);
        ck
    } else {
        let params = match &c.init {
            Some(path) if path.extension().is_some_and(|e| e == "nnue") => {
                let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
                quantise::dequantise_for(&bytes, &c.shape)
                    .map_err(|e| format!("{}: {e}", path.display()))?
            }
            Some(path) => Checkpoint::load(path, param_count)?.params,
            None => model::init(&mut rng, &c.shape),
        };
        Checkpoint {
            epoch: 0,
            steps: 0,
            best: f64::INFINITY,
            params,
            m: vec![0.0; param_count],
            v: vec![0.0; param_count],
        }
    };
    let steps_per_epoch = train.len().div_ceil(c.batch) as u64;
    let total_steps = steps_per_epoch * c.epochs as u64;
    let threads = rayon::current_num_threads().max(1);
    // One gradient per thread, kept from batch to batch.
    let mut grads: Vec<Vec<f32>> = (0..threads).map(|_| vec![0f32; param_count]).collect();
    let mut order: Vec<usize> = (0..train.len()).collect();
    for epoch in state.epoch + 1..=c.epochs {
        // The epoch's order depends on the seed and the epoch alone, so a
        // resumed run sees what an unbroken one would have.
        let mut epoch_rng =
            StdRng::seed_from_u64(c.seed ^ (epoch as u64).wrapping_mul(0x9E37_79B9));
        order.sort_unstable();
        order.shuffle(&mut epoch_rng);
        let epoch_start = Instant::now();
        let mut train_err = 0f64;
        let mut lr = c.lr;
        for batch in order.chunks(c.batch) {
            let per = batch.len().div_ceil(threads);
            let p = &state.params;
            train_err += batch
                .par_chunks(per)
                .zip(grads.par_iter_mut())
                .map(|(chunk, g)| {
                    g.fill(0.0);
                    let mut e = 0f64;
                    for (j, &i) in chunk.iter().enumerate() {
                        if let Some(&ahead) = chunk.get(j + PREFETCH_AHEAD) {
                            train[ahead].prefetch();
                        }
                        let mirror = if c.mirror && (i + epoch as usize) % 2 == 1 {
                            7
                        } else {
                            0
                        };
                        e += model::step(p, &train[i], &c.shape, mirror, Some(g)) as f64;
                    }
                    e
                })
                .sum::<f64>();
            let (grad, others) = grads.split_at_mut(1);
            let others = &others[..batch.len().div_ceil(per) - 1];
            lr = learning_rate(c, state.steps, total_steps);
            state.steps += 1;
            let adam = adam::Adam {
                lr,
                decay: c.decay,
                inv_batch: 1.0 / batch.len() as f32,
                steps: state.steps,
            };
            adam.update(&mut state, &mut grad[0], others, &c.shape);
        }
        let valid_err = mean_error(&state.params, &valid, &c.shape);
        let secs = epoch_start.elapsed().as_secs_f64();
        eprintln!(
            "epoch {epoch}: lr {lr:.6}, train error {:.6}, validation error {valid_err:.6}, \
             {:.0} positions/s, {:.0} s in all",
            train_err / train.len() as f64,
            train.len() as f64 / secs.max(1e-3),
            start.elapsed().as_secs_f64()
        );
        state.epoch = epoch;
        // Keep the network that does best on games it never saw.
        if valid_err < state.best {
            state.best = valid_err;
            let bytes = quantise::quantise(&state.params, &c.shape);
            std::fs::write(&c.out, bytes).map_err(|e| format!("{}: {e}", c.out.display()))?;
        }
        state.save(&ckpt_path)?;
    }
    eprintln!(
        "wrote {} (best validation error {:.6})",
        c.out.display(),
        state.best
    );
    Ok(())
}
