//! `nnue-train`: trains the evaluation network (`castella_eval::nnue`) on
//! `datagen`'s games.
//!
//! ```text
//! nnue-train [OPTIONS] FILE...
//!   --epochs N (20)  --batch N (512)  --lr X (0.002)  --lr-end X (0.00001)
//!   --lambda X (0)  --scale CP (210)  --hidden N (256)  --activation crelu|screlu (screlu)
//!   --buckets N (1)  --fine-output  --king-buckets 1|2|4|8|8u  --factoriser  --decay X (0.1)
//!   --bucket-decay X (30)  --mirror
//!   --hold-out N (50)  --valid FILE  --seed S (1)
//!   --threads T  --out FILE (castella.nnue)  --resume  --init CKPT
//!   --teacher  --teacher-mix X (0)  --teacher-net NET  --children N (0)  --baseline NET
//!   --skip-plies N (8)  --max-score N (10000)  --keep-noisy  --keep-check
//! ```
//!
//! Each position the filter keeps (by default: not in the first plies, not
//! in check, the engine's move quiet, the score no mate and within
//! ±10000) is a sample whose target is `lambda · result + (1 − lambda) ·
//! σ(score / scale)`: the game's result and Castella's own search score.
//! The network's output goes through the same `σ(cp / scale)`, so it
//! learns centipawns on the search's scale; the default scale is what
//! `data scale` fits on Castella's own games (about 210), so the result
//! and the score agree. The other defaults are the best of round 10
//! (docs/training-log.md) on 1.4 million positions: small batches, and
//! the scores alone (lambda 0), as results are too noisy a label for
//! that little data. Games whose index is a
//! multiple of `--hold-out` are held out to validate on; `--valid FILE`
//! (repeatable) validates on all of FILE's games instead, and trains on
//! every game of the others: one yardstick for networks trained on
//! different files. With `--epochs 0` the trainer only prints the
//! `--baseline` networks' errors, and needs no training file.
//!
//! After every epoch the trainer writes `OUT` (quantised, when the
//! validation error improved) and `OUT` with the extension `.ckpt` (the
//! float state); `--resume` goes on from that checkpoint with the same
//! options.
//! `--teacher` labels every position with the static evaluation this
//! build embeds (`EVALFILE` at build time picks it) instead of its search
//! score: distillation, which seeded network 2 from network 1 (the
//! hand-written evaluation and its correction). `--children N` adds up
//! to N positions a random move after each training position, which
//! only the teacher can label (with or without `--teacher`): positions
//! like those the search evaluates off the played line.
//! `--teacher-mix X` blends the teacher into the search's score of the
//! game positions (see `Distill::mix`): share X at full material, none
//! in a pawn ending. `--teacher-net NET` (repeatable) makes the teacher
//! the mean of those networks' evaluations instead of the embedded one:
//! an ensemble, whose error on the held-out games is printed first.
//! `--init CKPT` starts from a checkpoint's weights (or a `.nnue`
//! file's), for example to fine-tune a distilled network on search
//! scores, or the shipped one on new games; a `.nnue` file with fewer
//! hidden neurons than `--hidden` is widened (`quantise::widen`: its
//! neurons kept, the new ones' output weights zero, so it starts out
//! evaluating as it did). `--hidden N` is the hidden
//! layer's size per view (128 to 512 in steps of 128; the engine reads
//! each).
//! `--buckets N` splits the output neuron into N material buckets (by the
//! number of pieces on the board). `--fine-output` stores the output
//! weights twice as finely (units of 1/128, within ±0.99), which most of
//! the rounding loss comes from. `--king-buckets N` keys each view's
//! inputs on its own king: the board mirrored to bring that king to files
//! a–d, and N sets of inputs by where it stands (1: mirroring alone; see
//! `king_buckets` for 2, 4 and 8); `--mirror` has nothing left to add then.
//! `8u` keys the inputs on eight buckets of the king's square without
//! mirroring the board, so that `--mirror` still doubles the data and a
//! plain network given as `--init` with `--factoriser` starts out
//! evaluating exactly as it did.
//! `--factoriser` trains one more set of inputs shared by every bucket
//! beside them, added into each bucket's when the network is written
//! (the engine reads an ordinary king-bucketed file): every position
//! teaches the shared set, so the buckets need far less data. With
//! `--init` from a plain network its weights become the shared set and
//! the buckets start at zero. `--bucket-decay X` is the weight decay of
//! the buckets' own rows with a factoriser (the shared rows and the rest
//! keep `--decay`): a bucket stays near the shared rows unless its
//! positions pull it away. On 1.07M training positions 30 did best of 1,
//! 3, 10, 30 and 100 (docs/training-log.md).
//! `--baseline NET` (repeatable) first prints the validation error of the
//! whole evaluation with that network, for comparison.

