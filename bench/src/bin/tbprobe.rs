//! `tbprobe`: Syzygy probes through Castella's prober, for comparing with
//! other probers (`bench/tools/syzygy-compare.py`).
//!
//! ```text
//! tbprobe DIR[:DIR...] < fens
//! ```
//!
//! Reads one FEN a line and writes `FEN | wdl | dtz`: the outcome for the
//! side to move after a zeroing move (−2 loss … 2 win, as python-chess
//! numbers it) and the distance to zeroing, or `-` where the tables
//! cannot tell. A line that is not a FEN gets `| error | ...`.

use castella_engine::tablebase::Tablebases;
use castella_movegen::Position;
use std::io::{BufRead, Write};

fn main() {
    let m = clap::Command::new("tbprobe")
        .about("Reads FENs on stdin and writes 'FEN | wdl | dtz' from Castella's Syzygy prober")
        .arg(
            clap::Arg::new("dirs")
                .value_name("DIR[:DIR...]")
                .required(true)
                .help("directories of Syzygy tables"),
        )
        .get_matches();
    let dirs = m.get_one::<String>("dirs").expect("required");
    let (tables, news) = Tablebases::open(dirs);
    for line in news {
        eprintln!("{line}");
    }
    let Some(tables) = tables else {
        eprintln!("tbprobe: no tables");
        std::process::exit(1);
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let fen = line.trim();
        if fen.is_empty() {
            continue;
        }
        let text = match Position::from_fen(fen) {
            Ok(pos) => {
                let wdl = tables
                    .probe_wdl(&pos)
                    .map_or("-".to_string(), |o| Tablebases::wdl_number(o).to_string());
                let dtz = tables
                    .probe_dtz(&pos)
                    .map_or("-".to_string(), |d| d.to_string());
                format!("{fen} | {wdl} | {dtz}")
            }
            Err(e) => format!("{fen} | error | {e}"),
        };
        if writeln!(out, "{text}").is_err() {
            return;
        }
    }
}
