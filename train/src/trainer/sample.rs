//! Training samples: scored positions from game files, as network inputs
//! and a target.

use crate::filter::Filter;
use crate::games::{self, GameResult, Scored};
use castella_eval::nnue::{for_each_feature, Inputs, Network, MAX_ACTIVE};
use castella_eval::PHASE_MAX;
use castella_movegen::{Color, Position};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;
use std::path::Path;

/// One training position: its inputs from the side to move's view and
/// from the other side's, and the expected score for the side to move.
pub struct Sample {
    pub us: [u16; MAX_ACTIVE],
    pub them: [u16; MAX_ACTIVE],
    pub count: u8,
    pub target: f32,
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

    /// The target for a position whose side to move scored `result` (0,
    /// 0.5 or 1) in its game and whose score is `cp` centipawns.
    pub fn value(&self, result: f32, cp: f32) -> f32 {
        self.lambda * result + (1.0 - self.lambda) * self.sigmoid(cp)
    }
}

/// How a teacher (see [`Teacher`]) takes part in the training targets:
/// distillation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Distill {
    /// Score every training position with the teacher instead of the
    /// search: to seed a network from the evaluation it replaces, which
    /// can label any position, not only those played.
    pub replace: bool,
    /// The teacher's share of a training position's score at full
    /// material, falling with the non-pawn material to none in a pawn
    /// ending: the search's score where it knows more than the evaluation
    /// it replaces (the ending), the teacher where the search is shallow
    /// for the position (the opening). 0 is the search's score alone.
    pub mix: f32,
    /// Up to this many positions one random legal move after each
    /// training position, which only the teacher can label: positions
    /// like the ones the search evaluates off the played line.
    pub children: u32,
}

/// Everything that labels a training position: the target, and the
/// teacher as `distill` says.
#[derive(Clone, Copy)]
pub struct Labels<'a> {
    pub target: Target,
    pub distill: Distill,
    pub teacher: &'a Teacher,
}

impl Labels<'_> {
    /// The labels of held-out games: no mix and no children, so that
    /// validation targets are the search's scores (the teacher's when it
    /// replaces the search).
    fn for_validation(self) -> Self {
        Labels {
            distill: Distill {
                mix: 0.0,
                children: 0,
                ..self.distill
            },
            ..self
        }
    }

    /// The target for a position `pos` whose search scored `cp` (unused
    /// when the teacher replaces the search): [`Target::value`] with the
    /// score's expectation blended with the teacher's as
    /// [`Distill::mix`] says.
    fn training_value(&self, pos: &Position, result: f32, cp: f32) -> f32 {
        if self.distill.replace {
            return self.child_value(pos, result);
        }
        let target = self.target;
        let w = self.distill.mix * phase_share(pos);
        if w <= 0.0 {
            return target.value(result, cp);
        }
        let expected = (1.0 - w) * target.sigmoid(cp) + w * target.sigmoid(self.teacher.eval(pos));
        target.lambda * result + (1.0 - target.lambda) * expected
    }

    /// The target from the teacher's score alone: for a position a random
    /// move off the game (see [`Distill::children`]), which has no other,
    /// and for every position when the teacher replaces the search.
    fn child_value(&self, pos: &Position, result: f32) -> f32 {
        self.target.value(result, self.teacher.eval(pos))
    }
}

/// The evaluation that labels positions for distillation: the network
/// this build embeds, or several networks' mean (an ensemble, which errs
/// less than any one of them).
pub struct Teacher {
    nets: Vec<Network>,
}

impl Teacher {
    /// The network this build embeds.
    pub fn embedded() -> Teacher {
        Teacher { nets: Vec::new() }
    }

    /// The mean of `nets` (the embedded network if there are none).
    pub fn ensemble(nets: Vec<Network>) -> Teacher {
        Teacher { nets }
    }

    /// The teacher's evaluation of `pos` in centipawns, from the side to
    /// move's view: with several networks, the mean of their scores.
    pub fn eval(&self, pos: &Position) -> f32 {
        if self.nets.is_empty() {
            return castella_eval::static_eval(pos) as f32;
        }
        let sum: i32 = self
            .nets
            .iter()
            .map(|net| castella_eval::static_eval_with(net, pos))
            .sum();
        sum as f32 / self.nets.len() as f32
    }
}

