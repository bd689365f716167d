//! Switches that turn single search features off, to measure in self-play
//! what each one is worth (an ablation test):
//!
//! ```sh
//! CASTELLA_DISABLE=nmp,lmr castella
//! ```
//!
//! Evaluation terms can be named there too (`mobility`, `king`, ... see
//! [`castella_eval::switchable_terms`]). The variable is read once, when the
//! first searcher is made. Engine users never need it; with it unset every
//! feature is on.

use std::sync::OnceLock;

/// The environment variable that lists the features to turn off.
pub const ENV_VAR: &str = "CASTELLA_DISABLE";

/// Which features are turned off. `Default` is everything on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Disabled {
    /// Aspiration windows at the root.
    pub aspiration: bool,
    /// Reverse futility pruning (static null move).
    pub rfp: bool,
    /// Null-move pruning.
    pub nmp: bool,
    /// Internal iterative reduction.
    pub iir: bool,
    /// Late-move pruning (move-count based).
    pub lmp: bool,
    /// Futility pruning of quiet moves.
    pub futility: bool,
    /// SEE pruning of quiet moves and bad captures.
    pub see: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Check extension.
    pub check_ext: bool,
    /// Killer and counter-move ordering.
    pub killers: bool,
    /// Continuation history (ordering and reductions).
    pub cont_hist: bool,
    /// Damping the static evaluation by the fifty-move counter.
    pub rule50: bool,
    /// Singular extensions (and multi-cut).
    pub singular: bool,
    /// ProbCut: a capture that beats beta by a margin at reduced depth.
    pub probcut: bool,
    /// Razoring: a capture search decides low-depth nodes far below alpha.
    pub razor: bool,
    /// One ply more or less in the full-depth search after a reduced one.
    pub deeper: bool,
    /// A history bonus for a quiet table move that cuts off from the table.
    pub tt_hist: bool,
    /// The table's value as the stand-pat score in quiescence.
    pub qs_tt_eval: bool,
    /// Correcting the static evaluation by the correction history.
    pub correction: bool,
    /// Pruning quiet moves with a bad history at low depth.
    pub hist_prune: bool,
    /// Reducing less at nodes the table saw on a principal variation.
    pub tt_pv: bool,
    /// Two plies of singular extension when the table move is far better.
    pub double_ext: bool,
    /// The network evaluation: with it off the search uses the
    /// hand-written evaluation, whose terms the switches below name.
    pub nnue: bool,
    /// Evaluation terms to switch off (an OR of
    /// [`castella_eval::term_switch`] values).
    pub eval_terms: u32,
}

impl Disabled {
    /// Every name [`Disabled::parse`] accepts, in field order.
    pub const NAMES: [&'static str; 23] = [
        "aspiration",
        "rfp",
        "nmp",
        "iir",
        "lmp",
        "futility",
        "see",
        "lmr",
        "check_ext",
        "killers",
        "cont_hist",
        "rule50",
        "singular",
        "probcut",
        "razor",
        "deeper",
        "tt_hist",
        "qs_tt_eval",
        "correction",
        "hist_prune",
        "tt_pv",
        "double_ext",
        "nnue",
    ];

    /// Parses a comma-separated list of feature names (case-insensitive;
    /// blanks ignored).
    pub fn parse(list: &str) -> Result<Disabled, String> {
        let mut d = Disabled::default();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let flag = match name.to_ascii_lowercase().as_str() {
                "aspiration" => &mut d.aspiration,
                "rfp" => &mut d.rfp,
                "nmp" => &mut d.nmp,
                "iir" => &mut d.iir,
                "lmp" => &mut d.lmp,
                "futility" => &mut d.futility,
                "see" => &mut d.see,
                "lmr" => &mut d.lmr,
                "check_ext" => &mut d.check_ext,
                "killers" => &mut d.killers,
                "cont_hist" => &mut d.cont_hist,
                "rule50" => &mut d.rule50,
                "singular" => &mut d.singular,
                "probcut" => &mut d.probcut,
                "razor" => &mut d.razor,
                "deeper" => &mut d.deeper,
                "tt_hist" => &mut d.tt_hist,
                "qs_tt_eval" => &mut d.qs_tt_eval,
                "correction" => &mut d.correction,
                "hist_prune" => &mut d.hist_prune,
                "tt_pv" => &mut d.tt_pv,
                "double_ext" => &mut d.double_ext,
                "nnue" => &mut d.nnue,
                lower => {
                    let Some(switch) = castella_eval::term_switch(lower) else {
                        let terms: Vec<&str> = castella_eval::switchable_terms().collect();
                        return Err(format!(
                            "unknown feature '{name}' (known: {}; evaluation terms: {})",
                            Disabled::NAMES.join(", "),
                            terms.join(", ")
                        ));
                    };
                    d.eval_terms |= switch;
                    continue;
                }
            };
            *flag = true;
        }
        Ok(d)
    }

    /// The switches from the environment, read once per process; the
    /// evaluation terms among them are switched off in the evaluation then.
    /// A bad list is reported on stderr and ignored.
    pub fn from_env() -> Disabled {
        static CACHE: OnceLock<Disabled> = OnceLock::new();
        *CACHE.get_or_init(|| {
            let d = match std::env::var(ENV_VAR) {
                Ok(list) => Disabled::parse(&list).unwrap_or_else(|e| {
                    eprintln!("{ENV_VAR}: {e}; every feature stays on");
                    Disabled::default()
                }),
                Err(_) => Disabled::default(),
            };
            castella_eval::switch_off_terms(d.eval_terms);
            d
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lists() {
        assert_eq!(Disabled::parse(""), Ok(Disabled::default()));
        let d = Disabled::parse(" NMP, lmr ,").unwrap();
        assert!(d.nmp && d.lmr && !d.rfp);
        assert!(Disabled::parse("nmp,bogus").is_err());
        let d = Disabled::parse("Mobility,tempo,lmr").unwrap();
        let switch = |n| castella_eval::term_switch(n).unwrap();
        assert!(d.lmr && d.eval_terms == switch("mobility") | switch("tempo"));
    }

    #[test]
    fn every_name_parses_to_one_switch() {
        for name in Disabled::NAMES {
            let d = Disabled::parse(name).unwrap();
            assert_ne!(d, Disabled::default(), "{name}");
        }
        for name in castella_eval::switchable_terms() {
            assert_ne!(Disabled::parse(name).unwrap().eval_terms, 0, "{name}");
        }
    }
}
