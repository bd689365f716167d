//! Search output as UCI text. Moves are written against the position they
//! are played in (castling text depends on it), and checked on the way: a
//! PV is cut at its first illegal move, and an illegal best move is never
//! printed.

use castella_engine::{Bound, Info, Score};
use castella_movegen::{Move, Position};
use std::fmt::Write;
use std::sync::atomic::AtomicBool;

/// The legal prefix of `pv` from `root`, as UCI text.
pub fn pv_text(root: &Position, pv: &[Move], chess960: bool) -> Vec<String> {
    let mut pos = *root;
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !pos.is_legal(mv) {
            break;
        }
        out.push(pos.move_to_uci(mv, chess960));
        pos = pos.play(mv);
    }
    out
}

/// One `info depth ...` line.
pub fn info_line(info: &Info, root: &Position, chess960: bool, show_wdl: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score ",
        info.depth, info.seldepth, info.multipv
    );
    let _ = match info.score {
        Score::Cp(cp) => write!(s, "cp {cp}"),
        Score::Mate(n) => write!(s, "mate {n}"),
    };
    match info.bound {
        Bound::Exact => {}
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
    }
    if show_wdl {
        let (w, d, l) = info.wdl;
        let _ = write!(s, " wdl {w} {d} {l}");
    }
    let _ = write!(s, " nodes {} nps {}", info.nodes, info.nps);
    if info.tbhits > 0 {
        let _ = write!(s, " tbhits {}", info.tbhits);
    }
    let _ = write!(s, " hashfull {} time {}", info.hashfull, info.time_ms);
    let pv = pv_text(root, &info.pv, chess960);
    if !pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv.join(" "));
    }
    s
}

/// The `bestmove` line for the engine's choice, and warnings for anything
/// that had to be corrected. `searchmoves` (legal root moves; empty for all)
/// restricts what may be played. With no legal move the line is
/// `bestmove 0000`; an illegal or excluded best move is replaced by the
/// first allowed move, and then no ponder move is given.
pub fn bestmove_line(
    root: &Position,
    best: Move,
    ponder: Option<Move>,
    searchmoves: &[Move],
    chess960: bool,
) -> (String, Vec<String>) {
    let mut warnings = Vec::new();
    let legal = root.legal_moves();
    let mut allowed: Vec<Move> = searchmoves
        .iter()
        .copied()
        .filter(|m| legal.contains(m))
        .collect();
    if allowed.is_empty() {
        allowed = legal.to_vec();
    }
    let Some(&fallback) = allowed.first() else {
        if !best.is_null() {
            warnings.push(format!(
                "engine returned {best:?} in a position with no legal move"
            ));
        }
        return ("bestmove 0000".to_string(), warnings);
    };
    let (best, ponder) = if allowed.contains(&best) {
        (best, ponder)
    } else {
        let why = if legal.contains(&best) {
            "is not among the searchmoves"
        } else {
            "is not legal"
        };
        warnings.push(format!(
            "engine's best move {best:?} {why}; playing {} instead",
            root.move_to_uci(fallback, chess960)
        ));
        (fallback, None)
    };
    let mut line = format!("bestmove {}", root.move_to_uci(best, chess960));
    let after = root.play(best);
    if let Some(p) = ponder.filter(|p| after.is_legal(*p)) {
        let _ = write!(line, " ponder {}", after.move_to_uci(p, chess960));
    }
    (line, warnings)
}

