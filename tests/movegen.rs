//! Move generator properties: Zobrist keys, FEN round trips, Scharnagl
//! numbering, legality against an independent brute-force generator, and
//! rejection of bad FENs.

use castella_movegen::{
    CastleSide, Color, FenError, GenType, Move, MoveList, Piece, Position, Square,
};
use castella_tests::{all_suites, load_epd};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

fn walk_keys(pos: &Position, depth: u32, nodes: &mut u64) {
    assert_eq!(pos.key(), pos.compute_key(), "key drifted at {}", pos.fen());
    *nodes += 1;
    if depth == 0 {
        return;
    }
    for &m in pos.legal_moves().iter() {
        walk_keys(&pos.play(m), depth - 1, nodes);
    }
}

#[test]
fn incremental_key_equals_scratch_key_to_depth_4() {
    let mut lines = load_epd("perft-standard.epd");
    lines.extend(load_epd("perft-960-tricky.epd"));
    // Every 960 start to depth 3 and one in eight to depth 4.
    let starts = load_epd("perft-960-start.epd");
    let nodes: u64 = std::thread::scope(|s| {
        let a = s.spawn(|| {
            let mut n = 0;
            for l in &lines {
                walk_keys(&Position::from_fen(&l.fen).unwrap(), 4, &mut n);
            }
            n
        });
        let b = s.spawn(|| {
            let mut n = 0;
            for (i, l) in starts.iter().enumerate() {
                let depth = if i % 8 == 0 { 4 } else { 3 };
                walk_keys(&Position::from_fen(&l.fen).unwrap(), depth, &mut n);
            }
            n
        });
        a.join().unwrap() + b.join().unwrap()
    });
    assert!(nodes > 10_000_000, "walked only {nodes} nodes");
}

