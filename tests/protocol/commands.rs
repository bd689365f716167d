//! Castella's own commands, over UCI and on the command line: `go perft`,
//! `d`, `bench` and `perft`.

use crate::checks::play;
use crate::driver::{Engine, PROMPT, TIMEOUT};
use castella_movegen::Position;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn go_perft_counts_like_stockfish() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.collect_until("Nodes searched", TIMEOUT);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    assert_eq!(lines.len(), 22, "{lines:?}");
    assert_eq!(lines[20], "");
    let mut total = 0;
    for line in &lines[..20] {
        let (mv, n) = line.split_once(": ").unwrap();
        Position::startpos().parse_uci_move(mv).unwrap();
        total += n.parse::<u64>().unwrap();
    }
    assert_eq!(total, 8902);
    assert!(lines.contains(&"e2e4: 600".to_string()), "{lines:?}");
    // A Chess960 start.
    e.send("setoption name UCI_Chess960 value true");
    e.send("position frc 0");
    e.send("go perft 2");
    let expected = castella_movegen::perft(&Position::chess960(0).unwrap(), 2);
    assert_eq!(
        e.expect("Nodes searched", TIMEOUT),
        format!("Nodes searched: {expected}")
    );
    assert!(e.sync().is_empty());
}

/// `go perft` runs like a search: `isready` is answered during it, `stop`
/// ends it at once (a typo such as `go perft 52` must not hang the engine),
/// a new `go` stops it first, and end of input waits for it to print.
#[test]
fn go_perft_can_be_stopped() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 52");
    std::thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    e.send("isready");
    e.collect_until("readyok", PROMPT);
    e.send("stop");
    let line = e.expect("info string", PROMPT);
    assert!(line.contains("perft 52 stopped"), "{line}");
    assert!(start.elapsed() < PROMPT, "{:?}", start.elapsed());
    e.send("go perft 52");
    std::thread::sleep(Duration::from_millis(50));
    e.send("go perft 2");
    e.expect("info string perft 52 stopped", PROMPT);
    assert_eq!(e.expect("Nodes searched", TIMEOUT), "Nodes searched: 400");
    // Deeper than any count could finish: refused (the recursion would
    // overflow the stack; the fuzzer's 'go perft 3595' did).
    e.send("go perft 3595");
    let line = e.expect("info string", PROMPT);
    assert!(line.contains("beyond 64"), "{line}");
    e.send("go perft 52");
    std::thread::sleep(Duration::from_millis(50));
    let start = Instant::now();
    e.send("quit");
    assert!(e.wait_exit(PROMPT).success());
    assert!(start.elapsed() <= PROMPT + Duration::from_millis(50));

    let mut e = Engine::start();
    e.send("go perft 4");
    e.close_stdin();
    assert_eq!(
        e.expect("Nodes searched", TIMEOUT),
        "Nodes searched: 197281"
    );
    assert!(e.wait_exit(TIMEOUT).success());
}

#[test]
fn d_shows_key_and_checkers_and_flip_mirrors() {
    let mut e = Engine::start();
    let pos = play(&Position::startpos(), &["e2e4", "f7f6", "d1h5"]);
    e.send("position startpos moves e2e4 f7f6 d1h5");
    e.send("d");
    let lines = e.collect_until("Checkers:", TIMEOUT);
    assert!(lines.contains(&format!("Fen: {}", pos.fen())), "{lines:?}");
    assert!(
        lines.contains(&format!("Key: {:016X}", pos.key())),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap().trim_end(), "Checkers: h5");
    assert!(
        lines.contains(&" | R | N | B |   | K | B | N | R | 1".to_string()),
        "{lines:?}"
    );

    e.send("position startpos moves e2e4");
    e.send("flip");
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    e.send("eval");
    let lines = e.sync();
    assert!(!lines.is_empty(), "eval printed nothing");
}

#[test]
fn bench_from_uci_and_command_line() {
    let is_total = |l: &str| {
        let t: Vec<&str> = l.split(' ').collect();
        t.len() == 4
            && t[1] == "nodes"
            && t[3] == "nps"
            && t[0].parse::<u64>().is_ok()
            && t[2].parse::<u64>().is_ok()
    };
    let mut e = Engine::start();
    e.send("bench 1");
    let deadline = Instant::now() + TIMEOUT;
    loop {
        match e.next_line(deadline) {
            Some(line) if is_total(&line) => break,
            Some(_) => {}
            None => e.fail("no '<nodes> nodes <nps> nps' line after bench"),
        }
    }
    assert!(e.sync().is_empty());

    let out = Command::new(env!("CARGO_BIN_EXE_castella"))
        .args(["bench", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(is_total(text.lines().last().unwrap()), "{text}");

    let out = Command::new(env!("CARGO_BIN_EXE_castella"))
        .args(["bench", "x"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn perft_command_line_still_works() {
    let out = Command::new(env!("CARGO_BIN_EXE_castella"))
        .args(["perft", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\nNodes searched: 8902\n"), "{text}");
    let out = Command::new(env!("CARGO_BIN_EXE_castella"))
        .args(["perft", "2", "--frc", "518", "--chess960"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nodes searched: 400"));
}

/// `perft --epd` on two threads checks every line and lists every
/// mismatch (a bad FEN counts as one) at the end, exiting non-zero;
/// `--fail-fast` stops at the first and says how many were not run.
#[test]
fn perft_suites_list_every_mismatch_or_stop_at_the_first() {
    let dir = std::env::temp_dir().join(format!("castella-perft-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let suite = dir.join("suite.epd");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let frc = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
    let text = format!(
        "# a comment\n{start} ;D1 20 ;D2 400 ;D3 8902\n{kiwipete} ;D1 48 ;D2 2039 ;D3 97862\n\
         not a fen ;D1 1\n{frc} ;D1 20 ;D2 401\n{start} ;D1 20 ;D4 197281\n"
    );
    std::fs::write(&suite, text).unwrap();
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_castella"))
            .args(["perft", "--epd"])
            .arg(&suite)
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (ok, text) = run(&["--threads", "2"]);
    assert!(!ok, "{text}");
    let listed: Vec<&str> = text
        .split("\nmismatches:\n")
        .nth(1)
        .expect("a list of mismatches")
        .lines()
        .collect();
    assert!(listed[0].starts_with("line 4: bad FEN"), "{text}");
    assert!(
        listed[1].starts_with("line 5: MISMATCH depth 2: expected 401, found 400"),
        "{text}"
    );
    assert!(text.contains("line 2: ok (depths [1, 2, 3])"), "{text}");
    assert!(text.contains("line 6: ok (depths [1, 4])"), "{text}");
    assert!(text.contains("5 positions, 3 passed, 2 failed;"), "{text}");
    assert!(text.contains("2 threads)"), "{text}");

    let (ok, text) = run(&["--threads", "1", "--fail-fast", "--max-depth", "2"]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("stopped at the first mismatch; 4 not run"),
        "{text}"
    );
    let (_, text) = run(&["--threads", "0"]);
    assert!(text.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
