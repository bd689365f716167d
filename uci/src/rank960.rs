//! `castella rank960`: evaluates Chess960 start positions with a fresh
//! search each and ranks them by score.

use castella_engine::value::{to_uci, MATE_BOUND};
use castella_engine::{Engine, Limits, Options, Score};
use castella_movegen::{chess960, Color, Position};
use rayon::prelude::*;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: castella rank960 [--depth D | --nodes N | --movetime MS] [--jobs J] [--threads T]
                        [--hash MB] [--positions LIST] [--format csv|json] [--out FILE] [--pairs]
  LIST: comma-separated indices and ranges (0-9,518), FENs, or a file with one index or FEN per line.
  Default: all 960 positions, --nodes 1000000, one job per core, 1 thread and 16 MB each.";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Csv,
    Json,
}

struct Config {
    limits: Limits,
    jobs: usize,
    threads: usize,
    hash_mb: usize,
    positions: Vec<(Option<u16>, Position)>,
    format: Format,
    out: Option<String>,
    pairs: bool,
}

/// One evaluated position.
struct Row {
    index: Option<u16>,
    pos: Position,
    /// Normalised centipawns from White's view (`value::normalize`;
    /// mates as +-(31000 - plies)).
    score: i32,
    /// White's win/draw/loss per mille.
    wdl: (u32, u32, u32),
    best_uci: String,
    best_san: String,
    depth: u32,
    nodes: u64,
}

pub fn run(args: &[String]) -> ExitCode {
    let config = match parse(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut rows = evaluate_all(&config);
    rows.sort_by(|a, b| b.score.cmp(&a.score).then(a.index.cmp(&b.index)));
    let text = match config.format {
        Format::Csv => csv(&rows, config.pairs),
        Format::Json => json(&rows, config.pairs),
    };
    match &config.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &text) {
                eprintln!("error: cannot write {path}: {e}");
                return ExitCode::FAILURE;
            }
            eprintln!("wrote {} positions to {path}", rows.len());
        }
        None => print!("{text}"),
    }
    eprint!("{}", summary(&rows));
    ExitCode::SUCCESS
}

fn parse(args: &[String]) -> Result<Config, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut c = Config {
        limits: Limits::default(),
        jobs: cores,
        threads: 1,
        hash_mb: 16,
        positions: Vec::new(),
        format: Format::Csv,
        out: None,
        pairs: false,
    };
    let mut limit_given = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        let num = |v: String| {
            v.parse::<u64>()
                .map_err(|_| format!("{a}: '{v}' is not a number"))
        };
        match a.as_str() {
            "--depth" => {
                c.limits.depth = Some(num(value()?)?.clamp(1, 100) as u32);
                limit_given = true;
            }
            "--nodes" => {
                c.limits.nodes = Some(num(value()?)?.max(1));
                limit_given = true;
            }
            "--movetime" => {
                c.limits.movetime = Some(num(value()?)?.max(1));
                limit_given = true;
            }
            "--jobs" => c.jobs = num(value()?)?.clamp(1, 1024) as usize,
            "--threads" => c.threads = num(value()?)?.clamp(1, 1024) as usize,
            "--hash" => c.hash_mb = num(value()?)?.clamp(1, 1 << 20) as usize,
            "--positions" => c.positions = parse_positions(&value()?)?,
            "--format" => {
                c.format = match value()?.as_str() {
                    "csv" => Format::Csv,
                    "json" => Format::Json,
                    f => return Err(format!("unknown format '{f}' (csv or json)")),
                }
            }
            "--out" => c.out = Some(value()?),
            "--pairs" => c.pairs = true,
            "-h" | "--help" => return Err("help".into()),
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    // Refuse a table size that cannot be allocated here, before any job.
    castella_engine::tt::TranspositionTable::new(c.hash_mb.saturating_mul(c.jobs))
        .map_err(|e| format!("--hash {} with {} jobs: {e}", c.hash_mb, c.jobs))?;
    if !limit_given {
        c.limits.nodes = Some(1_000_000);
    }
    if c.positions.is_empty() {
        c.positions = (0..chess960::COUNT)
            .map(|n| (Some(n), Position::chess960(n).expect("0..960")))
            .collect();
    }
    Ok(c)
}

