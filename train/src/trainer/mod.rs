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
use sample::{Distill, HoldOut, Labels, Sample, Source, Target, Teacher};
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
    /// The decay of the king buckets' own rows where the network has a
    /// factoriser (see [`adam::Adam::bucket_decay`]).
    pub bucket_decay: f32,
    /// See half the positions mirrored left to right, a different half
    /// each epoch: a mirrored Chess960 position is worth the same.
    pub mirror: bool,
    /// Games whose index is a multiple of this are held out, unless
    /// `valid` names files to validate on instead.
    pub hold_out_every: u32,
    /// Files whose games are all held out, and then none of `files`'s.
    pub valid: Vec<String>,
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

impl Config {
    /// The files to read and which of their games validate.
    pub fn sources(&self) -> Vec<Source> {
        let train = if self.valid.is_empty() {
            HoldOut::Every(self.hold_out_every)
        } else {
            HoldOut::Nothing
        };
        let source = |path: &String, hold_out| Source {
            path: path.clone(),
            hold_out,
        };
        self.files
            .iter()
            .map(|p| source(p, train))
            .chain(self.valid.iter().map(|p| source(p, HoldOut::Everything)))
            .collect()
    }
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
        .map(|s| model::step(p, s, shape, false, None) as f64)
        .sum();
    total / data.len().max(1) as f64
}

/// How many samples ahead of the one being learnt the trainer asks for.
const PREFETCH_AHEAD: usize = 4;

/// Loads the data, trains, and writes the best network to `c.out`.
pub fn run(c: &Config) -> Result<(), String> {
    run_until(c, c.epochs)
}

