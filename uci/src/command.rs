//! One input line to a typed command. Parsing is purely textual and touches
//! no state: a line that cannot be parsed is rejected whole, with an error
//! saying what was wrong, before anything changes.

use castella_engine::Limits;

/// The commands Castella understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    /// `debug on|off`: accepted and ignored.
    Debug,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `register ...`: accepted and ignored.
    Register,
    UciNewGame,
    Position(PositionCmd),
    Go(GoCmd),
    Stop,
    PonderHit,
    Quit,
    /// `d`: the board, FEN, key and checkers.
    Display,
    /// `eval`: the evaluation's terms.
    Eval,
    /// `flip`: the position mirrored, colours swapped.
    Flip,
    /// `bench [depth]`.
    Bench(Option<u32>),
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos`.
    Standard,
    Fen(String),
    /// Chess960 start position by Scharnagl number.
    Frc(u16),
    /// Double Chess960: White's and Black's Scharnagl numbers.
    Dfrc(u16, u16),
}

/// `position <start> [moves ...]`, the moves still as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCmd {
    pub start: Start,
    pub moves: Vec<String>,
}

/// `go ...`, every value checked for form. Times are clamped at zero
/// (some GUIs send negative clocks); `warnings` lists the tokens that were
/// ignored and why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCmd {
    pub perft: Option<u32>,
    /// The search limits; `searchmoves` is filled once the texts below are
    /// checked against the position.
    pub limits: Limits,
    /// Move texts, not yet checked against the position.
    pub searchmoves: Vec<String>,
    pub warnings: Vec<String>,
}

/// Parses one line. `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = tokens.split_first() else {
        return Ok(None);
    };
    // Like Stockfish, extra tokens after a command without arguments are
    // ignored: a GUI must get its `readyok` whatever follows `isready`.
    match first {
        "uci" => Ok(Some(Command::Uci)),
        "isready" => Ok(Some(Command::IsReady)),
        "ucinewgame" => Ok(Some(Command::UciNewGame)),
        "stop" => Ok(Some(Command::Stop)),
        "ponderhit" => Ok(Some(Command::PonderHit)),
        "quit" => Ok(Some(Command::Quit)),
        "d" => Ok(Some(Command::Display)),
        "eval" => Ok(Some(Command::Eval)),
        "flip" => Ok(Some(Command::Flip)),
        "debug" => Ok(Some(Command::Debug)),
        "register" => Ok(Some(Command::Register)),
        "setoption" => parse_setoption(rest).map(Some),
        "position" => parse_position(rest).map(|p| Some(Command::Position(p))),
        "go" => Ok(Some(Command::Go(parse_go(rest)))),
        "bench" => match rest {
            [] => Ok(Some(Command::Bench(None))),
            [d] => match d.parse::<u32>() {
                Ok(d) if d >= 1 => Ok(Some(Command::Bench(Some(d)))),
                _ => Err(format!(
                    "bench depth '{}' is not a number from 1 up",
                    short(d)
                )),
            },
            _ => Err("bench takes at most one argument, the depth".to_string()),
        },
        other => Err(format!("unknown command '{}'", short(other))),
    }
}

