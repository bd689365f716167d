//! The `castella` binary: with no arguments, the UCI engine; `perft` and
//! `bench` run a tool and exit.

mod bench_cmd;
mod command;
mod cpu;
mod format;
mod game;
mod options;
mod perft_cmd;
mod perft_job;
mod rank960;
mod stdio;
mod uci;

use std::process::ExitCode;

const USAGE: &str = "usage: castella                  run the UCI engine on stdin/stdout
       castella bench [depth]    search the bench positions; last line '<nodes> nodes <nps> nps'
       castella perft <depth> [--fen FEN | --frc N] [--chess960]
       castella perft --epd FILE [--max-depth D]
       castella rank960 [--positions LIST | --dfrc] [--nodes N] [--out FILE] [--book FILE.epd]
                        [--plot FILE.svg] [--shard K/N] ...   (rank960 --help for all)
       castella rank960 merge FILE... [--out FILE] [--book FILE.epd] [--plot FILE.svg]
       castella spsa             the search parameters in OpenBench's SPSA format
                                 (settable as UCI options in a --features tune build)
       castella --version        the version";

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
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            uci::run();
            ExitCode::SUCCESS
        }
        Some("perft") => perft_cmd::run(&args[1..]),
        Some("bench") => bench_cmd::run_cli(&args[1..]),
        Some("rank960") => rank960::run(&args[1..]),
        Some("spsa") => {
            print!("{}", castella_engine::params::spsa_lines());
            ExitCode::SUCCESS
        }
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("-V" | "--version") => {
            println!("Castella {}", uci::VERSION);
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("unknown command '{other}'\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
