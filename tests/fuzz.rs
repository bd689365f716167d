//! A seeded fuzzer for the UCI loop: random and mutated input lines sent
//! to the `castella` binary over a pipe, with `isready` every 50 lines
//! that must be answered within seconds, and a clean exit on `quit` at
//! the end. Lines come from a grammar (FENs, legal and illegal moves,
//! `go` with every limit, `setoption` with good and bad values, the
//! extension commands) and from byte-level mutations of those lines,
//! plus random bytes.
//!
//! CI runs 3 000 lines; `CASTELLA_FUZZ_LINES=1000000` (and
//! `CASTELLA_FUZZ_SEED`) runs a long one:
//! `CASTELLA_FUZZ_LINES=1000000 cargo test --release -p castella --test fuzz -- --nocapture`;
//! `CASTELLA_FUZZ_DUMP=file` writes every line sent there, to replay a
//! failure with `castella < file`.
//!
//! Kept out on purpose: `Hash` and `Threads` beyond small values (a valid
//! 16 GB table is not a bug, only slow), and `bench` beyond depth 3 (it
//! runs on the input thread, as Stockfish's does).

use castella_movegen::Position;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long `readyok` may take.
const ANSWER: Duration = Duration::from_secs(10);

const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "rk6/8/8/8/8/8/8/RK5R w HAa - 0 1",
];

const WORDS: [&str; 40] = [
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "setoption",
    "name",
    "value",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "d",
    "eval",
    "flip",
    "frc",
    "dfrc",
    "MultiPV",
    "UCI_Chess960",
    "EvalFile",
    "Move Overhead",
    "UCI_ShowWDL",
    "-1",
    "99999999999999999999",
    "e2e4",
];

/// A line from the grammar.
fn grammar_line(rng: &mut StdRng) -> String {
    let fen = FENS[rng.gen_range(0..FENS.len())];
    let pos = Position::from_fen(fen).expect("valid");
    let some_moves = |rng: &mut StdRng| {
        let mut p = pos;
        let mut text = String::new();
        for _ in 0..rng.gen_range(0..6) {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            text += &format!(" {}", p.move_to_uci(mv, rng.gen_bool(0.5)));
            p.make(mv);
        }
        text
    };
    match rng.gen_range(0..16) {
        0 => format!("position fen {fen}{}", {
            let m = some_moves(rng);
            if m.is_empty() {
                m
            } else {
                format!(" moves{m}")
            }
        }),
        1 => format!("position startpos moves{}", some_moves(rng)),
        2 => format!("position frc {}", rng.gen_range(-5..970)),
        3 => format!(
            "position dfrc {} {}",
            rng.gen_range(0..965),
            rng.gen_range(0..965)
        ),
        4 => format!("go depth {}", rng.gen_range(0..4)),
        5 => format!("go nodes {}", rng.gen_range(0..3000)),
        6 => format!("go movetime {}", rng.gen_range(0..15)),
        7 => format!(
            "go wtime {} btime {} winc {} binc {}{}",
            rng.gen_range(-100..200),
            rng.gen_range(-100..200),
            rng.gen_range(0..20),
            rng.gen_range(0..20),
            if rng.gen_bool(0.3) {
                " movestogo 3"
            } else {
                ""
            }
        ),
        8 => ["go infinite", "go ponder", "stop", "ponderhit", "go mate 2"][rng.gen_range(0..5)]
            .to_string(),
        9 => format!("go perft {}", rng.gen_range(0..60)),
        10 => format!("go searchmoves{} depth 2", some_moves(rng)),
        11 => {
            let (name, value) = [
                ("MultiPV", rng.gen_range(-2..300).to_string()),
                (
                    "UCI_Chess960",
                    ["true", "false", "maybe"][rng.gen_range(0..3)].into(),
                ),
                (
                    "UCI_ShowWDL",
                    ["true", "false", ""][rng.gen_range(0..3)].into(),
                ),
                ("Move Overhead", rng.gen_range(-5..6000).to_string()),
                ("Hash", rng.gen_range(0..9).to_string()),
                ("Threads", rng.gen_range(0..4).to_string()),
                (
                    "EvalFile",
                    ["<embedded>", "/nonexistent.nnue", "/", ""][rng.gen_range(0..4)].into(),
                ),
                ("UCI_Opponent", "GM 2700 human Someone".into()),
                ("Clear Hash", String::new()),
                ("Ponder", "true".into()),
            ][rng.gen_range(0..10)]
            .clone();
            format!("setoption name {name} value {value}")
        }
        12 => [
            "d",
            "eval",
            "flip",
            "ucinewgame",
            "isready",
            "uci",
            "bench 1",
        ][rng.gen_range(0..7)]
        .to_string(),
        13 => {
            // Words in random order.
            (0..rng.gen_range(1..8))
                .map(|_| WORDS[rng.gen_range(0..WORDS.len())])
                .collect::<Vec<_>>()
                .join(" ")
        }
        14 => format!("position fen {}", mutate(fen, rng)),
        _ => format!(
            "position startpos moves {}",
            mutate("e2e4 e7e5 g1f3 b8c6 f1b5", rng)
        ),
    }
}

