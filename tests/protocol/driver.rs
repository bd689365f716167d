//! A running `castella` spoken to over pipes, every wait bounded.

use crate::checks::check_search_output;
use castella_movegen::Position;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any single wait may take before the engine counts as hung.
pub const TIMEOUT: Duration = Duration::from_secs(20);
/// What "at once" means: readyok during a search, bestmove after stop,
/// exit after quit.
pub const PROMPT: Duration = Duration::from_secs(1);

pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A running engine with piped stdin/stdout.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The conversation so far, for failure messages.
    transcript: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    pub fn start_with(args: &[&str]) -> Engine {
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

    pub fn fail(&self, why: &str) -> ! {
        let start = self.transcript.len().saturating_sub(60);
        panic!(
            "{why}\n--- last lines of the conversation ---\n{}",
            self.transcript[start..].join("\n")
        );
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
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
    pub fn next_line(&mut self, deadline: Instant) -> Option<String> {
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
    pub fn collect_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
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
    pub fn expect(&mut self, prefix: &str, timeout: Duration) -> String {
        self.collect_until(prefix, timeout).pop().unwrap()
    }

    /// `isready` → `readyok`; the lines that came before it.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.collect_until("readyok", TIMEOUT);
        lines.pop();
        lines
    }

    /// Sends a command that must be refused: an `info string` comes, and
    /// nothing else but info lines.
    pub fn expect_refusal(&mut self, line: &str) {
        self.send(line);
        self.expect_refusal_sent(line);
    }

    pub fn expect_refusal_sent(&mut self, what: &str) {
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
    pub fn go(&mut self, go: &str) -> (Vec<String>, String) {
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
    pub fn bestmove(&mut self, timeout: Duration) -> (Vec<String>, String) {
        let mut lines = self.collect_until("bestmove", timeout);
        let best = lines.pop().unwrap();
        (lines, best["bestmove".len()..].trim().to_string())
    }

    /// The `Fen:` line of `d` (whose output ends with `Checkers:`).
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.collect_until("Checkers:", TIMEOUT);
        match lines.iter().find_map(|l| l.strip_prefix("Fen: ")) {
            Some(fen) => fen.to_string(),
            None => self.fail("no Fen: line in the output of d"),
        }
    }

    pub fn close_stdin(&mut self) {
        self.transcript.push("> (end of input)".to_string());
        self.stdin = None;
    }

    /// Waits for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
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
    pub fn assert_alive(&mut self, pos: &Position, chess960: bool) {
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
