//! `castella perft`: divide on one position, or a whole EPD suite.

use castella_movegen::{divide, perft_until, Position};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The command line: `perft DEPTH [--fen FEN | --frc N] [--chess960]` or
/// `perft --epd FILE [--max-depth D] [--threads N] [--fail-fast]`.
pub fn command() -> clap::Command {
    use clap::{value_parser, Arg, ArgAction};
    let max = castella_movegen::perft::MAX_DEPTH as i64;
    clap::Command::new("perft")
        .about("Counts the leaves of the move tree: one position, per root move, or an EPD suite")
        .arg(
            Arg::new("depth")
                .value_name("DEPTH")
                .help("depth to count to")
                .value_parser(value_parser!(u32).range(0..=max))
                .required_unless_present("epd"),
        )
        .arg(
            Arg::new("fen")
                .long("fen")
                .value_name("FEN")
                .help("the position (default: the standard start)")
                .value_parser(|s: &str| Position::from_fen(s).map_err(|e| format!("bad FEN: {e}"))),
        )
        .arg(
            Arg::new("frc")
                .long("frc")
                .value_name("N")
                .help("Chess960 start position N (0-959; 518 is standard), castling written king onto rook")
                .value_parser(value_parser!(u16).range(0..960))
                .conflicts_with("fen"),
        )
        .arg(
            Arg::new("chess960")
                .long("chess960")
                .help("write castling king onto rook (e1h1)")
                .action(ArgAction::SetTrue),
        )
        .arg(
            Arg::new("epd")
                .long("epd")
                .value_name("FILE")
                .help("a suite of 'FEN ;D1 n ;D2 n ...' lines, checked on every core")
                .conflicts_with_all(["depth", "fen", "frc", "chess960"]),
        )
        .arg(
            Arg::new("max-depth")
                .long("max-depth")
                .value_name("D")
                .help("check the suite's counts to this depth at most")
                .value_parser(value_parser!(u32))
                .requires("epd"),
        )
        .arg(
            Arg::new("threads")
                .long("threads")
                .value_name("N")
                .help("positions counted at once (default: one a core)")
                .value_parser(value_parser!(u64).range(1..=1024))
                .requires("epd"),
        )
        .arg(
            Arg::new("fail-fast")
                .long("fail-fast")
                .help("stop at the first mismatch")
                .action(ArgAction::SetTrue)
                .requires("epd"),
        )
}

/// Runs the parsed command; the exit code is non-zero on a mismatch.
pub fn run(m: &clap::ArgMatches) -> ExitCode {
    match from_matches(m).execute() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

enum Command {
    Divide {
        pos: Position,
        depth: u32,
        chess960: bool,
    },
    Suite {
        file: String,
        max_depth: u32,
        /// Positions counted at once, one a thread.
        threads: usize,
        /// Stop at the first mismatch instead of listing them all.
        fail_fast: bool,
    },
}

fn from_matches(m: &clap::ArgMatches) -> Command {
    match m.get_one::<String>("epd") {
        Some(file) => Command::Suite {
            file: file.clone(),
            max_depth: m.get_one::<u32>("max-depth").copied().unwrap_or(u32::MAX),
            threads: m.get_one::<u64>("threads").map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                |&n| n as usize,
            ),
            fail_fast: m.get_flag("fail-fast"),
        },
        None => {
            let frc = m.get_one::<u16>("frc").and_then(|&n| Position::chess960(n));
            Command::Divide {
                pos: frc
                    .or_else(|| m.get_one::<Position>("fen").copied())
                    .unwrap_or_else(Position::startpos),
                depth: *m.get_one::<u32>("depth").expect("required without --epd"),
                chess960: m.get_flag("chess960") || frc.is_some(),
            }
        }
    }
}

impl Command {
    fn execute(self) -> Result<bool, String> {
        match self {
            Command::Divide {
                pos,
                depth,
                chess960,
            } => {
                let start = Instant::now();
                let mut total = 0;
                for (mv, n) in divide(&pos, depth) {
                    println!("{}: {n}", pos.move_to_uci(mv, chess960));
                    total += n;
                }
                if depth == 0 {
                    total = 1;
                }
                let secs = start.elapsed().as_secs_f64();
                println!("\nNodes searched: {total}");
                println!(
                    "Time: {:.3} s, {:.0} nodes/s",
                    secs,
                    total as f64 / secs.max(1e-9)
                );
                Ok(true)
            }
            Command::Suite {
                file,
                max_depth,
                threads,
                fail_fast,
            } => run_suite(&file, max_depth, threads, fail_fast),
        }
    }
}

/// One line of a suite: where it is, its position and the counts it
/// expects, by depth.
struct Entry {
    line: usize,
    fen: String,
    pos: Position,
    expected: Vec<(u32, u64)>,
}

/// What a suite's run found at one position.
struct Outcome {
    /// The index of the entry.
    entry: usize,
    /// Depth, expected and found, for every count that differs.
    mismatches: Vec<(u32, u64, u64)>,
    nodes: u64,
}

/// Reads a suite: `FEN ;D1 n ;D2 n ...` lines, `#` comments and blank
/// lines skipped. A line whose FEN does not parse is returned apart, with
/// the reason, to be counted as a failure.
fn read_suite(text: &str, max_depth: u32) -> (Vec<Entry>, Vec<(usize, String)>) {
    let (mut entries, mut bad) = (Vec::new(), Vec::new());
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';').map(str::trim);
        let fen = fields.next().unwrap_or_default();
        let pos = match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                bad.push((i + 1, format!("line {}: bad FEN ({e}): {fen}", i + 1)));
                continue;
            }
        };
        let expected = fields
            .filter_map(|field| {
                let (key, val) = field.split_once(char::is_whitespace)?;
                let depth = key.strip_prefix('D')?.parse::<u32>().ok()?;
                Some((depth, val.trim().parse::<u64>().ok()?))
            })
            .filter(|&(d, _)| d <= max_depth)
            .collect();
        entries.push(Entry {
            line: i + 1,
            fen: fen.to_string(),
            pos,
            expected,
        });
    }
    (entries, bad)
}

