//! The `eval` trace: the hand-written terms (when the network is a
//! correction to them), the network's output and each piece's share of it.

use crate::params::Params;
use crate::score::{Score, PHASE_MAX, SCALE_NORMAL};
use crate::{Breakdown, Term};
use castella_movegen::{Color, Position, Square};
use std::fmt::Write;

fn cells(s: Score) -> String {
    format!("{:>6} {:>6}", s.mg(), s.eg())
}

/// See [`crate::explain()`].
pub(crate) fn explain(pos: &Position, params: &Params, net: &crate::nnue::Network) -> String {
    let from_white = |v: i32| match pos.side_to_move() {
        Color::White => v,
        Color::Black => -v,
    };
    let stm = crate::static_eval_with(net, pos);
    let white = from_white(stm);
    let stm_name = match pos.side_to_move() {
        Color::White => "White",
        Color::Black => "Black",
    };
    let output = from_white(net.evaluate(pos));
    // A network used alone is the whole evaluation: the hand-written
    // terms would only mislead.
    let mut lines = if net.is_residual() {
        let mut lines = hand_written(pos, params);
        lines.push(format!(
            "Network correction: {output:+} cp from White's view"
        ));
        lines
    } else {
        vec![format!(
            "Network: {output:+} cp from White's view ({})",
            net.describe()
        )]
    };
    lines.push(format!("Final: {white:+} cp from White's view"));
    lines.push(format!(
        "Final: {stm:+} cp from the side to move's view ({stm_name})"
    ));

    lines.extend(piece_contributions(pos, net));

    let mut out = String::new();
    for line in lines {
        // Padding of empty cells must not leave trailing spaces.
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// The hand-written evaluation's table of terms, and its total.
fn hand_written(pos: &Position, params: &Params) -> Vec<String> {
    let b = Breakdown::uncached(pos, params);
    let rule = "---------------+---------------+---------------+--------------";
    let mut lines: Vec<String> = vec![
        "Castella evaluation, centipawns; each side's columns from its own view".to_string(),
        format!(
            "{:>14} | {:^13} | {:^13} | {:^13}",
            "Term", "White", "Black", "Total"
        ),
        format!(
            "{:>14} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
            "", "MG", "EG", "MG", "EG", "MG", "EG"
        ),
        rule.to_string(),
    ];
    for term in Term::ALL {
        let [w, bl] = b.terms[term as usize];
        lines.push(format!(
            "{:>14} | {} | {} | {}",
            term.name(),
            cells(w),
            cells(bl),
            cells(w - bl)
        ));
    }
    lines.push(rule.to_string());
    lines.push(format!(
        "{:>14} | {:>13} | {:>13} | {}",
        "Total",
        "",
        "",
        cells(b.total())
    ));
    lines.push(format!(
        "Phase: {} of {PHASE_MAX} (middlegame weight), endgame scale: {} of {SCALE_NORMAL}",
        b.phase, b.scale
    ));
    lines.push(format!(
        "Hand-written: {:+} cp from White's view",
        b.white_score()
    ));
    lines
}

/// The network's view, as Stockfish's `eval` shows it: for each piece but
/// the kings, how much the network's output (White's view, centipawns)
/// drops when that piece is taken off the board.
fn piece_contributions(pos: &Position, net: &crate::nnue::Network) -> Vec<String> {
    let white = |v: i32| match pos.side_to_move() {
        Color::White => v,
        Color::Black => -v,
    };
    let full = white(net.evaluate(pos));
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
                        format!("{:+}", full - white(net.evaluate_without(pos, sq)))
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
