//! `bench [depth]`: the engine's fixed search set, ending with the line
//! `<nodes> nodes <nps> nps` that OpenBench reads.

use crate::stdio::emit;
use castella_engine::bench;
use std::process::ExitCode;

/// Runs the bench, printing each line as it comes and then the totals.
pub fn run(depth: u32) {
    let result = bench::run(depth, &mut |line| emit(line));
    emit(&format!("{} nodes {} nps", result.nodes, result.nps));
}

/// The command line: `castella bench [DEPTH]`.
pub fn command() -> clap::Command {
    clap::Command::new("bench")
        .about("Searches the bench positions; the last line is '<nodes> nodes <nps> nps' (OpenBench's signature)")
        .arg(
            clap::Arg::new("depth")
                .value_name("DEPTH")
                .help(format!("search depth (default {})", bench::DEFAULT_DEPTH))
                .value_parser(clap::value_parser!(u32).range(1..=100)),
        )
}

/// Runs `castella bench` as parsed.
pub fn run_cli(m: &clap::ArgMatches) -> ExitCode {
    run(m
        .get_one::<u32>("depth")
        .copied()
        .unwrap_or(bench::DEFAULT_DEPTH));
    ExitCode::SUCCESS
}
