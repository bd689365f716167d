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

/// `castella bench [depth]` from the command line.
pub fn run_cli(args: &[String]) -> ExitCode {
    let depth = match args {
        [] => bench::DEFAULT_DEPTH,
        [d] => match d.parse::<u32>() {
            Ok(d) if d >= 1 => d,
            _ => {
                eprintln!("error: bench depth '{d}' is not a number from 1 up\nusage: castella bench [depth]");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("error: too many arguments\nusage: castella bench [depth]");
            return ExitCode::from(2);
        }
    };
    run(depth);
    ExitCode::SUCCESS
}