fn parse_positions(list: &str) -> Result<Vec<(Option<u16>, Position)>, String> {
    let tokens: Vec<String> = match std::fs::read_to_string(list) {
        Ok(text) => text
            .lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect(),
        Err(_) => list
            .split(',')
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect(),
    };
    let mut out = Vec::new();
    for t in tokens {
        if t.contains('/') {
            let pos = Position::from_fen(&t).map_err(|e| format!("bad FEN '{t}': {e}"))?;
            out.push((pos.scharnagl_index(), pos));
        } else {
            let (a, b) = match t.split_once('-') {
                Some((a, b)) => (a, b),
                None => (t.as_str(), t.as_str()),
            };
            let parse = |s: &str| {
                s.trim()
                    .parse::<u16>()
                    .ok()
                    .filter(|n| *n < chess960::COUNT)
            };
            let (Some(a), Some(b)) = (parse(a), parse(b)) else {
                return Err(format!("'{t}' is not an index or range in 0..959"));
            };
            for n in a.min(b)..=a.max(b) {
                out.push((Some(n), Position::chess960(n).expect("0..960")));
            }
        }
    }
    Ok(out)
}

fn evaluate_all(config: &Config) -> Vec<Row> {
    let total = config.positions.len();
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
        .expect("thread pool");
    let rows = pool.install(|| {
        config
            .positions
            .par_iter()
            .map(|(index, pos)| {
                let row = evaluate_one(config, *index, pos);
                done.fetch_add(1, Ordering::Relaxed);
                row
            })
            .collect()
    });
    finished.store(true, Ordering::Relaxed);
    let _ = progress.join();
    rows
}

