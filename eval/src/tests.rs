//! Symmetry and sanity tests over the perft suites' positions.

use crate::params::Params;
use crate::score::Score;
use crate::{evaluate, evaluate_cached, explain, Breakdown, PawnTable, Term, EVAL_LIMIT};
use castella_movegen::{Color, Position};

/// The FENs of every perft suite in tests/data (the part before the first
/// ';').
fn suite_fens() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("perft-") && name.ends_with(".epd")
        })
        .collect();
    files.sort();
    let mut fens = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for line in text.lines() {
            let fen = line.split(';').next().unwrap().trim();
            if !fen.is_empty() {
                fens.push(fen.to_string());
            }
        }
    }
    fens
}

/// Suite positions, every `stride`-th one, plus some positions one and two
/// plies later.
fn positions(stride: usize) -> Vec<Position> {
    let mut out = Vec::new();
    for (i, fen) in suite_fens().iter().enumerate() {
        if i % stride != 0 {
            continue;
        }
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        out.push(pos);
        for (j, &mv) in pos.legal_moves().iter().enumerate().step_by(5) {
            let next = pos.play(mv);
            out.push(next);
            if let Some(&reply) = next.legal_moves().get(j % 7) {
                out.push(next.play(reply));
            }
        }
    }
    out
}

/// Mirrors files (a <-> h); only for positions without castling rights.
fn flip_files(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    assert_eq!(fields[2], "-");
    let board: Vec<String> = fields[0]
        .split('/')
        .map(|rank| rank.chars().rev().collect())
        .collect();
    let ep = match fields[3] {
        "-" => "-".to_string(),
        s => {
            let f = s.as_bytes()[0];
            format!("{}{}", (b'a' + b'h' - f) as char, &s[1..])
        }
    };
    let mut out = vec![board.join("/"), fields[1].to_string(), "-".to_string(), ep];
    out.extend(fields[4..].iter().map(|s| s.to_string()));
    out.join(" ")
}

#[test]
fn colour_flip_is_exact() {
    let positions = positions(4);
    assert!(positions.len() > 1000, "only {} positions", positions.len());
    for pos in &positions {
        let flipped = pos.flipped();
        assert_eq!(
            evaluate(&flipped),
            evaluate(pos),
            "{} vs {}",
            pos.fen_shredder(),
            flipped.fen_shredder()
        );
    }
}

#[test]
fn file_flip_is_exact_without_castling() {
    let mut checked = 0;
    for pos in positions(2) {
        let fen = pos.fen_shredder();
        if pos.castling().is_empty() {
            let flipped = Position::from_fen(&flip_files(&fen)).unwrap();
            assert_eq!(evaluate(&flipped), evaluate(&pos), "{fen}");
            checked += 1;
        }
    }
    assert!(checked > 200, "only {checked} positions without castling");
}

#[test]
fn bounded_and_explained_everywhere() {
    let net = embedded_as(true);
    for pos in positions(1).iter().step_by(3) {
        let v = evaluate(pos);
        assert!(v.abs() < 5000, "{v} for {}", pos.fen());
        let text = explain(pos, &net);
        let white = if pos.side_to_move() == Color::White {
            v
        } else {
            -v
        };
        assert!(text.contains(&format!("Hand-written: {white:+} cp from White's view")));
        let v = crate::static_eval_with(&net, pos);
        assert!(text.contains(&format!("Final: {v:+} cp from the side to move")));
        let v = crate::static_eval(pos);
        let text = explain(pos, crate::network());
        assert!(text.contains(&format!("Final: {v:+} cp from the side to move")));
    }
}

#[test]
fn cached_evaluation_is_exact() {
    let mut table = PawnTable::new();
    let all = positions(1);
    // Forwards (filling the table), backwards (hits and replacements) and
    // forwards again.
    for pos in all.iter().chain(all.iter().rev()).chain(all.iter()) {
        assert_eq!(
            evaluate_cached(pos, &mut table),
            evaluate(pos),
            "{}",
            pos.fen()
        );
    }
    // Same pawns, the king elsewhere: the shelter must not come from the
    // entry of the first position.
    let a = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1").unwrap();
    let b = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/1K6 w - - 0 1").unwrap();
    assert_eq!(evaluate_cached(&a, &mut table), evaluate(&a));
    assert_eq!(evaluate_cached(&b, &mut table), evaluate(&b));
    assert_ne!(evaluate(&a), evaluate(&b));
}

