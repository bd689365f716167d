//! `castella rank960`: evaluates start positions (the 960, Double-FRC pairs
//! or any FENs) with a fresh search each and ranks them by score; writes
//! the ranking, a balanced opening book and a picture of the distribution;
//! splits a run into shards and merges them again.

mod book;
mod plot;
mod start;
mod table;

use castella_engine::value::MATE_BOUND;
use castella_engine::{Engine, Event, Limits, Options, Reporter, Score};
use castella_movegen::{Color, Position};
use rayon::prelude::*;
use start::Start;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use table::Row;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Csv,
    Json,
}

/// How a search's iterations become the position's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scoring {
    /// The mean of the exact scores of the deeper half of the iterations
    /// (depths above half the last one): a start position's score moves by
    /// more between iterations than the positions differ.
    Mean,
    /// The last finished iteration's score, as a game's search reports it.
    Last,
}

/// What to write, for a search run and a merge alike.
struct Output {
    format: Format,
    out: Option<String>,
    pairs: bool,
    book: Option<String>,
    max_abs: Option<i32>,
    balanced: Option<usize>,
    plot: Option<String>,
}

struct Config {
    limits: Limits,
    scoring: Scoring,
    jobs: usize,
    threads: usize,
    hash_mb: usize,
    positions: Vec<(Start, Position)>,
    output: Output,
}

enum Task {
    Rank(Config),
    Merge(Vec<String>, Output),
}

/// The command line: `rank960 [what] [budget] [output]` and
/// `rank960 merge FILE... [output]`.
pub fn command() -> clap::Command {
    use clap::{value_parser, Arg, ArgAction, ArgGroup};
    let number = |name: &'static str, value: &'static str, help: &'static str| {
        Arg::new(name)
            .long(name)
            .value_name(value)
            .help(help)
            .value_parser(value_parser!(u64))
    };
    clap::Command::new("rank960")
        .about("Ranks start positions (the 960, Double-FRC pairs, FENs) by a fresh search each")
        .args_conflicts_with_subcommands(true)
        .next_help_heading("What")
        .arg(
            Arg::new("positions")
                .long("positions")
                .value_name("LIST")
                .help(
                    "indices and ranges (0-9,518), Double-FRC pairs (518:0-959), FENs, \
             or a file with one per line (default: all 960)",
                ),
        )
        .arg(
            Arg::new("dfrc")
                .long("dfrc")
                .action(ArgAction::SetTrue)
                .help("all 921600 Double-FRC pairs (with --positions: pairs only)"),
        )
        .arg(number("sample", "N", "N of them, drawn by --seed"))
        .arg(number("seed", "S", "the sample's seed").default_value("1"))
        .arg(
            Arg::new("shard")
                .long("shard")
                .value_name("K/N")
                .help("the K-th of N disjoint parts (K = 1..N)")
                .value_parser(start::parse_shard),
        )
        .next_help_heading("Budget")
        .arg(number("nodes", "N", "nodes per position (default 2000000)"))
        .arg(number("depth", "D", "depth per position"))
        .arg(number("movetime", "MS", "milliseconds per position"))
        .group(ArgGroup::new("budget").args(["nodes", "depth", "movetime"]))
        .arg(
            Arg::new("score")
                .long("score")
                .value_name("HOW")
                .value_parser(["mean", "last"])
                .default_value("mean")
                .help("mean: of the deeper half of the iterations; last: the last iteration's"),
        )
        .arg(number(
            "jobs",
            "J",
            "positions searched at once (default: one a core)",
        ))
        .arg(number("threads", "T", "threads a search").default_value("1"))
        .arg(number("hash", "MB", "table a search, in MB").default_value("16"))
        .args(output_args())
        .subcommand(
            clap::Command::new("merge")
                .about("Joins rankings (shards, or .partial files of stopped runs) into one")
                .arg(
                    Arg::new("files")
                        .value_name("FILE")
                        .num_args(1..)
                        .required(true)
                        .help("rank960 CSVs, finished or .partial"),
                )
                .args(output_args()),
        )
}

