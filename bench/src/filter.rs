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

    /// Reads the filter's options from `--skip-plies N`, `--max-score N`,
    /// `--keep-noisy` and `--keep-check`; returns whether `flag` was one of
    /// them (taking its value from `value` if it needs one).
    pub fn parse_flag(
        &mut self,
        flag: &str,
        value: impl FnOnce() -> Result<String, String>,
    ) -> Result<bool, String> {
        let num = |v: String| {
            v.parse::<u32>()
                .map_err(|_| format!("bad value '{v}' for {flag}"))
        };
        match flag {
            "--skip-plies" => self.skip_plies = num(value()?)? as usize,
            "--max-score" => self.max_score = num(value()?)? as i32,
            "--keep-noisy" => self.quiet_only = false,
            "--keep-check" => self.skip_check = false,
            _ => return Ok(false),
        }
        Ok(true)
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
        let mut g = Filter::default();
        assert!(g.parse_flag("--keep-noisy", || unreachable!()).unwrap());
        assert!(g.parse_flag("--skip-plies", || Ok("2".into())).unwrap());
        assert!(!g.parse_flag("--other", || unreachable!()).unwrap());
        assert!(g.parse_flag("--max-score", || Ok("x".into())).is_err());
        assert!(g.accepts(&scored(kiwi, "e5f7", 30, 2)));
    }
}
