//! Time to depth: how much faster Lazy SMP reaches a fixed depth.
//!
//! `cargo run --release -p castella-bench --bin ttd -- [--depth D] [--threads 1,2,4] [--runs R] [--hash MB]`
//!
//! Each bench position is searched to the depth with a fresh table, once per
//! thread count per run; the report gives, per thread count, the median over
//! runs of the total time, and the speed-up against the first count.

use castella_engine::bench::POSITIONS;
use castella_engine::{Engine, Limits, Options};
use castella_movegen::Position;
use std::time::Instant;

/// The command line.
fn command() -> clap::Command {
    use clap::{value_parser, Arg};
    let opt = |name: &'static str, value: &'static str, help: &'static str| {
        Arg::new(name).long(name).value_name(value).help(help)
    };
    clap::Command::new("ttd")
        .about("Time to depth: how much faster Lazy SMP reaches a depth on the bench positions")
        .arg(
            opt("depth", "D", "depth")
                .value_parser(value_parser!(u32).range(1..=100))
                .default_value("12"),
        )
        .arg(
            opt("threads", "LIST", "thread counts, comma-separated")
                .value_parser(value_parser!(usize))
                .value_delimiter(',')
                .default_value("1,2"),
        )
        .arg(
            opt("runs", "R", "runs; the median counts")
                .value_parser(value_parser!(usize))
                .default_value("3"),
        )
        .arg(
            opt("hash", "MB", "table size")
                .value_parser(value_parser!(usize))
                .default_value("64"),
        )
}

fn main() {
    let m = command().get_matches();
    let depth = *m.get_one::<u32>("depth").expect("defaulted");
    let runs = *m.get_one::<usize>("runs").expect("defaulted");
    let hash = *m.get_one::<usize>("hash").expect("defaulted");
    let threads: Vec<usize> = m
        .get_many::<usize>("threads")
        .expect("defaulted")
        .copied()
        .collect();
    let positions: Vec<Position> = POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).expect("valid"))
        .collect();

    let mut times = vec![Vec::new(); threads.len()];
    let mut nodes = vec![0u64; threads.len()];
    for run in 0..runs {
        for (i, &t) in threads.iter().enumerate() {
            let options = Options::fixed(hash, t);
            let mut engine = Engine::silent(options).expect("hash fits");
            let limits = Limits {
                depth: Some(depth),
                ..Default::default()
            };
            let start = Instant::now();
            for pos in &positions {
                engine.clear();
                nodes[i] += engine.search_sync(pos, &[], &limits).1;
            }
            let secs = start.elapsed().as_secs_f64();
            eprintln!("run {}: {t} thread(s): {secs:.2} s", run + 1);
            times[i].push(secs);
        }
    }
    println!(
        "depth {depth}, {} positions, {runs} runs, hash {hash} MB",
        positions.len()
    );
    println!(
        "{:>8} {:>12} {:>10} {:>14}",
        "threads", "median s", "speed-up", "nodes/run"
    );
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    let base = median(&mut times[0].clone());
    for (i, &t) in threads.iter().enumerate() {
        let m = median(&mut times[i]);
        println!(
            "{t:>8} {m:>12.2} {:>10.2} {:>14}",
            base / m,
            nodes[i] / runs as u64
        );
    }
}
