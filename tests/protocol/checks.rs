//! Checks of the engine's answers: legal moves in the notation asked for,
//! and well-formed `info` lines with legal PVs.

use castella_movegen::Position;

/// `pos` after `moves` (text in either notation).
pub fn play(pos: &Position, moves: &[&str]) -> Position {
    moves.iter().fold(*pos, |p, m| {
        let mv = p
            .parse_uci_move(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", p.fen()));
        p.play(mv)
    })
}

pub fn fen(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Checks a move text: legal in `pos`, and written as `chess960` asks.
pub fn check_move(pos: &Position, text: &str, chess960: bool) -> Position {
    let mv = pos
        .parse_uci_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.fen()));
    assert_eq!(
        text,
        pos.move_to_uci(mv, chess960),
        "castling notation (UCI_Chess960 {chess960}) in {}",
        pos.fen()
    );
    pos.play(mv)
}

/// Checks a `bestmove` (text after the word) and the `info` lines before
/// it: a legal best move (or 0000 exactly when there is none), a legal
/// ponder move, and well-formed info lines with legal PVs.
pub fn check_search_output(
    pos: &Position,
    infos: &[String],
    best: &str,
    chess960: bool,
    wdl: bool,
) {
    for line in infos {
        check_info(pos, line, chess960, wdl);
    }
    let tokens: Vec<&str> = best.split_whitespace().collect();
    match tokens.as_slice() {
        ["0000"] => assert!(
            pos.legal_moves().is_empty(),
            "bestmove 0000 with legal moves in {}",
            pos.fen()
        ),
        [m] => {
            check_move(pos, m, chess960);
        }
        [m, "ponder", p] => {
            let after = check_move(pos, m, chess960);
            check_move(&after, p, chess960);
        }
        _ => panic!("malformed bestmove line 'bestmove {best}'"),
    }
}

/// An `info` line: either `info string ...`, or the fields in the order
/// depth seldepth multipv score [bound] [wdl] nodes nps [tbhits] hashfull
/// time [pv].
pub fn check_info(pos: &Position, line: &str, chess960: bool, wdl: bool) {
    if line.starts_with("info string ") {
        return;
    }
    let t: Vec<&str> = line.split_whitespace().collect();
    let num = |i: usize| -> i64 {
        t.get(i)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no number at token {i} of '{line}'"))
    };
    let word = |i: usize, w: &str| {
        assert_eq!(t.get(i).copied(), Some(w), "token {i} of '{line}'");
    };
    word(0, "info");
    word(1, "depth");
    assert!(num(2) >= 0);
    word(3, "seldepth");
    num(4);
    word(5, "multipv");
    assert!(num(6) >= 1);
    word(7, "score");
    assert!(matches!(t.get(8), Some(&"cp") | Some(&"mate")), "{line}");
    num(9);
    let mut i = 10;
    if matches!(t.get(i), Some(&"lowerbound") | Some(&"upperbound")) {
        i += 1;
    }
    if wdl {
        word(i, "wdl");
        assert_eq!(num(i + 1) + num(i + 2) + num(i + 3), 1000, "{line}");
        i += 4;
    } else {
        assert!(!t.contains(&"wdl"), "wdl without UCI_ShowWDL: {line}");
    }
    for key in ["nodes", "nps", "hashfull", "time"] {
        if key == "hashfull" && t.get(i) == Some(&"tbhits") {
            assert!(num(i + 1) > 0, "{line}");
            i += 2;
        }
        word(i, key);
        num(i + 1);
        i += 2;
    }
    if i < t.len() {
        word(i, "pv");
        assert!(i + 1 < t.len(), "empty pv: {line}");
        let mut p = *pos;
        for m in &t[i + 1..] {
            p = check_move(&p, m, chess960);
        }
    }
}