/// The output options, for a search run and a merge alike.
fn output_args() -> Vec<clap::Arg> {
    use clap::{value_parser, Arg, ArgAction};
    vec![
        Arg::new("out")
            .long("out")
            .value_name("FILE")
            .help_heading("Output")
            .help("the ranking (rows kept in FILE.partial as they finish; a stopped run resumes from it)"),
        Arg::new("format")
            .long("format")
            .value_parser(["csv", "json"])
            .default_value("csv")
            .help_heading("Output")
            .help("the ranking's format"),
        Arg::new("pairs")
            .long("pairs")
            .action(ArgAction::SetTrue)
            .help_heading("Output")
            .help("each Chess960 start beside its mirror image"),
        Arg::new("book")
            .long("book")
            .value_name("FILE.epd")
            .help_heading("Output")
            .help("an EPD opening book of the most balanced positions, with `ce` scores"),
        Arg::new("max-abs")
            .long("max-abs")
            .value_name("CP")
            .value_parser(value_parser!(u32).range(0..100_000))
            .requires("book")
            .help_heading("Output")
            .help("the book keeps positions within CP centipawns of equality"),
        Arg::new("balanced")
            .long("balanced")
            .value_name("N")
            .value_parser(value_parser!(u64))
            .requires("book")
            .help_heading("Output")
            .help("the book keeps at most N positions"),
        Arg::new("plot")
            .long("plot")
            .value_name("FILE.svg")
            .help_heading("Output")
            .help("the distribution of the scores as a picture"),
    ]
}