/// [`run`], stopping after epoch `last` as if the run had been cut off
/// there: the schedule is still `c.epochs` long.
fn run_until(c: &Config, last: u32) -> Result<(), String> {
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
    let sources = c.sources();
    let (train, valid) = sample::load(&sources, &c.filter, labels, &c.shape.inputs)?;
    // With no epochs to run the trainer only compares the baselines.
    if (c.epochs > 0 && train.len() < 100) || valid.is_empty() {
        return Err(format!(
            "too little data: {} training and {} validation positions",
            train.len(),
            valid.len()
        ));
    }
    let held_out = if c.valid.is_empty() {
        format!("1 game in {} held out", c.hold_out_every)
    } else {
        "the --valid files' games".to_string()
    };
    eprintln!(
        "{} training and {} validation positions ({held_out}), loaded in {:.0} s",
        train.len(),
        valid.len(),
        start.elapsed().as_secs_f64()
    );
    let error_of = |judge: &Teacher| sample::baseline_error(&sources, &c.filter, c.target, judge);
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
    if c.epochs == 0 {
        return Ok(());
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
                quantise::dequantise_for(&bytes, &c.shape, || model::init(&mut rng, &c.shape))
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
    // One gradient per thread, kept from batch to batch; the AdamW step
    // zeroes the ones a batch used.
    let mut grads: Vec<Vec<f32>> = (0..threads).map(|_| vec![0f32; param_count]).collect();
    let mut order: Vec<usize> = (0..train.len()).collect();
    for epoch in state.epoch + 1..=c.epochs.min(last) {
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
                    let mut e = 0f64;
                    for (j, &i) in chunk.iter().enumerate() {
                        if let Some(&ahead) = chunk.get(j + PREFETCH_AHEAD) {
                            train[ahead].prefetch();
                        }
                        let mirror = c.mirror && (i + epoch as usize) % 2 == 1;
                        e += model::step(p, &train[i], &c.shape, mirror, Some(g)) as f64;
                    }
                    e
                })
                .sum::<f64>();
            let (grad, others) = grads.split_at_mut(1);
            let others = &mut others[..batch.len().div_ceil(per) - 1];
            lr = learning_rate(c, state.steps, total_steps);
            state.steps += 1;
            let adam = adam::Adam {
                lr,
                decay: c.decay,
                bucket_decay: c.bucket_decay,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Writer;
    use crate::selfplay::{self, Settings};
    use castella_eval::nnue::Inputs;
    use model::Activation;
    use std::path::Path;

    /// A file of short self-play games in `dir`.
    fn games_file(dir: &Path, games: u32) -> String {
        let settings = Settings {
            soft_nodes: 300,
            hard_nodes: 3000,
            ..Settings::default()
        };
        let played: Vec<_> = (0..games)
            .into_par_iter()
            .filter_map(|i| selfplay::play(i, 11, &settings))
            .collect();
        let path = dir.join("train-test.games");
        let mut w = Writer::create(&path, &settings.describe(11)).unwrap();
        w.write_chunk(&played, games).unwrap();
        path.to_string_lossy().into_owned()
    }

    fn config(files: Vec<String>, out: PathBuf) -> Config {
        Config {
            files,
            filter: Filter::default(),
            target: Target {
                lambda: 0.0,
                scale: 210.0,
            },
            shape: Shape {
                hidden: 128,
                activation: Activation::SCReLU,
                scale: 210.0,
                buckets: 8,
                fine_output: true,
                inputs: Inputs::PLAIN,
                factoriser: false,
            },
            epochs: 8,
            batch: 64,
            lr: 0.002,
            lr_end: 0.00001,
            decay: 0.1,
            bucket_decay: 0.1,
            mirror: true,
            hold_out_every: 5,
            valid: Vec::new(),
            seed: 3,
            out,
            resume: false,
            init: None,
            distill: Distill::default(),
            baselines: Vec::new(),
            teacher_nets: Vec::new(),
        }
    }

    /// On 192 short games the trainer predicts held-out games far
    /// better than their mean target does, and a run cut off after an
    /// epoch and resumed writes exactly what an unbroken run writes: the
    /// network and the whole optimiser state.
    #[test]
    fn training_learns_and_resumes_exactly() {
        let dir = std::env::temp_dir().join(format!("castella-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let files = vec![games_file(&dir, 192)];

        let unbroken = config(files.clone(), dir.join("a.nnue"));
        run(&unbroken).unwrap();
        let mut cut = config(files.clone(), dir.join("b.nnue"));
        run_until(&cut, 3).unwrap();
        assert_eq!(
            Checkpoint::load(&dir.join("b.ckpt"), cut.shape.params())
                .unwrap()
                .epoch,
            3
        );
        cut.resume = true;
        run(&cut).unwrap();

        let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
        assert_eq!(read("a.nnue"), read("b.nnue"), "the networks differ");
        assert_eq!(read("a.ckpt"), read("b.ckpt"), "the checkpoints differ");

        let c = &unbroken;
        let labels = Labels {
            target: c.target,
            distill: c.distill,
            teacher: &Teacher::embedded(),
        };
        let (train, valid) =
            sample::load(&c.sources(), &c.filter, labels, &c.shape.inputs).unwrap();
        assert!(
            train.len() > 1000 && valid.len() > 100,
            "{} {}",
            train.len(),
            valid.len()
        );
        // The same file as a training file beside `--valid` gives all its
        // games to training, and as a `--valid` file all to validation.
        let both = Config {
            valid: files.clone(),
            ..c.clone()
        };
        let sources = both.sources();
        assert_eq!(sources[0].hold_out, HoldOut::Nothing);
        assert_eq!(sources[1].hold_out, HoldOut::Everything);
        let (all_train, all_valid) =
            sample::load(&sources, &c.filter, labels, &c.shape.inputs).unwrap();
        assert_eq!(all_train.len(), all_valid.len());
        assert_eq!(all_train.len(), train.len() + valid.len());
        let random = model::init(&mut StdRng::seed_from_u64(c.seed), &c.shape);
        let before = mean_error(&random, &valid, &c.shape);
        let mean = train.iter().map(|s| s.target as f64).sum::<f64>() / train.len() as f64;
        let constant = valid
            .iter()
            .map(|s| (s.target as f64 - mean).powi(2))
            .sum::<f64>()
            / valid.len() as f64;
        let after = Checkpoint::load(&dir.join("a.ckpt"), c.shape.params()).unwrap();
        // The random network predicts worse than the mean target would.
        assert!(before > constant);
        assert!(
            after.best < 0.75 * constant,
            "validation error {} after training, {constant} for the mean target",
            after.best
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
