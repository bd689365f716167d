//! `data`: looks after `datagen`'s game files.
//!
//! ```text
//! data count FILE...                     games and positions (labelled) per file
//! data stats [FILTER] FILE...            results, endings, scores, lengths
//! data merge OUT FILE...                 one file with every game
//! data shuffle [--seed S] OUT FILE...    the same, games in random order
//! data dump [--epd] [FILTER] FILE...     scored positions as text, stdout
//! data wdl [FILTER] FILE...              fit the engine's win-rate model
//! data scale [FILTER] FILE...            fit the trainer's --scale
//! ```
//!
//! `dump` writes `FEN | result | score` per position (White's result 1,
//! 0.5 or 0 and the search's score in centipawns, both from White's view),
//! or with `--epd` as `FEN [result]` lines (an EPD tuner's input).
//! FILTER options (as the trainer takes them): `--skip-plies N`,
//! `--max-score N`, `--keep-noisy`, `--keep-check`; `stats` and `dump`
//! apply none unless given `--filter` (the trainer's default) or one of
//! them.
//!
//! A damaged or truncated file is read up to the damage, with a warning
//! saying where; a file that is not a game file is an error.

use castella_movegen::Color;
use castella_train::filter::Filter;
use castella_train::games::{self, Game, GameResult, Scored, Termination};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::io::Write;
use std::path::Path;

/// `println!` that ends the program quietly when stdout has gone away
/// (`data stats ... | head`) instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    };
}

/// Options and file names of one command line.
struct Args {
    files: Vec<String>,
    filter: Filter,
    seed: u64,
    epd: bool,
}

/// The command line: a subcommand each job.
fn command() -> clap::Command {
    use clap::{value_parser, Arg, ArgAction};
    let files = || {
        Arg::new("files")
            .value_name("FILE")
            .num_args(1..)
            .required(true)
            .help("game files")
    };
    let filtered = |name: &'static str, about: &'static str| {
        clap::Command::new(name)
            .about(about)
            .arg(files())
            .arg(
                Arg::new("filter")
                    .long("filter")
                    .action(ArgAction::SetTrue)
                    .help_heading("Positions")
                    .help("the trainer's filter (default: every scored position)"),
            )
            .args(Filter::args())
    };
    let joined = |name: &'static str, about: &'static str| {
        clap::Command::new(name)
            .about(about)
            .arg(
                Arg::new("out")
                    .value_name("OUT")
                    .required(true)
                    .help("the file to write"),
            )
            .arg(files())
    };
    clap::Command::new("data")
        .about("Looks after datagen's game files")
        .subcommand_required(true)
        .subcommand(
            clap::Command::new("count")
                .about("games and positions (labelled) per file")
                .arg(files()),
        )
        .subcommand(filtered("stats", "results, endings, scores and lengths"))
        .subcommand(joined("merge", "one file with every game"))
        .subcommand(
            joined("shuffle", "one file with every game, in random order").arg(
                Arg::new("seed")
                    .long("seed")
                    .value_name("S")
                    .value_parser(value_parser!(u64))
                    .default_value("1")
                    .help("the shuffle's seed"),
            ),
        )
        .subcommand(
            filtered(
                "dump",
                "scored positions as 'FEN | result | score' lines on stdout",
            )
            .arg(
                Arg::new("epd")
                    .long("epd")
                    .action(ArgAction::SetTrue)
                    .help("'FEN [result]' lines instead"),
            ),
        )
        .subcommand(filtered("wdl", "fit the engine's win-rate model"))
        .subcommand(filtered("scale", "fit the trainer's --scale"))
}