/// Runs `castella rank960` (or its `merge`) as parsed.
pub fn run(m: &clap::ArgMatches) -> ExitCode {
    let task = match m.subcommand_matches("merge") {
        Some(m) => Ok(Task::Merge(
            m.get_many::<String>("files")
                .expect("required")
                .cloned()
                .collect(),
            output(m),
        )),
        None => config(m).map(Task::Rank),
    };
    let task = match task {
        Ok(t) => t,
        Err(e) => {
            // A usage error, told as clap tells its own.
            let mut cmd = command().bin_name("castella rank960");
            let _ = cmd
                .error(clap::error::ErrorKind::ValueValidation, e)
                .print();
            return ExitCode::from(2);
        }
    };
    let ranked = match task {
        Task::Rank(config) => rank_all(&config).map(|rows| (rows, config.output)),
        Task::Merge(files, output) => merge(&files).map(|rows| (rows, output)),
    };
    match ranked.and_then(|(rows, output)| write_outputs(rows, &output)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn output(m: &clap::ArgMatches) -> Output {
    Output {
        format: match m.get_one::<String>("format").map(String::as_str) {
            Some("json") => Format::Json,
            _ => Format::Csv,
        },
        out: m.get_one::<String>("out").cloned(),
        pairs: m.get_flag("pairs"),
        book: m.get_one::<String>("book").cloned(),
        max_abs: m.get_one::<u32>("max-abs").map(|&n| n as i32),
        balanced: m.get_one::<u64>("balanced").map(|&n| n as usize),
        plot: m.get_one::<String>("plot").cloned(),
    }
}

/// A search run's settings and positions; an error is a usage error.
fn config(m: &clap::ArgMatches) -> Result<Config, String> {
    let get = |name: &str| m.get_one::<u64>(name).copied();
    let mut limits = Limits::default();
    match (get("depth"), get("movetime")) {
        (Some(d), _) => limits.depth = Some(d.clamp(1, 100) as u32),
        (_, Some(ms)) => limits.movetime = Some(ms.max(1)),
        _ => limits.nodes = Some(get("nodes").unwrap_or(2_000_000).max(1)),
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let c = Config {
        limits,
        scoring: match m.get_one::<String>("score").map(String::as_str) {
            Some("last") => Scoring::Last,
            _ => Scoring::Mean,
        },
        jobs: get("jobs").map_or(cores, |j| j.clamp(1, 1024) as usize),
        threads: get("threads").unwrap_or(1).clamp(1, 1024) as usize,
        hash_mb: get("hash").unwrap_or(16).clamp(1, 1 << 20) as usize,
        positions: Vec::new(),
        output: output(m),
    };
    // Refuse a table size that cannot be allocated here, before any job.
    castella_engine::tt::TranspositionTable::new(c.hash_mb.saturating_mul(c.jobs))
        .map_err(|e| format!("--hash {} with {} jobs: {e}", c.hash_mb, c.jobs))?;
    let (sample, seed) = (get("sample").map(|n| n as usize), get("seed").unwrap_or(1));
    let shard = m.get_one::<(usize, usize)>("shard").copied();
    // Sampled and split by name before any position is set up: all the
    // Double-FRC pairs are many.
    let positions = match (m.get_one::<String>("positions"), m.get_flag("dfrc")) {
        (Some(list), dfrc) => {
            let p = start::parse_list(list)?;
            if dfrc && p.iter().any(|(s, _)| !matches!(s, Start::Dfrc(..))) {
                return Err("with --dfrc, --positions lists pairs such as 518:0-959".into());
            }
            start::select(p, sample, seed, shard)
        }
        (None, false) => {
            start::with_positions(start::select(start::all_chess960(), sample, seed, shard))
        }
        (None, true) => {
            start::with_positions(start::select(start::all_dfrc(), sample, seed, shard))
        }
    };
    Ok(Config { positions, ..c })
}

/// What makes two runs' rows interchangeable: a partial file is resumed
/// only under the settings it was started with.
fn settings(c: &Config) -> String {
    let l = &c.limits;
    let limit = match (l.depth, l.nodes, l.movetime) {
        (Some(d), _, _) => format!("depth {d}"),
        (_, Some(n), _) => format!("nodes {n}"),
        (_, _, Some(ms)) => format!("movetime {ms}"),
        _ => "none".into(),
    };
    format!(
        "# castella rank960 {}: {limit}, score {}, threads {}, hash {}",
        crate::uci::VERSION,
        match c.scoring {
            Scoring::Mean => "mean",
            Scoring::Last => "last",
        },
        c.threads,
        c.hash_mb
    )
}

/// Searches every position of the run not already in `OUT.partial`;
/// returns the rows of all of them.
fn rank_all(config: &Config) -> Result<Vec<Row>, String> {
    let settings = settings(config);
    let partial = config.output.out.as_ref().map(|o| format!("{o}.partial"));
    let mut rows = Vec::new();
    if let Some(path) = &partial {
        if let Ok(text) = std::fs::read_to_string(path) {
            if text.lines().next() != Some(settings.as_str()) {
                return Err(format!(
                    "{path} was started with other settings ({}); run with those, or delete it",
                    text.lines()
                        .next()
                        .unwrap_or("none")
                        .trim_start_matches("# ")
                ));
            }
            // A run killed while writing leaves a line without its end.
            let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
            rows = table::read_csv(whole, path)?;
            let wanted: std::collections::HashSet<String> =
                config.positions.iter().map(|(_, p)| p.fen()).collect();
            rows.retain(|r| wanted.contains(&r.pos.fen()));
            eprintln!(
                "resuming: {} of {} positions already in {path}",
                rows.len(),
                config.positions.len()
            );
        }
    }
    let done: std::collections::HashSet<String> = rows.iter().map(|r| r.pos.fen()).collect();
    let todo: Vec<(Start, Position)> = config
        .positions
        .iter()
        .filter(|(_, p)| !done.contains(&p.fen()))
        .copied()
        .collect();
    let sink = match &partial {
        Some(path) => {
            // Written afresh with the rows kept, then a line per new row.
            let mut text = format!("{settings}\n{}\n", table::HEADER);
            for r in &rows {
                text.push_str(&table::csv_line(None, r));
                text.push('\n');
            }
            write(path, &text)?;
            let file = std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot write {path}: {e}"))?;
            Some(Mutex::new(file))
        }
        None => None,
    };
    // The partial file stays until the finished ranking is written.
    rows.extend(evaluate_all(config, &todo, sink.as_ref())?);
    Ok(rows)
}

fn evaluate_all(
    config: &Config,
    todo: &[(Start, Position)],
    sink: Option<&Mutex<std::fs::File>>,
) -> Result<Vec<Row>, String> {
    let total = todo.len();
    let done = Arc::new(AtomicUsize::new(0));
    let finished = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    // A live bar on a terminal; a line every tenth of the run otherwise, so
    // that logs stay readable.
    let live = std::io::stderr().is_terminal();
    let progress = {
        let (done, finished) = (done.clone(), finished.clone());
        std::thread::spawn(move || {
            let mut reported = 0;
            while !finished.load(Ordering::Relaxed) {
                let n = done.load(Ordering::Relaxed);
                if live || n >= reported + total.div_ceil(10) {
                    print_progress(n, total, start.elapsed(), live);
                    reported = n;
                }
                std::thread::sleep(Duration::from_millis(if live { 250 } else { 1000 }));
            }
            print_progress(done.load(Ordering::Relaxed), total, start.elapsed(), live);
            if live {
                eprintln!();
            }
        })
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.jobs)
        .build()
        .map_err(|e| format!("cannot start {} jobs: {e}", config.jobs))?;
    let rows: Result<Vec<Row>, String> = pool.install(|| {
        todo.par_iter()
            .map(|(start, pos)| {
                let row = evaluate_one(config, *start, pos);
                if let Some(file) = sink {
                    // One write a row, so that a kill leaves whole lines.
                    let line = format!("{}\n", table::csv_line(None, &row));
                    let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                    file.write_all(line.as_bytes())
                        .map_err(|e| format!("cannot append to the partial file: {e}"))?;
                }
                done.fetch_add(1, Ordering::Relaxed);
                Ok(row)
            })
            .collect()
    });
    finished.store(true, Ordering::Relaxed);
    let _ = progress.join();
    rows
}

/// One exact iteration: its depth, normalised centipawns and WDL (side to
/// move's view).
type Iteration = (u32, i32, (u32, u32, u32));

fn evaluate_one(config: &Config, start: Start, pos: &Position) -> Row {
    let options = Options::fixed(config.hash_mb, config.threads);
    let mut engine = Engine::silent(options).expect("the table size was checked in parse");
    let iterations: Arc<Mutex<Vec<Iteration>>> = Arc::default();
    let sink = iterations.clone();
    let report: Reporter = Arc::new(move |event| {
        if let Event::Info(i) = event {
            if let (castella_engine::Bound::Exact, 1, Score::Cp(cp)) = (i.bound, i.multipv, i.score)
            {
                sink.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((i.depth, cp, i.wdl));
            }
        }
    });
    let (result, nodes) = engine.search_sync_reporting(pos, &[], &config.limits, Some(&report));
    let material = castella_engine::value::wdl_material(pos);
    let last = (
        castella_engine::value::normalize(result.score, material),
        castella_engine::value::wdl(result.score, material),
    );
    let (score, (w, d, l)) = match config.scoring {
        Scoring::Last => last,
        Scoring::Mean => {
            let iterations = iterations.lock().unwrap_or_else(|e| e.into_inner());
            mean_of_deeper_half(&iterations, result.depth).unwrap_or(last)
        }
    };
    let (score, wdl) = if pos.side_to_move() == Color::White {
        (score, (w, d, l))
    } else {
        (-score, (l, d, w))
    };
    Row {
        start,
        pos: *pos,
        score,
        wdl,
        best_uci: pos.move_to_uci(result.best, true),
        best_san: pos.move_to_san(result.best),
        depth: result.depth,
        nodes,
    }
}

/// The mean score and WDL of the iterations deeper than half of `depth`,
/// the last finished one; `None` when the last one's score is a mate (or
/// was not reported), which is then the score.
fn mean_of_deeper_half(iterations: &[Iteration], depth: u32) -> Option<(i32, (u32, u32, u32))> {
    // The final line is reported again before the search ends: one entry
    // per depth, the last.
    let mut by_depth: Vec<Iteration> = Vec::new();
    for &it in iterations {
        match by_depth.last_mut() {
            Some(prev) if prev.0 == it.0 => *prev = it,
            _ => by_depth.push(it),
        }
    }
    if by_depth.last().map(|it| it.0) != Some(depth) {
        return None;
    }
    let chosen: Vec<&Iteration> = by_depth.iter().filter(|it| it.0 > depth / 2).collect();
    let n = chosen.len() as f64;
    let mean = |f: &dyn Fn(&Iteration) -> f64| chosen.iter().map(|it| f(it)).sum::<f64>() / n;
    let score = mean(&|it| it.1 as f64).round() as i32;
    let win = mean(&|it| it.2 .0 as f64).round() as u32;
    let loss = mean(&|it| it.2 .2 as f64).round() as u32;
    (score.abs() < MATE_BOUND).then_some((score, (win, 1000 - (win + loss).min(1000), loss)))
}

/// The rows of ranking files (shards, or partial files of stopped runs),
/// each position once.
fn merge(files: &[String]) -> Result<Vec<Row>, String> {
    let mut rows: Vec<Row> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    let mut repeats = 0;
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?;
        for row in table::read_csv(&text, f)? {
            match seen.get(&row.pos.fen()) {
                Some(&i) if rows[i] == row => repeats += 1,
                Some(_) => {
                    return Err(format!(
                        "{f}: {} differs from an earlier file's row for the same position",
                        row.pos.fen()
                    ))
                }
                None => {
                    seen.insert(row.pos.fen(), rows.len());
                    rows.push(row);
                }
            }
        }
    }
    if repeats > 0 {
        eprintln!("merge: {repeats} rows were in more than one file (identical; kept once)");
    }
    Ok(rows)
}

fn write_outputs(mut rows: Vec<Row>, output: &Output) -> Result<(), String> {
    table::rank(&mut rows);
    let text = match output.format {
        Format::Csv => table::csv(&rows, output.pairs),
        Format::Json => table::json(&rows, output.pairs),
    };
    match &output.out {
        Some(path) => {
            write(path, &text)?;
            eprintln!("wrote {} positions to {path}", rows.len());
            let partial = format!("{path}.partial");
            if std::path::Path::new(&partial).exists() {
                std::fs::remove_file(&partial)
                    .map_err(|e| format!("cannot remove {partial}: {e}"))?;
            }
        }
        None => print!("{text}"),
    }
    if let Some(path) = &output.book {
        let chosen = book::choose(&rows, output.max_abs, output.balanced);
        write(path, &book::epd(&chosen))?;
        eprintln!("wrote a book of {} positions to {path}", chosen.len());
    }
    if let Some(path) = &output.plot {
        write(path, &plot::svg(&rows))?;
        eprintln!("wrote the distribution to {path}");
    }
    eprint!("{}", table::summary(&rows));
    Ok(())
}

fn write(path: &str, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))
}

