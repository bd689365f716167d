//! Symmetry and sanity tests of the embedded network over the perft
//! suites' positions.

use crate::{explain, static_eval, EVAL_LIMIT};
use castella_movegen::Position;

/// The FENs of every perft suite in tests/data (the part before the first
/// ';').
fn suite_fens() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("perft-") && name.ends_with(".epd")
        })
        .collect();
    files.sort();
    let mut fens = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for line in text.lines() {
            let fen = line.split(';').next().unwrap().trim();
            if !fen.is_empty() {
                fens.push(fen.to_string());
            }
        }
    }
    fens
}

/// Suite positions, every `stride`-th one, plus some positions one and two
/// plies later.
fn positions(stride: usize) -> Vec<Position> {
    let mut out = Vec::new();
    for (i, fen) in suite_fens().iter().enumerate() {
        if i % stride != 0 {
            continue;
        }
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        out.push(pos);
        for (j, &mv) in pos.legal_moves().iter().enumerate().step_by(5) {
            let next = pos.play(mv);
            out.push(next);
            if let Some(&reply) = next.legal_moves().get(j % 7) {
                out.push(next.play(reply));
            }
        }
    }
    out
}

#[test]
fn colour_flip_is_exact() {
    let positions = positions(4);
    assert!(positions.len() > 1000, "only {} positions", positions.len());
    for pos in &positions {
        let flipped = pos.flipped();
        assert_eq!(
            static_eval(&flipped),
            static_eval(pos),
            "{} vs {}",
            pos.fen_shredder(),
            flipped.fen_shredder()
        );
    }
}

#[test]
fn bounded_and_explained_everywhere() {
    let net = crate::network();
    for pos in positions(1).iter().step_by(3) {
        let v = static_eval(pos);
        assert!(v.abs() < 5000, "{v} for {}", pos.fen());
        let text = explain(pos, net);
        assert!(text.contains(&format!("Final: {v:+} cp from the side to move")));
    }
}

/// Every start position is worth less than a pawn to the side to move
/// (the network sees the move's worth too: about half a pawn), and never
/// less than nothing.
#[test]
fn start_positions_are_balanced() {
    for n in 0..960 {
        let v = static_eval(&Position::chess960(n).unwrap());
        assert!((0..100).contains(&v), "{n}: {v}");
    }
}

#[test]
fn queen_up_wins() {
    // White without the d1 queen; then Black without the d8 queen.
    let fens = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
            false,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1",
            true,
        ),
        (
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            true,
        ),
        (
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BB1NNRKR b HFhf - 0 1",
            true,
        ),
    ];
    for (fen, mover_has_queen) in fens {
        let v = static_eval(&Position::from_fen(fen).unwrap());
        if mover_has_queen {
            assert!(v > 700, "{fen}: {v}");
        } else {
            assert!(v < -700, "{fen}: {v}");
        }
    }
}

/// `eval` shows the network, its output and each piece's share.
#[test]
fn explain_shows_the_network() {
    let net = crate::network();
    let pos = Position::startpos();
    let text = explain(&pos, net);
    assert!(text.contains(&format!("cp from White's view ({}", net.describe())));
    let v = crate::static_eval_with(net, &pos);
    assert_eq!(v, net.evaluate(&pos).clamp(-EVAL_LIMIT, EVAL_LIMIT));
    assert!(text.contains(&format!(
        "Final: {v:+} cp from the side to move's view (White)"
    )));
    assert!(text.contains("what each piece adds"));
}
