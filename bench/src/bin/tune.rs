//! `tune`: a Texel tuner for Castella's evaluation weights.
//!
//! ```text
//! tune --data FILE.epd [--epochs N] [--steps S] [--lr X] [--k K]
//!      [--local-passes N] [--l2 X] [--out params.txt] [--threads T]
//! tune --apply params.txt
//! ```
//!
//! **Data.** One position per line: a FEN (4 to 6 fields) and a game result
//! from White's point of view, as `1-0`, `0-1`, `1/2-1/2`, `[1.0]`, `[0.5]`,
//! `[0.0]` or a decimal such as `0.5`, separated by spaces or `;`, quoted or
//! not (so EPD's `c9 "1-0";` works too). Blank lines and `#` comments are
//! ignored; other unreadable lines are counted and skipped.
//!
//! **Quiet positions.** Each position is replaced by the leaf of a
//! material-only quiescence search over captures (and queen promotions), so
//! that the evaluation is never asked about a position in the middle of an
//! exchange. Positions in check, at the root or at the leaf, are dropped.
//!
//! **Loss.** The mean squared error between the result and
//! `1 / (1 + 10^(-K * eval / 400))`, `eval` in centipawns from White's view.
//! `K` is fitted first on the default weights unless `--k` is given.
//!
//! **Optimiser.** `evaluate_with` is a black box, but it is nearly linear in
//! the weights. Each epoch linearises it around the current (integer)
//! weights: for every position, every weight is moved by a small step
//! (8 for middlegame/endgame halves, 1 for the plain king-safety units) and
//! the non-zero changes of the evaluation are kept as a sparse row. That
//! costs one evaluation per weight and position, as much as one pass of the
//! classic local search, but then gives the exact gradient of the linear
//! model, on which `--steps` full-batch Adam steps run in milliseconds each
//! (`--lr`: about how far, in centipawns, a weight moves per step; the
//! king-safety units move 8 times less).
//! The rounded weights are then checked against the real evaluation; an
//! epoch that makes the real error worse is undone and halves the rate.
//! `--l2 X` adds `X * sum(((w - default) / 100)^2)` to the loss (Adam's
//! part only), which keeps weights that few positions inform near their
//! hand-set values.
//! `--local-passes N` finishes with the classic Texel local search (each
//! weight ±1, kept when the error drops), which needs no linearisation.
//!
//! The result is written as `name value` lines (see `Params::names`);
//! `--apply FILE` prints how such a file differs from `Params::DEFAULT`.

use castella_eval::params::Params;
use castella_eval::{evaluate_with, PIECE_VALUES};
use castella_movegen::{Color, GenType, Move, MoveList, Piece, Position};
use rayon::prelude::*;
use std::time::Instant;

/// A quiet position and its game result from White's point of view.
struct Sample {
    pos: Position,
    result: f64,
}

/// Command-line options.
struct Options {
    data: Option<String>,
    apply: Option<String>,
    epochs: usize,
    steps: usize,
    lr: f64,
    k: Option<f64>,
    local_passes: usize,
    l2: f64,
    out: String,
    threads: Option<usize>,
}

fn parse_options() -> Result<Options, String> {
    let mut o = Options {
        data: None,
        apply: None,
        epochs: 10,
        steps: 100,
        lr: 0.5,
        k: None,
        local_passes: 0,
        l2: 0.0,
        out: "tuned-params.txt".into(),
        threads: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        let bad = |v: &str| format!("bad value for {flag}: {v}");
        match flag.as_str() {
            "--data" => o.data = Some(value()?),
            "--apply" => o.apply = Some(value()?),
            "--out" => o.out = value()?,
            "--epochs" => o.epochs = value()?.parse().map_err(|_| bad("epochs"))?,
            "--steps" => o.steps = value()?.parse().map_err(|_| bad("steps"))?,
            "--lr" => o.lr = value()?.parse().map_err(|_| bad("lr"))?,
            "--k" => o.k = Some(value()?.parse().map_err(|_| bad("k"))?),
            "--local-passes" => o.local_passes = value()?.parse().map_err(|_| bad("passes"))?,
            "--l2" => o.l2 = value()?.parse().map_err(|_| bad("l2"))?,
            "--threads" => o.threads = Some(value()?.parse().map_err(|_| bad("threads"))?),
            _ => return Err(format!("unknown argument {flag}")),
        }
    }
    Ok(o)
}

