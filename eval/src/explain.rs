//! The `eval` trace: a table of every term.

use crate::params::Params;
use crate::score::{Score, PHASE_MAX, SCALE_NORMAL};
use crate::{Breakdown, Term};
use castella_movegen::{Color, Position};
use std::fmt::Write;

fn cells(s: Score) -> String {
    format!("{:>6} {:>6}", s.mg(), s.eg())
}

/// See [`crate::explain()`].
pub(crate) fn explain(pos: &Position, params: &Params, net: &crate::nnue::Network) -> String {
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
    let hand_written = b.white_score();
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
    lines.push(format!(
        "Hand-written: {hand_written:+} cp from White's view"
    ));
    let output = from_white(net.evaluate(pos));
    if net.is_residual() {
        lines.push(format!(
            "Network correction: {output:+} cp from White's view"
        ));
    } else {
        lines.push(format!(
            "Network: {output:+} cp from White's view (used alone)"
        ));
    }
    lines.push(format!("Final: {white:+} cp from White's view"));
    lines.push(format!(
        "Final: {stm:+} cp from the side to move's view ({stm_name})"
    ));

    let mut out = String::new();
    for line in lines {
        // Padding of empty cells must not leave trailing spaces.
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}