#[test]
fn start_position_is_balanced() {
    let start = Position::startpos();
    assert!(evaluate(&start).abs() <= 50, "{}", evaluate(&start));
    for n in 0..960 {
        let pos = Position::chess960(n).unwrap();
        assert!(evaluate(&pos).abs() <= 50, "{n}: {}", evaluate(&pos));
    }
}

#[test]
fn queen_up_wins() {
    // White without the d1 queen; then Black without the d8 queen.
    let fens = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
            false,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1",
            true,
        ),
        (
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            true,
        ),
        (
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BB1NNRKR b HFhf - 0 1",
            true,
        ),
    ];
    for (fen, mover_has_queen) in fens {
        let v = evaluate(&Position::from_fen(fen).unwrap());
        if mover_has_queen {
            assert!(v > 700, "{fen}: {v}");
        } else {
            assert!(v < -700, "{fen}: {v}");
        }
    }
}

/// The embedded network's file with its correction flag set (`residual`:
/// a correction to the hand-written evaluation) or cleared (the whole
/// evaluation), so that both forms of the explanation are tested
/// whichever the shipped network is.
fn embedded_as(residual: bool) -> crate::nnue::Network {
    let mut file = crate::NETWORK_FILE.to_vec();
    let flag = crate::nnue::RESIDUAL as u8;
    if residual {
        file[8] |= flag;
    } else {
        file[8] &= !flag;
    }
    crate::nnue::Network::from_bytes(&file).unwrap()
}

/// A network that is the whole evaluation shows no hand-written terms.
#[test]
fn explain_shows_a_network_alone_without_the_terms() {
    let net = embedded_as(false);
    let pos = Position::startpos();
    let text = explain(&pos, &net);
    assert!(!text.contains("Hand-written") && !text.contains("Phase:"));
    assert!(text.contains("cp from White's view ((768 -> "));
    assert!(text.contains("the whole evaluation)"));
    let v = crate::static_eval_with(&net, &pos);
    assert_eq!(v, net.evaluate(&pos).clamp(-EVAL_LIMIT, EVAL_LIMIT));
    assert!(text.contains(&format!(
        "Final: {v:+} cp from the side to move's view (White)"
    )));
    assert!(text.contains("what each piece adds"));
}

#[test]
fn explain_lists_every_term() {
    let pos = Position::startpos();
    let net = embedded_as(true);
    let text = explain(&pos, &net);
    for term in Term::ALL {
        assert!(text.contains(term.name()), "{} missing", term.name());
    }
    assert!(text.contains("Phase: 24 of 24"));
    assert!(text.contains("from White's view"));
    assert!(text.ends_with('\n') && !text.ends_with("\n\n"));
    assert!(text.lines().all(|l| l == l.trim_end()));
    let v = crate::static_eval_with(&net, &pos);
    assert!(text.contains(&format!(
        "Final: {v:+} cp from the side to move's view (White)"
    )));
}

#[test]
fn drawish_endings_are_scaled() {
    let eval = |fen: &str| evaluate(&Position::from_fen(fen).unwrap());
    // A lone bishop cannot win.
    assert!(eval("8/8/4k3/8/8/3BK3/8/8 w - - 0 1").abs() < 50);
    // Opposite-coloured bishops (d3 light, e5 dark) with an extra pawn are
    // scaled down; same-coloured ones (d5 light) are not.
    let ocb = "8/4k3/8/4b3/8/2PBK3/1P6/8 w - - 0 1";
    let same = "8/4k3/8/3b4/8/2PBK3/1P6/8 w - - 0 1";
    let scale =
        |fen: &str| Breakdown::uncached(&Position::from_fen(fen).unwrap(), &Params::DEFAULT).scale;
    assert_eq!(scale(ocb), 32);
    assert_eq!(scale(same), 64);
    assert!(eval(ocb) > 0);
}

/// One side's value of one term.
fn term(fen: &str, term: Term, color: Color) -> Score {
    term_with(fen, term, color, &Params::DEFAULT)
}

/// [`term`] under other weights.
fn term_with(fen: &str, term: Term, color: Color, params: &Params) -> Score {
    let b = Breakdown::uncached(&Position::from_fen(fen).unwrap(), params);
    b.terms[term as usize][color.index()]
}

