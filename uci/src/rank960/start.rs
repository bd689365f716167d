//! Which start positions a run ranks: Chess960 indices, Double-FRC pairs or
//! FENs; a seeded sample of them; one shard of them.

use castella_movegen::{chess960, Position};
use std::fmt;

/// A position to rank, with the name it is listed under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Chess960 start `n` (Scharnagl numbering; 518 is standard chess).
    Chess960(u16),
    /// A Double-FRC start: White's back rank from the first index, Black's
    /// from the second.
    Dfrc(u16, u16),
    /// A position given by FEN that is neither.
    Fen,
}

impl Start {
    /// The start's position; `None` for [`Start::Fen`] and bad indices.
    pub fn position(self) -> Option<Position> {
        match self {
            Start::Chess960(n) => Position::chess960(n),
            Start::Dfrc(w, b) => Position::double_chess960(w, b),
            Start::Fen => None,
        }
    }

    /// The name of a position given by FEN: its Chess960 index where it is
    /// one of the 960 starts.
    pub fn of_fen(pos: &Position) -> Start {
        pos.scharnagl_index().map_or(Start::Fen, Start::Chess960)
    }

    /// The standard position under this kind of naming.
    pub fn is_standard(self) -> bool {
        matches!(self, Start::Chess960(518) | Start::Dfrc(518, 518))
    }
}

/// `518`, `518:123` (White's index, then Black's) or `-`.
impl fmt::Display for Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Start::Chess960(n) => write!(f, "{n}"),
            Start::Dfrc(w, b) => write!(f, "{w}:{b}"),
            Start::Fen => f.write_str("-"),
        }
    }
}

impl std::str::FromStr for Start {
    type Err = String;

    /// Reads what `Display` writes.
    fn from_str(s: &str) -> Result<Start, String> {
        let index = |t: &str| index(t).ok_or_else(|| format!("'{t}' is not an index in 0..959"));
        match s.split_once(':') {
            _ if s == "-" => Ok(Start::Fen),
            Some((w, b)) => Ok(Start::Dfrc(index(w)?, index(b)?)),
            None => Ok(Start::Chess960(index(s)?)),
        }
    }
}

/// The positions named by a `--positions` list: comma-separated tokens,
/// or a file with one token per line (`#` starts a comment line). A token
/// is an index or range (`0-9`), a Double-FRC pair of indices or ranges
/// (`518:0-959`), or a FEN.
pub fn parse_list(list: &str) -> Result<Vec<(Start, Position)>, String> {
    let tokens: Vec<String> = match std::fs::read_to_string(list) {
        Ok(text) => text
            .lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect(),
        Err(_) => list
            .split(',')
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect(),
    };
    let mut out = Vec::new();
    for t in tokens {
        if t.contains('/') {
            let pos = Position::from_fen(&t).map_err(|e| format!("bad FEN '{t}': {e}"))?;
            out.push((Start::of_fen(&pos), pos));
            continue;
        }
        match t.split_once(':') {
            Some((w, b)) => {
                for w in range(w, &t)? {
                    for b in range(b, &t)? {
                        out.push(with_position(Start::Dfrc(w, b)));
                    }
                }
            }
            None => out.extend(range(&t, &t)?.map(|n| with_position(Start::Chess960(n)))),
        }
    }
    Ok(out)
}

/// All 960 starts.
pub fn all_chess960() -> Vec<Start> {
    (0..chess960::COUNT).map(Start::Chess960).collect()
}

/// All 921 600 Double-FRC pairs, White's index major.
pub fn all_dfrc() -> Vec<Start> {
    (0..chess960::COUNT)
        .flat_map(|w| (0..chess960::COUNT).map(move |b| Start::Dfrc(w, b)))
        .collect()
}

/// Named starts with their positions.
pub fn with_positions(starts: Vec<Start>) -> Vec<(Start, Position)> {
    starts.into_iter().map(with_position).collect()
}

/// A run's part of `items`: a seeded sample of `sample` of them, then the
/// `shard` (K, N) of what is left.
pub fn select<T>(
    items: Vec<T>,
    sample_size: Option<usize>,
    seed: u64,
    part: Option<(usize, usize)>,
) -> Vec<T> {
    let items = match sample_size {
        Some(n) => sample(items, n, seed),
        None => items,
    };
    match part {
        Some((k, n)) => shard(items, k, n),
        None => items,
    }
}

fn with_position(start: Start) -> (Start, Position) {
    (start, start.position().expect("indices were checked"))
}

