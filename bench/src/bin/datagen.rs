//! `datagen`: self-play games at a fixed node count, written as positions
//! labelled with the game's result, for the Texel tuner (`tune --data`).
//!
//! ```text
//! datagen [--games N] [--nodes N] [--random-plies N] [--seed S]
//!         [--threads T] [--out FILE]
//! ```
//!
//! Each game starts from a random Chess960 position (Scharnagl index drawn
//! from the seed), plays `--random-plies` random legal moves so that games
//! differ, then lets the engine play both sides with `go nodes N`. The game
//! ends by the rules (mate, stalemate, threefold repetition, fifty moves,
//! insufficient material) or by adjudication as a match runner would: a win
//! once the score stays beyond ±1000 for 8 plies, a draw once it stays within
//! ±10 for 12 plies after ply 80, and a draw at ply 600.
//!
//! A position is written when the side to move is not in check, the move
//! chosen is quiet and the score is not a mate score: one `FEN [result]`
//! line, the result from White's view (1.0, 0.5 or 0.0). Games run in
//! parallel (one engine with one thread each) and are written in game order,
//! so the output depends only on the options, not on the thread count.

use castella_engine::draw::is_insufficient_material;
use castella_engine::value::MATE_BOUND;
use castella_engine::{Engine, Limits, Options};
use castella_movegen::{Color, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::io::Write;
use std::time::Instant;

const WIN_SCORE: i32 = 1000;
const WIN_PLIES: usize = 8;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: usize = 12;
const DRAW_FROM_PLY: usize = 80;
const MAX_PLIES: usize = 600;
/// Games played between two writes of the output.
const BATCH: usize = 256;

struct Config {
    games: usize,
    nodes: u64,
    random_plies: usize,
    seed: u64,
    threads: Option<usize>,
    out: String,
}

fn parse_args() -> Result<Config, String> {
    let mut c = Config {
        games: 1000,
        nodes: 5000,
        random_plies: 8,
        seed: 1,
        threads: None,
        out: "datagen.epd".into(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        let bad = |v: &str| format!("bad value '{v}' for {flag}");
        match flag.as_str() {
            "--games" => c.games = value().and_then(|v| v.parse().map_err(|_| bad(&v)))?,
            "--nodes" => c.nodes = value().and_then(|v| v.parse().map_err(|_| bad(&v)))?,
            "--random-plies" => {
                c.random_plies = value().and_then(|v| v.parse().map_err(|_| bad(&v)))?
            }
            "--seed" => c.seed = value().and_then(|v| v.parse().map_err(|_| bad(&v)))?,
            "--threads" => c.threads = Some(value().and_then(|v| v.parse().map_err(|_| bad(&v)))?),
            "--out" => c.out = value()?,
            "-h" | "--help" => {
                return Err("usage: datagen [--games N] [--nodes N] [--random-plies N] \
                            [--seed S] [--threads T] [--out FILE]"
                    .into())
            }
            _ => return Err(format!("unknown option '{flag}'")),
        }
    }
    Ok(c)
}

/// How a game ended, from White's view.
fn result_text(white_score: f64) -> &'static str {
    if white_score > 0.75 {
        "[1.0]"
    } else if white_score < 0.25 {
        "[0.0]"
    } else {
        "[0.5]"
    }
}

/// Plays one game and returns its labelled positions.
fn play_game(index: usize, config: &Config) -> Vec<String> {
    let mut rng =
        StdRng::seed_from_u64(config.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64);
    let mut pos = Position::chess960(rng.gen_range(0..960)).expect("index in range");
    let mut history: Vec<u64> = Vec::new();
    for _ in 0..config.random_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        history.push(pos.key());
        pos = pos.play(moves[rng.gen_range(0..moves.len())]);
    }
    // A random walk that already ended the game gives nothing to learn.
    if pos.legal_moves().is_empty() {
        return Vec::new();
    }

    let options = Options::fixed(16, 1);
    let mut engine = Engine::silent(options).expect("16 MB fits");
    let limits = Limits {
        nodes: Some(config.nodes),
        ..Default::default()
    };
    let mut samples: Vec<String> = Vec::new();
    let (mut win_run, mut draw_run) = (0usize, 0usize);
    let mut last_white_score = 0i32;
    let white_result = loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break if !pos.in_check() {
                0.5
            } else if pos.side_to_move() == Color::White {
                0.0
            } else {
                1.0
            };
        }
        let repeats = history.iter().filter(|&&k| k == pos.key()).count();
        if repeats >= 2
            || pos.halfmove_clock() >= 100
            || is_insufficient_material(&pos)
            || history.len() >= MAX_PLIES
        {
            break 0.5;
        }

        let (result, _) = engine.search_sync(&pos, &history, &limits);
        let score = result.score;
        let white_score = if pos.side_to_move() == Color::White {
            score
        } else {
            -score
        };
        if !pos.in_check() && !pos.is_noisy(result.best) && score.abs() < MATE_BOUND {
            samples.push(pos.fen());
        }

        // Adjudication, as cutechess does it.
        let same_side = white_score.signum() == last_white_score.signum();
        win_run = if white_score.abs() >= WIN_SCORE && same_side {
            win_run + 1
        } else {
            (white_score.abs() >= WIN_SCORE) as usize
        };
        last_white_score = white_score;
        draw_run = if white_score.abs() <= DRAW_SCORE {
            draw_run + 1
        } else {
            0
        };
        if win_run >= WIN_PLIES {
            break if white_score > 0 { 1.0 } else { 0.0 };
        }
        if history.len() >= DRAW_FROM_PLY && draw_run >= DRAW_PLIES {
            break 0.5;
        }

        if !moves.contains(&result.best) {
            // Cannot happen (the search returns a legal move whenever one
            // exists), but a tool should not write a game it cannot finish.
            return Vec::new();
        }
        history.push(pos.key());
        pos = pos.play(result.best);
    };
    let label = result_text(white_result);
    samples
        .into_iter()
        .map(|fen| format!("{fen} {label}"))
        .collect()
}