#[test]
fn terms_react_sensibly() {
    let p = Params::DEFAULT;
    let eval = |fen: &str| evaluate(&Position::from_fen(fen).unwrap());
    // A far-advanced passed pawn beats one at home.
    assert!(eval("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1"));
    // A bishop shut in a1 behind a blocked b2 pawn.
    assert_eq!(
        term(
            "4k3/pp6/8/8/8/1p6/1P6/B3K3 w - - 0 1",
            Term::Chess960,
            Color::White
        ),
        p.cornered_bishop * 4 + p.undeveloped_minor
    );
    // An attacked, undefended pawn (c3, hit by the b4 bishop), then the
    // same pawn defended by b2.
    assert_eq!(
        term(
            "4k3/8/8/8/1b6/2P5/8/4K3 w - - 0 1",
            Term::Chess960,
            Color::White
        ),
        p.hanging_pawn
    );
    assert_eq!(
        term(
            "4k3/8/8/8/1b6/2P5/1P6/4K3 w - - 0 1",
            Term::Chess960,
            Color::White
        ),
        Score::ZERO
    );
    // A bishop on a long diagonal seeing the centre (b2 sees d4 and e5).
    assert_eq!(
        term(
            "4k3/8/8/8/8/8/1B6/4K3 w - - 0 1",
            Term::Chess960,
            Color::White
        ),
        p.long_diagonal_bishop
    );
    // Doubled and isolated pawns on the c-file (the rear one is doubled,
    // both are isolated).
    assert_eq!(
        term(
            "4k3/8/8/8/2P5/2P5/8/4K3 w - - 0 1",
            Term::Pawns,
            Color::White
        ),
        p.doubled + p.isolated * 2
    );
    // A queen next to the king with support is a king-safety problem.
    let attacked = term(
        "6k1/5ppp/8/6N1/8/8/5PPP/3Q2K1 w - - 0 1",
        Term::King,
        Color::Black,
    );
    let quiet = term(
        "6k1/5ppp/8/8/8/8/5PPP/3Q1NK1 w - - 0 1",
        Term::King,
        Color::Black,
    );
    assert!(attacked.mg() <= quiet.mg(), "{attacked:?} {quiet:?}");
}

/// White's threats term with every threat weight zero but those `set`
/// gives a value, so each test counts exactly one pattern.
fn threats_only(fen: &str, set: impl Fn(&mut Params)) -> Score {
    let mut p = Params::DEFAULT;
    p.threat_by_pawn = [Score::ZERO; 6];
    p.threat_by_minor = [Score::ZERO; 6];
    p.threat_by_rook = Score::ZERO;
    p.hanging = Score::ZERO;
    p.threat_by_king = Score::ZERO;
    p.restricted = Score::ZERO;
    p.pawn_push_threat = Score::ZERO;
    p.knight_on_queen = Score::ZERO;
    p.slider_on_queen = Score::ZERO;
    set(&mut p);
    term_with(fen, Term::Threats, Color::White, &p)
}

#[test]
fn threats_count_weak_and_hanging_pieces() {
    let one = Score::new(1, 0);
    let hanging = |fen: &str| threats_only(fen, |p| p.hanging = one);
    // The d5 knight, hit by the d1 rook: alone, hanging; defended by a
    // pawn, strongly protected; defended once by its king against our one
    // attacker, weak but not hanging.
    assert_eq!(hanging("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1"), one);
    assert_eq!(hanging("4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1"), Score::ZERO);
    assert_eq!(hanging("8/8/4k3/3n4/8/8/8/3RK3 w - - 0 1"), Score::ZERO);
    // Two attackers against the king's one defence: hanging again.
    assert_eq!(hanging("8/8/4k3/3n4/8/8/B7/3RK3 w - - 0 1"), one);
    // Our king attacks the undefended d2 knight.
    let by_king = |fen: &str| threats_only(fen, |p| p.threat_by_king = one);
    assert_eq!(by_king("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1"), one);
    assert_eq!(by_king("4k3/8/8/8/8/2p5/3n4/4K3 w - - 0 1"), Score::ZERO);
    // d3-d4 would attack the c5 knight, unless the e5 pawn guards d4.
    let push = |fen: &str| threats_only(fen, |p| p.pawn_push_threat = one);
    assert_eq!(push("4k3/8/8/2n5/8/3P4/8/4K3 w - - 0 1"), one);
    assert_eq!(push("4k3/8/8/2n1p3/8/3P4/8/4K3 w - - 0 1"), Score::ZERO);
    // Nb1-c3 would hit the d5 queen; a pawn on b4 guards c3.
    let knight = |fen: &str| threats_only(fen, |p| p.knight_on_queen = one);
    assert_eq!(knight("4k3/8/8/3q4/8/8/8/1N2K3 w - - 0 1"), one);
    assert_eq!(knight("4k3/8/8/3q4/1p6/8/8/1N2K3 w - - 0 1"), Score::ZERO);
    // Both rooks reach d4, which attacks the queen along the d-file; a5 and
    // h5 are reached by one rook only.
    let slider = |fen: &str| threats_only(fen, |p| p.slider_on_queen = one);
    assert_eq!(slider("4k3/8/8/3q4/R6R/8/8/4K3 w - - 0 1"), one);
    assert_eq!(slider("4k3/8/8/3q4/R7/8/8/4K3 w - - 0 1"), Score::ZERO);
}

