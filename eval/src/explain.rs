//! The `eval` trace: the network's output and each piece's share of it.

use castella_movegen::{Color, Position, Square};
use std::fmt::Write;

/// A score from the side to move's view turned to White's, or back.
fn white_view(pos: &Position, v: i32) -> i32 {
    match pos.side_to_move() {
        Color::White => v,
        Color::Black => -v,
    }
}

/// See [`crate::explain()`].
pub(crate) fn explain(pos: &Position, net: &crate::nnue::Network) -> String {
    let output = net.evaluate(pos);
    // The final score is the output bounded, as `static_eval_with` gives it.
    let stm = crate::bounded(output);
    let stm_name = match pos.side_to_move() {
        Color::White => "White",
        Color::Black => "Black",
    };
    let mut lines = vec![
        format!(
            "Network: {:+} cp from White's view ({})",
            white_view(pos, output),
            net.describe()
        ),
        format!("Final: {:+} cp from White's view", white_view(pos, stm)),
        format!("Final: {stm:+} cp from the side to move's view ({stm_name})"),
    ];
    lines.extend(piece_contributions(pos, net, white_view(pos, output)));

    let mut out = String::new();
    for line in lines {
        // Padding of empty cells must not leave trailing spaces.
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// The network's view, as Stockfish's `eval` shows it: for each piece but
/// the kings, how much the network's output (White's view, centipawns)
/// drops when that piece is taken off the board; `full` is the output
/// with every piece on, from White's view.
fn piece_contributions(pos: &Position, net: &crate::nnue::Network, full: i32) -> Vec<String> {
    let border = format!("+{}", "-------+".repeat(8));
    let mut lines = vec![
        String::new(),
        "Network: what each piece adds to its output (centipawns, White's view)".to_string(),
        border.clone(),
    ];
    for rank in (0..8).rev() {
        let (mut pieces, mut values) = (String::from("|"), String::from("|"));
        for file in 0..8 {
            let sq = Square::new(rank * 8 + file);
            let (glyph, value) = match (pos.piece_on(sq), pos.color_on(sq)) {
                (Some(piece), Some(color)) => {
                    let c = piece.char();
                    let glyph = if color == Color::White {
                        c.to_ascii_uppercase()
                    } else {
                        c.to_ascii_lowercase()
                    };
                    let value = if piece == castella_movegen::Piece::King {
                        String::new()
                    } else {
                        format!(
                            "{:+}",
                            full - white_view(pos, net.evaluate_without(pos, sq))
                        )
                    };
                    (glyph.to_string(), value)
                }
                _ => (String::new(), String::new()),
            };
            let _ = write!(pieces, "{glyph:^7}|");
            let _ = write!(values, "{value:^7}|");
        }
        lines.push(pieces);
        lines.push(values);
        lines.push(border.clone());
    }
    lines.push(format!("Network output: {full:+} cp from White's view"));
    lines
}