/// One subcommand's options and files. The positions' filter is none
/// unless `--filter` (the trainer's) or one of its options is given.
fn args(m: &clap::ArgMatches) -> Args {
    // A subcommand without `--filter` has none of the filter's options.
    let filter = match m.try_get_one::<bool>("filter") {
        Ok(Some(true)) => Filter::default(),
        Ok(_) if Filter::given(m) => Filter::from_matches(
            m,
            Filter {
                max_score: i32::MAX,
                ..Filter::NONE
            },
        ),
        _ => Filter::NONE,
    };
    let mut files: Vec<String> = m
        .get_many::<String>("files")
        .map(|v| v.cloned().collect())
        .unwrap_or_default();
    if let Ok(Some(out)) = m.try_get_one::<String>("out") {
        files.insert(0, out.clone());
    }
    Args {
        files,
        filter,
        seed: m
            .try_get_one::<u64>("seed")
            .ok()
            .flatten()
            .copied()
            .unwrap_or(1),
        epd: m.try_get_one::<bool>("epd").ok().flatten() == Some(&true),
    }
}

/// Every game of `files`, in order, with a warning for each damaged one.
fn load(files: &[String]) -> Result<Vec<(String, Vec<Game>)>, String> {
    files
        .iter()
        .map(|f| {
            let c = games::read(Path::new(f))?;
            if let Some(problem) = c.problem {
                eprintln!("data: warning: {f}: {problem}");
            }
            Ok((f.clone(), c.games))
        })
        .collect()
}

fn count(files: &[String]) -> Result<(), String> {
    let (mut games, mut positions, mut labelled) = (0, 0, 0);
    for (name, g) in load(files)? {
        let (p, l) = games::position_counts(&g);
        say!(
            "{name}: {} games, {}",
            g.len(),
            games::describe_positions(p, l)
        );
        games += g.len();
        positions += p;
        labelled += l;
    }
    if files.len() > 1 {
        say!(
            "total: {games} games, {}",
            games::describe_positions(positions, labelled)
        );
    }
    Ok(())
}

/// Prints `label: n (share%)` lines.
fn shares(title: &str, rows: &[(String, usize)]) {
    let total: usize = rows.iter().map(|r| r.1).sum::<usize>().max(1);
    say!("{title}");
    for (label, n) in rows {
        say!(
            "  {label:<24} {n:>10} {:>6.1}%",
            100.0 * *n as f64 / total as f64
        );
    }
}

fn stats(args: &Args) -> Result<(), String> {
    let games: Vec<Game> = load(&args.files)?.into_iter().flat_map(|f| f.1).collect();
    let n = games.len();
    if n == 0 {
        say!("no games");
        return Ok(());
    }
    let results = [
        GameResult::WhiteWins,
        GameResult::Draw,
        GameResult::BlackWins,
    ];
    shares(
        &format!("{n} games; results (White's view)"),
        &results
            .iter()
            .map(|&o| {
                let k = games.iter().filter(|g| g.outcome == o).count();
                (format!("{o:?}"), k)
            })
            .collect::<Vec<_>>(),
    );
    shares(
        "endings",
        &Termination::ALL
            .iter()
            .map(|&t| {
                let k = games.iter().filter(|g| g.termination == t).count();
                (t.name().to_string(), k)
            })
            .collect::<Vec<_>>(),
    );
    let dfrc = games.iter().filter(|g| g.is_double_frc()).count();
    shares(
        "openings",
        &[
            ("Double-FRC".to_string(), dfrc),
            ("Chess960".to_string(), n - dfrc),
        ],
    );
    let mut lengths: Vec<usize> = games.iter().map(|g| g.moves.len()).collect();
    lengths.sort_unstable();
    let pct = |p: usize| lengths[(lengths.len() - 1) * p / 100];
    say!(
        "scored plies per game: mean {:.1}, min {}, 10% {}, median {}, 90% {}, max {}",
        lengths.iter().sum::<usize>() as f64 / n as f64,
        lengths[0],
        pct(10),
        pct(50),
        pct(90),
        lengths[n - 1]
    );

    // Scores of the positions that pass the filter, from White's view.
    const EDGES: [i32; 11] = [-1000, -500, -200, -100, -50, 0, 50, 100, 200, 500, 1000];
    let mut buckets = [0usize; EDGES.len() + 1];
    let (mut total, mut labelled, mut kept, mut white_to_move) = (0usize, 0usize, 0usize, 0usize);
    for g in &games {
        g.for_each_position(|s| {
            total += 1;
            labelled += s.labelled() as usize;
            if !args.filter.accepts(&s) {
                return;
            }
            kept += 1;
            let white = s.pos.side_to_move() == Color::White;
            white_to_move += white as usize;
            let score = if white { s.score } else { -s.score } as i32;
            buckets[EDGES.iter().take_while(|&&e| score >= e).count()] += 1;
        })?;
    }
    if labelled < total {
        say!(
            "labelled positions: {labelled} of {total} ({:.1}%)",
            100.0 * labelled as f64 / total as f64
        );
    }
    say!(
        "positions: {total}, {kept} pass the filter ({:.1}%), {:.1}% with White to move",
        100.0 * kept as f64 / total.max(1) as f64,
        100.0 * white_to_move as f64 / kept.max(1) as f64
    );
    let rows: Vec<(String, usize)> = buckets
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            let label = match i {
                0 => format!("< {}", EDGES[0]),
                i if i == EDGES.len() => format!(">= {}", EDGES[i - 1]),
                i => format!("{} .. {}", EDGES[i - 1], EDGES[i]),
            };
            (label, k)
        })
        .collect();
    shares("scores (White's view, centipawns)", &rows);
    Ok(())
}