fn main() {
    let o = parse_options().unwrap_or_else(|e| {
        eprintln!("tune: {e}\nusage: tune --data FILE [--epochs N] [--steps S] [--lr X] [--k K] [--local-passes N] [--l2 X] [--out FILE] [--threads T]\n       tune --apply FILE");
        std::process::exit(2);
    });
    castella_bench::set_threads(o.threads);
    let result = match (&o.apply, &o.data) {
        (Some(file), _) => apply(file),
        (None, Some(file)) => tune(file, &o),
        (None, None) => Err("--data or --apply is required".into()),
    };
    if let Err(e) = result {
        eprintln!("tune: {e}");
        std::process::exit(1);
    }
}

// ---------------------------------------------------------------- loading

/// Reads a result token: `1-0`, `0-1`, `1/2-1/2`, `[1.0]`, `0.5`, `"1-0"`...
fn parse_result(token: &str) -> Option<f64> {
    let t = token.trim_matches(|c| matches!(c, '"' | '[' | ']' | ';' | ','));
    match t {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" | "1/2" => Some(0.5),
        // Bare integers are FEN clocks; only bracketed ones are results.
        "1" | "0" if token.starts_with('[') => t.parse().ok(),
        _ if t.contains('.') => t.parse().ok().filter(|r| (0.0..=1.0).contains(r)),
        _ => None,
    }
}

/// Reads one data line; `None` when it holds no FEN or no result.
fn parse_line(line: &str) -> Option<(Position, f64)> {
    let line = line.replace(';', " ");
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let result = tokens.iter().rev().find_map(|t| parse_result(t))?;
    if tokens.len() < 5 {
        return None;
    }
    // The four mandatory FEN fields, then up to two clocks.
    let clocks = tokens[4..]
        .iter()
        .take(2)
        .take_while(|t| t.parse::<u32>().is_ok())
        .count();
    let fen = tokens[..4 + clocks].join(" ");
    Position::from_fen(&fen).ok().map(|pos| (pos, result))
}

/// Material balance from the side to move's point of view.
fn material(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    Piece::ALL
        .iter()
        .map(|&p| {
            let diff = pos.colored(us, p).count() as i32 - pos.colored(!us, p).count() as i32;
            PIECE_VALUES[p.index()] * diff
        })
        .sum()
}

