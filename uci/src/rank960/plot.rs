//! A picture of a ranking: the histogram of the scores as SVG, with the
//! standard position and the most and least balanced positions marked.

use super::table::{most_balanced, score_text, Row};
use castella_engine::value::MATE_BOUND;

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 460.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 110.0;
const BOTTOM: f64 = 50.0;

/// The SVG document for `rows` (ranked, best first).
pub fn svg(rows: &[Row]) -> String {
    let scores: Vec<i32> = rows
        .iter()
        .map(|r| r.score)
        .filter(|s| s.abs() < MATE_BOUND)
        .collect();
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let (Some(&lo), Some(&hi)) = (scores.iter().min(), scores.iter().max()) else {
        s.push_str("<text x=\"20\" y=\"40\">no scores to draw</text>\n</svg>\n");
        return s;
    };
    let n = scores.len() as f64;
    let mean = scores.iter().map(|&v| v as f64).sum::<f64>() / n;
    let sd = (scores
        .iter()
        .map(|&v| (v as f64 - mean).powi(2))
        .sum::<f64>()
        / n)
        .sqrt();
    let mates = rows.len() - scores.len();
    s.push_str(&text(
        LEFT,
        24.0,
        "start",
        "font-size=\"16\" font-weight=\"bold\"",
        &format!(
            "{} positions: mean {mean:+.1} cp, standard deviation {sd:.1} cp{}",
            rows.len(),
            if mates > 0 {
                format!(" ({mates} mates not drawn)")
            } else {
                String::new()
            }
        ),
    ));

    // Bins of a round width, about 40 of them at most.
    let bin = nice_step((hi - lo) as f64 / 40.0).max(1.0) as i32;
    let first = lo.div_euclid(bin) * bin;
    let bins = ((hi - first) / bin + 1) as usize;
    let mut counts = vec![0usize; bins];
    for &v in &scores {
        counts[((v - first) / bin) as usize] += 1;
    }
    let most = *counts.iter().max().unwrap_or(&1) as f64;
    let (x0, x1) = (first as f64, (first + bin * bins as i32) as f64);
    let x = |v: f64| LEFT + (v - x0) / (x1 - x0) * (WIDTH - LEFT - RIGHT);
    let y = |c: f64| HEIGHT - BOTTOM - c / most * (HEIGHT - TOP - BOTTOM);
    for (i, &c) in counts.iter().enumerate() {
        let v = (first + bin * i as i32) as f64;
        s.push_str(&format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#6b8cba\" stroke=\"white\"/>\n",
            x(v),
            y(c as f64),
            x(v + bin as f64) - x(v),
            y(0.0) - y(c as f64)
        ));
    }

    // Axes, ticks and their labels.
    let base = y(0.0);
    s.push_str(&line(LEFT, base, WIDTH - RIGHT, base, "black", ""));
    s.push_str(&line(LEFT, base, LEFT, TOP, "black", ""));
    let step = nice_step((x1 - x0) / 10.0).max(1.0);
    let mut t = (x0 / step).ceil() * step;
    while t <= x1 {
        s.push_str(&line(x(t), base, x(t), base + 5.0, "black", ""));
        let label = if t == 0.0 {
            "0".to_string()
        } else {
            format!("{t:+}")
        };
        s.push_str(&text(x(t), base + 20.0, "middle", "", &label));
        t += step;
    }
    s.push_str(&text(
        (LEFT + WIDTH - RIGHT) / 2.0,
        HEIGHT - 8.0,
        "middle",
        "",
        &format!("score, centipawns for White (bins of {bin} cp)"),
    ));
    s.push_str(&text(
        16.0,
        (TOP + base) / 2.0,
        "middle",
        &format!("transform=\"rotate(-90 16 {:.1})\"", (TOP + base) / 2.0),
        "positions",
    ));
    let ystep = nice_step(most / 5.0).max(1.0);
    let mut c = ystep;
    while c <= most {
        s.push_str(&line(LEFT - 5.0, y(c), LEFT, y(c), "black", ""));
        s.push_str(&text(LEFT - 8.0, y(c) + 4.0, "end", "", &format!("{c}")));
        c += ystep;
    }

    // The marked positions, each on a row of its own above the bars.
    let mut marks = Vec::new();
    if let Some(rank) = rows.iter().position(|r| r.start.is_standard()) {
        let r = &rows[rank];
        marks.push((
            r.score,
            "#c0392b",
            format!(
                "standard chess ({}): {} cp, rank {} of {}",
                r.start,
                score_text(r.score),
                rank + 1,
                rows.len()
            ),
        ));
    }
    let balanced = most_balanced(rows);
    let (best, worst) = (balanced[0], balanced[balanced.len() - 1]);
    marks.push((
        best.score,
        "#1e8449",
        format!(
            "most balanced: {} ({} cp)",
            best.start,
            score_text(best.score)
        ),
    ));
    if worst.score.abs() < MATE_BOUND {
        marks.push((
            worst.score,
            "#7d3c98",
            format!(
                "least balanced: {} ({} cp)",
                worst.start,
                score_text(worst.score)
            ),
        ));
    }
    for (i, (score, colour, label)) in marks.iter().enumerate() {
        let (mx, ly) = (x(*score as f64 + 0.5), 48.0 + 20.0 * i as f64);
        s.push_str(&line(
            mx,
            ly + 4.0,
            mx,
            base,
            colour,
            "stroke-dasharray=\"4 3\"",
        ));
        let anchor = if mx < WIDTH / 3.0 {
            "start"
        } else if mx > WIDTH * 2.0 / 3.0 {
            "end"
        } else {
            "middle"
        };
        s.push_str(&text(mx, ly, anchor, &format!("fill=\"{colour}\""), label));
    }
    s.push_str("</svg>\n");
    s
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * p)
}

fn line(x1: f64, y1: f64, x2: f64, y2: f64, colour: &str, extra: &str) -> String {
    format!(
        "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"{colour}\" {extra}/>\n"
    )
}

fn text(x: f64, y: f64, anchor: &str, extra: &str, body: &str) -> String {
    let body = body
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!("<text x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"{anchor}\" {extra}>{body}</text>\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank960::start::Start;
    use crate::rank960::table::test_row;

    #[test]
    fn the_picture_names_the_marked_positions() {
        let mut rows: Vec<Row> = [(518, 30), (0, 2), (1, 55), (2, 17)]
            .iter()
            .map(|&(n, score)| test_row(Start::Chess960(n), score))
            .collect();
        crate::rank960::table::rank(&mut rows);
        let svg = svg(&rows);
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
        assert!(svg.contains("standard chess (518): 30 cp, rank 2 of 4"));
        assert!(svg.contains("most balanced: 0 (2 cp)"));
        assert!(svg.contains("least balanced: 1 (55 cp)"));
        // Bins of 2 cp from 2 to 55, and the background.
        assert_eq!(svg.matches("<rect").count(), 1 + 27);
        assert_eq!(nice_step(0.3), 0.5);
        assert_eq!(nice_step(7.0), 10.0);
        assert!(super::svg(&[]).contains("no scores"));
    }
}