#[test]
fn fen_round_trips_in_both_notations() {
    for l in all_suites() {
        let pos = Position::from_fen(&l.fen).unwrap();
        // The suites are written in Shredder-FEN with the X-FEN ep rule.
        assert_eq!(pos.fen_shredder(), l.fen, "line {}", l.line);
        let mut positions = vec![pos];
        positions.extend(pos.legal_moves().iter().map(|&m| pos.play(m)));
        for p in positions {
            for text in [p.fen(), p.fen_shredder()] {
                let back = Position::from_fen(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(back, p, "{text}");
                assert_eq!(back.key(), p.key(), "{text}");
            }
        }
    }
}

#[test]
fn x_fen_uses_file_letters_only_when_needed() {
    let std = Position::startpos();
    assert_eq!(
        std.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    // White castles with c1 while h1 is also a rook: K would mean h1.
    let p =
        Position::from_fen("1kr2bb1/2p1p3/3n4/1r1pP2p/3P4/p2N3p/1Q5P/1KR4R b Cc - 25 43").unwrap();
    assert_eq!(
        p.fen(),
        "1kr2bb1/2p1p3/3n4/1r1pP2p/3P4/p2N3p/1Q5P/1KR4R b Ck - 25 43"
    );
    assert_eq!(Position::from_fen(&p.fen()).unwrap(), p);
    // KQkq on a 960 position means the outermost rooks.
    let q = Position::from_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1").unwrap();
    assert_eq!(
        q.fen_shredder(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    );
}

#[test]
fn scharnagl_numbering() {
    let starts = load_epd("perft-960-start.epd");
    let mut seen = BTreeSet::new();
    for n in 0..960u16 {
        let pos = Position::chess960(n).unwrap();
        assert!(seen.insert(pos.fen()), "{n} repeats a position");
        assert_eq!(pos.scharnagl_index(), Some(n));
        let line = starts.iter().find(|l| l.id == Some(n)).unwrap();
        assert_eq!(pos.fen_shredder(), line.fen, "index {n}");
        // Valid: bishops on opposite colours, king between the rooks.
        let rank1 = |p: Piece| pos.colored(Color::White, p) & castella_movegen::Bitboard(0xff);
        let b: Vec<Square> = rank1(Piece::Bishop).collect();
        assert_ne!((b[0].index() + b[1].index()) % 2, 0);
        let r: Vec<Square> = rank1(Piece::Rook).collect();
        let k = pos.king(Color::White);
        assert!(r[0] < k && k < r[1]);
    }
    assert!(Position::chess960(960).is_none());
    assert_eq!(Position::chess960(518).unwrap(), Position::startpos());
    assert_eq!(Position::startpos().scharnagl_index(), Some(518));
    let moved = Position::startpos().play(Position::startpos().parse_uci_move("e2e4").unwrap());
    assert_eq!(moved.scharnagl_index(), None);
}

#[test]
fn double_chess960_positions() {
    let p = Position::double_chess960(0, 959).unwrap();
    assert_eq!(
        p.fen_shredder(),
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1"
    );
    assert_eq!(p.legal_moves().len(), p.count_legal() as usize);
    assert_eq!(p.scharnagl_index(), None);
}

// ---- An independent, slow, brute-force generator ---------------------------

type Board = [Option<(Color, Piece)>; 64];

fn board_of(pos: &Position) -> Board {
    let mut b = [None; 64];
    for sq in Square::all() {
        b[sq.index()] = pos.piece_on(sq).map(|p| (pos.color_on(sq).unwrap(), p));
    }
    b
}

// The steps are spelled out here rather than taken from movegen's tables,
// so that a wrong table cannot agree with itself.
const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as usize)
}

/// Whether `by` attacks `sq` on `b`, walking rays square by square.
fn attacked(b: &Board, sq: usize, by: Color) -> bool {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let is = |s: Option<usize>, ps: &[Piece]| {
        s.and_then(|s| b[s])
            .is_some_and(|(c, p)| c == by && ps.contains(&p))
    };
    let steps_to = |steps: &[(i32, i32)], ps: &[Piece]| {
        steps
            .iter()
            .any(|(df, dr)| is(on_board(f + df, r + dr), ps))
    };
    let pawn_dr = if by == Color::White { -1 } else { 1 };
    if steps_to(&KNIGHT_STEPS, &[Piece::Knight])
        || steps_to(&ROOK_DIRS, &[Piece::King])
        || steps_to(&BISHOP_DIRS, &[Piece::King])
        || steps_to(&[(-1, pawn_dr), (1, pawn_dr)], &[Piece::Pawn])
    {
        return true;
    }
    let rays = [
        (&ROOK_DIRS, [Piece::Rook, Piece::Queen]),
        (&BISHOP_DIRS, [Piece::Bishop, Piece::Queen]),
    ];
    for (dirs, sliders) in rays {
        for (df, dr) in dirs {
            let (mut x, mut y) = (f + df, r + dr);
            while let Some(s) = on_board(x, y) {
                if b[s].is_some() {
                    if is(Some(s), &sliders) {
                        return true;
                    }
                    break;
                }
                x += df;
                y += dr;
            }
        }
    }
    false
}

/// A move as plain data: from, to (rook square for castling), promotion.
type Plain = (usize, usize, Option<Piece>, bool);

fn plain(m: Move) -> Plain {
    (
        m.from().index(),
        m.to().index(),
        m.promotion_piece(),
        m.is_castle(),
    )
}

/// Every legal move, by generating pseudo-legal moves square by square and
/// keeping those after which the mover's king is not attacked.
fn brute_force(pos: &Position) -> BTreeSet<Plain> {
    let b = board_of(pos);
    let us = pos.side_to_move();
    let them = us.flip();
    let mut pseudo: Vec<(Plain, Board)> = Vec::new();
    let mut add = |from: usize, to: usize, promo: Option<Piece>, after: Board| {
        pseudo.push(((from, to, promo, false), after));
    };
    for from in 0..64 {
        let Some((c, p)) = b[from] else { continue };
        if c != us {
            continue;
        }
        let (f, r) = ((from % 8) as i32, (from / 8) as i32);
        let step = |to: usize, b: &Board| {
            let mut after = *b;
            after[to] = after[from];
            after[from] = None;
            after
        };
        let dirs: Vec<(i32, i32)> = match p {
            Piece::Knight => KNIGHT_STEPS.to_vec(),
            Piece::Bishop => BISHOP_DIRS.to_vec(),
            Piece::Rook => ROOK_DIRS.to_vec(),
            Piece::Queen | Piece::King => [ROOK_DIRS, BISHOP_DIRS].concat(),
            Piece::Pawn => vec![],
        };
        let slides = matches!(p, Piece::Bishop | Piece::Rook | Piece::Queen);
        for (df, dr) in dirs {
            let (mut x, mut y) = (f + df, r + dr);
            while let Some(to) = on_board(x, y) {
                match b[to] {
                    Some((c2, _)) if c2 == us => break,
                    occupant => {
                        add(from, to, None, step(to, &b));
                        if occupant.is_some() || !slides {
                            break;
                        }
                    }
                }
                x += df;
                y += dr;
            }
        }
        if p == Piece::Pawn {
            let dr = if us == Color::White { 1 } else { -1 };
            let start_rank = if us == Color::White { 1 } else { 6 };
            let last_rank = if us == Color::White { 7 } else { 0 };
            let push =
                |to: usize,
                 after: Board,
                 add: &mut dyn FnMut(usize, usize, Option<Piece>, Board)| {
                    if (to / 8) as i32 == last_rank {
                        for promo in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
                            let mut a = after;
                            a[to] = Some((us, promo));
                            add(from, to, Some(promo), a);
                        }
                    } else {
                        add(from, to, None, after);
                    }
                };
            if let Some(to) = on_board(f, r + dr) {
                if b[to].is_none() {
                    push(to, step(to, &b), &mut add);
                    if r == start_rank {
                        if let Some(to2) = on_board(f, r + 2 * dr) {
                            if b[to2].is_none() {
                                push(to2, step(to2, &b), &mut add);
                            }
                        }
                    }
                }
            }
            for df in [-1, 1] {
                if let Some(to) = on_board(f + df, r + dr) {
                    if matches!(b[to], Some((c2, _)) if c2 == them) {
                        push(to, step(to, &b), &mut add);
                    } else if pos.ep_square().map(|e| e.index()) == Some(to) {
                        let mut after = step(to, &b);
                        after[(to as i32 - 8 * dr) as usize] = None;
                        add(from, to, None, after);
                    }
                }
            }
        }
    }
    let king_of = |b: &Board| (0..64).find(|&s| b[s] == Some((us, Piece::King))).unwrap();
    let mut legal: BTreeSet<Plain> = pseudo
        .into_iter()
        .filter(|(_, after)| !attacked(after, king_of(after), them))
        .map(|(m, _)| m)
        .collect();

    // Castling, from the rule as written: the squares between king and its
    // destination and rook and its destination (inclusive) empty but for
    // those two; king not in check; no square it crosses or lands on attacked
    // once the rook has left its square.
    let k = king_of(&b);
    for side in [CastleSide::A, CastleSide::H] {
        let Some(rook) = pos.castling().rook(us, side) else {
            continue;
        };
        let rook = rook.index();
        let (kto, rto) = side.destinations(us);
        let (kto, rto) = (kto.index(), rto.index());
        let span = |a: usize, z: usize| (a.min(z)..=a.max(z)).collect::<Vec<_>>();
        let clear = span(k, kto)
            .iter()
            .chain(span(rook, rto).iter())
            .all(|&s| s == k || s == rook || b[s].is_none());
        let mut without_rook = b;
        without_rook[rook] = None;
        let safe = span(k, kto)
            .iter()
            .all(|&s| !attacked(&without_rook, s, them));
        if clear && safe {
            legal.insert((k, rook, None, true));
        }
    }
    legal
}