use castella_bench::filter::Filter;
use castella_bench::train::model::{Activation, Shape};
use castella_bench::train::sample::{Distill, Target};
use castella_bench::train::{self, Config};
use castella_eval::nnue::{
    is_valid_hidden, Inputs, HIDDEN_STEP, KING_SQUARES, MAX_BUCKETS, MAX_HIDDEN,
};

const USAGE: &str = "usage: nnue-train [--epochs N] [--batch N] [--lr X] [--lr-end X] \
[--lambda X] [--scale CP] [--hidden N] [--activation crelu|screlu] [--buckets N] [--fine-output] \
[--king-buckets 1|2|4|8|8u] [--factoriser] [--decay X] [--bucket-decay X] [--mirror] \
[--hold-out N] [--valid FILE] [--seed S] [--threads T] [--out FILE] [--resume] [--init CKPT] [--teacher] \
[--teacher-mix X] [--teacher-net NET] [--children N] [--baseline NET] [--skip-plies N] \
[--max-score N] [--keep-noisy] [--keep-check] FILE...";

fn parse_args() -> Result<(Config, Option<usize>), String> {
    let mut c = Config {
        files: Vec::new(),
        filter: Filter::default(),
        target: Target {
            lambda: 0.0,
            scale: 210.0,
        },
        shape: Shape {
            hidden: 256,
            activation: Activation::SCReLU,
            scale: 210.0,
            buckets: 1,
            fine_output: false,
            inputs: Inputs::PLAIN,
            factoriser: false,
        },
        epochs: 20,
        batch: 512,
        lr: 0.002,
        lr_end: 0.00001,
        decay: 0.1,
        bucket_decay: 30.0,
        mirror: false,
        hold_out_every: 50,
        valid: Vec::new(),
        seed: 1,
        out: "castella.nnue".into(),
        resume: false,
        init: None,
        distill: Distill::default(),
        baselines: Vec::new(),
        teacher_nets: Vec::new(),
    };
    let mut threads = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        fn num<T: std::str::FromStr>(flag: &str, v: String) -> Result<T, String> {
            v.parse().map_err(|_| format!("bad value '{v}' for {flag}"))
        }
        match flag.as_str() {
            "--epochs" => c.epochs = num(&flag, value()?)?,
            "--batch" => c.batch = num::<usize>(&flag, value()?)?.max(1),
            "--lr" => c.lr = num(&flag, value()?)?,
            "--lr-end" => c.lr_end = num(&flag, value()?)?,
            "--lambda" => c.target.lambda = num(&flag, value()?)?,
            "--scale" => {
                c.target.scale = num(&flag, value()?)?;
                c.shape.scale = c.target.scale;
            }
            "--activation" => {
                c.shape.activation = match value()?.as_str() {
                    "crelu" => Activation::CReLU,
                    "screlu" => Activation::SCReLU,
                    v => return Err(format!("unknown activation '{v}'")),
                }
            }
            "--buckets" => {
                c.shape.buckets = num(&flag, value()?)?;
                if !(1..=MAX_BUCKETS).contains(&c.shape.buckets) {
                    return Err(format!("--buckets must be within 1..{MAX_BUCKETS}"));
                }
            }
            "--fine-output" => c.shape.fine_output = true,
            "--king-buckets" => c.shape.inputs = king_buckets(&value()?)?,
            "--factoriser" => c.shape.factoriser = true,
            "--hidden" => {
                c.shape.hidden = num(&flag, value()?)?;
                if !is_valid_hidden(c.shape.hidden) {
                    return Err(format!(
                        "--hidden must be a multiple of {HIDDEN_STEP} up to {MAX_HIDDEN}"
                    ));
                }
            }
            "--decay" => c.decay = num(&flag, value()?)?,
            "--bucket-decay" => c.bucket_decay = num(&flag, value()?)?,
            "--mirror" => c.mirror = true,
            "--hold-out" => c.hold_out_every = num::<u32>(&flag, value()?)?.max(2),
            "--valid" => c.valid.push(value()?),
            "--seed" => c.seed = num(&flag, value()?)?,
            "--threads" => threads = Some(num(&flag, value()?)?),
            "--out" => c.out = value()?.into(),
            "--resume" => c.resume = true,
            "--init" => c.init = Some(value()?.into()),
            "--teacher" => c.distill.replace = true,
            "--teacher-mix" => {
                c.distill.mix = num(&flag, value()?)?;
                if !(0.0..=1.0).contains(&c.distill.mix) {
                    return Err("--teacher-mix must lie from 0 to 1".into());
                }
            }
            "--children" => c.distill.children = num(&flag, value()?)?,
            "--teacher-net" => c.teacher_nets.push(value()?.into()),
            "--baseline" => c.baselines.push(value()?.into()),
            "-h" | "--help" => return Err(USAGE.into()),
            f if f.starts_with("--") => {
                if !c.filter.parse_flag(f, value)? {
                    return Err(format!("unknown option '{f}'\n{USAGE}"));
                }
            }
            _ => c.files.push(flag),
        }
    }
    // Comparing baselines on `--valid` files alone needs nothing to train on.
    let only_compares = c.epochs == 0 && !c.valid.is_empty();
    if c.files.is_empty() && !only_compares {
        return Err(format!("no game file given\n{USAGE}"));
    }
    if let Some(f) = c.files.iter().find(|f| c.valid.contains(f)) {
        return Err(format!(
            "{f} is given to train on and as --valid: its games would be in both"
        ));
    }
    if c.shape.factoriser && c.shape.inputs.buckets() < 2 {
        return Err(
            "--factoriser shares rows between king buckets: give --king-buckets 2 or more".into(),
        );
    }
    if c.mirror && c.shape.inputs.keyed() && c.shape.inputs.mirrored() {
        return Err(
            "--mirror adds nothing to mirrored king buckets: they mirror the board themselves"
                .into(),
        );
    }
    if !(0.0..=1.0).contains(&c.target.lambda) || c.target.scale <= 0.0 {
        return Err("--lambda must be within 0..1 and --scale positive".into());
    }
    Ok((c, threads))
}

