//! Reading input lines and writing output lines.
//!
//! Input is read as raw bytes with a bound on the line length, decoded
//! lossily (bad UTF-8 becomes U+FFFD, never a panic). Output goes through
//! `emit`: one locked write of the whole text, then a flush, so lines from
//! the search threads and the input loop never interleave. Write errors
//! (a GUI that closed its end) are ignored: the loop ends at EOF on input.

use std::io::{self, BufRead, Write};

/// The longest input line accepted, in bytes. A `position startpos moves`
/// line of a 600-move game is about 3 KB; this leaves a wide margin.
pub const MAX_LINE: usize = 256 * 1024;

/// What the next read gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    Line(String),
    /// A line longer than the limit was skipped; its length in bytes.
    TooLong(usize),
    Eof,
}

/// Reads lines of at most `limit` bytes; longer ones are skipped without
/// being held in memory.
pub struct LineReader<R> {
    inner: R,
    limit: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(inner: R, limit: usize) -> LineReader<R> {
        LineReader {
            inner,
            limit,
            buf: Vec::new(),
        }
    }

    pub fn next_line(&mut self) -> Input {
        self.buf.clear();
        let mut len = 0usize;
        let mut read_any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                // A broken input is the end of input.
                Err(_) => &[],
            };
            if chunk.is_empty() {
                if !read_any {
                    return Input::Eof;
                }
                break;
            }
            read_any = true;
            let newline = chunk.iter().position(|&b| b == b'\n');
            let take = newline.unwrap_or(chunk.len());
            len += take;
            if len <= self.limit {
                self.buf.extend_from_slice(&chunk[..take]);
            }
            self.inner.consume(take + usize::from(newline.is_some()));
            if newline.is_some() {
                break;
            }
        }
        if len > self.limit {
            self.buf = Vec::new();
            return Input::TooLong(len);
        }
        let mut line = String::from_utf8_lossy(&self.buf).into_owned();
        if line.ends_with('\r') {
            line.pop();
        }
        Input::Line(line)
    }
}

/// Writes `text` plus a newline to stdout in one locked write, and flushes.
pub fn emit(text: &str) {
    let mut line = String::with_capacity(text.len() + 1);
    line.push_str(text);
    if !line.ends_with('\n') {
        line.push('\n');
    }
    let mut out = io::stdout().lock();
    let _ = out.write_all(line.as_bytes());
    let _ = out.flush();
}

/// `info string <message>`, one line per line of the message.
pub fn info_string(message: &str) {
    let text: Vec<String> = message
        .lines()
        .map(|l| format!("info string {l}"))
        .collect();
    if !text.is_empty() {
        emit(&text.join("\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], limit: usize) -> Vec<Input> {
        let mut r = LineReader::new(input, limit);
        let mut out = Vec::new();
        loop {
            let l = r.next_line();
            let end = l == Input::Eof;
            out.push(l);
            if end {
                return out;
            }
        }
    }

    #[test]
    fn splits_lines() {
        use Input::*;
        assert_eq!(
            lines(b"uci\r\n\nisready\nquit", 100),
            [
                Line("uci".into()),
                Line("".into()),
                Line("isready".into()),
                Line("quit".into()),
                Eof
            ]
        );
        assert_eq!(lines(b"", 100), [Eof]);
    }

    #[test]
    fn long_lines_are_skipped() {
        use Input::*;
        let mut input = vec![b'x'; 5000];
        input.extend_from_slice(b"\nisready\n");
        // A small BufReader buffer makes the long line span many chunks.
        let reader = io::BufReader::with_capacity(64, &input[..]);
        let mut r = LineReader::new(reader, 1000);
        assert_eq!(r.next_line(), TooLong(5000));
        assert_eq!(r.next_line(), Line("isready".into()));
        assert_eq!(r.next_line(), Eof);
    }

    #[test]
    fn bad_utf8_is_replaced() {
        let l = lines(b"is\xffready\n", 100);
        assert_eq!(l[0], Input::Line("is\u{fffd}ready".into()));
    }
}
