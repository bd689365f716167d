//! The engine's settings, as the UCI options set them.

use crate::{strength, tablebase};

/// Engine settings (UCI options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    /// UCI `Ponder`: the GUI may let us think on the opponent's time, so
    /// each move may take a little longer.
    pub ponder: bool,
    /// How the search uses Syzygy tables, when some are loaded.
    pub syzygy: tablebase::ProbeOptions,
    /// A strength limit (UCI_LimitStrength with UCI_Elo), if any.
    pub strength: Option<strength::Strength>,
}

impl Options {
    /// Settings for searches with fixed limits (bench, tools, tests): no
    /// move overhead, one principal variation, no pondering.
    pub fn fixed(hash_mb: usize, threads: usize) -> Options {
        Options {
            hash_mb,
            threads,
            multipv: 1,
            move_overhead_ms: 0,
            ponder: false,
            syzygy: tablebase::ProbeOptions::default(),
            strength: None,
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 10,
            ponder: false,
            syzygy: tablebase::ProbeOptions::default(),
            strength: None,
        }
    }
}
