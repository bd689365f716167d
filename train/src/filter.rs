//! Which scored positions make training data. Applied when data is
//! loaded, never when it is written, so old games serve new filters.

use crate::games::Scored;

/// The rules a position must pass to be trained on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Filter {
    /// Skip the first plies after the random opening: still noisy.
    pub skip_plies: usize,
    /// Skip positions whose score is beyond this; mate scores (30 000 and
    /// more) are, unless it is raised past them.
    pub max_score: i32,
    /// Skip positions where the engine's move captures or promotes: the
    /// score belongs to the position after the exchange, not this one.
    pub quiet_only: bool,
    /// Skip positions with the side to move in check.
    pub skip_check: bool,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            skip_plies: 8,
            max_score: 10_000,
            quiet_only: true,
            skip_check: true,
        }
    }
}

impl Filter {
    /// Every labelled position passes: for counting and dumping raw data.
    pub const NONE: Filter = Filter {
        skip_plies: 0,
        max_score: i32::MAX,
        quiet_only: false,
        skip_check: false,
    };

    /// Whether `s` passes. A position without a label never does.
    pub fn accepts(&self, s: &Scored) -> bool {
        let score = s.score as i32;
        s.labelled()
            && s.ply >= self.skip_plies
            && score.abs() <= self.max_score
            && !(self.quiet_only && s.pos.is_noisy(s.mv))
            && !(self.skip_check && s.pos.in_check())
    }

    /// The filter's command-line options, for the tools that read games.
    pub fn args() -> [clap::Arg; 4] {
        use clap::{value_parser, Arg, ArgAction};
        let d = Filter::default();
        [
            Arg::new("skip-plies")
                .long("skip-plies")
                .value_name("N")
                .value_parser(value_parser!(u32))
                .help_heading("Positions")
                .help(format!(
                    "leave out each game's first N plies (default {})",
                    d.skip_plies
                )),
            Arg::new("max-score")
                .long("max-score")
                .value_name("CP")
                .value_parser(value_parser!(u32))
                .help_heading("Positions")
                .help(format!(
                    "leave out scores beyond this (default {})",
                    d.max_score
                )),
            Arg::new("keep-noisy")
                .long("keep-noisy")
                .action(ArgAction::SetTrue)
                .help_heading("Positions")
                .help("keep positions whose move captures or promotes"),
            Arg::new("keep-check")
                .long("keep-check")
                .action(ArgAction::SetTrue)
                .help_heading("Positions")
                .help("keep positions in check"),
        ]
    }

    /// `base` with the options of [`Filter::args`] that were given.
    pub fn from_matches(m: &clap::ArgMatches, base: Filter) -> Filter {
        Filter {
            skip_plies: m
                .get_one::<u32>("skip-plies")
                .map_or(base.skip_plies, |&n| n as usize),
            max_score: m
                .get_one::<u32>("max-score")
                .map_or(base.max_score, |&n| n as i32),
            quiet_only: base.quiet_only && !m.get_flag("keep-noisy"),
            skip_check: base.skip_check && !m.get_flag("keep-check"),
        }
    }

    /// Whether any option of [`Filter::args`] was given.
    pub fn given(m: &clap::ArgMatches) -> bool {
        ["skip-plies", "max-score", "keep-noisy", "keep-check"]
            .iter()
            .any(|id| m.value_source(id) == Some(clap::parser::ValueSource::CommandLine))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use castella_movegen::Position;

    fn scored(fen: &str, mv: &str, score: i16, ply: usize) -> Scored {
        let pos = Position::from_fen(fen).unwrap();
        let mv = pos.parse_uci_move(mv).unwrap();
        Scored {
            pos,
            mv,
            score,
            ply,
        }
    }

    #[test]
    fn the_default_filter_keeps_quiet_scored_positions() {
        let f = Filter::default();
        let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert!(f.accepts(&scored(kiwi, "a2a3", 30, 8)));
        assert!(!f.accepts(&scored(kiwi, "a2a3", 30, 7)), "an early ply");
        assert!(!f.accepts(&scored(kiwi, "e5f7", 30, 8)), "a capture");
        assert!(!f.accepts(&scored(kiwi, "a2a3", 30_900, 8)), "a mate score");
        assert!(!f.accepts(&scored(kiwi, "a2a3", -10_001, 8)), "too large");
        let check = "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1";
        assert!(!f.accepts(&scored(check, "e1e2", 0, 9)), "in check");
        assert!(Filter::NONE.accepts(&scored(check, "e1e2", 30_900, 0)));
        let unlabelled = scored(kiwi, "a2a3", crate::games::NO_SCORE, 8);
        assert!(!f.accepts(&unlabelled) && !Filter::NONE.accepts(&unlabelled));
    }

    /// The options given on a command line change the filter they are
    /// applied to; those not given leave it.
    #[test]
    fn command_line_options_adjust_a_filter() {
        let cmd = clap::Command::new("t").args(Filter::args());
        let m = cmd
            .clone()
            .try_get_matches_from(["t", "--keep-noisy", "--skip-plies", "2"])
            .unwrap();
        assert!(Filter::given(&m));
        let g = Filter::from_matches(&m, Filter::default());
        assert_eq!(
            g,
            Filter {
                skip_plies: 2,
                quiet_only: false,
                ..Filter::default()
            }
        );
        let none = cmd.clone().try_get_matches_from(["t"]).unwrap();
        assert!(!Filter::given(&none));
        assert_eq!(Filter::from_matches(&none, Filter::NONE), Filter::NONE);
        assert!(cmd.try_get_matches_from(["t", "--max-score", "x"]).is_err());
    }
}
