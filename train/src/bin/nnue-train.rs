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
//! the buckets start at zero; from a king-bucketed one (a shipped
//! network), each input's mean over the buckets becomes its shared row
//! and the buckets keep what they add to it. `--bucket-decay X` is the weight decay of
//! the buckets' own rows with a factoriser (the shared rows and the rest
//! keep `--decay`): a bucket stays near the shared rows unless its
//! positions pull it away. On 1.07M training positions 30 did best of 1,
//! 3, 10, 30 and 100 (docs/training-log.md).
//! `--baseline NET` (repeatable) first prints the validation error of the
//! whole evaluation with that network, for comparison.

use castella_eval::nnue::{
    is_valid_hidden, Inputs, HIDDEN_STEP, KING_SQUARES, MAX_BUCKETS, MAX_HIDDEN,
};
use castella_train::filter::Filter;
use castella_train::trainer::model::{Activation, Shape};
use castella_train::trainer::sample::{Distill, Target};
use castella_train::trainer::{self, Config};

/// The command line.
fn command() -> clap::Command {
    use clap::{value_parser, Arg, ArgAction};
    let opt = |name: &'static str, value: &'static str, help: &'static str| {
        Arg::new(name).long(name).value_name(value).help(help)
    };
    let flag = |name: &'static str, help: &'static str| {
        Arg::new(name)
            .long(name)
            .action(ArgAction::SetTrue)
            .help(help)
    };
    let many = |name: &'static str, value: &'static str, help: &'static str| {
        opt(name, value, help).action(ArgAction::Append)
    };
    let f32s = || value_parser!(f32);
    clap::Command::new("nnue-train")
        .about("Trains a network on datagen's game files")
        .arg(
            Arg::new("files")
                .value_name("FILE")
                .num_args(0..)
                .help("game files to train on"),
        )
        .next_help_heading("Training")
        .arg(
            opt("epochs", "N", "passes over the data [default: 20]")
                .value_parser(value_parser!(u32)),
        )
        .arg(
            opt("batch", "N", "positions a step [default: 512]").value_parser(value_parser!(usize)),
        )
        .arg(opt("lr", "X", "learning rate at the start [default: 0.002]").value_parser(f32s()))
        .arg(opt("lr-end", "X", "learning rate at the end [default: 0.00001]").value_parser(f32s()))
        .arg(
            opt(
                "lambda",
                "X",
                "weight of the game result against the score, 0..1 [default: 0]",
            )
            .value_parser(f32s()),
        )
        .arg(
            opt(
                "scale",
                "CP",
                "centipawns of the score's sigmoid [default: 210]",
            )
            .value_parser(f32s()),
        )
        .arg(opt("decay", "X", "weight decay [default: 0.1]").value_parser(f32s()))
        .arg(
            opt(
                "bucket-decay",
                "X",
                "the king buckets' own rows' decay [default: 30]",
            )
            .value_parser(f32s()),
        )
        .arg(flag("mirror", "learn each position mirrored too"))
        .arg(
            opt("hold-out", "N", "every N-th game validates [default: 50]")
                .value_parser(value_parser!(u32).range(2..)),
        )
        .arg(many(
            "valid",
            "FILE",
            "a game file to validate on (repeatable)",
        ))
        .arg(opt("seed", "S", "the shuffle's seed [default: 1]").value_parser(value_parser!(u64)))
        .arg(
            opt("threads", "T", "threads (default: one a core)").value_parser(value_parser!(usize)),
        )
        .arg(opt("out", "FILE", "the network [default: castella.nnue]"))
        .arg(flag("resume", "go on from the checkpoint beside --out"))
        .arg(opt("init", "NET", "start from this network or checkpoint"))
        .next_help_heading("Shape")
        .arg(
            opt("hidden", "N", "hidden neurons a view [default: 256]")
                .value_parser(value_parser!(usize)),
        )
        .arg(
            opt("activation", "F", "crelu or screlu [default: screlu]")
                .value_parser(["crelu", "screlu"]),
        )
        .arg(
            opt("buckets", "N", "output buckets by material [default: 1]")
                .value_parser(value_parser!(usize)),
        )
        .arg(flag("fine-output", "the finer material buckets"))
        .arg(opt(
            "king-buckets",
            "K",
            "king buckets: 1, 2, 4, 8 or 8u [default: none]",
        ))
        .arg(flag("factoriser", "train rows shared by the king buckets"))
        .next_help_heading("Teachers")
        .arg(flag(
            "teacher",
            "train on the teacher's scores instead of the search's",
        ))
        .arg(opt("teacher-mix", "X", "blend of the teacher's scores, 0..1").value_parser(f32s()))
        .arg(many(
            "teacher-net",
            "NET",
            "a network to distil from (repeatable)",
        ))
        .arg(
            opt("children", "N", "also distil N children a position")
                .value_parser(value_parser!(u32)),
        )
        .arg(many(
            "baseline",
            "NET",
            "print this network's validation error first (repeatable)",
        ))
        .args(Filter::args())
}