/// A random Chess960 start, or with `dfrc` a random Double-FRC one.
fn random_start(rng: &mut StdRng, dfrc: bool) -> Position {
    if dfrc {
        Position::double_chess960(rng.gen_range(0..960), rng.gen_range(0..960)).unwrap()
    } else {
        Position::random_chess960(rng)
    }
}

#[test]
fn random_playouts_match_brute_force() {
    let mut rng = StdRng::seed_from_u64(960);
    let mut checked = 0;
    for game in 0..300 {
        let mut pos = random_start(&mut rng, game % 3 == 0);
        // Moves of the last positions, tried here as a hash-table collision
        // would offer them: `is_legal` must agree with the generator.
        let mut earlier: Vec<Move> = Vec::new();
        for _ in 0..300 {
            let all = pos.legal_moves();
            for &m in &earlier {
                assert_eq!(pos.is_legal(m), all.contains(&m), "{m:?} in {}", pos.fen());
            }
            earlier.drain(..earlier.len().saturating_sub(80));
            earlier.extend(all.iter().copied());
            let generated: BTreeSet<Plain> = all.iter().map(|&m| plain(m)).collect();
            assert_eq!(
                generated.len(),
                all.len(),
                "duplicate moves in {}",
                pos.fen()
            );
            assert_eq!(generated, brute_force(&pos), "in {}", pos.fen());
            assert_eq!(all.len() as u64, pos.count_legal());

            let (mut noisy, mut quiet) = (MoveList::new(), MoveList::new());
            pos.generate_moves(GenType::Noisy, &mut noisy);
            pos.generate_moves(GenType::Quiet, &mut quiet);
            let mut split: Vec<Plain> = noisy
                .iter()
                .chain(quiet.iter())
                .map(|&m| plain(m))
                .collect();
            split.sort();
            assert_eq!(
                split,
                generated.iter().copied().collect::<Vec<_>>(),
                "in {}",
                pos.fen()
            );
            let info = pos.check_info();
            for &m in all.iter() {
                let checks = pos.play(m).in_check();
                assert_eq!(pos.gives_check(m), checks, "{m:?} in {}", pos.fen());
                assert_eq!(
                    info.gives_check(&pos, m),
                    checks,
                    "{m:?} in {} (check info)",
                    pos.fen()
                );
            }
            assert!(noisy.iter().all(|&m| pos.is_noisy(m)));
            assert!(quiet.iter().all(|&m| !pos.is_noisy(m)));
            checked += 1;

            if all.is_empty() || pos.halfmove_clock() >= 100 {
                break;
            }
            // Favour castling so that the rights get exercised.
            let castles: Vec<Move> = all.iter().copied().filter(|m| m.is_castle()).collect();
            let mv = if !castles.is_empty() && rng.gen_bool(0.5) {
                castles[rng.gen_range(0..castles.len())]
            } else {
                all[rng.gen_range(0..all.len())]
            };
            assert!(pos.is_legal(mv));
            pos = pos.play(mv);
            assert_eq!(pos.key(), pos.compute_key());
        }
    }
    assert!(checked > 20_000, "only {checked} positions checked");
}

