//! UCI options: the handshake, `setoption` in every spelling, values refused
//! with a reason, and the options that load files or limit the search.

use crate::checks::{check_move, check_search_output, fen, play};
use crate::driver::{Engine, TIMEOUT};
use castella_eval::nnue;
use castella_movegen::Position;

const REQUIRED_OPTIONS: [&str; 17] = [
    "option name Hash type spin default 16 min 1 max 33554432",
    "option name Threads type spin default 1 min 1 max 1024",
    "option name MultiPV type spin default 1 min 1 max 256",
    "option name Ponder type check default false",
    "option name Move Overhead type spin default 10 min 0 max 5000",
    "option name Clear Hash type button",
    "option name UCI_Chess960 type check default false",
    "option name UCI_ShowWDL type check default false",
    "option name EvalFile type string default <embedded>",
    "option name UCI_AnalyseMode type check default false",
    "option name UCI_Opponent type string default <empty>",
    "option name SyzygyPath type string default <empty>",
    "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
    "option name Syzygy50MoveRule type check default true",
    "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    "option name UCI_LimitStrength type check default false",
    "option name UCI_Elo type spin default 1320 min 1320 max 2880",
];

#[test]
fn handshake_lists_every_option_with_its_exact_spelling() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.collect_until("uciok", TIMEOUT);
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        lines[0].starts_with(&format!("id name Castella {version}")),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], "id author The Castella developers");
    assert_eq!(lines.last().unwrap(), "uciok");
    let options: Vec<&str> = lines[2..lines.len() - 1]
        .iter()
        .map(String::as_str)
        .collect();
    for required in REQUIRED_OPTIONS {
        assert!(
            options.contains(&required),
            "missing '{required}' in {options:#?}"
        );
    }
    for o in &options {
        assert!(o.starts_with("option name "), "unexpected line '{o}'");
    }
    assert!(e.sync().is_empty());
    // A second `uci` is answered the same way.
    e.send("uci");
    assert_eq!(e.collect_until("uciok", TIMEOUT), lines);
}

#[test]
fn isready_and_blank_lines() {
    let mut e = Engine::start();
    assert!(e.sync().is_empty());
    e.send("");
    e.send("   \t  ");
    e.send_bytes(b"\r\n");
    assert!(e.sync().is_empty(), "blank lines must be ignored silently");
    // Extra tokens after isready do not keep the GUI waiting.
    e.send("isready please");
    e.expect("readyok", TIMEOUT);
    // Commands the engine accepts without doing anything.
    e.send("debug on");
    e.send("stop");
    e.send("ponderhit");
    e.send("ucinewgame");
    assert!(e.sync().is_empty());
}

#[test]
fn setoption_accepts_spaces_and_any_case() {
    let mut e = Engine::start();
    for line in [
        "setoption name Move Overhead value 100",
        "setoption name move overhead value 50",
        "setoption name MOVE   OVERHEAD value 0",
        "setoption name hash value 8",
        "setoption name HASH value 16",
        "setoption name threads value 1",
        "setoption name MultiPV value 2",
        "setoption name clear hash",
        "setoption name Clear Hash value anything",
        "setoption name ponder value TRUE",
        "setoption name Ponder value false",
        "setoption name uci_showwdl value True",
        "setoption name UCI_AnalyseMode value true",
        "setoption name UCI_AnalyseMode value false",
        "setoption name UCI_Opponent value GM 2800 human Magnus Carlsen",
        "setoption name UCI_Opponent value none none computer Some Engine 1.0",
        "setoption name UCI_Opponent value",
    ] {
        e.send(line);
        let lines = e.sync();
        assert!(lines.is_empty(), "'{line}' was answered with {lines:?}");
    }
    // The settings took: info lines carry wdl, and up to two PVs.
    let root = Position::startpos();
    let (infos, best) = e.go("go depth 2");
    check_search_output(&root, &infos, &best, false, true);
    e.send("setoption name uci_showwdl value false");
    e.send("setoption name multipv value 1");
    let (infos, best) = e.go("go depth 2");
    check_search_output(&root, &infos, &best, false, false);
    // Case-insensitive names for UCI_Chess960: the perft output shows it.
    let castles = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    e.send(&format!("position fen {castles}"));
    e.send("setoption name uci_chess960 value TRUE");
    e.send("go perft 1");
    let lines = e.collect_until("Nodes searched", TIMEOUT);
    assert!(lines.contains(&"e1h1: 1".to_string()), "{lines:?}");
    e.send("setoption name UCI_CHESS960 value false");
    e.send("go perft 1");
    let lines = e.collect_until("Nodes searched", TIMEOUT);
    assert!(lines.contains(&"e1g1: 1".to_string()), "{lines:?}");
}

