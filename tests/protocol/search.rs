//! `go` and what follows it: every kind of limit, `stop`, `ponderhit`,
//! commands and end of input during a search, and long games.

use crate::checks::{check_search_output, play};
use crate::driver::{Engine, PROMPT, TIMEOUT};
use crate::rng::Rng;
use castella_movegen::Position;
use std::time::{Duration, Instant};

#[test]
fn go_with_each_kind_of_limit() {
    let mut e = Engine::start();
    let root = play(&Position::startpos(), &["e2e4", "c7c5"]);
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 c7c5");
    for go in [
        "go depth 1",
        "go depth 3",
        "go nodes 5000",
        "go movetime 100",
        "go wtime 1000 btime 1000 winc 10 binc 10",
        "go wtime 2000 btime 2000 movestogo 20",
        "go btime 500 wtime 500",
        "go wtime 100 btime 100 winc 0 binc 0 movestogo 1",
        "go mate 1 nodes 5000",
        "go depth 2 searchmoves g1f3 b1c3",
    ] {
        let start = Instant::now();
        let (infos, best) = e.go(go);
        check_search_output(&root, &infos, &best, false, false);
        if go.contains("searchmoves") {
            assert!(
                best.starts_with("g1f3") || best.starts_with("b1c3"),
                "{best}"
            );
        }
        if go == "go movetime 100" {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "movetime 100 took {:?}",
                start.elapsed()
            );
        }
    }
}

/// The sequence fastchess's `--compliance` check runs (fastchess itself
/// cannot be installed here): handshake, `ucinewgame`, positions from
/// `startpos` and a FEN, then `go` with one side's clock, the other side's
/// clock only, and both clocks in either order, each answered within a
/// second by a `bestmove` whose last `info` line before it has a score.
#[test]
fn fastchess_compliance_sequence() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("id name Castella", TIMEOUT);
    e.expect("id author", TIMEOUT);
    e.expect("uciok", TIMEOUT);
    e.sync();
    e.send("ucinewgame");
    e.send("position startpos");
    e.sync();
    let fen = "3r2k1/p5n1/1pq1p2p/2p3p1/2P1P1n1/1P1P2pP/PN1Q2K1/5R2 w - - 0 27";
    e.send(&format!("position fen {fen}"));
    e.sync();
    let root = Position::from_fen(fen).unwrap();
    for go in [
        "go wtime 100",
        "go btime 100",
        "go wtime 100 winc 100 btime 100 binc 100",
        "go btime 100 binc 100 wtime 100 winc 100",
    ] {
        e.send(go);
        let (infos, best) = e.bestmove(PROMPT);
        check_search_output(&root, &infos, &best, false, false);
        let last = infos.iter().rev().find(|l| !l.starts_with("info string"));
        assert!(
            last.is_some_and(|l| l.contains(" score ")),
            "no info line with a score before the bestmove of '{go}': {infos:?}"
        );
    }
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("go wtime 100 btime 100");
    let (infos, best) = e.bestmove(PROMPT);
    check_search_output(&Position::startpos(), &infos, &best, false, false);
    e.send("position startpos moves e2e4 e7e5");
    e.send("go wtime 100 btime 100");
    let (infos, best) = e.bestmove(PROMPT);
    let root = play(&Position::startpos(), &["e2e4", "e7e5"]);
    check_search_output(&root, &infos, &best, false, false);
}

#[test]
fn go_infinite_answers_isready_and_stops_promptly() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    e.send("isready");
    let lines = e.collect_until("readyok", PROMPT);
    assert!(start.elapsed() < PROMPT);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "bestmove before stop in go infinite: {lines:?}"
    );
    let start = Instant::now();
    e.send("stop");
    let (infos, best) = e.bestmove(PROMPT);
    assert!(start.elapsed() < PROMPT, "stop took {:?}", start.elapsed());
    check_search_output(&Position::startpos(), &infos, &best, false, false);
    assert!(!e.sync().iter().any(|l| l.starts_with("bestmove")));
    // A second stop does nothing.
    e.send("stop");
    assert!(e.sync().is_empty());
}