fn evaluate_one(config: &Config, index: Option<u16>, pos: &Position) -> Row {
    let options = Options::fixed(config.hash_mb, config.threads);
    let mut engine = Engine::silent(options).expect("the table size was checked in parse");
    let (result, nodes) = engine.search_sync(pos, &[], &config.limits);
    let raw = if pos.side_to_move() == Color::White {
        result.score
    } else {
        -result.score
    };
    let material = castella_engine::value::wdl_material(pos);
    let score = castella_engine::value::normalize(raw, material);
    let wdl = castella_engine::value::wdl(raw, material);
    Row {
        index,
        pos: *pos,
        score,
        wdl,
        best_uci: pos.move_to_uci(result.best, true),
        best_san: pos.move_to_san(result.best),
        depth: result.depth,
        nodes,
    }
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

fn score_text(score: i32) -> String {
    match to_uci(score) {
        Score::Cp(cp) => cp.to_string(),
        Score::Mate(m) => format!("mate{m}"),
    }
}

fn index_text(index: Option<u16>) -> String {
    index.map_or_else(|| "-".to_string(), |n| n.to_string())
}

/// The left-right mirror of a start position (same pieces, files reversed).
fn mirror_index(n: u16) -> Option<u16> {
    let mut rank = chess960::back_rank(n)?;
    rank.reverse();
    chess960::index_of(&rank)
}

fn pairs(rows: &[Row]) -> Vec<(u16, i32, u16, i32)> {
    let score_of = |n: u16| rows.iter().find(|r| r.index == Some(n)).map(|r| r.score);
    let mut out = Vec::new();
    for r in rows {
        let Some(n) = r.index else { continue };
        let Some(m) = mirror_index(n) else { continue };
        if n < m {
            if let Some(ms) = score_of(m) {
                out.push((n, r.score, m, ms));
            }
        }
    }
    out.sort();
    out
}

fn csv(rows: &[Row], with_pairs: bool) -> String {
    let mut s = String::from("rank,index,fen,score_cp,win,draw,loss,bestmove,san,depth,nodes\n");
    for (i, r) in rows.iter().enumerate() {
        let (w, d, l) = r.wdl;
        s.push_str(&format!(
            "{},{},{},{},{w},{d},{l},{},{},{},{}\n",
            i + 1,
            index_text(r.index),
            r.pos.fen(),
            score_text(r.score),
            r.best_uci,
            r.best_san,
            r.depth,
            r.nodes
        ));
    }
    if with_pairs {
        s.push_str("\nindex,score_cp,mirror_index,mirror_score_cp,difference\n");
        for (n, a, m, b) in pairs(rows) {
            s.push_str(&format!("{n},{a},{m},{b},{}\n", a - b));
        }
    }
    s
}

fn json(rows: &[Row], with_pairs: bool) -> String {
    let mut s = String::from("{\n  \"positions\": [\n");
    for (i, r) in rows.iter().enumerate() {
        let (w, d, l) = r.wdl;
        s.push_str(&format!(
            "    {{\"rank\": {}, \"index\": {}, \"fen\": \"{}\", \"score_cp\": {}, \"mate\": {}, \"wdl\": [{w}, {d}, {l}], \"bestmove\": \"{}\", \"san\": \"{}\", \"depth\": {}, \"nodes\": {}}}{}\n",
            i + 1,
            r.index.map_or_else(|| "null".to_string(), |n| n.to_string()),
            r.pos.fen(),
            r.score,
            r.score.abs() >= MATE_BOUND,
            r.best_uci,
            r.best_san,
            r.depth,
            r.nodes,
            if i + 1 < rows.len() { "," } else { "" }
        ));
    }
    s.push_str("  ]");
    if with_pairs {
        s.push_str(",\n  \"pairs\": [\n");
        let p = pairs(rows);
        for (i, (n, a, m, b)) in p.iter().enumerate() {
            s.push_str(&format!(
                "    {{\"index\": {n}, \"score_cp\": {a}, \"mirror_index\": {m}, \"mirror_score_cp\": {b}}}{}\n",
                if i + 1 < p.len() { "," } else { "" }
            ));
        }
        s.push_str("  ]");
    }
    s.push_str("\n}\n");
    s
}

fn summary(rows: &[Row]) -> String {
    if rows.is_empty() {
        return "no positions\n".into();
    }
    let n = rows.len() as f64;
    let mean = rows.iter().map(|r| r.score as f64).sum::<f64>() / n;
    let sd = (rows
        .iter()
        .map(|r| (r.score as f64 - mean).powi(2))
        .sum::<f64>()
        / n)
        .sqrt();
    let (max, min) = (&rows[0], &rows[rows.len() - 1]);
    let balanced = rows
        .iter()
        .min_by_key(|r| (r.score.abs(), r.index))
        .expect("non-empty");
    let unbalanced = rows
        .iter()
        .max_by_key(|r| (r.score.abs(), std::cmp::Reverse(r.index)))
        .expect("non-empty");
    let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
    let mut s = format!("positions: {}, nodes: {nodes}\n", rows.len());
    s.push_str(&format!(
        "mean score: {mean:+.1} cp, standard deviation: {sd:.1} cp\n"
    ));
    s.push_str(&format!(
        "max: {} cp (index {}), min: {} cp (index {})\n",
        score_text(max.score),
        index_text(max.index),
        score_text(min.score),
        index_text(min.index)
    ));
    if let Some(rank) = rows.iter().position(|r| r.index == Some(518)) {
        s.push_str(&format!(
            "standard chess (518): rank {} of {}, {} cp\n",
            rank + 1,
            rows.len(),
            score_text(rows[rank].score)
        ));
    }
    s.push_str(&format!(
        "most balanced: index {} ({} cp)\n",
        index_text(balanced.index),
        score_text(balanced.score)
    ));
    s.push_str(&format!(
        "least balanced: index {} ({} cp)\n",
        index_text(unbalanced.index),
        score_text(unbalanced.score)
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrors_pair_up() {
        // RNBQKBNR mirrored is RNBKQBNR.
        let m = mirror_index(518).unwrap();
        assert_eq!(mirror_index(m), Some(518));
        assert_ne!(m, 518);
        let p = parse_positions("0-3,518").unwrap();
        assert_eq!(
            p.iter().map(|(n, _)| n.unwrap()).collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 518]
        );
        assert!(parse_positions("960").is_err());
        assert!(parse_positions("x").is_err());
    }
}