/// `is_legal` tests normal moves and promotions directly, not through the
/// generator: every 16-bit value whose origin holds a piece of the side to
/// move (the others are refused at once), in positions full of pins,
/// checks, promotions, en passant and castling rights, must be legal
/// exactly when the generator makes it.
#[test]
fn is_legal_agrees_with_the_generator_on_every_encoding() {
    let mut rng = StdRng::seed_from_u64(961);
    let mut positions = 0;
    for game in 0..40 {
        let mut pos = random_start(&mut rng, game % 2 == 0);
        for ply in 0..160 {
            let all = pos.legal_moves();
            if ply % 4 == 0 || pos.in_check() || pos.ep_square().is_some() {
                let legal: BTreeSet<u16> = all.iter().map(|m| m.bits()).collect();
                for from in pos.color(pos.side_to_move()) {
                    for rest in 0..(1u16 << 10) {
                        let bits = from.index() as u16 | rest << 6;
                        let m = Move::from_bits(bits);
                        assert_eq!(
                            pos.is_legal(m),
                            legal.contains(&bits),
                            "{m:?} (bits {bits:#06x}) in {}",
                            pos.fen()
                        );
                    }
                }
                positions += 1;
            }
            if all.is_empty() || pos.halfmove_clock() >= 100 {
                break;
            }
            pos = pos.play(all[rng.gen_range(0..all.len())]);
        }
    }
    assert!(positions > 1_000, "only {positions} positions checked");
}

