//! Switching evaluation terms off (its own process: the switch is global).

use castella_eval::{evaluate, switch_off_terms, term_switch};
use castella_movegen::Position;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

#[test]
fn switched_off_terms_no_longer_count() {
    // Colour-symmetric positions: only the side to move's tempo counts.
    let start = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let open = pos("r3k2r/ppp2ppp/2n5/3q4/3Q4/2N5/PPP2PPP/R3K2R w KQkq - 0 1");
    assert!(evaluate(&start) > 0 && evaluate(&open) > 0);
    switch_off_terms(term_switch("Tempo").unwrap());
    assert_eq!(evaluate(&start), 0);
    assert_eq!(evaluate(&open), 0);

    let white = pos("r1bqk2r/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQ1RK1 w kq - 0 8");
    let black = pos("r1bqk2r/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQ1RK1 b kq - 0 8");
    let full = evaluate(&white);
    let names = [
        "mobility", "king", "pieces", "threats", "pawns", "passed", "chess960",
    ];
    switch_off_terms(
        names
            .iter()
            .map(|n| term_switch(n).unwrap())
            .fold(0, |a, b| a | b),
    );
    // Material and piece-square tables are left, and they ignore the side
    // to move.
    assert_ne!(evaluate(&white), full);
    assert_eq!(evaluate(&white), -evaluate(&black));
}