/// A material-only quiescence search over captures and queen promotions;
/// fills `pv` with the line to the quiet leaf.
fn qsearch(pos: &Position, mut alpha: i32, beta: i32, ply: usize, pv: &mut Vec<Move>) -> i32 {
    pv.clear();
    let stand = material(pos);
    if stand >= beta || ply >= 24 {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut moves = MoveList::new();
    pos.generate_moves(GenType::Noisy, &mut moves);
    moves.retain(|m| m.promotion_piece().is_none_or(|p| p == Piece::Queen));
    // Most valuable victim first, least valuable attacker next.
    let value = |p: Option<Piece>| p.map_or(0, |p| PIECE_VALUES[p.index()]);
    moves.sort_by_key(|&m| value(pos.piece_on(m.from())) - 16 * value(pos.captured(m)));
    let mut child = Vec::new();
    for mv in moves {
        let score = -qsearch(&pos.play(mv), -beta, -alpha, ply + 1, &mut child);
        if score > alpha {
            alpha = score;
            pv.clear();
            pv.push(mv);
            pv.extend_from_slice(&child);
            if score >= beta {
                break;
            }
        }
    }
    alpha
}

/// The quiet leaf of `pos`, or `None` when the root or the leaf is in check.
fn quiet_leaf(pos: &Position) -> Option<Position> {
    if pos.in_check() {
        return None;
    }
    let mut pv = Vec::new();
    qsearch(pos, -100_000, 100_000, 0, &mut pv);
    let leaf = pv.iter().fold(*pos, |p, &m| p.play(m));
    (!leaf.in_check()).then_some(leaf)
}

/// Parses `text` into quiet samples; also returns the number of unreadable
/// lines and of positions dropped for being in check.
fn load(text: &str) -> (Vec<Sample>, usize, usize) {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let parsed: Vec<Option<Option<Sample>>> = lines
        .par_iter()
        .map(|l| {
            parse_line(l).map(|(pos, result)| quiet_leaf(&pos).map(|pos| Sample { pos, result }))
        })
        .collect();
    let skipped = parsed.iter().filter(|p| p.is_none()).count();
    let samples: Vec<Sample> = parsed.into_iter().flatten().flatten().collect();
    let in_check = lines.len() - skipped - samples.len();
    (samples, skipped, in_check)
}

// ---------------------------------------------------------------- loss

/// The evaluation in centipawns from White's point of view.
fn eval_white(pos: &Position, params: &Params) -> f64 {
    let e = evaluate_with(pos, params) as f64;
    match pos.side_to_move() {
        Color::White => e,
        Color::Black => -e,
    }
}

/// The expected score for White of an evaluation.
fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// The mean squared error of precomputed evaluations.
fn error_of(evals: &[f64], results: &[f64], k: f64) -> f64 {
    let sum: f64 = (evals, results)
        .into_par_iter()
        .map(|(&e, &r)| (r - sigmoid(k, e)).powi(2))
        .sum();
    sum / evals.len().max(1) as f64
}

/// The mean squared error of `params` on `samples`.
fn error(samples: &[Sample], params: &Params, k: f64) -> f64 {
    let sum: f64 = samples
        .par_iter()
        .map(|s| (s.result - sigmoid(k, eval_white(&s.pos, params))).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The `K` with the smallest error: a scan over 0.05..=5, then a
/// golden-section search around the best point.
fn fit_k(evals: &[f64], results: &[f64]) -> f64 {
    let err = |k: f64| error_of(evals, results, k);
    let best = (1..=100)
        .map(|i| i as f64 * 0.05)
        .min_by(|&a, &b| err(a).total_cmp(&err(b)))
        .unwrap_or(1.0);
    let (mut lo, mut hi) = ((best - 0.05).max(0.001), best + 0.05);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (a, b) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if err(a) < err(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

// ---------------------------------------------------------------- optimiser

/// The finite-difference step of each weight: 1 for plain `i32` units
/// (king safety), 8 for the halves of a `Score`.
fn steps(names: &[String]) -> Vec<i32> {
    let is_score = |n: &String| n.ends_with(".mg") || n.ends_with(".eg");
    names
        .iter()
        .map(|n| if is_score(n) { 8 } else { 1 })
        .collect()
}

/// The evaluation linearised around some weights: per sample its value and
/// the sparse row `(weight, d eval / d weight)`, stored flat.
struct Linear {
    base: Vec<f64>,
    start: Vec<usize>,
    entries: Vec<(u32, f32)>,
}

/// Linearises the evaluation around `theta` (one evaluation per weight and
/// sample).
fn linearize(samples: &[Sample], theta: &[i32], step: &[i32]) -> Linear {
    let base_params = Params::from_vec(theta).expect("weight count");
    let moved: Vec<Params> = (0..theta.len())
        .map(|j| {
            let mut v = theta.to_vec();
            v[j] += step[j];
            Params::from_vec(&v).expect("weight count")
        })
        .collect();
    let rows: Vec<(f64, Vec<(u32, f32)>)> = samples
        .par_iter()
        .map(|s| {
            let base = eval_white(&s.pos, &base_params);
            let row = moved
                .iter()
                .enumerate()
                .filter_map(|(j, p)| {
                    let d = eval_white(&s.pos, p) - base;
                    (d != 0.0).then(|| (j as u32, (d / step[j] as f64) as f32))
                })
                .collect();
            (base, row)
        })
        .collect();
    let mut lin = Linear {
        base: Vec::with_capacity(rows.len()),
        start: vec![0],
        entries: Vec::new(),
    };
    for (base, row) in rows {
        lin.base.push(base);
        lin.entries.extend(row);
        lin.start.push(lin.entries.len());
    }
    lin
}

/// The error of the linear model at `delta` (weights minus the point of
/// linearisation) and its gradient.
fn linear_gradient(lin: &Linear, results: &[f64], delta: &[f64], k: f64) -> (f64, Vec<f64>) {
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let zero = || (0.0, vec![0.0; delta.len()]);
    let (sum, grad) = (0..results.len())
        .into_par_iter()
        .fold(zero, |(mut err, mut grad), i| {
            let row = &lin.entries[lin.start[i]..lin.start[i + 1]];
            let e = lin.base[i]
                + row
                    .iter()
                    .map(|&(j, c)| c as f64 * delta[j as usize])
                    .sum::<f64>();
            let p = sigmoid(k, e);
            err += (results[i] - p).powi(2);
            let g = 2.0 * (p - results[i]) * p * (1.0 - p) * scale;
            for &(j, c) in row {
                grad[j as usize] += g * c as f64;
            }
            (err, grad)
        })
        .reduce(zero, |(e1, mut g1), (e2, g2)| {
            g1.iter_mut().zip(&g2).for_each(|(a, b)| *a += b);
            (e1 + e2, g1)
        });
    let n = results.len().max(1) as f64;
    (sum / n, grad.into_iter().map(|g| g / n).collect())
}

/// The `--l2` term of the loss: `l2` times the summed squares of each
/// weight's distance from its default, in pawns.
fn l2_penalty(theta: &[f64], defaults: &[f64], l2: f64) -> f64 {
    theta
        .iter()
        .zip(defaults)
        .map(|(a, b)| ((a - b) / 100.0).powi(2))
        .sum::<f64>()
        * l2
}

/// Adam's running moments.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One step on `theta`; weight `j` moves by about `lr * rate[j]`.
    fn step(&mut self, theta: &mut [f64], grad: &[f64], lr: f64, rate: &[f64]) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        self.t += 1;
        let (c1, c2) = (1.0 - B1.powi(self.t), 1.0 - B2.powi(self.t));
        for j in 0..theta.len() {
            self.m[j] = B1 * self.m[j] + (1.0 - B1) * grad[j];
            self.v[j] = B2 * self.v[j] + (1.0 - B2) * grad[j] * grad[j];
            let update = lr * rate[j] * (self.m[j] / c1) / ((self.v[j] / c2).sqrt() + 1e-12);
            theta[j] = (theta[j] - update).clamp(-4000.0, 4000.0);
        }
    }
}

/// The classic Texel local search: each weight ±1, kept when the real error
/// drops; weights that no sample depends on are skipped.
fn local_search(samples: &[Sample], theta: &mut [i32], k: f64, mut best: f64, o: &Options) {
    // Finding the active weights costs a scan of the data per weight.
    if o.local_passes == 0 {
        return;
    }
    let base = Params::from_vec(theta).expect("weight count");
    let active: Vec<usize> = (0..theta.len())
        .filter(|&j| {
            let mut v = theta.to_vec();
            v[j] += 8;
            let p = Params::from_vec(&v).expect("weight count");
            samples
                .par_iter()
                .any(|s| evaluate_with(&s.pos, &p) != evaluate_with(&s.pos, &base))
        })
        .collect();
    eprintln!("local search over {} active weights", active.len());
    for pass in 1..=o.local_passes {
        let started = Instant::now();
        let mut improved = 0;
        for &j in &active {
            for delta in [1, -1] {
                theta[j] += delta;
                let e = error(samples, &Params::from_vec(theta).expect("weight count"), k);
                if e < best {
                    best = e;
                    improved += 1;
                    break;
                }
                theta[j] -= delta;
            }
        }
        let secs = started.elapsed().as_secs_f64();
        eprintln!("pass {pass}: error {best:.7}, {improved} weights changed, {secs:.1}s");
        write_params(&o.out, theta, k, best);
        if improved == 0 {
            break;
        }
    }
}

/// Writes the weights as `name value` lines.
fn write_params(path: &str, theta: &[i32], k: f64, err: f64) {
    let names = Params::DEFAULT.names();
    let mut text = format!("# castella tuned weights: K = {k:.6}, error = {err:.7}\n");
    for (name, value) in names.iter().zip(theta) {
        text += &format!("{name} {value}\n");
    }
    if let Err(e) = std::fs::write(path, text) {
        eprintln!("tune: cannot write {path}: {e}");
    }
}

/// Loads the data, fits `K`, runs the epochs and the local search.
fn tune(path: &str, o: &Options) -> Result<(), String> {
    let started = Instant::now();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let (samples, skipped, in_check) = load(&text);
    drop(text);
    eprintln!(
        "loaded {} quiet positions ({skipped} unreadable lines skipped, {in_check} in check dropped) in {:.1}s",
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    if samples.is_empty() {
        return Err("no usable positions".into());
    }
    let names = Params::DEFAULT.names();
    let step = steps(&names);
    let rate: Vec<f64> = step.iter().map(|&s| s as f64 / 8.0).collect();
    let results: Vec<f64> = samples.iter().map(|s| s.result).collect();
    let mut best_theta = Params::DEFAULT.to_vec();

    let k = o.k.unwrap_or_else(|| {
        let evals: Vec<f64> = samples
            .par_iter()
            .map(|s| eval_white(&s.pos, &Params::DEFAULT))
            .collect();
        fit_k(&evals, &results)
    });
    let mut best = error(&samples, &Params::DEFAULT, k);
    eprintln!("K = {k:.4}, error with the default weights {best:.7}");
    let defaults: Vec<f64> = best_theta.iter().map(|&x| x as f64).collect();
    let penalty = |theta: &[f64]| l2_penalty(theta, &defaults, o.l2);

    let mut theta = defaults.clone();
    let (mut adam, mut lr) = (Adam::new(theta.len()), o.lr);
    for epoch in 1..=o.epochs {
        let t0 = Instant::now();
        let lin = linearize(&samples, &best_theta, &step);
        let t1 = t0.elapsed().as_secs_f64();
        let origin: Vec<f64> = best_theta.iter().map(|&x| x as f64).collect();
        let mut model_err = 0.0;
        for _ in 0..o.steps {
            let delta: Vec<f64> = theta.iter().zip(&origin).map(|(a, b)| a - b).collect();
            let (err, mut grad) = linear_gradient(&lin, &results, &delta, k);
            model_err = err + penalty(&theta);
            for (g, (t, d)) in grad.iter_mut().zip(theta.iter().zip(&defaults)) {
                *g += 2.0 * o.l2 * (t - d) / 10_000.0;
            }
            adam.step(&mut theta, &grad, lr, &rate);
        }
        let rounded: Vec<i32> = theta.iter().map(|x| x.round() as i32).collect();
        let as_f64: Vec<f64> = rounded.iter().map(|&x| x as f64).collect();
        let real = error(
            &samples,
            &Params::from_vec(&rounded).expect("weight count"),
            k,
        ) + penalty(&as_f64);
        let nnz = lin.entries.len() as f64 / samples.len() as f64;
        eprintln!(
            "epoch {epoch}: model error {model_err:.7}, real error {real:.7} (best {best:.7}), lr {lr}, \
             {nnz:.0} weights/position, linearise {t1:.1}s, total {:.1}s",
            t0.elapsed().as_secs_f64()
        );
        if real < best {
            best = real;
            best_theta = rounded;
            write_params(&o.out, &best_theta, k, best);
        } else {
            lr /= 2.0;
            theta = origin;
            adam = Adam::new(theta.len());
        }
    }
    local_search(&samples, &mut best_theta, k, best, o);
    write_params(
        &o.out,
        &best_theta,
        k,
        error(&samples, &Params::from_vec(&best_theta).unwrap(), k),
    );
    eprintln!("wrote {} in {:.1}s", o.out, started.elapsed().as_secs_f64());
    Ok(())
}

// ---------------------------------------------------------------- apply

/// Prints how the `name value` file `path` differs from the defaults.
fn apply(path: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let names = Params::DEFAULT.names();
    let old = Params::DEFAULT.to_vec();
    let mut new = old.clone();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut it = line.split_whitespace();
        let (name, value) = (
            it.next().unwrap_or(""),
            it.next().and_then(|v| v.parse().ok()),
        );
        match (names.iter().position(|n| n == name), value) {
            (Some(j), Some(v)) => new[j] = v,
            _ => eprintln!("tune: ignoring line {line:?}"),
        }
    }
    let mut changed = 0;
    for ((name, a), b) in names.iter().zip(&old).zip(&new) {
        if a != b {
            println!("{name}: {a} -> {b} ({:+})", b - a);
            changed += 1;
        }
    }
    println!("{changed} of {} weights changed", names.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";

    #[test]
    fn loader_reads_every_format() {
        let lines = [
            format!("{START} 1-0"),
            format!("{START} [0.5]"),
            format!("{START}; 0-1"),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - c9 \"1/2-1/2\";"
                .to_string(),
            format!("{START} [1.0]"),
            format!("{START} | 1.0"),
        ];
        let results: Vec<Option<f64>> = lines.iter().map(|l| parse_line(l).map(|p| p.1)).collect();
        assert_eq!(
            results,
            [
                Some(1.0),
                Some(0.5),
                Some(0.0),
                Some(0.5),
                Some(1.0),
                Some(1.0)
            ]
        );
        assert!(parse_line(START).is_none(), "no result");
        assert!(parse_line("not a fen 1-0").is_none());

        let text = format!(
            "# comment\n\n{START} 1-0\ngarbage\n\
             rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3 0-1\n\
             4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1 1/2-1/2\n"
        );
        let (samples, skipped, in_check) = load(&text);
        assert_eq!((samples.len(), skipped, in_check), (2, 1, 1));
        // e4xd5 wins a pawn: the quiet leaf is after the capture.
        assert_eq!(samples[1].pos.fen(), "4k3/8/8/3P4/8/8/8/4K3 b - - 0 1");
    }

    #[test]
    fn l2_penalty_grows_with_the_distance_from_the_defaults() {
        let defaults = [100.0, -20.0];
        assert_eq!(l2_penalty(&defaults, &defaults, 0.5), 0.0);
        assert!((l2_penalty(&[300.0, -20.0], &defaults, 0.5) - 2.0).abs() < 1e-12);
        assert_eq!(l2_penalty(&[300.0, 80.0], &defaults, 0.0), 0.0);
    }

    #[test]
    fn k_fit_is_finite_and_positive() {
        // White scores more often the higher the evaluation.
        let evals: Vec<f64> = (-20..=20).map(|i| i as f64 * 25.0).collect();
        let results: Vec<f64> = evals
            .iter()
            .enumerate()
            .map(|(i, &e)| {
                if e > 100.0 || (e > -100.0 && i % 2 == 0) {
                    1.0
                } else {
                    0.0
                }
            })
            .collect();
        let k = fit_k(&evals, &results);
        assert!(k.is_finite() && k > 0.0, "K = {k}");
        assert!(error_of(&evals, &results, k) <= error_of(&evals, &results, 1.0) + 1e-12);
        // A flat data set still gives a usable K.
        let k = fit_k(&[0.0; 4], &[0.5; 4]);
        assert!(k.is_finite() && k > 0.0, "K = {k}");
    }

    #[test]
    fn linear_model_matches_the_evaluation() {
        let samples: Vec<Sample> = [START, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"]
            .iter()
            .map(|f| Sample {
                pos: Position::from_fen(f).unwrap(),
                result: 0.5,
            })
            .collect();
        let theta = Params::DEFAULT.to_vec();
        let step = steps(&Params::DEFAULT.names());
        let lin = linearize(&samples, &theta, &step);
        for (s, &base) in samples.iter().zip(&lin.base) {
            assert_eq!(base, eval_white(&s.pos, &Params::DEFAULT));
        }
        let (err, grad) = linear_gradient(&lin, &[0.5, 0.5], &vec![0.0; theta.len()], 1.0);
        assert!(err.is_finite() && grad.iter().all(|g| g.is_finite()));
        assert!(grad.iter().any(|&g| g != 0.0));
    }
}