/// `line` with a few random byte edits: flips, deletions, insertions,
/// duplicated spans.
fn mutate(line: &str, rng: &mut StdRng) -> String {
    let mut b = line.as_bytes().to_vec();
    for _ in 0..rng.gen_range(1..4) {
        if b.is_empty() {
            b.push(rng.gen());
            continue;
        }
        let i = rng.gen_range(0..b.len());
        match rng.gen_range(0..4) {
            0 => b[i] ^= 1 << rng.gen_range(0..8),
            1 => {
                b.remove(i);
            }
            2 => b.insert(
                i,
                *b"0123456789 -/kqKQhaHA\t"
                    .get(rng.gen_range(0..22))
                    .unwrap(),
            ),
            _ => {
                let j = rng.gen_range(i..b.len().min(i + 8) + 1);
                let span = b[i..j].to_vec();
                b.splice(i..i, span);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Whether a mutated line could ask for something slow but legitimate.
fn too_costly(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    l.contains("hash") || l.contains("thread") || l.contains("bench")
}

#[test]
fn random_and_mutated_input_never_stops_the_engine() {
    let lines: usize = std::env::var("CASTELLA_FUZZ_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let seed: u64 = std::env::var("CASTELLA_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2026);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut child = Command::new(env!("CARGO_BIN_EXE_castella"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("cannot start castella");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut buf = Vec::new();
        // Only readyok matters; everything else is drained.
        while let Ok(n) = reader.read_until(b'\n', &mut buf) {
            if n == 0 || (buf.starts_with(b"readyok") && tx.send(()).is_err()) {
                return;
            }
            buf.clear();
        }
    });
    let mut last = Vec::new();
    // Every line sent, for replaying a failure by hand.
    let mut dump = std::env::var_os("CASTELLA_FUZZ_DUMP")
        .map(|p| std::fs::File::create(p).expect("CASTELLA_FUZZ_DUMP"));
    let start = Instant::now();
    for i in 0..lines {
        let line = match rng.gen_range(0..10) {
            0..=5 => grammar_line(&mut rng),
            6..=8 => {
                let base = grammar_line(&mut rng);
                let m = mutate(&base, &mut rng);
                if too_costly(&m) {
                    base
                } else {
                    m
                }
            }
            _ => {
                let bytes: Vec<u8> = (0..rng.gen_range(0..200)).map(|_| rng.gen()).collect();
                let text = String::from_utf8_lossy(&bytes).replace('\n', " ");
                if too_costly(&text) {
                    String::new()
                } else {
                    text
                }
            }
        };
        last.push(line.clone());
        if last.len() > 50 {
            last.remove(0);
        }
        // Our own isready is the check, and quit comes at the end.
        let first = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if first == "quit" || first == "isready" {
            continue;
        }
        writeln!(stdin, "{line}").expect("the engine closed its input");
        if let Some(f) = dump.as_mut() {
            writeln!(f, "{line}").ok();
        }
        if i % 50 == 49 {
            writeln!(stdin, "isready").expect("the engine closed its input");
            match rx.recv_timeout(ANSWER) {
                Ok(()) => {}
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    let _ = child.kill();
                    panic!(
                        "no readyok within {ANSWER:?} after line {i} (seed {seed}); the last lines:\n{}",
                        last.join("\n")
                    );
                }
            }
        }
    }
    writeln!(stdin, "stop").ok();
    writeln!(stdin, "quit").ok();
    let deadline = Instant::now() + ANSWER;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("no exit within {ANSWER:?} of quit (seed {seed})");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success(), "exit status {status} (seed {seed})");
    println!(
        "{lines} lines (seed {seed}) in {:.1} s: the engine answered every isready and quit cleanly",
        start.elapsed().as_secs_f64()
    );
}
