//! The `castella` binary: with no arguments, the UCI engine; `bench`,
//! `perft`, `rank960` and `spsa` run a tool and exit (command lines by
//! clap, in each tool's module).

mod bench_cmd;
mod command;
mod cpu;
mod format;
mod options;
mod perft_cmd;
mod perft_job;
mod rank960;
mod setup;
mod stdio;
mod uci;

use std::process::ExitCode;

/// The shell commands; with none, the UCI engine runs.
fn cli() -> clap::Command {
    clap::Command::new("castella")
        .about("Castella, a UCI chess engine for Chess960. Without a command it is the UCI engine on stdin/stdout.")
        .version(uci::VERSION)
        .subcommand(bench_cmd::command())
        .subcommand(perft_cmd::command())
        .subcommand(rank960::command())
        .subcommand(clap::Command::new("spsa").about(
            "Prints the search parameters in OpenBench's SPSA format (UCI options in a --features tune build)",
        ))
}

fn main() -> ExitCode {
    // On Linux the check already ran, before Rust's start-up code.
    let missing = cpu::missing_features();
    if !missing.is_empty() {
        eprintln!(
            "This Castella binary needs a newer CPU; this one lacks: {}.",
            missing.join(" ")
        );
        return ExitCode::from(1);
    }
    if std::env::args_os().len() <= 1 {
        uci::run();
        return ExitCode::SUCCESS;
    }
    let matches = match cli().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            // Help and version print to stdout and succeed; usage errors
            // print to stderr and exit with 2.
            let _ = e.print();
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    match matches.subcommand() {
        Some(("perft", m)) => perft_cmd::run(m),
        Some(("bench", m)) => bench_cmd::run_cli(m),
        Some(("rank960", m)) => rank960::run(m),
        Some(("spsa", _)) => {
            print!("{}", castella_engine::params::spsa_lines());
            ExitCode::SUCCESS
        }
        _ => {
            uci::run();
            ExitCode::SUCCESS
        }
    }
}
