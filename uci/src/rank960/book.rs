//! An EPD opening book of the most balanced positions of a ranking, as
//! fastchess and cutechess load it (`-openings file=B.epd format=epd`).

use super::table::{most_balanced, Row};
use castella_engine::value::MATE_BOUND;
use castella_movegen::Color;

/// The rows a book keeps: those within `max_abs` centipawns of equality
/// (mates never), at most `count` of them, most balanced first.
pub fn choose(rows: &[Row], max_abs: Option<i32>, count: Option<usize>) -> Vec<&Row> {
    let mut chosen: Vec<&Row> = most_balanced(rows)
        .into_iter()
        .filter(|r| r.score.abs() < MATE_BOUND)
        .filter(|r| max_abs.is_none_or(|m| r.score.abs() <= m))
        .collect();
    if let Some(n) = count {
        chosen.truncate(n);
    }
    chosen
}

/// One EPD line per row: the FEN's first four fields, then `ce` (the score
/// from the side to move's view, as EPD has it) and `id` (the start's
/// name).
pub fn epd(rows: &[&Row]) -> String {
    let mut s = String::new();
    for r in rows {
        let fen = r.pos.fen();
        let fields: Vec<&str> = fen.split_whitespace().take(4).collect();
        let ce = if r.pos.side_to_move() == Color::White {
            r.score
        } else {
            -r.score
        };
        s.push_str(&format!(
            "{} ce {ce}; id \"castella rank960 {}\";\n",
            fields.join(" "),
            r.start
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank960::start::Start;
    use crate::rank960::table::test_row;

    fn row(n: u16, score: i32) -> Row {
        test_row(Start::Chess960(n), score)
    }

    #[test]
    fn books_keep_the_balanced_positions() {
        let rows = vec![row(0, 40), row(1, -5), row(2, 12), row(3, MATE_BOUND + 1)];
        let names = |v: Vec<&Row>| v.iter().map(|r| r.start.to_string()).collect::<Vec<_>>();
        assert_eq!(names(choose(&rows, None, None)), ["1", "2", "0"]);
        assert_eq!(names(choose(&rows, Some(12), None)), ["1", "2"]);
        assert_eq!(names(choose(&rows, Some(100), Some(1))), ["1"]);
        assert_eq!(
            epd(&choose(&rows, Some(5), None)),
            "bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/BQNBNRKR w KQkq - ce -5; id \"castella rank960 1\";\n"
        );
    }
}