#[test]
fn bad_option_values_are_refused_and_change_nothing() {
    let mut e = Engine::start();
    for line in [
        "setoption name Hash value 0",
        "setoption name Hash value 33554433",
        "setoption name Hash value 99999999999999999999999",
        "setoption name Hash value abc",
        "setoption name Hash value 1.5",
        "setoption name Hash",
        "setoption name Hash value",
        "setoption name Threads value -1",
        "setoption name Threads value 0",
        "setoption name MultiPV value 257",
        "setoption name Move Overhead value 5001",
        "setoption name UCI_Chess960 value maybe",
        "setoption name UCI_Chess960",
        "setoption name NoSuchOption value 1",
        "setoption name Move",
        "setoption name",
        "setoption",
        "setoption Hash value 16",
    ] {
        e.expect_refusal(line);
    }
    // UCI_Chess960 kept its default: castling is written king-two-squares.
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    e.send("go perft 1");
    let lines = e.collect_until("Nodes searched", TIMEOUT);
    assert!(lines.contains(&"e1g1: 1".to_string()), "{lines:?}");
    e.send("position startpos");
    e.assert_alive(&Position::startpos(), false);
}

/// A Hash size within the advertised range but beyond the machine is
/// refused instead of aborting on the failed allocation.
#[cfg(target_os = "linux")]
#[test]
fn impossible_hash_size_is_refused() {
    let mut e = Engine::start();
    e.expect_refusal("setoption name Hash value 33554432");
    e.send("setoption name Hash value 4");
    assert!(e.sync().is_empty());
    e.assert_alive(&Position::startpos(), false);
}

/// The `eval` command's last line: the final score for the side to move.
fn final_eval(e: &mut Engine) -> i32 {
    e.send("eval");
    // The whole trace, up to its last line, so nothing is left over.
    let lines = e.collect_until("Network output:", TIMEOUT);
    let line = lines
        .iter()
        .find(|l| l.starts_with("Final: ") && l.contains("side to move"))
        .unwrap_or_else(|| panic!("no final score in {lines:?}"));
    line["Final: ".len()..]
        .split(' ')
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no score in {line}"))
}

