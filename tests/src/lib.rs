//! Shared helpers for the cross-crate tests (the tests are this package's
//! `[[test]]` targets).

use std::path::PathBuf;

/// One line of a perft suite: the FEN and `(depth, count)` pairs.
pub struct EpdLine {
    pub line: usize,
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
    /// The `id` field, where given (the Scharnagl index in the 960 suite).
    pub id: Option<u16>,
}

/// Reads `tests/data/<name>`.
pub fn load_epd(name: &str) -> Vec<EpdLine> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let mut fields = l.split(';').map(str::trim);
            let fen = fields.next().unwrap().to_string();
            let mut counts = Vec::new();
            let mut id = None;
            for f in fields {
                let (k, v) = f.split_once(' ').unwrap();
                if k == "id" {
                    id = Some(v.trim().parse().unwrap());
                } else {
                    counts.push((k[1..].parse().unwrap(), v.trim().parse().unwrap()));
                }
            }
            EpdLine {
                line: i + 1,
                fen,
                counts,
                id,
            }
        })
        .collect()
}

/// All three suites.
pub fn all_suites() -> Vec<EpdLine> {
    [
        "perft-standard.epd",
        "perft-960-start.epd",
        "perft-960-tricky.epd",
    ]
    .iter()
    .flat_map(|n| load_epd(n))
    .collect()
}