/// The game phase (the non-pawn material) as a share of a full set: 1
/// with all pieces on, 0 with none.
fn phase_share(pos: &Position) -> f32 {
    castella_eval::phase(pos) as f32 / PHASE_MAX as f32
}

impl Sample {
    /// Asks the CPU to start loading this sample into the cache: the
    /// trainer visits samples in a random order, and without the hint it
    /// waits on memory at every one. Only a hint: it reads and writes
    /// nothing observable.
    #[inline]
    pub fn prefetch(&self) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let start = self as *const Sample as *const i8;
            for line in (0..std::mem::size_of::<Sample>()).step_by(64) {
                // SAFETY: SSE is part of every x86_64 CPU, and a prefetch
                // of an address within this sample has no effect but on
                // the cache.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(start.add(line)) };
            }
        }
    }

    /// The sample of `s`, from a game that ended in `outcome`, on the
    /// network's `inputs`; `None` for a position with more pieces than
    /// inputs allow.
    pub fn new(s: &Scored, outcome: GameResult, labels: Labels, inputs: &Inputs) -> Option<Sample> {
        let result = outcome.score_for(s.pos.side_to_move());
        let target = labels.training_value(&s.pos, result, s.score as f32);
        Sample::at(&s.pos, target, inputs)
    }

    /// The sample of `pos`, a random move off a game that ended in
    /// `outcome`: the teacher labels it.
    fn child(
        pos: &Position,
        outcome: GameResult,
        labels: Labels,
        inputs: &Inputs,
    ) -> Option<Sample> {
        let target = labels.child_value(pos, outcome.score_for(pos.side_to_move()));
        Sample::at(pos, target, inputs)
    }

    /// The sample of `pos` with the target `target`.
    pub(crate) fn at(pos: &Position, target: f32, inputs: &Inputs) -> Option<Sample> {
        let black = pos.side_to_move() == Color::Black;
        let mut sample = Sample {
            us: [0; MAX_ACTIVE],
            them: [0; MAX_ACTIVE],
            count: 0,
            target,
        };
        let mut n = 0;
        let mut fits = true;
        for_each_feature(pos, inputs, |w, b| {
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

/// Which games of a file are held out to validate on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HoldOut {
    /// Those whose index is a multiple of this (at least 2).
    Every(u32),
    /// None: a training file when validation has files of its own.
    Nothing,
    /// All: a file given to validate on alone (`--valid`).
    Everything,
}

impl HoldOut {
    /// Whether the game with this index is held out.
    pub fn holds(self, index: u32) -> bool {
        match self {
            HoldOut::Every(n) => index.is_multiple_of(n.max(1)),
            HoldOut::Nothing => false,
            HoldOut::Everything => true,
        }
    }
}

/// A game file and which of its games are held out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub path: String,
    pub hold_out: HoldOut,
}

/// The samples of `sources` that pass `filter`, labelled by `labels`:
/// training samples, and validation samples from the held-out games, so
/// that no position of a validation game is trained on; they get no mix
/// and no children. Each training position also brings
/// [`Distill::children`] positions, labelled by the teacher.
/// Samples list the network's `inputs`.
pub fn load(
    sources: &[Source],
    filter: &Filter,
    labels: Labels,
    inputs: &Inputs,
) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let mut train = Vec::new();
    let mut valid = Vec::new();
    for Source { path: f, hold_out } in sources {
        let contents = games::read(Path::new(f))?;
        if let Some(problem) = &contents.problem {
            eprintln!("warning: {f}: {problem}");
        }
        let per_game: Vec<(bool, Vec<Sample>)> = contents
            .games
            .par_iter()
            .map(|g| {
                let mut v = Vec::new();
                let held_out = hold_out.holds(g.index);
                let labels = if held_out {
                    labels.for_validation()
                } else {
                    labels
                };
                let children = labels.distill.children;
                // The reader replayed every game already: it cannot fail.
                let _ = g.for_each_position(|s| {
                    if filter.accepts(&s) {
                        v.extend(Sample::new(&s, g.outcome, labels, inputs));
                        for child in random_children(&s, g.index, children) {
                            v.extend(Sample::child(&child, g.outcome, labels, inputs));
                        }
                    }
                });
                (held_out, v)
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

/// Up to `n` distinct positions one random legal move after `s` (the
/// same ones for the same game and ply), leaving out any in check.
fn random_children(s: &Scored, game: u32, n: u32) -> Vec<Position> {
    if n == 0 {
        return Vec::new();
    }
    let moves = s.pos.legal_moves();
    let mut rng = StdRng::seed_from_u64(((game as u64) << 16) ^ s.ply as u64);
    moves
        .as_slice()
        .choose_multiple(&mut rng, n as usize)
        .map(|&mv| s.pos.play(mv))
        .filter(|child| !child.in_check())
        .collect()
}

/// The mean squared error, on the held-out games of `sources`, of the
/// evaluation `judge` (one network, or an ensemble's mean): what a
/// trained network is compared with.
pub fn baseline_error(
    sources: &[Source],
    filter: &Filter,
    target: Target,
    judge: &Teacher,
) -> Result<f64, String> {
    let (mut sum, mut n) = (0f64, 0usize);
    for Source { path, hold_out } in sources {
        if *hold_out == HoldOut::Nothing {
            continue;
        }
        let contents = games::read(Path::new(path))?;
        let held_out = contents.games.iter().filter(|g| hold_out.holds(g.index));
        for g in held_out {
            let _ = g.for_each_position(|s| {
                if !filter.accepts(&s) {
                    return;
                }
                let result = g.outcome.score_for(s.pos.side_to_move());
                let t = target.value(result, s.score as f32);
                let e = target.sigmoid(judge.eval(&s.pos)) - t;
                sum += (e * e) as f64;
                n += 1;
            });
        }
    }
    Ok(sum / n.max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The teacher's share is the mix at full material and nothing in a
    /// pawn ending, where the target is the search's alone.
    #[test]
    fn the_teacher_mix_falls_with_the_material() {
        let target = Target {
            lambda: 0.25,
            scale: 210.0,
        };
        let distill = Distill {
            mix: 0.5,
            ..Distill::default()
        };
        let embedded = Teacher::embedded();
        let labels = Labels {
            target,
            distill,
            teacher: &embedded,
        };
        let full = Position::startpos();
        let teacher_cp = castella_eval::static_eval(&full) as f32;
        let teacher = target.sigmoid(teacher_cp);
        let blended = 0.5 * target.sigmoid(120.0) + 0.5 * teacher;
        let expected = 0.25 * 1.0 + 0.75 * blended;
        assert!((labels.training_value(&full, 1.0, 120.0) - expected).abs() < 1e-6);
        let pawns = Position::from_fen("8/5k2/3p4/8/4P3/8/2K5/8 w - - 0 40").unwrap();
        assert_eq!(phase_share(&pawns), 0.0);
        assert_eq!(
            labels.training_value(&pawns, 0.5, -80.0),
            target.value(0.5, -80.0)
        );
        // Held-out games: the search's score alone.
        assert_eq!(
            labels.for_validation().training_value(&full, 1.0, 120.0),
            target.value(1.0, 120.0)
        );
        // Children off the game are the teacher's alone, mix or not.
        assert_eq!(
            labels.child_value(&full, 1.0),
            target.value(1.0, teacher_cp)
        );
        // A teacher that replaces the search, in training and validation.
        let replaced = Labels {
            distill: Distill {
                replace: true,
                ..distill
            },
            ..labels
        };
        assert_eq!(
            replaced.for_validation().training_value(&full, 1.0, 120.0),
            target.value(1.0, teacher_cp)
        );
        assert_eq!(
            replaced.training_value(&full, 1.0, 120.0),
            target.value(1.0, teacher_cp)
        );
        let rooks = Position::from_fen("3r2k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30").unwrap();
        assert_eq!(phase_share(&rooks), 4.0 / 24.0);
    }

    /// Children are distinct positions a legal move away, never in check,
    /// and the same ones every time for the same game and ply.
    #[test]
    fn random_children_are_legal_quiet_and_repeatable() {
        let pos =
            Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
                .unwrap();
        let s = Scored {
            pos,
            mv: pos.legal_moves()[0],
            score: 0,
            ply: 12,
        };
        let children = random_children(&s, 7, 4);
        assert!(!children.is_empty() && children.len() <= 4);
        let reachable: Vec<Position> = pos.legal_moves().iter().map(|&m| pos.play(m)).collect();
        for (i, c) in children.iter().enumerate() {
            assert!(!c.in_check());
            assert!(reachable.contains(c));
            assert!(!children[..i].contains(c));
        }
        assert_eq!(children, random_children(&s, 7, 4));
        assert_ne!(children, random_children(&s, 8, 4));
        assert!(random_children(&s, 7, 0).is_empty());
    }
}
