//! The engine driven by python-chess, as lichess-bot and the Python tools
//! drive it (skipped, saying so, where python-chess is missing).

use std::process::{Command, Stdio};

/// Whether `python3` with python-chess is here (the Python tests skip,
/// saying so, where it is not: a fresh machine needs neither).
fn python_chess() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import chess, chess.engine, chess.syzygy"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: python3 with python-chess is not installed (pip install chess)");
    }
    ok
}

/// python-chess configures the engine with exactly lichess-bot's default
/// options (it refuses options the engine does not advertise) and plays
/// a Chess960 game, every move checked for legality.
#[test]
fn python_chess_with_lichess_bot_options() {
    if !python_chess() {
        return;
    }
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../bench/tools/lichess-bot-options.py"
    );
    let shared = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/syzygy");
    let out = Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_castella"), shared])
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("played"), "{text}");
}

/// Every Python tool starts and prints its usage (a smoke test: their
/// imports and argument parsing work).
#[test]
fn python_tools_start() {
    if !python_chess() {
        return;
    }
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    for tool in [
        "bench/tools/elo-ladder.py",
        "bench/tools/lichess-bot-options.py",
        "bench/tools/match-phases.py",
        "bench/tools/move-quality.py",
        "bench/tools/nps-pairs.py",
        "bench/tools/rank960-compare.py",
        "bench/tools/syzygy-compare.py",
        "bench/tools/tb-conversion.py",
        "bench/speed.py",
    ] {
        let out = Command::new("python3")
            .arg(format!("{dir}/{tool}"))
            .arg("--help")
            .output()
            .expect("python3 runs");
        assert!(out.status.success(), "{tool} --help: {out:?}");
    }
}
