//! A tactical regression suite: the first 60 positions of "Win at Chess"
//! (Reinfeld, 1958; `tests/data/wac.epd`, the common EPD with best moves),
//! each searched with a fresh table to a fixed node count, one thread. The
//! count is deterministic; the test asserts a floor a little below the
//! current build's, so a search bug that loses tactics fails here before
//! it costs games. `--nocapture` lists the positions missed.

use castella_engine::{Engine, Limits, Options};
use castella_movegen::{Move, Position};

/// Nodes per position.
const NODES: u64 = 200_000;
/// Positions that must be solved (bench 5199258 solves 56 in 5 s: it
/// misses WAC.002, .021, .033 and .055).
const FLOOR: usize = 54;

/// A move in SAN, as the EPD writes it, among `pos`'s legal moves.
fn parse_san(pos: &Position, san: &str) -> Option<Move> {
    let bare = |s: &str| s.trim_end_matches(['+', '#', '!', '?']).to_string();
    pos.legal_moves()
        .iter()
        .copied()
        .find(|&m| bare(&pos.move_to_san(m)) == bare(san))
}

#[test]
fn win_at_chess_at_fixed_nodes() {
    let text = include_str!("data/wac.epd");
    let mut engine = Engine::silent(Options::fixed(16, 1)).expect("16 MB");
    let limits = Limits {
        nodes: Some(NODES),
        ..Default::default()
    };
    let mut solved = 0;
    let mut missed = Vec::new();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    for line in &lines {
        let (fen, ops) = line.split_once(" bm ").expect("a bm operation");
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{line}: {e}"));
        let (bm, rest) = ops.split_once(';').expect("bm ends with ;");
        let id = rest.split('"').nth(1).unwrap_or("?");
        let best: Vec<Move> = bm
            .split_whitespace()
            .map(|san| parse_san(&pos, san).unwrap_or_else(|| panic!("{id}: bad bm {san}")))
            .collect();
        engine.clear();
        let (result, _) = engine.search_sync(&pos, &[], &limits);
        if best.contains(&result.best) {
            solved += 1;
        } else {
            missed.push(format!("{id} (played {})", pos.move_to_san(result.best)));
        }
    }
    println!(
        "solved {solved} of {} at {NODES} nodes; missed: {}",
        lines.len(),
        missed.join(", ")
    );
    assert!(
        solved >= FLOOR,
        "solved {solved} of {} (floor {FLOOR}); missed: {}",
        lines.len(),
        missed.join(", ")
    );
}