/// Checks that only the board after the move shows: a rook check by
/// castling, a discovery by the castling rook, en passant uncovering a
/// bishop or a rook, an under-promotion check and a discovered check by a pawn push.
#[test]
fn gives_check_sees_rare_checks() {
    let cases: &[(&str, &str, bool)] = &[
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1h1", true),
        ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1a1", true),
        ("8/8/8/8/8/8/8/R3K2k w Q - 0 1", "e1a1", true),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1h1", false),
        ("8/1k6/8/3pP3/8/8/8/K6B w - d6 0 1", "e5d6", true),
        ("8/8/8/3pP3/8/8/8/k6K w - d6 0 1", "e5d6", false),
        ("8/8/8/2kpP2R/8/8/8/7K w - d6 0 1", "e5d6", true),
        ("2k5/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8n", false),
        ("2k5/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8r", true),
        ("8/4P3/5k2/8/8/8/8/K7 w - - 0 1", "e7e8n", true),
        ("8/2k5/8/4P3/8/8/7B/K7 w - - 0 1", "e5e6", true),
        // A promoted piece checks through the square its pawn left.
        ("8/4P3/8/8/8/8/8/K3k3 w - - 0 1", "e7e8q", true),
        ("8/4P3/8/8/8/8/8/K3k3 w - - 0 1", "e7e8n", false),
        // The king uncovers its own rook, or stays on the line.
        ("8/8/8/8/R2K3k/8/8/8 w - - 0 1", "d4d5", true),
        ("8/8/8/8/R2K3k/8/8/8 w - - 0 1", "d4e4", false),
    ];
    for &(fen, uci, want) in cases {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|&m| pos.move_to_uci(m, true) == uci)
            .unwrap_or_else(|| panic!("{uci} not legal in {fen}"));
        assert_eq!(pos.play(mv).in_check(), want, "{uci} in {fen}");
        assert_eq!(pos.gives_check(mv), want, "{uci} in {fen}");
        assert_eq!(
            pos.check_info().gives_check(&pos, mv),
            want,
            "{uci} in {fen} (check info)"
        );
    }
}

#[test]
fn bad_fens_are_rejected_with_a_reason() {
    let cases: &[(&str, &str)] = &[
        ("", "fields"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
            "fields",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            "fields",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "ranks",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "piece letter",
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "piece letter",
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "7 squares",
        ),
        (
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "9 squares",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            "not a square",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
            "3rd or 6th",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "not a number",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3",
            "not a number",
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            "Black has 0 kings",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",
            "White has 2 kings",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w kq - 0 1",
            "first or last rank",
        ),
        (
            "rnbqkbnp/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            "first or last rank",
        ),
        ("4k3/8/8/8/8/Q7/PPPPPPPP/QQQQKQQQ w - - 0 1", "more than 16"),
        ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", "not to move is in check"),
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"),
    ];
    for (fen, reason) in cases {
        match Position::from_fen(fen) {
            Ok(_) => panic!("accepted: {fen}"),
            Err(e) => assert!(
                e.to_string().contains(reason),
                "{fen}: '{e}' does not mention '{reason}'"
            ),
        }
    }
    assert!(matches!(
        Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
        Err(FenError::KingCount { .. })
    ));
}

#[test]
fn loose_fens_are_normalised() {
    // Missing clocks default to 0 1.
    let p = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
    assert_eq!(p, Position::startpos());
    // A right with no rook is dropped, with a warning.
    let (p, warnings) =
        Position::from_fen_with_warnings("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1").unwrap();
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(warnings.len(), 1);
    // An ep square nothing can capture on is cleared (standard FEN writes it
    // after every double push).
    let p =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    assert_eq!(p.ep_square(), None);
    assert_eq!(p.key(), p.compute_key());
    // An ep square a pawn can capture on is kept.
    let p =
        Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    assert_eq!(p.ep_square(), Some("e3".parse().unwrap()));
}

/// Mirrors a FEN top to bottom and swaps the colours, as text.
fn flip_fen_text(fen: &str) -> String {
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let f: Vec<&str> = fen.split_whitespace().collect();
    let board: Vec<String> = f[0].split('/').rev().map(swap).collect();
    let ep = match f[3].as_bytes() {
        [file, b'3'] => format!("{}6", *file as char),
        [file, b'6'] => format!("{}3", *file as char),
        _ => "-".into(),
    };
    let side = if f[1] == "w" { "b" } else { "w" };
    // Shredder-FEN lists White's rights first, so swapping case needs a reorder.
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let (upper, lower): (String, String) = f[2].chars().partition(|c| c.is_ascii_uppercase());
        swap(&lower) + &swap(&upper)
    };
    format!(
        "{} {side} {castling} {ep} {} {}",
        board.join("/"),
        f[4],
        f[5]
    )
}

#[test]
fn flipped_positions_match_the_text_transform() {
    for l in all_suites() {
        let pos = Position::from_fen(&l.fen).unwrap();
        let flipped = pos.flipped();
        assert_eq!(
            flipped.fen_shredder(),
            flip_fen_text(&l.fen),
            "line {}",
            l.line
        );
        assert_eq!(flipped.key(), flipped.compute_key());
        assert_eq!(flipped.flipped(), pos);
        assert_eq!(flipped.count_legal(), pos.count_legal());
    }
}
