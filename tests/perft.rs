//! Perft against the reference suites, to the node.

use castella_movegen::{perft, Position};
use castella_tests::{load_epd, EpdLine};

/// Checks every count up to `max_depth`, spreading lines over two threads.
fn check(lines: &[EpdLine], max_depth: u32) {
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = lines
            .chunks(lines.len().div_ceil(2).max(1))
            .map(|chunk| {
                s.spawn(move || {
                    let mut bad = Vec::new();
                    for l in chunk {
                        let pos = Position::from_fen(&l.fen)
                            .unwrap_or_else(|e| panic!("line {}: {e}", l.line));
                        for &(d, expected) in l.counts.iter().filter(|(d, _)| *d <= max_depth) {
                            let found = perft(&pos, d);
                            if found != expected {
                                bad.push(format!(
                                    "line {} D{d}: expected {expected}, found {found}: {}",
                                    l.line, l.fen
                                ));
                            }
                        }
                    }
                    bad
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn standard_suite_all_depths() {
    check(&load_epd("perft-standard.epd"), 6);
}

#[test]
fn chess960_starts_to_depth_5() {
    let lines = load_epd("perft-960-start.epd");
    assert_eq!(lines.len(), 960);
    check(&lines, 5);
}

#[test]
#[ignore = "10.6 G nodes; run with --ignored or `castella perft --epd`"]
fn chess960_starts_depth_6() {
    check(&load_epd("perft-960-start.epd"), 6);
}

#[test]
fn chess960_tricky_all_depths() {
    check(&load_epd("perft-960-tricky.epd"), 5);
}
