//! `castella perft`: divide on one position, or a whole EPD suite.

use castella_movegen::{divide, perft, Position};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: castella perft <depth> [--fen FEN | --frc N] [--chess960]\n       castella perft --epd FILE [--max-depth D]";

/// Runs the command; the exit code is non-zero on a usage error or mismatch.
pub fn run(args: &[String]) -> ExitCode {
    match parse(args).and_then(|cmd| cmd.execute()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            ExitCode::from(2)
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
    },
}

fn parse(args: &[String]) -> Result<Command, String> {
    let mut depth = None;
    let mut pos = None;
    let mut epd = None;
    let mut max_depth = u32::MAX;
    let mut chess960 = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--fen" => {
                let fen = value("--fen")?;
                pos = Some(Position::from_fen(&fen).map_err(|e| format!("bad FEN: {e}"))?);
            }
            "--frc" => {
                let n: u16 = value("--frc")?.parse().map_err(|_| "--frc needs 0..959")?;
                pos = Some(Position::chess960(n).ok_or("--frc needs 0..959")?);
                chess960 = true;
            }
            "--epd" => epd = Some(value("--epd")?),
            "--max-depth" => {
                max_depth = value("--max-depth")?
                    .parse()
                    .map_err(|_| "--max-depth needs a number")?
            }
            "--chess960" => chess960 = true,
            d => {
                depth = Some(
                    d.parse::<u32>()
                        .map_err(|_| format!("'{d}' is not a depth"))?,
                )
            }
        }
    }
    match (epd, depth) {
        (Some(file), None) => Ok(Command::Suite { file, max_depth }),
        (None, Some(depth)) if depth > castella_movegen::perft::MAX_DEPTH => Err(format!(
            "depth {depth} is beyond {}",
            castella_movegen::perft::MAX_DEPTH
        )),
        (None, Some(depth)) => Ok(Command::Divide {
            pos: pos.unwrap_or_else(Position::startpos),
            depth,
            chess960,
        }),
        (Some(_), Some(_)) => Err("give either a depth or --epd".into()),
        (None, None) => Err("missing depth".into()),
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
            Command::Suite { file, max_depth } => run_suite(&file, max_depth),
        }
    }
}

fn run_suite(file: &str, max_depth: u32) -> Result<bool, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let start = Instant::now();
    let (mut lines, mut failures, mut nodes) = (0, 0, 0u64);
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        lines += 1;
        let mut fields = line.split(';').map(str::trim);
        let fen = fields.next().unwrap_or_default();
        let pos = match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                println!("line {}: bad FEN ({e}): {fen}", i + 1);
                failures += 1;
                continue;
            }
        };
        let mut ok = true;
        let mut done = Vec::new();
        for field in fields {
            let mut kv = field.split_whitespace();
            let (Some(key), Some(val)) = (kv.next(), kv.next()) else {
                continue;
            };
            let (Some(d), Ok(expected)) = (key.strip_prefix('D'), val.parse::<u64>()) else {
                continue;
            };
            let Ok(d) = d.parse::<u32>() else { continue };
            if d > max_depth {
                continue;
            }
            let found = perft(&pos, d);
            nodes += found;
            if found != expected {
                println!(
                    "line {}: MISMATCH depth {d}: expected {expected}, found {found}: {fen}",
                    i + 1
                );
                ok = false;
            }
            done.push(d);
        }
        if !ok {
            failures += 1;
        } else {
            println!("line {}: ok (depths {:?}) {fen}", i + 1, done);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{lines} positions, {} passed, {failures} failed; {nodes} nodes in {secs:.2} s ({:.0} nodes/s)",
        lines - failures,
        nodes as f64 / secs.max(1e-9)
    );
    Ok(failures == 0)
}
