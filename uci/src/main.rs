//! The `castella` binary.

mod perft_cmd;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("perft") => perft_cmd::run(&args[1..]),
        Some(other) => {
            eprintln!("unknown command '{other}'");
            ExitCode::from(2)
        }
        None => {
            println!("Castella {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
    }
}