fn config(m: &clap::ArgMatches) -> Result<(Config, Option<usize>), String> {
    let f = |name: &str, default: f32| m.get_one::<f32>(name).copied().unwrap_or(default);
    let strings = |name: &str| -> Vec<String> {
        m.get_many::<String>(name)
            .map(|v| v.cloned().collect())
            .unwrap_or_default()
    };
    let scale = f("scale", 210.0);
    let mut c = Config {
        files: strings("files"),
        filter: Filter::from_matches(m, Filter::default()),
        target: Target {
            lambda: f("lambda", 0.0),
            scale,
        },
        shape: Shape {
            hidden: m.get_one::<usize>("hidden").copied().unwrap_or(256),
            activation: match m.get_one::<String>("activation").map(String::as_str) {
                Some("crelu") => Activation::CReLU,
                _ => Activation::SCReLU,
            },
            scale,
            buckets: m.get_one::<usize>("buckets").copied().unwrap_or(1),
            fine_output: m.get_flag("fine-output"),
            inputs: match m.get_one::<String>("king-buckets") {
                Some(k) => king_buckets(k)?,
                None => Inputs::PLAIN,
            },
            factoriser: m.get_flag("factoriser"),
        },
        epochs: m.get_one::<u32>("epochs").copied().unwrap_or(20),
        batch: m.get_one::<usize>("batch").copied().unwrap_or(512).max(1),
        lr: f("lr", 0.002),
        lr_end: f("lr-end", 0.00001),
        decay: f("decay", 0.1),
        bucket_decay: f("bucket-decay", 30.0),
        mirror: m.get_flag("mirror"),
        hold_out_every: m.get_one::<u32>("hold-out").copied().unwrap_or(50),
        valid: strings("valid"),
        seed: m.get_one::<u64>("seed").copied().unwrap_or(1),
        out: m
            .get_one::<String>("out")
            .map_or("castella.nnue".into(), |o| o.into()),
        resume: m.get_flag("resume"),
        init: m.get_one::<String>("init").map(|i| i.into()),
        distill: Distill::default(),
        baselines: strings("baseline").into_iter().map(Into::into).collect(),
        teacher_nets: strings("teacher-net").into_iter().map(Into::into).collect(),
    };
    c.distill.replace = m.get_flag("teacher");
    if let Some(&mix) = m.get_one::<f32>("teacher-mix") {
        if !(0.0..=1.0).contains(&mix) {
            return Err("--teacher-mix must lie from 0 to 1".into());
        }
        c.distill.mix = mix;
    }
    if let Some(&n) = m.get_one::<u32>("children") {
        c.distill.children = n;
    }
    if !(1..=MAX_BUCKETS).contains(&c.shape.buckets) {
        return Err(format!("--buckets must be within 1..{MAX_BUCKETS}"));
    }
    if !is_valid_hidden(c.shape.hidden) {
        return Err(format!(
            "--hidden must be a multiple of {HIDDEN_STEP} up to {MAX_HIDDEN}"
        ));
    }
    // Comparing baselines on `--valid` files alone needs nothing to train on.
    let only_compares = c.epochs == 0 && !c.valid.is_empty();
    if c.files.is_empty() && !only_compares {
        return Err("no game file given".into());
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
    Ok((c, m.get_one::<usize>("threads").copied()))
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
    let (config, threads) = config(&command().get_matches()).unwrap_or_else(|e| {
        command()
            .error(clap::error::ErrorKind::ValueValidation, e)
            .exit()
    });
    castella_train::set_threads(threads);
    if let Err(e) = trainer::run(&config) {
        eprintln!("nnue-train: {e}");
        std::process::exit(1);
    }
}
