//! The `bench` command: a fixed set of positions searched to a fixed depth
//! with one thread and a 16 MB table, each after a fresh `ucinewgame`. The
//! node count is deterministic, the engine's signature for a given search;
//! commits that change search behaviour quote it (`Bench: N`).

use crate::{Engine, Limits, Options};
use castella_movegen::Position;
use std::time::Instant;

/// Default bench depth: a few seconds (2.7 s on a 2-core development
/// machine), long enough for OpenBench to take its speed from it.
pub const DEFAULT_DEPTH: u32 = 13;

/// Totals of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub nodes: u64,
    pub nps: u64,
}

/// Runs the bench, writing one line per position through `out`, and returns
/// the totals (the caller prints the final `<nodes> nodes <nps> nps`).
pub fn run(depth: u32, out: &mut dyn FnMut(&str)) -> BenchResult {
    let options = Options::fixed(16, 1);
    let mut engine = Engine::silent(options).expect("16 MB fits");
    let start = Instant::now();
    let mut total = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("bench positions are valid");
        engine.clear();
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let (result, nodes) = engine.search_sync(&pos, &[], &limits);
        total += nodes;
        out(&format!(
            "position {:>2}/{}: {:>10} nodes  bestmove {}  {}",
            i + 1,
            POSITIONS.len(),
            nodes,
            pos.move_to_uci(result.best, true),
            fen
        ));
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    BenchResult {
        nodes: total,
        nps: total * 1000 / ms,
    }
}

/// The bench positions: standard chess, Chess960 starts, Chess960 middlegames
/// with castling and en-passant subtleties, and endgames.
pub const POSITIONS: [&str; 45] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w HAha - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w ha - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b HA - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w HA - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "1nbq2nr/rp4bp/5p1p/p1p5/1kPpQ3/5P1P/P2KP1PR/RN3BN1 b - c3 0 18",
    "r1bq1bnr/1p1kp1pp/p7/nPpp1p2/2P4P/P2PPQ2/3BNPP1/RN2KB1R w HA c6 0 11",
    "rnbqkbr1/pp6/3p4/2p1pPpp/2P1Pn2/2N2Q2/PP1P1N1P/R1B1KB1R w HAa g6 0 12",
    "rn1Bk2r/2p2p1p/p3p1p1/1p5N/7P/NP6/P1P1pPbR/R1Q1KB2 b Aha - 1 16",
    "5bn1/8/1P2b2p/K5p1/4k3/p5P1/3P4/1rB1R3 b - - 2 57",
    "2r2rk1/6N1/1pn5/p2P4/4p3/q1Q4P/P7/R3K2R w HA - 0 33",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "qnrnbbkr/pppppppp/8/8/8/8/PPPPPPPP/QNRNBBKR w HChc - 0 1",
    "nbbqrknr/pppppppp/8/8/8/8/PPPPPPPP/NBBQRKNR w HEhe - 0 1",
    "nrqbkrbn/pppppppp/8/8/8/8/PPPPPPPP/NRQBKRBN w FBfb - 0 1",
    "brnnkqrb/pppppppp/8/8/8/8/PPPPPPPP/BRNNKQRB w GBgb - 0 1",
    "rbqnkrbn/pppppppp/8/8/8/8/PPPPPPPP/RBQNKRBN w FAfa - 0 1",
    "qrkbbnrn/pppppppp/8/8/8/8/PPPPPPPP/QRKBBNRN w GBgb - 0 1",
    "rbqkbrnn/pppppppp/8/8/8/8/PPPPPPPP/RBQKBRNN w FAfa - 0 1",
    "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1",
    "1kr2bb1/2p1p3/3n4/1r1pP2p/3P4/p2N3p/1Q5P/1KR4R b Cc - 25 43",
    "1k1rn1br/6b1/1p5p/5P2/B2pp1p1/2Pp1Q1P/1P4N1/RK5R w HAh - 1 45",
    "brknrq2/1pp2p2/5b1p/p2ppNp1/5n1P/P1PP2P1/1P2PN2/BRK1R1QB w EBeb - 0 11",
    "b1rk1r1b/1pp2p1p/2n1p1q1/3p2pn/1PP2PPP/3PQ3/P3P1N1/BNKR1R1B b fc - 0 11",
    "brq1nkrb/1ppp1p2/2n4p/p3p1p1/1N1PP2P/8/PPP2PP1/BRQN1KRB w GBgb - 0 6",
    "Qrk5/5p1p/1pBpp3/1P2n3/p1P2P2/P5p1/3K4/4R3 b b - 4 40",
    "nbrnk2r/4pp1b/2Pp3q/pP5p/2p2pPP/4P2Q/P4P2/N1RNK1BR w HChc - 0 13",
    "1r1kb2r/n3N3/p4p2/Pp2P2p/Q1P2p2/1p1KN3/5BqP/2R5 b b - 2 40",
    "k7/8/3p2rn/5r1Q/Pp5P/1b6/5N2/RK2RN2 w EA - 5 60",
    "1rk1r3/2p2b2/p3p2p/2b1q1p1/1PP1P1P1/4RP2/Q4N1P/1RK5 b Beb - 3 33",
    "1rBk1b2/2p4p/3ppnP1/P2b2Pn/Pp1B3P/3Qp3/2PP4/1R1KN1NR b Hb - 1 23",
    "nrbk1r2/4n1b1/pP2pQ2/6p1/3P1pPP/1PP1P3/1B6/Nq1K1R2 w Ffb - 0 24",
    "1kr1q1bn/3p1p1p/p1Q2b2/1pp1p1pP/3P2Pn/2P1P3/PPB2P2/BRN1K1RN w GB g6 0 14",
    "1r5r/1b3kq1/4nppb/P4p1p/Rpn4P/1B3P1Q/2P3P1/3K3R w H - 2 26",
    "qr1kb1r1/p2ppN1n/1p3P2/1n1p3p/1P1b4/2BP2PP/P1P1P3/RK1B1R1N b FAgb - 0 14",
    "b3k2r/8/1n2p1p1/1p1pP1R1/pn1r4/PB6/1P2Qb2/B3RK2 w h - 0 31",
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "8/5k2/8/8/8/8/1R6/4K3 w - - 0 1",
    "8/8/3k4/8/8/2B5/2N5/4K3 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/2p5/8/1P6/8/6k1/8/5K2 w - - 0 1",
    "4r1k1/5ppp/8/8/8/8/5PPP/2Q3K1 b - - 0 1",
    "8/8/1p1k4/1P6/2PK4/8/8/8 w - - 0 1",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_count_is_deterministic() {
        let a = run(5, &mut |_| {});
        let b = run(5, &mut |_| {});
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 10_000);
    }

    #[test]
    fn positions_are_valid() {
        for fen in POSITIONS {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
    }
}