fn print_progress(done: usize, total: usize, elapsed: Duration, live: bool) {
    let secs = elapsed.as_secs_f64();
    let rate = done as f64 / secs.max(1e-3);
    let eta = if done > 0 {
        (total - done) as f64 / rate
    } else {
        0.0
    };
    let width = 30;
    let filled = done * width / total.max(1);
    eprint!(
        "{}[{}{}] {done}/{total}  {rate:.2} pos/s  elapsed {}  ETA {}   {}",
        if live { "\r" } else { "" },
        "#".repeat(filled),
        ".".repeat(width - filled),
        hms(secs),
        hms(eta),
        if live { "" } else { "\n" }
    );
    let _ = std::io::stderr().flush();
}

fn hms(secs: f64) -> String {
    let s = secs.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deeper_half_is_averaged() {
        let it = |d, cp| (d, cp, (100, 800, 100));
        // Depths 1..=6 (6 repeated as the final line): depths 4, 5, 6.
        let v = [
            it(1, 50),
            it(2, 0),
            it(3, 0),
            it(4, 10),
            it(5, 20),
            it(6, 40),
            it(6, 42),
        ];
        assert_eq!(mean_of_deeper_half(&v, 6), Some((24, (100, 800, 100))));
        assert_eq!(mean_of_deeper_half(&v[..1], 1), Some((50, (100, 800, 100))));
        assert_eq!(
            mean_of_deeper_half(&v, 7),
            None,
            "the last depth unreported"
        );
        let mate = [it(1, 20), it(2, MATE_BOUND + 5)];
        assert_eq!(mean_of_deeper_half(&mate, 2), None);
    }
}