fn main() {
    let config = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    castella_bench::set_threads(config.threads);
    let start = Instant::now();
    let mut out = match std::fs::File::create(&config.out) {
        Ok(f) => std::io::BufWriter::new(f),
        Err(e) => {
            eprintln!("cannot create {}: {e}", config.out);
            std::process::exit(1);
        }
    };
    // Games in batches, each written as soon as it is done, so an
    // interrupted run keeps what it played.
    let mut positions = 0usize;
    let mut done = 0usize;
    while done < config.games {
        let batch = (config.games - done).min(BATCH);
        let games: Vec<Vec<String>> = (done..done + batch)
            .into_par_iter()
            .map(|i| play_game(i, &config))
            .collect();
        for line in games.iter().flatten() {
            writeln!(out, "{line}").expect("write");
            positions += 1;
        }
        out.flush().expect("write");
        done += batch;
        eprintln!(
            "{done}/{} games, {positions} positions, {:.0} s",
            config.games,
            start.elapsed().as_secs_f64()
        );
    }
    eprintln!(
        "{} games, {positions} positions in {:.1} s -> {}",
        config.games,
        start.elapsed().as_secs_f64(),
        config.out
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(seed: u64) -> Config {
        Config {
            games: 2,
            nodes: 300,
            random_plies: 8,
            seed,
            threads: Some(1),
            out: String::new(),
        }
    }

    #[test]
    fn games_are_labelled_and_repeatable() {
        let c = config(3);
        let lines: Vec<String> = (0..2).flat_map(|i| play_game(i, &c)).collect();
        assert!(!lines.is_empty());
        for line in &lines {
            let (fen, label) = line.rsplit_once(' ').expect("FEN and label");
            assert!(["[1.0]", "[0.5]", "[0.0]"].contains(&label), "{line}");
            let pos = Position::from_fen(fen).expect("a valid FEN");
            assert!(!pos.in_check(), "{line}");
        }
        // One label per game: every line of a game carries the same result.
        let first = play_game(0, &c);
        assert!(first
            .windows(2)
            .all(|w| w[0].rsplit_once(' ').unwrap().1 == w[1].rsplit_once(' ').unwrap().1));
        assert_eq!(play_game(0, &c), first, "same seed, same game");
        assert_ne!(
            play_game(0, &config(4)),
            first,
            "another seed, another game"
        );
    }
}