#[test]
fn passed_pawn_safe_path_counts_exactly() {
    let one = Score::new(1, 0);
    let mut p = Params::DEFAULT;
    p.passed = [Score::ZERO; 8];
    p.passed_free = [Score::ZERO; 8];
    p.passed_supported = Score::ZERO;
    p.passed_own_king = Score::ZERO;
    p.passed_enemy_king = Score::ZERO;
    p.passed_safe_path = [Score::ZERO; 8];
    p.passed_safe_path[5] = one;
    let passed = |fen: &str| term_with(fen, Term::Passed, Color::White, &p);
    assert_eq!(passed("k7/8/4P3/8/8/8/8/4K3 w - - 0 1"), one);
    // The h7 rook watches e7; the e8 king blocks the path.
    assert_eq!(passed("k7/7r/4P3/8/8/8/8/4K3 w - - 0 1"), Score::ZERO);
    assert_eq!(passed("4k3/8/4P3/8/8/8/8/K7 w - - 0 1"), Score::ZERO);
}

#[test]
fn piece_placement_terms_count_exactly() {
    let one = Score::new(1, 0);
    let pieces = |fen: &str, set: &dyn Fn(&mut Params)| {
        let mut p = Params::DEFAULT;
        p.bishop_pair = Score::ZERO;
        p.rook_open_file = Score::ZERO;
        p.rook_half_open_file = Score::ZERO;
        p.rook_on_seventh = Score::ZERO;
        p.knight_outpost = Score::ZERO;
        p.bishop_outpost = Score::ZERO;
        p.bishop_pawns = Score::ZERO;
        p.minor_behind_pawn = Score::ZERO;
        p.king_protector = Score::ZERO;
        p.trapped_rook = Score::ZERO;
        set(&mut p);
        term_with(fen, Term::Pieces, Color::White, &p)
    };
    // The d3 knight behind the d4 pawn; the bishop on e3 is not.
    let fen = "4k3/8/8/8/3P4/3NB3/8/4K3 w - - 0 1";
    assert_eq!(pieces(fen, &|p| p.minor_behind_pawn = one), one);
    // Knight d3 and bishop e3 are 2 squares from the e1 king.
    assert_eq!(pieces(fen, &|p| p.king_protector = one), one * 4);
    // The e3 bishop (dark squares) shares its colour with the d4 pawn.
    assert_eq!(pieces(fen, &|p| p.bishop_pawns = one), one);
    // The h1 rook shut in by the g1 king: twice without castling rights,
    // once while it can still castle; the a1 rook beside an e1 king is not.
    let trapped = |fen: &str| pieces(fen, &|p| p.trapped_rook = one);
    assert_eq!(trapped("4k3/8/8/8/8/8/5PPP/6KR w - - 0 1"), one * 2);
    assert_eq!(trapped("4k3/8/8/8/8/8/5PPP/4K2R w K - 0 1"), one);
    assert_eq!(trapped("4k3/8/8/8/8/8/PPP5/R3K3 w Q - 0 1"), Score::ZERO);
    // The king's distance to its nearest pawn, in the king term.
    let mut p = Params::DEFAULT;
    p.king_pawn_distance = Score::new(0, 1);
    let king = |fen: &str| term_with(fen, Term::King, Color::White, &p);
    // b3 is 3 squares from e1, b6 is 5 (both off the shield files).
    let near = king("4k3/8/8/8/8/1P6/8/4K3 w - - 0 1");
    let far = king("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(far.eg() - near.eg(), 2);
}
