//! The engine driven by python-chess, as lichess-bot and the Python tools
//! drive it. Ignored in a plain `cargo test` (a fresh machine has no
//! Python); run them with `cargo test --release -p castella --test
//! protocol python:: -- --ignored`, as CI does where python-chess is
//! installed.

use std::process::{Command, Stdio};

const NEEDS: &str = "needs python3 with python-chess (pip install chess)";

/// Fails, saying what to install, where python-chess is missing.
fn require_python_chess() {
    let ok = Command::new("python3")
        .args(["-c", "import chess, chess.engine, chess.syzygy"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "this test {NEEDS}");
}

/// python-chess configures the engine with exactly lichess-bot's default
/// options (it refuses options the engine does not advertise) and plays
/// a Chess960 game, every move checked for legality.
#[test]
#[ignore = "needs python3 with python-chess (pip install chess)"]
fn python_chess_with_lichess_bot_options() {
    require_python_chess();
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../bench/tools/lichess-bot-options.py"
    );
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/syzygy");
    let out = Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_castella"), tables])
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
#[ignore = "needs python3 with python-chess (pip install chess)"]
fn python_tools_start() {
    require_python_chess();
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
        "bench/tools/speed.py",
    ] {
        let out = Command::new("python3")
            .arg(format!("{dir}/{tool}"))
            .arg("--help")
            .output()
            .expect("python3 runs");
        assert!(out.status.success(), "{tool} --help: {out:?}");
    }
}
