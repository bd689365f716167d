//! Malformed input: the engine says what was wrong and carries on.

use crate::checks::{check_search_output, play};
use crate::driver::Engine;
use castella_movegen::Position;
use std::time::{Duration, Instant};

/// Every malformed command gets an `info string`, and the engine keeps its
/// previous position and keeps working.
#[test]
fn bad_input_changes_nothing() {
    let mut e = Engine::start();
    let pos = play(&Position::startpos(), &["d2d4", "g8f6"]);
    e.send("position startpos moves d2d4 g8f6");
    assert_eq!(e.fen(), pos.fen());
    let bad: &[&str] = &[
        "foo",
        "foo bar baz",
        "POSITION startpos",
        "position",
        "position fen",
        "position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - zero 1",
        "position startpos moves e2e4 e2e4",
        "position startpos moves e2e4 zz99",
        "position startpos moves e7e5",
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 h1h2",
        "position startpos moves e2e4 e7e5 e1g1",
        "position startpos moves e2e9",
        "position startpos moves e7e8q",
        "position startpos garbage",
        "position frc 960",
        "position frc -1",
        "position frc x",
        "position dfrc 1",
        "position dfrc 1 2000",
        "position moves e2e4",
        "bench x",
        "bench 0",
    ];
    for line in bad {
        e.expect_refusal(line);
        assert_eq!(e.fen(), pos.fen(), "after '{line}'");
    }
    // Raw bytes: invalid UTF-8, NUL, a lone carriage return.
    for bytes in [
        &b"\xff\xfe\xfd\n"[..],
        b"position startpos moves e2e4\xff\n",
        b"position fen \xc3\x28 w - - 0 1\n",
        b"\x00\x01\x02\n",
        b"go\xff depth 1\n",
    ] {
        e.send_bytes(bytes);
        e.expect_refusal_sent(&String::from_utf8_lossy(bytes));
        assert_eq!(e.fen(), pos.fen());
    }
    // A 1 MB line.
    let mut huge = b"position startpos moves".to_vec();
    while huge.len() < 1 << 20 {
        huge.extend_from_slice(b" e2e4 e7e5");
    }
    huge.push(b'\n');
    e.send_bytes(&huge);
    e.expect_refusal_sent("a 1 MB line");
    assert_eq!(e.fen(), pos.fen());
    e.assert_alive(&pos, false);
}

/// `go` with garbage still searches (a GUI must get its bestmove): unknown
/// tokens and malformed values are reported and left out.
#[test]
fn go_with_garbage_still_answers() {
    let mut e = Engine::start();
    let root = play(&Position::startpos(), &["e2e4"]);
    e.send("position startpos moves e2e4");
    for go in [
        "go wtime abc btime 100 depth 1",
        "go foo depth 1",
        "go depth x nodes 5000",
        "go nodes -5 depth 1",
        "go depth 1 movestogo 0",
        "go searchmoves zz99 e7e5 depth 1",
        "go depth 1 searchmoves",
        "go depth 1 wtime",
        "go movetime 1.5 depth 1",
    ] {
        let (lines, best) = e.go(go);
        assert!(
            lines.iter().any(|l| l.starts_with("info string ")),
            "no info string for '{go}': {lines:?}"
        );
        check_search_output(&root, &lines, &best, false, false);
        if go.starts_with("go searchmoves") {
            assert!(best.starts_with("e7e5"), "{best}");
        }
    }
    // Negative clocks (some GUIs send them) are a tiny budget, not an error.
    for go in [
        "go wtime -100 btime -100",
        "go wtime -100 btime 1000 winc -5 binc 0",
        "go movetime -5",
        "go wtime 0 btime 0",
    ] {
        let start = Instant::now();
        let (lines, best) = e.go(go);
        check_search_output(&root, &lines, &best, false, false);
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "'{go}' took {:?}",
            start.elapsed()
        );
    }
}
