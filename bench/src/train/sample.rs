//! Training samples: scored positions from game files, as network inputs
//! and a target.

use crate::filter::Filter;
use crate::games::{self, Outcome, Scored};
use castella_eval::nnue::{for_each_feature, MAX_ACTIVE, SCALE};
use castella_movegen::Color;
use rayon::prelude::*;
use std::path::Path;

/// One training position: its inputs from the side to move's view and
/// from the other side's, and the expected score for the side to move.
pub struct Sample {
    pub us: [u16; MAX_ACTIVE],
    pub them: [u16; MAX_ACTIVE],
    pub count: u8,
    pub target: f32,
    /// The hand-written evaluation for the side to move in network units
    /// (1.0 = `SCALE` centipawns), for a network trained as a correction.
    pub hce: f32,
}

/// How the target is made from a position's score and its game's result.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// The result's weight: `lambda · result + (1 − lambda) · σ(score / scale)`.
    pub lambda: f32,
    /// Centipawns per unit of the logistic: the network's output goes
    /// through the same `σ(cp / scale)`, so it learns the score's scale.
    pub scale: f32,
}

impl Target {
    /// The expected score of `cp` centipawns.
    pub fn sigmoid(&self, cp: f32) -> f32 {
        1.0 / (1.0 + (-cp / self.scale).exp())
    }
}

impl Sample {
    /// The sample of `s`, from a game that ended in `outcome`; `None` for a
    /// position with more pieces than inputs allow.
    pub fn new(s: &Scored, outcome: Outcome, target: Target, residual: bool) -> Option<Sample> {
        let black = s.pos.side_to_move() == Color::Black;
        let result = outcome.score_for(s.pos.side_to_move());
        let mut sample = Sample {
            us: [0; MAX_ACTIVE],
            them: [0; MAX_ACTIVE],
            count: 0,
            target: target.lambda * result + (1.0 - target.lambda) * target.sigmoid(s.score as f32),
            hce: if residual {
                castella_eval::evaluate(&s.pos) as f32 / SCALE as f32
            } else {
                0.0
            },
        };
        let mut n = 0;
        let mut fits = true;
        for_each_feature(&s.pos, |w, b| {
            if n == MAX_ACTIVE {
                fits = false;
                return;
            }
            let (us, them) = if black { (b, w) } else { (w, b) };
            sample.us[n] = us as u16;
            sample.them[n] = them as u16;
            n += 1;
        });
        sample.count = n as u8;
        fits.then_some(sample)
    }
}

/// The samples of `files` that pass `filter`: training samples, and
/// validation samples from the held-out games (every game whose index is a
/// multiple of `hold_out_every`), so that no position of a validation game
/// is trained on.
pub fn load(
    files: &[String],
    filter: &Filter,
    target: Target,
    residual: bool,
    hold_out_every: u32,
) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let mut train = Vec::new();
    let mut valid = Vec::new();
    for f in files {
        let contents = games::read(Path::new(f))?;
        if let Some(problem) = &contents.problem {
            eprintln!("warning: {f}: {problem}");
        }
        let per_game: Vec<(bool, Vec<Sample>)> = contents
            .games
            .par_iter()
            .map(|g| {
                let mut v = Vec::new();
                // The reader replayed every game already: it cannot fail.
                let _ = g.for_each_position(|s| {
                    if filter.accepts(&s) {
                        v.extend(Sample::new(&s, g.outcome, target, residual));
                    }
                });
                (g.index % hold_out_every.max(1) == 0, v)
            })
            .collect();
        for (held_out, samples) in per_game {
            if held_out {
                valid.extend(samples);
            } else {
                train.extend(samples);
            }
        }
    }
    Ok((train, valid))
}

/// The mean squared error, on the held-out games of `files`, of a whole
/// engine evaluation (`net` plus the hand-written evaluation when `net` is
/// a correction): what a trained network is compared with.
pub fn baseline_error(
    files: &[String],
    filter: &Filter,
    target: Target,
    hold_out_every: u32,
    net: &castella_eval::nnue::Network,
) -> Result<f64, String> {
    let (mut sum, mut n) = (0f64, 0usize);
    for f in files {
        let contents = games::read(Path::new(f))?;
        let held_out = contents
            .games
            .iter()
            .filter(|g| g.index % hold_out_every.max(1) == 0);
        for g in held_out {
            let _ = g.for_each_position(|s| {
                if !filter.accepts(&s) {
                    return;
                }
                let result = g.outcome.score_for(s.pos.side_to_move());
                let t =
                    target.lambda * result + (1.0 - target.lambda) * target.sigmoid(s.score as f32);
                let eval = castella_eval::static_eval_with(net, &s.pos) as f32;
                let e = target.sigmoid(eval) - t;
                sum += (e * e) as f64;
                n += 1;
            });
        }
    }
    Ok(sum / n.max(1) as f64)
}