/// At most 60 characters of `s`, for echoing input in messages.
pub fn short(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

fn parse_setoption(tokens: &[&str]) -> Result<Command, String> {
    let Some((&"name", rest)) = tokens.split_first() else {
        return Err("setoption needs 'name <option> [value <value>]'".to_string());
    };
    let split = rest.iter().position(|&t| t == "value");
    let (name, value) = match split {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err("setoption: the option name is missing".to_string());
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(tokens: &[&str]) -> Result<PositionCmd, String> {
    let number = |t: Option<&&str>, what: &str| -> Result<u16, String> {
        let t = t.ok_or_else(|| format!("position {what} needs a number from 0 to 959"))?;
        t.parse::<u16>()
            .ok()
            .filter(|n| *n < 960)
            .ok_or_else(|| format!("'{}' is not a Chess960 number (0 to 959)", short(t)))
    };
    let (start, rest) = match tokens.first().copied() {
        Some("startpos") => (Start::Standard, &tokens[1..]),
        Some("fen") => {
            let end = tokens
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(tokens.len());
            (Start::Fen(tokens[1..end].join(" ")), &tokens[end..])
        }
        Some("frc") => (Start::Frc(number(tokens.get(1), "frc")?), &tokens[2..]),
        Some("dfrc") => {
            let white = number(tokens.get(1), "dfrc")?;
            let black = number(tokens.get(2), "dfrc")?;
            (Start::Dfrc(white, black), &tokens[3..])
        }
        Some(other) => {
            return Err(format!(
                "position needs startpos, fen, frc or dfrc, not '{}'",
                short(other)
            ))
        }
        None => return Err("position needs startpos, fen, frc or dfrc".to_string()),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", moves)) => moves.iter().map(|m| m.to_string()).collect(),
        Some((other, _)) => {
            return Err(format!(
                "position: expected 'moves', found '{}'; position not changed",
                short(other)
            ))
        }
    };
    Ok(PositionCmd { start, moves })
}

const GO_KEYWORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// `go` never fails: a GUI must always get a `bestmove`. Unknown tokens and
/// malformed values are left out, each with a warning.
fn parse_go(tokens: &[&str]) -> GoCmd {
    let mut go = GoCmd::default();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        i += 1;
        match key {
            "infinite" => go.limits.infinite = true,
            "ponder" => go.limits.ponder = true,
            "searchmoves" => {
                let start = i;
                while i < tokens.len() && !GO_KEYWORDS.contains(&tokens[i]) {
                    i += 1;
                }
                go.searchmoves
                    .extend(tokens[start..i].iter().map(|m| m.to_string()));
                if start == i {
                    go.warnings
                        .push("searchmoves without moves; searching all moves".to_string());
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" | "movestogo" | "depth" | "nodes"
            | "mate" | "perft" => {
                let value = match tokens.get(i) {
                    Some(v) if !GO_KEYWORDS.contains(v) => {
                        i += 1;
                        v
                    }
                    _ => {
                        go.warnings
                            .push(format!("go: '{key}' needs a value; ignored"));
                        continue;
                    }
                };
                if let Err(e) = set_go_value(&mut go, key, value) {
                    go.warnings.push(e);
                }
            }
            other => go
                .warnings
                .push(format!("go: ignoring unknown token '{}'", short(other))),
        }
    }
    if go.limits.movestogo == Some(0) {
        go.limits.movestogo = None;
        go.warnings
            .push("go: movestogo 0 means nothing; ignored".to_string());
    }
    go
}

fn set_go_value(go: &mut GoCmd, key: &str, value: &str) -> Result<(), String> {
    match key {
        "wtime" => go.limits.wtime = Some(time(key, value)?),
        "btime" => go.limits.btime = Some(time(key, value)?),
        "winc" => go.limits.winc = Some(time(key, value)?),
        "binc" => go.limits.binc = Some(time(key, value)?),
        "movetime" => go.limits.movetime = Some(time(key, value)?),
        "nodes" => go.limits.nodes = Some(count(key, value)?),
        "movestogo" => go.limits.movestogo = Some(count32(key, value)?),
        "depth" => go.limits.depth = Some(count32(key, value)?),
        "mate" => go.limits.mate = Some(count32(key, value)?),
        "perft" => go.perft = Some(count32(key, value)?),
        _ => unreachable!("not a go keyword with a value: {key}"),
    }
    Ok(())
}

/// Reads a whole number, saturating on overflow; `None` if it is not one.
fn whole(value: &str) -> Option<i128> {
    let digits = value.strip_prefix(['-', '+']).unwrap_or(value);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.parse::<i128>().unwrap_or(i128::MAX);
    Some(if value.starts_with('-') {
        -magnitude
    } else {
        magnitude
    })
}

/// Milliseconds; negative times count as zero.
fn time(key: &str, value: &str) -> Result<u64, String> {
    whole(value)
        .map(|n| n.clamp(0, u64::MAX as i128) as u64)
        .ok_or_else(|| format!("go: {key} '{}' is not a number; ignored", short(value)))
}

fn count(key: &str, value: &str) -> Result<u64, String> {
    match whole(value) {
        Some(n) if n >= 0 => Ok(n.min(u64::MAX as i128) as u64),
        _ => Err(format!(
            "go: {key} '{}' is not a non-negative whole number; ignored",
            short(value)
        )),
    }
}

fn count32(key: &str, value: &str) -> Result<u32, String> {
    count(key, value).map(|n| n.min(u32::MAX as u64) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> GoCmd {
        match parse(line) {
            Ok(Some(Command::Go(g))) => g,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn blank_and_unknown() {
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("  \t \r"), Ok(None));
        assert!(parse("foo bar")
            .unwrap_err()
            .contains("unknown command 'foo'"));
        assert_eq!(parse("isready now"), Ok(Some(Command::IsReady)));
        assert_eq!(parse("  isready  "), Ok(Some(Command::IsReady)));
        let long = "x".repeat(1000);
        assert!(parse(&long).unwrap_err().len() < 200);
    }

    #[test]
    fn setoption() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Ok(Some(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }))
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Some(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }))
        );
        assert!(parse("setoption").is_err());
        assert!(parse("setoption Hash value 1").is_err());
        assert!(parse("setoption name value 3").is_err());
    }

    #[test]
    fn position() {
        let p = |l: &str| match parse(l) {
            Ok(Some(Command::Position(p))) => Ok(p),
            Ok(other) => panic!("{other:?}"),
            Err(e) => Err(e),
        };
        assert_eq!(
            p("position startpos moves e2e4 e7e5").unwrap(),
            PositionCmd {
                start: Start::Standard,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
        assert_eq!(
            p("position fen 8/8/8/8/8/8/8/K6k w - - moves").unwrap(),
            PositionCmd {
                start: Start::Fen("8/8/8/8/8/8/8/K6k w - -".into()),
                moves: vec![]
            }
        );
        assert_eq!(p("position frc 518").unwrap().start, Start::Frc(518));
        assert_eq!(
            p("position dfrc 1 2 moves a2a3").unwrap().start,
            Start::Dfrc(1, 2)
        );
        assert!(p("position").is_err());
        assert!(p("position frc 960").is_err());
        assert!(p("position frc x").is_err());
        assert!(p("position dfrc 1").is_err());
        assert!(p("position startpos e2e4").is_err());
        assert!(p("position somewhere").is_err());
    }

    #[test]
    fn go_values() {
        let g = go("go wtime 1000 btime -100 winc 10 binc 10 movestogo 40");
        assert_eq!(g.limits.wtime, Some(1000));
        assert_eq!(g.limits.btime, Some(0));
        assert_eq!(g.limits.movestogo, Some(40));
        assert!(g.warnings.is_empty());

        let g = go("go depth 3 nodes 5000 movetime 100 mate 2 infinite ponder");
        assert_eq!(
            (
                g.limits.depth,
                g.limits.nodes,
                g.limits.movetime,
                g.limits.mate
            ),
            (Some(3), Some(5000), Some(100), Some(2))
        );
        assert!(g.limits.infinite && g.limits.ponder);

        let g = go("go searchmoves e2e4 d2d4 depth 2");
        assert_eq!(g.searchmoves, ["e2e4", "d2d4"]);
        assert_eq!(g.limits.depth, Some(2));

        assert_eq!(go("go perft 3").perft, Some(3));
        assert_eq!(
            go("go wtime 99999999999999999999999").limits.wtime,
            Some(u64::MAX)
        );
    }

    #[test]
    fn go_garbage_is_ignored_with_warnings() {
        let g = go("go wtime abc btime 100 foo depth");
        assert_eq!(g.limits.wtime, None);
        assert_eq!(g.limits.btime, Some(100));
        assert_eq!(g.limits.depth, None);
        assert_eq!(g.warnings.len(), 3, "{:?}", g.warnings);

        let g = go("go depth -1 nodes 1.5 wtime depth 2");
        assert_eq!(g.limits.depth, Some(2));
        assert_eq!(g.limits.nodes, None);
        assert_eq!(g.limits.wtime, None);
        assert_eq!(g.warnings.len(), 3, "{:?}", g.warnings);

        let g = go("go movestogo 0 searchmoves");
        assert_eq!(g.limits.movestogo, None);
        assert_eq!(g.warnings.len(), 2);
    }
}