/// A duration as `1h02m`, `3m05s` or `12s`.
fn span(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

/// Runs a suite on `threads` threads, one position at a time each.
/// Every position's line is printed as it finishes, and every mismatch
/// again, in file order, at the end; on a long run a progress line with
/// the rate and the time left goes to stderr every few seconds. With
/// `fail_fast` the first mismatch stops the run.
fn run_suite(file: &str, max_depth: u32, threads: usize, fail_fast: bool) -> Result<bool, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let (entries, bad) = read_suite(&text, max_depth);
    for (_, line) in &bad {
        println!("{line}");
    }
    let start = Instant::now();
    // What the suite expects to count: the measure of the time left.
    let expected: u64 = entries
        .iter()
        .flat_map(|e| e.expected.iter().map(|&(_, n)| n))
        .sum();
    let next = AtomicUsize::new(0);
    let (done_nodes, done_entries) = (AtomicU64::new(0), AtomicUsize::new(0));
    // With `fail_fast` a line that cannot be read is the first mismatch.
    let stop = AtomicBool::new(fail_fast && !bad.is_empty());
    let outcomes = Mutex::new(Vec::with_capacity(entries.len()));
    let threads = threads.clamp(1, entries.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(entry) = entries.get(i) else { break };
                let mut outcome = Outcome {
                    entry: i,
                    mismatches: Vec::new(),
                    nodes: 0,
                };
                for &(d, want) in &entry.expected {
                    let Some(found) = perft_until(&entry.pos, d, &stop) else {
                        return; // stopped by a mismatch elsewhere
                    };
                    outcome.nodes += found;
                    done_nodes.fetch_add(want, Ordering::Relaxed);
                    if found != want {
                        outcome.mismatches.push((d, want, found));
                        if fail_fast {
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                }
                let line = match outcome.mismatches.as_slice() {
                    [] => format!(
                        "line {}: ok (depths {:?}) {}",
                        entry.line,
                        entry.expected.iter().map(|&(d, _)| d).collect::<Vec<_>>(),
                        entry.fen
                    ),
                    found => found
                        .iter()
                        .map(|(d, want, got)| mismatch_line(entry, *d, *want, *got))
                        .collect::<Vec<_>>()
                        .join("\n"),
                };
                let mut outcomes = outcomes.lock().unwrap_or_else(|e| e.into_inner());
                println!("{line}");
                outcomes.push(outcome);
                done_entries.fetch_add(1, Ordering::Relaxed);
            });
        }
        // Progress, while the workers count.
        let mut shown = Instant::now();
        while done_entries.load(Ordering::Relaxed) < entries.len() && !stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(50));
            if shown.elapsed() < PROGRESS_EVERY {
                continue;
            }
            shown = Instant::now();
            let secs = start.elapsed().as_secs_f64();
            let (nodes, positions) = (
                done_nodes.load(Ordering::Relaxed),
                done_entries.load(Ordering::Relaxed),
            );
            let left = if nodes > 0 {
                span(secs * (expected - nodes.min(expected)) as f64 / nodes as f64)
            } else {
                "?".into()
            };
            eprintln!(
                "progress: {positions}/{} positions, {:.1} positions/s, {:.0} nodes/s, about {left} left",
                entries.len(),
                positions as f64 / secs,
                nodes as f64 / secs,
            );
        }
    });
    let secs = start.elapsed().as_secs_f64();
    let mut outcomes = outcomes.into_inner().unwrap_or_else(|e| e.into_inner());
    outcomes.sort_by_key(|o| o.entry);
    let nodes: u64 = outcomes.iter().map(|o| o.nodes).sum();
    let failed = bad.len() + outcomes.iter().filter(|o| !o.mismatches.is_empty()).count();
    let checked = bad.len() + outcomes.len();
    let total = bad.len() + entries.len();
    if failed > 0 {
        let mut listed = bad.clone();
        for o in &outcomes {
            let entry = &entries[o.entry];
            for &(d, want, got) in &o.mismatches {
                listed.push((entry.line, mismatch_line(entry, d, want, got)));
            }
        }
        listed.sort_by_key(|&(line, _)| line);
        println!("\nmismatches:");
        for (_, line) in listed {
            println!("{line}");
        }
    }
    let stopped = if checked < total {
        format!(
            " (stopped at the first mismatch; {} not run)",
            total - checked
        )
    } else {
        String::new()
    };
    println!(
        "{total} positions, {} passed, {failed} failed{stopped}; {nodes} nodes in {secs:.2} s \
         ({:.0} nodes/s, {:.1} positions/s, {threads} thread{})",
        checked - failed,
        nodes as f64 / secs.max(1e-9),
        checked as f64 / secs.max(1e-9),
        if threads == 1 { "" } else { "s" },
    );
    Ok(failed == 0)
}

fn mismatch_line(entry: &Entry, depth: u32, expected: u64, found: u64) -> String {
    format!(
        "line {}: MISMATCH depth {depth}: expected {expected}, found {found}: {}",
        entry.line, entry.fen
    )
}

/// How often a suite's progress is shown.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);
