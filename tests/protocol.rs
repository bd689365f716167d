//! UCI protocol tests: the `castella` binary driven over pipes the way
//! Cutechess, fastchess and python-chess drive engines.
//!
//! Every wait has a timeout: the engine's stdout is read on a thread into a
//! channel, so a hung engine fails the test (with a transcript of the
//! conversation) instead of hanging CI. Searches are kept tiny (`go depth
//! 1..3`, `go nodes 5000`, short movetimes) so the file runs in seconds in
//! a debug build. Every best move is checked for legality, and for the
//! castling notation UCI_Chess960 asks for, with castella-movegen, and
//! every `info` line is checked for form and for a legal PV.
//!
//! Registered as a test of the `castella` package (uci/Cargo.toml), so
//! that cargo builds the binary first and sets CARGO_BIN_EXE_castella.

use castella_eval::nnue;
use castella_movegen::Position;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any single wait may take before the engine counts as hung.
const TIMEOUT: Duration = Duration::from_secs(20);
/// What "at once" means: readyok during a search, bestmove after stop,
/// exit after quit.
const PROMPT: Duration = Duration::from_secs(1);

const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

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
    "option name UCI_Elo type spin default 1320 min 1320 max 2600",
];

/// A running engine with piped stdin/stdout.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The conversation so far, for failure messages.
    transcript: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        Engine::start_with(&[])
    }

    fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_castella"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("cannot start castella");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        let mut engine = Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        };
        if args.is_empty() {
            let banner = engine.expect("Castella ", TIMEOUT);
            assert!(
                banner.starts_with(&format!("Castella {}", env!("CARGO_PKG_VERSION"))),
                "{banner}"
            );
        }
        engine
    }

    fn fail(&self, why: &str) -> ! {
        let start = self.transcript.len().saturating_sub(60);
        panic!(
            "{why}\n--- last lines of the conversation ---\n{}",
            self.transcript[start..].join("\n")
        );
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]);
        self.transcript
            .push(format!("> {}", shown.trim_end_matches('\n')));
        let stdin = self.stdin.as_mut().expect("stdin is closed");
        if let Err(e) = stdin.write_all(bytes).and_then(|_| stdin.flush()) {
            self.fail(&format!("cannot write to the engine: {e}"));
        }
    }

    /// The next line, or None once `deadline` has passed or the engine closed
    /// its output.
    fn next_line(&mut self, deadline: Instant) -> Option<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn collect_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            match self.next_line(deadline) {
                Some(line) => {
                    let done = line.starts_with(prefix);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                None => self.fail(&format!(
                    "no line starting with '{prefix}' within {timeout:?}"
                )),
            }
        }
    }

    /// The first line that starts with `prefix`, skipping others.
    fn expect(&mut self, prefix: &str, timeout: Duration) -> String {
        self.collect_until(prefix, timeout).pop().unwrap()
    }

    /// `isready` → `readyok`; the lines that came before it.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.collect_until("readyok", TIMEOUT);
        lines.pop();
        lines
    }

    /// Sends a command that must be refused: an `info string` comes, and
    /// nothing else but info lines.
    fn expect_refusal(&mut self, line: &str) {
        self.send(line);
        self.expect_refusal_sent(line);
    }

    fn expect_refusal_sent(&mut self, what: &str) {
        let lines = self.sync();
        if !lines.iter().any(|l| l.starts_with("info string ")) {
            self.fail(&format!("no info string after '{what}'"));
        }
        if let Some(l) = lines.iter().find(|l| !l.starts_with("info")) {
            self.fail(&format!("unexpected '{l}' after '{what}'"));
        }
    }

    /// Sends a `go` and waits for its `bestmove`; returns the lines before it
    /// and the best move text, and checks that no second `bestmove` follows.
    fn go(&mut self, go: &str) -> (Vec<String>, String) {
        self.send(go);
        let (lines, best) = self.bestmove(TIMEOUT);
        let after = self.sync();
        if after.iter().any(|l| l.starts_with("bestmove")) {
            self.fail(&format!("a second bestmove after '{go}'"));
        }
        (lines, best)
    }

    /// Waits for a `bestmove` line: the lines before it and its full text
    /// after `bestmove `.
    fn bestmove(&mut self, timeout: Duration) -> (Vec<String>, String) {
        let mut lines = self.collect_until("bestmove", timeout);
        let best = lines.pop().unwrap();
        (lines, best["bestmove".len()..].trim().to_string())
    }

    /// The `Fen:` line of `d` (whose output ends with `Checkers:`).
    fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.collect_until("Checkers:", TIMEOUT);
        match lines.iter().find_map(|l| l.strip_prefix("Fen: ")) {
            Some(fen) => fen.to_string(),
            None => self.fail("no Fen: line in the output of d"),
        }
    }

    fn close_stdin(&mut self) {
        self.transcript.push("> (end of input)".to_string());
        self.stdin = None;
    }

    /// Waits for the process to exit.
    fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                Ok(None) => self.fail(&format!("the engine did not exit within {timeout:?}")),
                Err(e) => self.fail(&format!("cannot wait for the engine: {e}")),
            }
        }
    }

    /// After any mishap: the engine still answers and still plays a legal
    /// move in `pos`.
    fn assert_alive(&mut self, pos: &Position, chess960: bool) {
        let (lines, best) = self.go("go depth 1");
        check_search_output(pos, &lines, &best, chess960, false);
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `pos` after `moves` (text in either notation).
fn play(pos: &Position, moves: &[&str]) -> Position {
    moves.iter().fold(*pos, |p, m| {
        let mv = p
            .parse_uci_move(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", p.fen()));
        p.play(mv)
    })
}

fn fen(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Checks a move text: legal in `pos`, and written as `chess960` asks.
fn check_move(pos: &Position, text: &str, chess960: bool) -> Position {
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
fn check_search_output(pos: &Position, infos: &[String], best: &str, chess960: bool, wdl: bool) {
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
fn check_info(pos: &Position, line: &str, chess960: bool, wdl: bool) {
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

/// A small seeded generator (splitmix64), so the random tests repeat.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

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

/// Castling in `position ... moves` is accepted in both notations whatever
/// UCI_Chess960 says, from Shredder-FEN and X-FEN castling fields.
#[test]
fn castling_moves_in_both_notations() {
    let mut e = Engine::start();
    // (FEN, moves, board after the moves)
    let cases: [(&str, &str, &str); 7] = [
        (
            "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1",
            "b1e1 b8g8",
            "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - -",
        ),
        (
            "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1",
            "b1g1 b8e8",
            "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - -",
        ),
        (
            "5rkr/pppppppp/8/8/8/8/PPPPPPPP/5RKR w HFhf - 0 1",
            "g1f1 g8c8",
            "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R w - -",
        ),
        (
            "5rkr/pppppppp/8/8/8/8/PPPPPPPP/5RKR w HFhf - 0 1",
            "g1c1 g8f8",
            "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R w - -",
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
            "e1h1 e8c8",
            "2kr3r/8/8/8/8/8/8/R4RK1 w - -",
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "e1g1 e8a8",
            "2kr3r/8/8/8/8/8/8/R4RK1 w - -",
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "O-O-O O-O",
            "r4rk1/8/8/8/8/8/8/2KR3R w - -",
        ),
    ];
    for chess960 in [false, true] {
        e.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        for (start, moves, board) in cases {
            e.send(&format!("position fen {start} moves {moves}"));
            let shown = e.fen();
            let moves: Vec<&str> = moves.split(' ').collect();
            let expected = play(&fen(start), &moves);
            assert_eq!(shown, expected.fen(), "{start} moves {moves:?}");
            assert!(shown.starts_with(board), "{shown} after {start} {moves:?}");
        }
        assert!(e.sync().is_empty());
    }
}

/// The castling notation of `bestmove` follows UCI_Chess960. Castling can
/// never be a position's only legal move when its two notations differ, so
/// the root is restricted with searchmoves (given in the other notation),
/// and a mate in one by castling checks the real choice.
#[test]
fn bestmove_castling_notation_follows_uci_chess960() {
    let mut e = Engine::start();
    let cases = [
        // (FEN, castle in 960 form, in standard form)
        (
            "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1",
            "b1e1",
            "b1g1",
        ),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", "e1g1"),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8a8", "e8c8"),
        (
            "5rkr/pppppppp/8/8/8/8/PPPPPPPP/5RKR w HFhf - 0 1",
            "g1f1",
            "g1c1",
        ),
    ];
    for chess960 in [false, true] {
        e.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        for (start, frc, std) in cases {
            let (want, given) = if chess960 { (frc, std) } else { (std, frc) };
            e.send(&format!("position fen {start}"));
            let (infos, best) = e.go(&format!("go depth 2 searchmoves {given}"));
            let best_move = best.split(' ').next().unwrap();
            assert_eq!(best_move, want, "{start}, UCI_Chess960 {chess960}");
            check_search_output(&fen(start), &infos, &best, chess960, false);
        }
        // Mate in one by castling, the only one: 1. O-O# (the rook checks
        // along the first rank; every other move stalemates or does nothing).
        let mate = "8/8/8/8/2N5/2N5/3PPP2/k3K2R w K - 0 1";
        e.send(&format!("position fen {mate}"));
        let (infos, best) = e.go("go depth 3");
        let want = if chess960 { "e1h1" } else { "e1g1" };
        assert_eq!(
            best.split(' ').next(),
            Some(want),
            "mate in one by castling"
        );
        check_search_output(&fen(mate), &infos, &best, chess960, false);
    }
}

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
    // The same network with its output biases (one per output bucket,
    // the file's last bytes) raised by one output unit: every evaluation
    // moves by the same amount.
    let mut shifted = embedded.clone();
    let n = shifted.len();
    let flags = u32::from(embedded[8]);
    let buckets = if flags & nnue::BUCKETS != 0 {
        u32::from_le_bytes(embedded[12..16].try_into().unwrap()) as usize
    } else {
        1
    };
    let qb = if flags & nnue::FINE_OUTPUT != 0 {
        nnue::QB_FINE
    } else {
        nnue::QB
    };
    let unit = nnue::QA * qb;
    for at in (n - 4 * buckets..n).step_by(4) {
        let bias = i32::from_le_bytes(shifted[at..at + 4].try_into().unwrap()) + unit;
        shifted[at..at + 4].copy_from_slice(&bias.to_le_bytes());
    }
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
/// with the shared tables a won ending is reported as a tablebase win and
/// `tbhits` appears. Skipped (with a message) without ../shared/syzygy.
#[test]
fn syzygy_path_good_and_bad() {
    let mut e = Engine::start();
    e.send("setoption name SyzygyPath value /nonexistent/tables");
    let line = e.expect("info string SyzygyPath /nonexistent/tables", TIMEOUT);
    assert!(line.contains("No such file"), "{line}");
    e.expect("info string Syzygy: no usable tables", TIMEOUT);
    e.assert_alive(&Position::startpos(), false);

    let shared = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/syzygy");
    if !std::path::Path::new(shared).is_dir() {
        eprintln!("skipped the tables part: no Syzygy tables at {shared}");
        return;
    }
    e.send(&format!("setoption name SyzygyPath value {shared}"));
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
        "bench/tools/rank960-compare.py",
        "bench/tools/syzygy-compare.py",
        "bench/tools/tb-conversion.py",
        "bench/perft-vs-stockfish.py",
    ] {
        let out = Command::new("python3")
            .arg(format!("{dir}/{tool}"))
            .arg("--help")
            .output()
            .expect("python3 runs");
        assert!(out.status.success(), "{tool} --help: {out:?}");
    }
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

#[test]
fn chess960_start_positions() {
    let mut e = Engine::start();
    e.send("position frc 518");
    assert_eq!(e.fen(), STARTPOS_FEN);
    e.send("position dfrc 518 518");
    assert_eq!(e.fen(), STARTPOS_FEN);
    e.send("position startpos");
    assert_eq!(e.fen(), STARTPOS_FEN);

    e.send("setoption name UCI_Chess960 value true");
    e.send("position frc 0 moves b2b3");
    let expected = play(&Position::chess960(0).unwrap(), &["b2b3"]);
    assert_eq!(e.fen(), expected.fen());
    e.assert_alive(&expected, true);

    e.send("position dfrc 0 959");
    let expected = Position::double_chess960(0, 959).unwrap();
    assert_eq!(e.fen(), expected.fen());
    e.assert_alive(&expected, true);
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

/// Seeded random playouts from random Chess960 starts: every best move is
/// legal, in either castling notation.
#[test]
fn random_chess960_positions_get_legal_moves() {
    let mut e = Engine::start();
    let mut rng = Rng(960);
    for i in 0..20 {
        let (command, mut pos) = if i % 4 == 3 {
            let (w, b) = (rng.below(960) as u16, rng.below(960) as u16);
            (
                format!("position dfrc {w} {b}"),
                Position::double_chess960(w, b).unwrap(),
            )
        } else {
            let n = rng.below(960) as u16;
            (format!("position frc {n}"), Position::chess960(n).unwrap())
        };
        let mut moves = Vec::new();
        for _ in 0..rng.below(40) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len() as u64) as usize];
            // Input in king-onto-rook form: unambiguous whatever the mode.
            moves.push(pos.move_to_uci(mv, true));
            pos = pos.play(mv);
        }
        let chess960 = i % 2 == 0;
        e.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        let command = if moves.is_empty() {
            command
        } else {
            format!("{command} moves {}", moves.join(" "))
        };
        e.send(&command);
        assert_eq!(e.fen(), pos.fen(), "{command}");
        let go = if i % 2 == 0 {
            "go depth 2"
        } else {
            "go nodes 2000"
        };
        let (infos, best) = e.go(go);
        check_search_output(&pos, &infos, &best, chess960, false);
    }
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