/// Writes `games` to `out` as one run's file, a chunk per 256 games.
fn write(out: &str, games: &[Game], sources: &[String]) -> Result<(), String> {
    if Path::new(out).exists() {
        return Err(format!("{out} exists; will not overwrite it"));
    }
    let settings = format!("merged from {}", sources.join(", "));
    let mut w = games::Writer::create(Path::new(out), &settings)?;
    for (i, chunk) in games.chunks(256).enumerate() {
        w.write_chunk(chunk, (i * 256 + chunk.len()) as u32)?;
    }
    let positions: usize = games.iter().map(|g| g.moves.len()).sum();
    eprintln!("{out}: {} games, {positions} positions", games.len());
    Ok(())
}

fn dump(args: &Args) -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for (_, games) in load(&args.files)? {
        for g in &games {
            let result = g.outcome.white_score();
            let mut lines = String::new();
            g.for_each_position(|s| {
                if !args.filter.accepts(&s) {
                    return;
                }
                let white = if s.pos.side_to_move() == Color::White {
                    s.score
                } else {
                    -s.score
                };
                let fen = s.pos.fen();
                if args.epd {
                    lines += &format!("{fen} [{result:.1}]\n");
                } else {
                    lines += &format!("{fen} | {result} | {white}\n");
                }
            })?;
            if out.write_all(lines.as_bytes()).is_err() {
                return Ok(()); // The reader went away (`| head`).
            }
        }
    }
    out.flush().ok();
    Ok(())
}

/// Calls `f` with every position of `args`'s files that passes the filter
/// and scores within ±4000 (beyond that the game is decided and says
/// nothing about a model of it), and its game's result for the side to
/// move (1, 0.5 or 0): what `wdl` and `scale` fit.
fn for_each_fit_position(args: &Args, mut f: impl FnMut(&Scored, f32)) -> Result<(), String> {
    for (_, games) in load(&args.files)? {
        for g in &games {
            g.for_each_position(|s| {
                if args.filter.accepts(&s) && s.score.abs() <= 4000 {
                    f(&s, g.outcome.score_for(s.pos.side_to_move()));
                }
            })?;
        }
    }
    Ok(())
}