/// The king bucket maps `--king-buckets` offers, by the number of
/// buckets (files a–d of each rank from the king's side; the board is
/// mirrored to bring the king there): 1, mirroring alone; 2, the home
/// rank and the rest; 4, the home rank's files a–b and c–d (where castled
/// and Chess960 kings stand), the second rank, and the rest; 8, each
/// home-rank file on its own, the second rank's files a–b and c–d, the
/// third rank, and the rest; 8u, the board not mirrored, and the home
/// rank's files a–b, c–d, e–f and g–h, the second rank's halves and the
/// other ranks' halves (a bucket's mirror image is a bucket, so
/// `--mirror` works with it).
fn king_buckets(v: &str) -> Result<Inputs, String> {
    let mut map = [0u8; KING_SQUARES];
    match v {
        "1" => {}
        "2" => map[4..].fill(1),
        "4" => {
            map[..4].copy_from_slice(&[0, 0, 1, 1]);
            map[4..8].fill(2);
            map[8..].fill(3);
        }
        "8" => {
            map[..8].copy_from_slice(&[0, 1, 2, 3, 4, 4, 5, 5]);
            map[8..12].fill(6);
            map[12..].fill(7);
        }
        "8u" => {
            // Unmirrored: the home rank in quarters, the second rank and
            // the rest in halves.
            let map: [u8; 64] = std::array::from_fn(|sq| {
                let (rank, file) = (sq / 8, sq as u8 % 8);
                match rank {
                    0 => file / 2,
                    1 => 4 + file / 4,
                    _ => 6 + file / 4,
                }
            });
            return Inputs::king_buckets_unmirrored(&map);
        }
        _ => return Err(format!("--king-buckets takes 1, 2, 4, 8 or 8u, not '{v}'")),
    }
    Inputs::king_buckets(&map)
}

fn main() {
    let (config, threads) = parse_args().unwrap_or_else(|e| {
        eprintln!("nnue-train: {e}");
        std::process::exit(2);
    });
    castella_bench::set_threads(threads);
    if let Err(e) = train::run(&config) {
        eprintln!("nnue-train: {e}");
        std::process::exit(1);
    }
}