#[test]
fn ponder_then_ponderhit_or_stop() {
    let mut e = Engine::start();
    let root = play(&Position::startpos(), &["e2e4", "e7e5"]);
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 1000 btime 1000 winc 0 binc 0");
    std::thread::sleep(Duration::from_millis(100));
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "bestmove while pondering: {lines:?}"
    );
    e.send("ponderhit");
    let (infos, best) = e.bestmove(TIMEOUT);
    check_search_output(&root, &infos, &best, false, false);

    e.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(50));
    let start = Instant::now();
    e.send("stop");
    let (infos, best) = e.bestmove(PROMPT);
    assert!(start.elapsed() < PROMPT);
    check_search_output(&root, &infos, &best, false, false);
    assert!(!e.sync().iter().any(|l| l.starts_with("bestmove")));
}

/// `position` and `go` during a search stop it first: its bestmove comes,
/// then the new search's.
#[test]
fn new_commands_during_a_search_stop_it_first() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    e.send("position startpos moves g1f3");
    let (infos, best) = e.bestmove(TIMEOUT);
    check_search_output(&Position::startpos(), &infos, &best, false, false);
    let (infos, best) = e.go("go depth 1");
    check_search_output(
        &play(&Position::startpos(), &["g1f3"]),
        &infos,
        &best,
        false,
        false,
    );

    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    e.send("go depth 1");
    let root = play(&Position::startpos(), &["g1f3"]);
    for _ in 0..2 {
        let (infos, best) = e.bestmove(TIMEOUT);
        check_search_output(&root, &infos, &best, false, false);
    }
    assert!(!e.sync().iter().any(|l| l.starts_with("bestmove")));
}

#[test]
fn quit_during_a_search_exits_cleanly() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    e.send("quit");
    let status = e.wait_exit(PROMPT);
    assert!(status.success(), "exit status {status}");
    assert!(start.elapsed() <= PROMPT + Duration::from_millis(50));
}

#[test]
fn end_of_input_quits() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    e.close_stdin();
    let status = e.wait_exit(PROMPT);
    assert!(status.success(), "exit status {status}");

    let mut e = Engine::start();
    e.close_stdin();
    assert!(e.wait_exit(PROMPT).success());
}

#[test]
fn no_legal_move_gives_bestmove_0000() {
    let mut e = Engine::start();
    // Fool's mate: White is mated.
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    let (_, best) = e.go("go depth 3");
    assert_eq!(best, "0000");
    let (_, best) = e.go("go wtime 1000 btime 1000");
    assert_eq!(best, "0000");
    // Stalemate.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let (_, best) = e.go("go depth 3");
    assert_eq!(best, "0000");
    // In go infinite, even 0000 waits for stop.
    e.send("go infinite");
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    let (_, best) = e.bestmove(PROMPT);
    assert_eq!(best, "0000");
}

/// A long game given move by move, as GUIs send it: 600 plies.
#[test]
fn a_600_ply_game() {
    let mut e = Engine::start();
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = cycle.iter().copied().cycle().take(600).collect();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let pos = play(&Position::startpos(), &moves);
    assert_eq!(e.fen(), pos.fen());
    assert!(e.fen().ends_with(" 600 301"));
    e.assert_alive(&pos, false);

    // A random game of up to 600 plies from a Chess960 start.
    let mut rng = Rng(600);
    let mut pos = Position::chess960(rng.below(960) as u16).unwrap();
    let start = pos.fen();
    let mut texts = Vec::new();
    for _ in 0..600 {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len() as u64) as usize];
        texts.push(pos.move_to_uci(mv, true));
        pos = pos.play(mv);
    }
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {start} moves {}", texts.join(" ")));
    assert_eq!(e.fen(), pos.fen());
    e.assert_alive(&pos, true);
}

/// The last `pv` before a `bestmove` begins with that move, as fastchess
/// checks: also when a node limit stops the search in an iteration where
/// another move took over, and when a helper thread's move is played.
#[test]
fn the_last_pv_begins_with_the_best_move() {
    let mut e = Engine::start();
    let mut checked = 0;
    for threads in [1, 3] {
        e.send(&format!("setoption name Threads value {threads}"));
        for n in 0..40u16 {
            e.send("ucinewgame");
            e.send(&format!("position frc {}", n * 23 % 960));
            let (infos, best) = e.go(&format!("go nodes {}", 3000 + 1711 * n as u64));
            let best = best.split_whitespace().next().unwrap().to_string();
            let last_pv = infos
                .iter()
                .rev()
                .find_map(|l| l.split_once(" pv ").map(|(_, pv)| pv.to_string()));
            let first = last_pv
                .as_deref()
                .and_then(|pv| pv.split_whitespace().next());
            assert_eq!(
                first,
                Some(best.as_str()),
                "{threads} threads, search {n}: {infos:?}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 80);
}