/// Fits the win-rate model of `castella_engine::value` to the games:
/// `P(win) = σ((v − a) / b)`, `P(loss) = σ((−v − a) / b)`, with `a` and
/// `b` quadratic in the material `m / 58` (pawns 1, minors 3, rooks 5,
/// queens 9, clamped to 17..78, as Stockfish's model counts it), by
/// maximum likelihood (Adam on the exact gradient). Prints the
/// coefficients as the engine's source writes them.
fn wdl_fit(args: &Args) -> Result<(), String> {
    use castella_engine::value::wdl_material;
    // (score for the side to move, material, outcome: 1 win, 0 draw, -1 loss)
    let mut points: Vec<(f64, f64, i8)> = Vec::new();
    for_each_fit_position(args, |s, r| {
        let o = if r > 0.75 {
            1
        } else if r < 0.25 {
            -1
        } else {
            0
        };
        points.push((s.score as f64, wdl_material(&s.pos) as f64 / 58.0, o));
    })?;
    if points.len() < 1000 {
        return Err(format!("too few positions to fit ({})", points.len()));
    }
    // Positions with the same score (to 4 cp), material and outcome are
    // counted together: a few tens of thousands of weighted points.
    let total = points.len();
    let mut bins: std::collections::HashMap<(i32, i32, i8), f64> = Default::default();
    for &(s, x, o) in &points {
        *bins
            .entry(((s / 4.0).round() as i32, (x * 58.0).round() as i32, o))
            .or_default() += 1.0;
    }
    let points: Vec<(f64, f64, i8, f64)> = bins
        .into_iter()
        .map(|((s, m, o), n)| (s as f64 * 4.0, m as f64 / 58.0, o, n))
        .collect();
    // θ = (a0, a1, a2, b0, b1, b2): a = a0 + a1·x + a2·x², b likewise.
    let mut t = [150.0, 0.0, 0.0, 60.0, 0.0, 0.0];
    let (mut m, mut v) = ([0.0f64; 6], [0.0f64; 6]);
    let sig = |z: f64| 1.0 / (1.0 + (-z).exp());
    let mut last = 0.0;
    for step in 1..=20_000 {
        let mut grad = [0.0f64; 6];
        let mut ll = 0.0;
        for &(s, x, o, weight) in &points {
            let a = t[0] + t[1] * x + t[2] * x * x;
            let b = (t[3] + t[4] * x + t[5] * x * x).max(1.0);
            let (w, l) = (sig((s - a) / b), sig((-s - a) / b));
            // d/da and d/db of P(win) and P(loss).
            let (dwa, dwb) = (-w * (1.0 - w) / b, -w * (1.0 - w) * (s - a) / (b * b));
            let (dla, dlb) = (-l * (1.0 - l) / b, -l * (1.0 - l) * (-s - a) / (b * b));
            let (p, da, db) = match o {
                1 => (w, dwa, dwb),
                -1 => (l, dla, dlb),
                _ => (1.0 - w - l, -dwa - dla, -dwb - dlb),
            };
            let p = p.max(1e-12);
            ll += weight * p.ln();
            let powers = [1.0, x, x * x];
            for k in 0..3 {
                grad[k] += weight * da / p * powers[k];
                grad[3 + k] += weight * db / p * powers[k];
            }
        }
        let n = total as f64;
        for k in 0..6 {
            // Ascent on the mean log-likelihood; steps of about 0.5 units.
            let g = grad[k] / n;
            m[k] = 0.9 * m[k] + 0.1 * g;
            v[k] = 0.999 * v[k] + 0.001 * g * g;
            let mh = m[k] / (1.0 - 0.9f64.powi(step));
            let vh = v[k] / (1.0 - 0.999f64.powi(step));
            t[k] += 1.0 * mh / (vh.sqrt() + 1e-12);
        }
        ll /= n;
        if step % 1000 == 0 {
            eprintln!("step {step}: mean log-likelihood {ll:.6}");
            if (ll - last).abs() < 1e-7 {
                break;
            }
            last = ll;
        }
    }
    say!("{total} positions");
    say!(
        "pub const WDL_A: [f64; 3] = [{:.3}, {:.3}, {:.3}];",
        t[0],
        t[1],
        t[2]
    );
    say!(
        "pub const WDL_B: [f64; 3] = [{:.3}, {:.3}, {:.3}];",
        t[3],
        t[4],
        t[5]
    );
    for m in [20, 30, 40, 50, 58, 70, 78] {
        let x = m as f64 / 58.0;
        say!(
            "material {m:>2}: 50% wins at {:>4.0} cp, b {:>4.0}",
            t[0] + t[1] * x + t[2] * x * x,
            t[3] + t[4] * x + t[5] * x * x
        );
    }
    Ok(())
}

