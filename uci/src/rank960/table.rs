//! A ranking's rows: written as CSV or JSON, read back from CSV (to resume
//! a run or merge shards), and summarised.

use super::start::Start;
use castella_engine::value::{to_uci, MATE, MATE_BOUND};
use castella_engine::Score;
use castella_movegen::Position;

/// The CSV header; a file that starts otherwise is not a ranking.
pub const HEADER: &str = "rank,index,fen,score_cp,win,draw,loss,bestmove,san,depth,nodes";

/// One evaluated position.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub start: Start,
    pub pos: Position,
    /// Normalised centipawns from White's view (`value::normalize`; mates
    /// as +-(31000 - plies)).
    pub score: i32,
    /// White's win/draw/loss per mille.
    pub wdl: (u32, u32, u32),
    pub best_uci: String,
    pub best_san: String,
    pub depth: u32,
    pub nodes: u64,
}

/// Best for White first; ties in the order of their names.
pub fn rank(rows: &mut [Row]) {
    rows.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then_with(|| order_key(a.start).cmp(&order_key(b.start)))
            .then_with(|| a.pos.fen().cmp(&b.pos.fen()))
    });
}

fn order_key(start: Start) -> (u16, u16) {
    match start {
        Start::Chess960(n) => (n, 0),
        Start::Dfrc(w, b) => (w, b),
        Start::Fen => (u16::MAX, u16::MAX),
    }
}

/// A score as the CSV writes it: centipawns, or `mateN` / `mate-N`.
pub fn score_text(score: i32) -> String {
    match to_uci(score) {
        Score::Cp(cp) => cp.to_string(),
        Score::Mate(m) => format!("mate{m}"),
    }
}

fn parse_score(text: &str) -> Option<i32> {
    match text.strip_prefix("mate") {
        Some(m) => {
            let m: i32 = m.parse().ok().filter(|m| *m != 0)?;
            Some(if m > 0 {
                MATE - (2 * m - 1)
            } else {
                -MATE - 2 * m
            })
        }
        None => text.parse().ok(),
    }
}

/// One CSV line, without its end; a row of a run still going has no rank
/// yet and is written with `-`.
pub fn csv_line(rank: Option<usize>, r: &Row) -> String {
    let (w, d, l) = r.wdl;
    format!(
        "{},{},{},{},{w},{d},{l},{},{},{},{}",
        rank.map_or_else(|| "-".to_string(), |n| n.to_string()),
        r.start,
        r.pos.fen(),
        score_text(r.score),
        r.best_uci,
        r.best_san,
        r.depth,
        r.nodes
    )
}

/// Ranked rows as CSV; with `pairs`, a second table of each Chess960 start
/// beside its left-right mirror.
pub fn csv(rows: &[Row], with_pairs: bool) -> String {
    let mut s = format!("{HEADER}\n");
    for (i, r) in rows.iter().enumerate() {
        s.push_str(&csv_line(Some(i + 1), r));
        s.push('\n');
    }
    if with_pairs {
        s.push_str("\nindex,score_cp,mirror_index,mirror_score_cp,difference\n");
        for (n, a, m, b) in pairs(rows) {
            s.push_str(&format!("{n},{a},{m},{b},{}\n", a - b));
        }
    }
    s
}

/// Ranked rows as JSON; a Double-FRC pair's index is the string `"W:B"`.
pub fn json(rows: &[Row], with_pairs: bool) -> String {
    let mut s = String::from("{\n  \"positions\": [\n");
    for (i, r) in rows.iter().enumerate() {
        let (w, d, l) = r.wdl;
        let index = match r.start {
            Start::Chess960(n) => n.to_string(),
            Start::Dfrc(..) => format!("\"{}\"", r.start),
            Start::Fen => "null".to_string(),
        };
        s.push_str(&format!(
            "    {{\"rank\": {}, \"index\": {index}, \"fen\": \"{}\", \"score_cp\": {}, \"mate\": {}, \"wdl\": [{w}, {d}, {l}], \"bestmove\": \"{}\", \"san\": \"{}\", \"depth\": {}, \"nodes\": {}}}{}\n",
            i + 1,
            r.pos.fen(),
            r.score,
            r.score.abs() >= MATE_BOUND,
            r.best_uci,
            r.best_san,
            r.depth,
            r.nodes,
            if i + 1 < rows.len() { "," } else { "" }
        ));
    }
    s.push_str("  ]");
    if with_pairs {
        s.push_str(",\n  \"pairs\": [\n");
        let p = pairs(rows);
        for (i, (n, a, m, b)) in p.iter().enumerate() {
            s.push_str(&format!(
                "    {{\"index\": {n}, \"score_cp\": {a}, \"mirror_index\": {m}, \"mirror_score_cp\": {b}}}{}\n",
                if i + 1 < p.len() { "," } else { "" }
            ));
        }
        s.push_str("  ]");
    }
    s.push_str("\n}\n");
    s
}

/// The rows of a ranking CSV (ours, finished or still being written):
/// lines starting with `#` are skipped and a blank line ends the ranking
/// (the `--pairs` table follows it). `name` is for the error messages.
pub fn read_csv(text: &str, name: &str) -> Result<Vec<Row>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'));
    match lines.next() {
        Some((_, l)) if l.trim_end() == HEADER => {}
        _ => return Err(format!("{name}: not a rank960 CSV (no '{HEADER}' header)")),
    }
    let mut rows = Vec::new();
    for (i, line) in lines {
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        rows.push(read_row(line).map_err(|e| format!("{name}:{}: {e}", i + 1))?);
    }
    Ok(rows)
}

