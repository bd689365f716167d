//! Tests of the Python tools under `bench/tools` that need no more than
//! python3 (the ones that need python-chess are smoke-tested in
//! `protocol.rs`).

use std::path::PathBuf;
use std::process::{Command, Stdio};

fn python3() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: python3 is not installed");
    }
    ok
}

/// One game's headers as `match.py` writes them (moves are not read).
fn game(round: u32, white: &str, black: &str, result: &str) -> String {
    format!(
        "[Event \"Chess960 match tc=8+0.08\"]\n[Site \"?\"]\n[Round \"{round}\"]\n\
         [White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n1. e4 {result}\n\n"
    )
}

/// `match-sum.py` pairs Rounds 2k-1 and 2k within each file whatever
/// order they finished in, counts an unfinished pair in W/D/L only,
/// ignores other engines' games, and sums the pairs of several files.
/// Games are told apart by where their moves end, not by an Event tag.
#[test]
fn match_sum_pairs_games_within_each_file() {
    if !python3() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("castella-match-sum-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a: PathBuf = dir.join("a.pgn");
    let b: PathBuf = dir.join("b.pgn");
    // File a: pair 1 scores 3/2 (a win and a draw), pair 2 nothing, and
    // Round 5's partner is missing.
    let text_a = [
        game(1, "new", "old", "1-0"),
        game(2, "old", "new", "1/2-1/2"),
        game(4, "old", "new", "1-0"),
        game(3, "new", "old", "0-1"),
        game(5, "new", "old", "1-0"),
    ]
    .concat();
    // File b: its own pair 1 (two wins, the second game first), and a game
    // between two other engines; no Event tags (games part at their moves).
    let text_b = [
        game(2, "old", "new", "0-1"),
        game(1, "x", "y", "1-0"),
        game(1, "new", "old", "1-0"),
    ]
    .concat()
    .replace("[Event \"Chess960 match tc=8+0.08\"]\n", "");
    std::fs::write(&a, text_a).unwrap();
    std::fs::write(&b, text_b).unwrap();
    let tool = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/tools/match-sum.py");
    let out = Command::new("python3")
        .arg(tool)
        .args(["--engine", "new"])
        .arg(&a)
        .arg(&b)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{out:?}");
    assert!(text.contains("new: 7 games, W/D/L 4/1/2"), "{text}");
    assert!(text.contains("1/0/0/1/1 (3 pairs)"), "{text}");
    // Pairs scoring 0, 3/4 and 1: a mean of 7/12, +58.5 Elo.
    assert!(text.contains("Elo +58.5 ± "), "{text}");
    assert!(text.contains("LLR "), "{text}");
}
