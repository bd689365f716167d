//! Static evaluation (placeholder: material only, replaced by the tapered
//! evaluation).

use castella_movegen::{Color, Piece, Position};

/// Material values in centipawns, pawn to queen.
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 0];

/// The static evaluation in centipawns from the side to move's view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = 0;
    for p in Piece::ALL {
        let v = PIECE_VALUES[p.index()];
        score += v * (pos.colored(Color::White, p).count() as i32 - pos.colored(Color::Black, p).count() as i32);
    }
    if pos.side_to_move() == Color::White {
        score
    } else {
        -score
    }
}

/// A readable table of the evaluation's terms, for the UCI `eval` command.
pub fn explain(pos: &Position) -> String {
    format!("Total: {} cp (side to move)\n", evaluate(pos))
}