fn read_row(line: &str) -> Result<Row, String> {
    let f: Vec<&str> = line.split(',').collect();
    if f.len() != 11 {
        return Err(format!("{} fields where 11 were expected", f.len()));
    }
    let number = |i: usize, what: &str| {
        f[i].parse::<u64>()
            .map_err(|_| format!("{what} '{}' is not a number", f[i]))
    };
    let pos = Position::from_fen(f[2]).map_err(|e| format!("bad FEN '{}': {e}", f[2]))?;
    Ok(Row {
        start: f[1].parse()?,
        pos,
        score: parse_score(f[3]).ok_or_else(|| format!("bad score '{}'", f[3]))?,
        wdl: (
            number(4, "win")? as u32,
            number(5, "draw")? as u32,
            number(6, "loss")? as u32,
        ),
        best_uci: f[7].to_string(),
        best_san: f[8].to_string(),
        depth: number(9, "depth")? as u32,
        nodes: number(10, "nodes")?,
    })
}

/// The left-right mirror of a start position (same pieces, files reversed).
fn mirror_index(n: u16) -> Option<u16> {
    let mut rank = castella_movegen::chess960::back_rank(n)?;
    rank.reverse();
    castella_movegen::chess960::index_of(&rank)
}

fn pairs(rows: &[Row]) -> Vec<(u16, i32, u16, i32)> {
    let score_of = |n: u16| {
        rows.iter()
            .find(|r| r.start == Start::Chess960(n))
            .map(|r| r.score)
    };
    let mut out = Vec::new();
    for r in rows {
        let Start::Chess960(n) = r.start else {
            continue;
        };
        let Some(m) = mirror_index(n) else { continue };
        if n < m {
            if let Some(ms) = score_of(m) {
                out.push((n, r.score, m, ms));
            }
        }
    }
    out.sort();
    out
}

/// Mean, spread and the notable positions of a ranking (best first).
pub fn summary(rows: &[Row]) -> String {
    if rows.is_empty() {
        return "no positions\n".into();
    }
    let n = rows.len() as f64;
    let mean = rows.iter().map(|r| r.score as f64).sum::<f64>() / n;
    let sd = (rows
        .iter()
        .map(|r| (r.score as f64 - mean).powi(2))
        .sum::<f64>()
        / n)
        .sqrt();
    let (max, min) = (&rows[0], &rows[rows.len() - 1]);
    let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
    let mut s = format!("positions: {}, nodes: {nodes}\n", rows.len());
    s.push_str(&format!(
        "mean score: {mean:+.1} cp, standard deviation: {sd:.1} cp\n"
    ));
    s.push_str(&format!(
        "max: {} cp (index {}), min: {} cp (index {})\n",
        score_text(max.score),
        max.start,
        score_text(min.score),
        min.start
    ));
    if let Some(rank) = rows.iter().position(|r| r.start.is_standard()) {
        s.push_str(&format!(
            "standard chess ({}): rank {} of {}, {} cp\n",
            rows[rank].start,
            rank + 1,
            rows.len(),
            score_text(rows[rank].score)
        ));
    }
    let balanced = most_balanced(rows);
    s.push_str(&format!(
        "most balanced: index {} ({} cp)\n",
        balanced[0].start,
        score_text(balanced[0].score)
    ));
    let unbalanced = balanced[balanced.len() - 1];
    s.push_str(&format!(
        "least balanced: index {} ({} cp)\n",
        unbalanced.start,
        score_text(unbalanced.score)
    ));
    s
}

/// The rows from the smallest score in absolute value to the largest (ties
/// in ranking order).
pub fn most_balanced(rows: &[Row]) -> Vec<&Row> {
    let mut v: Vec<&Row> = rows.iter().collect();
    v.sort_by_key(|r| r.score.unsigned_abs());
    v
}

/// A row for the tests of this module and its neighbours.
#[cfg(test)]
pub fn test_row(start: Start, score: i32) -> Row {
    Row {
        start,
        pos: start.position().expect("a named start"),
        score,
        wdl: (100, 850, 50),
        best_uci: "e2e4".into(),
        best_san: "e4".into(),
        depth: 12,
        nodes: 1000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(start: Start, score: i32) -> Row {
        test_row(start, score)
    }

    #[test]
    fn csv_reads_back() {
        let mut rows = vec![
            row(Start::Chess960(518), 30),
            row(Start::Dfrc(0, 959), -12),
            row(Start::Chess960(0), MATE - 3),
            row(Start::Chess960(1), -MATE + 4),
            row(Start::Chess960(2), 30),
        ];
        rank(&mut rows);
        assert_eq!(rows[0].score, MATE - 3);
        assert_eq!(rows[1].start, Start::Chess960(2), "ties by index");
        let text = csv(&rows, true);
        assert_eq!(read_csv(&text, "t").unwrap(), rows);
        let err = read_csv("rank,index\n", "f.csv").unwrap_err();
        assert!(err.starts_with("f.csv: not a rank960 CSV"), "{err}");
        let bad = text.replace(",30,", ",3x0,");
        assert!(read_csv(&bad, "f.csv")
            .unwrap_err()
            .contains("f.csv:3: bad score"));
    }

    #[test]
    fn mirrors_pair_up() {
        // RNBQKBNR mirrored is RNBKQBNR.
        let m = mirror_index(518).unwrap();
        assert_eq!(mirror_index(m), Some(518));
        assert_ne!(m, 518);
    }
}
