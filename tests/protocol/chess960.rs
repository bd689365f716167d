//! Chess960 over UCI: castling in both notations, start positions, and
//! legal moves from random Chess960 positions.

use crate::checks::{check_search_output, fen, play};
use crate::driver::{Engine, STARTPOS_FEN};
use crate::rng::Rng;
use castella_movegen::Position;

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
