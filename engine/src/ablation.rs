//! Switches that turn single search features off, to measure in self-play
//! what each one is worth (an ablation test):
//!
//! ```sh
//! CASTELLA_DISABLE=singular,probcut castella
//! ```
//!
//! The variable is read once, when the first searcher is made, and the
//! engine announces the switches it obeys (`info string` at start), so a
//! stray variable cannot weaken play unseen. Features settled long ago
//! (aspiration windows, null move, reverse futility, late-move pruning and
//! reductions, SEE pruning, killers, continuation history, the check
//! extension, the fifty-move damping; see docs/search-and-evaluation.md
//! for what each measured) have no switch any more.

use std::sync::OnceLock;

/// The environment variable that lists the features to turn off.
pub const ENV_VAR: &str = "CASTELLA_DISABLE";

bitflags::bitflags! {
    /// Search features switched off; empty (every feature on) normally.
    /// Names are the flags' names in any case: `singular`, `tt_pv`, ...
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct Disabled: u32 {
        /// Futility pruning of quiet moves.
        const FUTILITY = 1 << 0;
        /// Internal iterative reduction.
        const IIR = 1 << 1;
        /// Singular extensions (and multi-cut).
        const SINGULAR = 1 << 2;
        /// ProbCut: a capture that beats beta by a margin at reduced depth.
        const PROBCUT = 1 << 3;
        /// Razoring: a capture search decides low-depth nodes far below alpha.
        const RAZOR = 1 << 4;
        /// One ply more or less in the full-depth search after a reduced one.
        const DEEPER = 1 << 5;
        /// A history bonus for a quiet table move that cuts off from the table.
        const TT_HIST = 1 << 6;
        /// The table's value as the stand-pat score in quiescence.
        const QS_TT_EVAL = 1 << 7;
        /// Correcting the static evaluation by the correction history.
        const CORRECTION = 1 << 8;
        /// Pruning quiet moves with a bad history at low depth.
        const HIST_PRUNE = 1 << 9;
        /// Reducing less at nodes the table saw on a principal variation.
        const TT_PV = 1 << 10;
        /// Two plies of singular extension when the table move is far better.
        const DOUBLE_EXT = 1 << 11;
    }
}

impl Disabled {
    /// Parses a comma-separated list of feature names (case-insensitive;
    /// blanks ignored).
    pub fn parse(list: &str) -> Result<Disabled, String> {
        let mut d = Disabled::empty();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            d |= Disabled::from_name(&name.to_ascii_uppercase()).ok_or_else(|| {
                format!(
                    "unknown feature '{name}' (known: {})",
                    Disabled::all().names()
                )
            })?;
        }
        Ok(d)
    }

    /// The names of the switches set, lower case, comma-separated.
    pub fn names(self) -> String {
        self.iter_names()
            .map(|(n, _)| n.to_ascii_lowercase())
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The switches from the environment, read once per process, and what
    /// to tell the user about them: `None` when the variable is unset or
    /// empty, else the switches obeyed or why the list was refused.
    pub fn from_env() -> (Disabled, Option<&'static str>) {
        static CACHE: OnceLock<(Disabled, Option<String>)> = OnceLock::new();
        let (d, note) = CACHE.get_or_init(|| match std::env::var(ENV_VAR) {
            Ok(list) if !list.trim().is_empty() => match Disabled::parse(&list) {
                Ok(d) => (
                    d,
                    Some(format!(
                        "{ENV_VAR}: switched off for an ablation test: {}",
                        d.names()
                    )),
                ),
                Err(e) => (
                    Disabled::empty(),
                    Some(format!("{ENV_VAR}: {e}; every feature stays on")),
                ),
            },
            _ => (Disabled::empty(), None),
        });
        (*d, note.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lists() {
        assert_eq!(Disabled::parse(""), Ok(Disabled::empty()));
        let d = Disabled::parse(" SINGULAR, tt_pv ,").unwrap();
        assert_eq!(d, Disabled::SINGULAR | Disabled::TT_PV);
        assert_eq!(d.names(), "singular,tt_pv");
        let e = Disabled::parse("singular,bogus").unwrap_err();
        assert!(e.contains("'bogus'") && e.contains("probcut"), "{e}");
        // Retired switches are refused, not ignored.
        assert!(Disabled::parse("lmr").is_err());
    }

    #[test]
    fn every_name_parses_to_its_flag() {
        for (name, flag) in Disabled::all().iter_names() {
            assert_eq!(Disabled::parse(&name.to_ascii_lowercase()), Ok(flag));
        }
    }
}