/// `go perft N` output, Stockfish's format: one `move: count` line per root
/// move, a blank line, `Nodes searched: N`; `None` if `stop` was set
/// before it was done.
pub fn perft_text(pos: &Position, depth: u32, chess960: bool, stop: &AtomicBool) -> Option<String> {
    let mut s = String::new();
    let mut total = 0;
    if depth > 0 {
        for &mv in pos.legal_moves().iter() {
            let n = castella_movegen::perft_until(&pos.play(mv), depth - 1, stop)?;
            let _ = writeln!(s, "{}: {n}", pos.move_to_uci(mv, chess960));
            total += n;
        }
    } else {
        total = 1;
    }
    let _ = writeln!(s, "\nNodes searched: {total}");
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    static GO: AtomicBool = AtomicBool::new(false);

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn mv(p: &Position, text: &str) -> Move {
        p.parse_uci_move(text).unwrap()
    }

    fn info(pv: Vec<Move>) -> Info {
        Info {
            depth: 5,
            seldepth: 7,
            multipv: 1,
            score: Score::Cp(31),
            bound: Bound::Exact,
            wdl: (400, 500, 100),
            nodes: 1234,
            nps: 100000,
            hashfull: 3,
            tbhits: 0,
            time_ms: 12,
            pv,
        }
    }

    #[test]
    fn info_fields_and_castling_in_the_pv() {
        let root = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let a = mv(&root, "e1g1");
        let b = mv(&root.play(a), "e8c8");
        let i = info(vec![a, b]);
        assert_eq!(
            info_line(&i, &root, false, false),
            "info depth 5 seldepth 7 multipv 1 score cp 31 nodes 1234 nps 100000 hashfull 3 time 12 pv e1g1 e8c8"
        );
        assert_eq!(
            info_line(&i, &root, true, true),
            "info depth 5 seldepth 7 multipv 1 score cp 31 wdl 400 500 100 nodes 1234 nps 100000 hashfull 3 time 12 pv e1h1 e8a8"
        );
        let mut i = info(vec![]);
        i.score = Score::Mate(-3);
        i.bound = Bound::Lower;
        assert_eq!(
            info_line(&i, &root, false, false),
            "info depth 5 seldepth 7 multipv 1 score mate -3 lowerbound nodes 1234 nps 100000 hashfull 3 time 12"
        );
        i.bound = Bound::Upper;
        assert!(info_line(&i, &root, false, false).contains("score mate -3 upperbound nodes"));
        i.tbhits = 17;
        assert!(info_line(&i, &root, false, false).contains(" nps 100000 tbhits 17 hashfull 3 "));
    }

    #[test]
    fn pv_is_cut_at_the_first_illegal_move() {
        let root = Position::startpos();
        let e4 = mv(&root, "e2e4");
        let e5 = mv(&root.play(e4), "e7e5");
        // e2e4 again is illegal after 1. e4 e5.
        assert_eq!(pv_text(&root, &[e4, e5, e4, e5], false), ["e2e4", "e7e5"]);
        assert!(pv_text(&root, &[Move::NULL, e4], false).is_empty());
        assert!(pv_text(&root, &[e5], false).is_empty());
    }

    #[test]
    fn bestmove_checks_legality() {
        let root = Position::startpos();
        let e4 = mv(&root, "e2e4");
        let e5 = mv(&root.play(e4), "e7e5");
        assert_eq!(
            bestmove_line(&root, e4, Some(e5), &[], false),
            ("bestmove e2e4 ponder e7e5".to_string(), vec![])
        );
        // An illegal ponder move is dropped silently.
        assert_eq!(
            bestmove_line(&root, e4, Some(e4), &[], false).0,
            "bestmove e2e4"
        );
        // An illegal best move is replaced.
        let (line, warnings) = bestmove_line(&root, e5, Some(e4), &[], false);
        let first = root.move_to_uci(root.legal_moves()[0], false);
        assert_eq!(line, format!("bestmove {first}"));
        assert_eq!(warnings.len(), 1);
        let (line, warnings) = bestmove_line(&root, Move::NULL, None, &[], false);
        assert_eq!(line, format!("bestmove {first}"));
        assert_eq!(warnings.len(), 1);
        // searchmoves are enforced.
        let d4 = mv(&root, "d2d4");
        let (line, warnings) = bestmove_line(&root, e4, None, &[d4], false);
        assert_eq!((line.as_str(), warnings.len()), ("bestmove d2d4", 1));
    }

    #[test]
    fn bestmove_without_legal_moves() {
        let mated = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert_eq!(
            bestmove_line(&mated, Move::NULL, None, &[], false),
            ("bestmove 0000".to_string(), vec![])
        );
        let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(
            bestmove_line(&stalemate, Move::NULL, None, &[], true).0,
            "bestmove 0000"
        );
    }

    #[test]
    fn bestmove_castling_follows_the_mode() {
        let root = pos("rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1");
        let castle = mv(&root, "b1e1");
        assert_eq!(castle, mv(&root, "b1g1"));
        let reply = mv(&root.play(castle), "b8g8");
        assert_eq!(
            bestmove_line(&root, castle, Some(reply), &[], true).0,
            "bestmove b1e1 ponder b8e8"
        );
        assert_eq!(
            bestmove_line(&root, castle, Some(reply), &[], false).0,
            "bestmove b1g1 ponder b8g8"
        );
    }

    #[test]
    fn perft_output() {
        let text = perft_text(&Position::startpos(), 2, false, &GO).unwrap();
        assert!(text.starts_with("a2a3: 20\n") || text.contains("e2e4: 20\n"));
        assert!(text.ends_with("\n\nNodes searched: 400\n"), "{text}");
        assert_eq!(text.lines().count(), 22);
        let castles = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert!(perft_text(&castles, 1, false, &GO)
            .unwrap()
            .contains("e1g1: 1\n"));
        assert!(perft_text(&castles, 1, true, &GO)
            .unwrap()
            .contains("e1h1: 1\n"));
        assert_eq!(
            perft_text(&castles, 0, false, &GO).unwrap(),
            "\nNodes searched: 1\n"
        );
        let stopped = AtomicBool::new(true);
        assert_eq!(perft_text(&Position::startpos(), 9, false, &stopped), None);
    }
}