/// Fits the trainer's `--scale`: the `k` for which `σ(score / k)` best
/// predicts the game's result from the side to move's view (least
/// cross-entropy, a golden-section search on `ln k`). A target that mixes
/// results and scores (`--lambda` between 0 and 1) pulls the network off
/// the search's centipawn scale unless the two agree, so train with the
/// scale this prints for the data at hand.
fn scale_fit(args: &Args) -> Result<(), String> {
    // Weighted points: (score to 4 cp, result in halves) -> count.
    let mut bins: std::collections::HashMap<(i32, u8), f64> = Default::default();
    let mut total = 0usize;
    for_each_fit_position(args, |s, r| {
        let key = (
            (s.score as f64 / 4.0).round() as i32,
            (r * 2.0).round() as u8,
        );
        *bins.entry(key).or_default() += 1.0;
        total += 1;
    })?;
    if total < 1000 {
        return Err(format!("too few positions to fit ({total})"));
    }
    let points: Vec<(f64, f64, f64)> = bins
        .into_iter()
        .map(|((s, r), n)| (s as f64 * 4.0, r as f64 / 2.0, n))
        .collect();
    let loss = |k: f64| cross_entropy(&points, k);
    let k = fit_scale(&points);
    say!("{total} positions");
    say!("scale {k:.1} (cross-entropy {:.6})", loss(k));
    for other in [0.5, 0.75, 1.5, 2.0] {
        say!(
            "  scale {:>7.1}: cross-entropy {:.6}",
            k * other,
            loss(k * other)
        );
    }
    Ok(())
}

/// The mean cross-entropy of results against `σ(score / k)` over weighted
/// points `(score, result, weight)`.
fn cross_entropy(points: &[(f64, f64, f64)], k: f64) -> f64 {
    let (mut sum, mut weight) = (0.0, 0.0);
    for &(s, r, n) in points {
        let p = (1.0 / (1.0 + (-s / k).exp())).clamp(1e-12, 1.0 - 1e-12);
        sum -= n * (r * p.ln() + (1.0 - r) * (1.0 - p).ln());
        weight += n;
    }
    sum / weight.max(1e-12)
}

/// The `k` between 20 and 5000 with the least [`cross_entropy`]: a
/// golden-section search on `ln k` (the loss has one minimum there).
fn fit_scale(points: &[(f64, f64, f64)]) -> f64 {
    let (mut lo, mut hi) = (20f64.ln(), 5000f64.ln());
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    while hi - lo > 1e-5 {
        let (a, b) = (hi - golden * (hi - lo), lo + golden * (hi - lo));
        if cross_entropy(points, a.exp()) < cross_entropy(points, b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

fn run(m: &clap::ArgMatches) -> Result<(), String> {
    let (command, m) = m.subcommand().expect("a subcommand is required");
    let a = args(m);
    match command {
        "count" => count(&a.files),
        "stats" => stats(&a),
        "dump" => dump(&a),
        "wdl" => wdl_fit(&a),
        "scale" => scale_fit(&a),
        _ => {
            // merge and shuffle: OUT, then the files.
            let (out, sources) = a.files.split_first().expect("OUT is required");
            let mut all: Vec<Game> = load(sources)?.into_iter().flat_map(|f| f.1).collect();
            if command == "shuffle" {
                all.shuffle(&mut rand::rngs::StdRng::seed_from_u64(a.seed));
            }
            write(out, &all, sources)
        }
    }
}

fn main() {
    if let Err(e) = run(&command().get_matches()) {
        eprintln!("data: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_fit_finds_the_scale_results_were_drawn_with() {
        // Wins and losses in the proportions σ(s / 230) gives.
        let points: Vec<(f64, f64, f64)> = (-100..=100)
            .flat_map(|i| {
                let s = i as f64 * 8.0;
                let p = 1.0 / (1.0 + (-s / 230.0).exp());
                [(s, 1.0, p), (s, 0.0, 1.0 - p)]
            })
            .collect();
        let k = fit_scale(&points);
        assert!((k - 230.0).abs() < 0.5, "{k}");
        assert!(cross_entropy(&points, k) < cross_entropy(&points, 400.0));
    }
}