/// A Chess960 index, 0..959.
fn index(text: &str) -> Option<u16> {
    text.parse::<u16>().ok().filter(|n| *n < chess960::COUNT)
}

/// `a` or `a-b` within 0..959, as an inclusive range.
fn range(text: &str, token: &str) -> Result<std::ops::RangeInclusive<u16>, String> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    match (index(a.trim()), index(b.trim())) {
        (Some(a), Some(b)) => Ok(a.min(b)..=a.max(b)),
        _ => Err(format!("'{token}' is not an index or range in 0..959")),
    }
}

/// `count` of `items`, chosen by `seed` alone (the same on every machine
/// and build), kept in their original order.
pub fn sample<T>(items: Vec<T>, count: usize, seed: u64) -> Vec<T> {
    if count >= items.len() {
        return items;
    }
    // A partial Fisher-Yates shuffle of the indices, then back in order.
    let mut rng = SplitMix64(seed);
    let mut order: Vec<usize> = (0..items.len()).collect();
    for i in 0..count {
        let j = i + (rng.next() % (order.len() - i) as u64) as usize;
        order.swap(i, j);
    }
    let mut chosen = vec![false; items.len()];
    for &i in &order[..count] {
        chosen[i] = true;
    }
    items
        .into_iter()
        .zip(chosen)
        .filter_map(|(item, keep)| keep.then_some(item))
        .collect()
}

/// The `k`-th (1-based) of `n` disjoint shards: every `n`-th item, so that
/// each shard gets a like share of easy and hard positions.
pub fn shard<T>(items: Vec<T>, k: usize, n: usize) -> Vec<T> {
    items
        .into_iter()
        .enumerate()
        .filter_map(|(i, item)| (i % n == k - 1).then_some(item))
        .collect()
}

/// `K/N` with 1 <= K <= N.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected K/N with 1 <= K <= N, as in 3/8, not '{text}'");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n) = (
        k.parse::<usize>().map_err(|_| bad())?,
        n.parse::<usize>().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// SplitMix64 (Steele, Lea and Flood): a fixed generator, so that a seeded
/// sample names the same positions wherever it is drawn.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_name_indices_pairs_and_fens() {
        let names = |list: &str| -> Vec<String> {
            parse_list(list)
                .unwrap()
                .iter()
                .map(|(s, _)| s.to_string())
                .collect()
        };
        assert_eq!(names("0-3,518"), ["0", "1", "2", "3", "518"]);
        assert_eq!(names("518:0-1,2-1:7"), ["518:0", "518:1", "1:7", "2:7"]);
        assert_eq!(
            names("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            ["518"]
        );
        let (start, pos) = parse_list("518:0").unwrap()[0];
        assert_eq!(start, Start::Dfrc(518, 0));
        assert_eq!(pos, Position::double_chess960(518, 0).unwrap());
        for bad in ["960", "x", "1:960", "1:", "5-", "rnbq/8 w"] {
            assert!(parse_list(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn names_read_back() {
        for s in [Start::Chess960(0), Start::Dfrc(959, 518), Start::Fen] {
            assert_eq!(s.to_string().parse::<Start>(), Ok(s));
        }
        assert!("960".parse::<Start>().is_err());
        assert!("1:x".parse::<Start>().is_err());
    }

    #[test]
    fn samples_are_fixed_by_the_seed() {
        let a = sample((0..1000).collect(), 10, 1);
        assert_eq!(a.len(), 10);
        assert!(a.windows(2).all(|w| w[0] < w[1]), "in order, no repeats");
        assert_eq!(a, sample((0..1000).collect(), 10, 1));
        assert_ne!(a, sample((0..1000).collect(), 10, 2));
        // The generator's first outputs for seed 1 (a change would rename
        // every sample drawn before it).
        let mut rng = SplitMix64(1);
        assert_eq!(rng.next(), 0x910A_2DEC_8902_5CC1);
        assert_eq!(sample((0..5).collect::<Vec<u32>>(), 9, 1), [0, 1, 2, 3, 4]);
    }

    #[test]
    fn shards_split_without_overlap() {
        let parts: Vec<Vec<u32>> = (1..=3).map(|k| shard((0..10).collect(), k, 3)).collect();
        assert_eq!(parts[0], [0, 3, 6, 9]);
        assert_eq!(parts[1], [1, 4, 7]);
        assert_eq!(parts[2], [2, 5, 8]);
        assert_eq!(parse_shard("2/3"), Ok((2, 3)));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