/// `EvalFile` loads another network (the search then uses it), refuses a
/// missing or malformed file with a reason and keeps the current one, and
/// `<embedded>` goes back to the built-in network.
#[test]
fn evalfile_good_malformed_and_missing() {
    let dir = std::env::temp_dir().join(format!("castella-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let embedded = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../eval/nets/castella.nnue"
    ))
    .unwrap();
    // The same network with its output biases (one per output bucket)
    // raised by one output unit: every evaluation moves by the same
    // amount.
    let net = nnue::Network::from_bytes(&embedded).unwrap();
    let mut weights = net.weights();
    let qb = if net.fine_output() {
        nnue::QB_FINE
    } else {
        nnue::QB
    };
    for bias in &mut weights.output_bias {
        *bias += nnue::QA * qb;
    }
    let shifted = nnue::file::write(&net.header(), &weights);
    let good = dir.join("shifted.nnue");
    std::fs::write(&good, &shifted).unwrap();
    let bad = dir.join("bad.nnue");
    std::fs::write(&bad, &embedded[..1000]).unwrap();

    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    let before = final_eval(&mut e);
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    let line = e.expect("info string EvalFile", TIMEOUT);
    assert!(line.contains("loaded"), "{line}");
    let after = final_eval(&mut e);
    assert!((after - before - 400).abs() <= 1, "{before} -> {after}");
    let (infos, best) = e.go("go depth 3");
    check_search_output(
        &play(&Position::startpos(), &["e2e4"]),
        &infos,
        &best,
        false,
        false,
    );

    for (value, reason) in [
        (bad.display().to_string(), "truncated"),
        (
            dir.join("missing.nnue").display().to_string(),
            "No such file",
        ),
        (dir.display().to_string(), "directory"),
    ] {
        e.send(&format!("setoption name EvalFile value {value}"));
        let line = e.expect("info string EvalFile", TIMEOUT);
        assert!(line.contains(reason), "{line}");
        assert!(line.contains("keeping the current network"), "{line}");
        assert_eq!(final_eval(&mut e), after, "the loaded network stays");
    }
    e.send("setoption name EvalFile value <embedded>");
    e.expect("info string EvalFile: using the embedded", TIMEOUT);
    assert_eq!(final_eval(&mut e), before);
    e.assert_alive(&play(&Position::startpos(), &["e2e4"]), false);
    std::fs::remove_dir_all(&dir).ok();
}

/// SyzygyPath: a missing directory is reported and the engine plays on;
/// with the repository's tables (tests/data/syzygy) a won ending is
/// reported as a tablebase win and `tbhits` appears.
#[test]
fn syzygy_path_good_and_bad() {
    let mut e = Engine::start();
    e.send("setoption name SyzygyPath value /nonexistent/tables");
    let line = e.expect("info string SyzygyPath /nonexistent/tables", TIMEOUT);
    assert!(line.contains("No such file"), "{line}");
    e.expect("info string Syzygy: no usable tables", TIMEOUT);
    e.assert_alive(&Position::startpos(), false);

    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/syzygy");
    e.send(&format!("setoption name SyzygyPath value {tables}"));
    e.expect("info string Syzygy:", TIMEOUT);
    let krk = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
    e.send(&format!("position fen {krk}"));
    let (infos, best) = e.go("go depth 8");
    check_search_output(&fen(krk), &infos, &best, false, false);
    let last = infos.last().unwrap();
    assert!(
        last.contains("score cp 20000") && last.contains(" tbhits "),
        "{last}"
    );
    e.send("setoption name SyzygyPath value <empty>");
    e.send(&format!("position fen {krk}"));
    let (infos, _) = e.go("go depth 8");
    assert!(!infos.last().unwrap().contains("tbhits"), "{infos:?}");
}

/// UCI_LimitStrength with UCI_Elo: the search is capped (400 nodes at the
/// lowest setting, even when asked for depth 20), compares four moves,
/// and still plays legal moves; switched off, it searches as asked.
#[test]
fn strength_limit_caps_the_search() {
    let mut e = Engine::start();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1320");
    e.send("position startpos moves e2e4");
    let root = play(&Position::startpos(), &["e2e4"]);
    let (infos, best) = e.go("go depth 20");
    check_move(&root, best.split_whitespace().next().unwrap(), false);
    let last = infos.iter().rev().find(|l| l.contains(" nodes ")).unwrap();
    let nodes: u64 = last
        .split_whitespace()
        .skip_while(|&t| t != "nodes")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(nodes <= 400, "{last}");
    assert!(infos.iter().any(|l| l.contains(" multipv 4 ")), "{infos:?}");
    e.send("setoption name UCI_Elo value 1000");
    e.expect(
        "info string option UCI_Elo value 1000 is out of range",
        TIMEOUT,
    );
    e.send("setoption name UCI_LimitStrength value false");
    let (infos, _) = e.go("go depth 6");
    assert!(
        infos.iter().any(|l| l.starts_with("info depth 6 ")),
        "{infos:?}"
    );
}
