//! One self-play game for training data: a random opening, then the
//! engine's search for both sides until the rules or adjudication end it.

use crate::games::{Game, GameResult, Termination, NO_SCORE};
use castella_engine::draw::is_insufficient_material;
use castella_engine::{Engine, Limits, Options};
use castella_movegen::{Color, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// How games are played.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The search starts no new iteration past this many nodes.
    pub soft_nodes: u64,
    /// And never searches more than this many.
    pub hard_nodes: u64,
    /// The share of games from a Double-FRC pair of back ranks; the rest
    /// start from one Chess960 position for both sides.
    pub dfrc: f64,
    /// Random plies before the engine takes over: this many or one more
    /// (so either side may be first to move).
    pub random_plies: usize,
    /// An opening whose verification search scores beyond this is thrown
    /// away: a game decided before it starts teaches little.
    pub max_opening_score: i32,
    /// The share of positions searched at `soft_nodes` for a label; the
    /// others are played from a search at `fast_nodes` and stored without
    /// a score. A file's worth is mostly in its number of games (docs/training-log.md,
    /// round 34), and cheap moves between labels make
    /// more games an hour.
    pub label_share: f64,
    /// The soft node limit of the moves not labelled (by default
    /// [`Settings::fast_nodes_for`] the label's).
    pub fast_nodes: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        let soft_nodes = 5000;
        Settings {
            soft_nodes,
            hard_nodes: 100_000,
            dfrc: 0.8,
            random_plies: 8,
            max_opening_score: 1000,
            label_share: 1.0,
            fast_nodes: Settings::fast_nodes_for(soft_nodes),
        }
    }
}

impl Settings {
    /// The default soft node limit of unlabelled moves: a quarter of the
    /// labels' (docs/training-log.md, round 34).
    pub const fn fast_nodes_for(soft_nodes: u64) -> u64 {
        if soft_nodes < 4 {
            1
        } else {
            soft_nodes / 4
        }
    }

    /// Whether every position is searched for a label.
    fn labels_all(&self) -> bool {
        self.label_share >= 1.0
    }

    /// The settings as the text stored in a game file's header; a run can
    /// be resumed only with the same text. The labelling settings appear
    /// only when some positions go without a label, so files made before
    /// they existed resume.
    pub fn describe(&self, seed: u64) -> String {
        let labels = if self.labels_all() {
            String::new()
        } else {
            format!(
                " label-share={} fast-nodes={}",
                self.label_share, self.fast_nodes
            )
        };
        format!(
            "seed={seed} soft-nodes={} hard-nodes={} dfrc={} random-plies={} \
             max-opening-score={}{labels} generator=castella-{}",
            self.soft_nodes,
            self.hard_nodes,
            self.dfrc,
            self.random_plies,
            self.max_opening_score,
            env!("CARGO_PKG_VERSION")
        )
    }
}

/// Adjudication, as match runners do it: a win once one side's score has
/// stayed beyond `WIN_SCORE` for `WIN_PLIES` plies; a draw once the score
/// has stayed within `DRAW_SCORE` for `DRAW_PLIES` plies from ply
/// `DRAW_FROM_PLY` on; a draw at `MAX_PLIES`.
const WIN_SCORE: i32 = 1500;
const WIN_PLIES: usize = 6;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: usize = 12;
const DRAW_FROM_PLY: usize = 80;
const MAX_PLIES: usize = 500;

/// The random number generator of game `index` of the run seeded `seed`:
/// every game is the same whichever thread plays it, and whenever.
fn game_rng(seed: u64, index: u32) -> StdRng {
    StdRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64)
}

/// Plays game `index` of the run seeded `seed`; `None` if its opening was
/// thrown away (already lost for one side, or no legal move left).
pub fn play(index: u32, seed: u64, settings: &Settings) -> Option<Game> {
    let mut rng = game_rng(seed, index);
    let white = rng.gen_range(0..960u16);
    let black = if rng.gen_bool(settings.dfrc.clamp(0.0, 1.0)) {
        rng.gen_range(0..960u16)
    } else {
        white
    };
    let mut pos = Position::double_chess960(white, black)?;
    let mut keys: Vec<u64> = Vec::new();
    let mut opening = Vec::new();
    for _ in 0..settings.random_plies + rng.gen_range(0..2) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        opening.push(mv);
        keys.push(pos.key());
        pos.make(mv);
    }
    if pos.legal_moves().is_empty() {
        return None;
    }

    let mut engine = Engine::silent(Options::fixed(16, 1)).ok()?;
    let limits = Limits {
        nodes: Some(settings.hard_nodes.max(settings.soft_nodes)),
        soft_nodes: Some(settings.soft_nodes),
        ..Default::default()
    };
    let fast_limits = Limits {
        soft_nodes: Some(settings.fast_nodes),
        ..limits.clone()
    };
    let (verify, _) = engine.search_sync(&pos, &keys, &limits);
    if verify.score.abs() > settings.max_opening_score {
        return None;
    }
    engine.clear();

    let mut moves = Vec::new();
    let (mut win_run, mut draw_run) = (0usize, 0usize);
    let mut last_white_score = 0i32;
    let (outcome, termination) = loop {
        if pos.legal_moves().is_empty() {
            break if pos.in_check() {
                (
                    GameResult::win_for(!pos.side_to_move()),
                    Termination::Checkmate,
                )
            } else {
                (GameResult::Draw, Termination::Stalemate)
            };
        }
        if keys.iter().filter(|&&k| k == pos.key()).count() >= 2 {
            break (GameResult::Draw, Termination::Repetition);
        }
        if pos.halfmove_clock() >= 100 {
            break (GameResult::Draw, Termination::FiftyMoves);
        }
        if is_insufficient_material(&pos) {
            break (GameResult::Draw, Termination::InsufficientMaterial);
        }
        if moves.len() >= MAX_PLIES {
            break (GameResult::Draw, Termination::MaxPlies);
        }

        let labelled = settings.labels_all() || rng.gen_bool(settings.label_share.max(0.0));
        let (result, _) =
            engine.search_sync(&pos, &keys, if labelled { &limits } else { &fast_limits });
        if !pos.is_legal(result.best) {
            // Cannot happen (the search returns a legal move whenever one
            // exists), but a tool should not write a game it cannot replay.
            return None;
        }
        let score = result.score;
        let stored = if labelled {
            score.clamp(NO_SCORE as i32 + 1, i16::MAX as i32) as i16
        } else {
            NO_SCORE
        };
        moves.push((result.best, stored));

        let white_score = if pos.side_to_move() == Color::White {
            score
        } else {
            -score
        };
        let decisive = white_score.abs() >= WIN_SCORE;
        win_run = if decisive && white_score.signum() == last_white_score.signum() {
            win_run + 1
        } else {
            decisive as usize
        };
        last_white_score = white_score;
        draw_run = if white_score.abs() <= DRAW_SCORE {
            draw_run + 1
        } else {
            0
        };
        if win_run >= WIN_PLIES {
            let winner = if white_score > 0 {
                Color::White
            } else {
                Color::Black
            };
            break (GameResult::win_for(winner), Termination::AdjudicatedWin);
        }
        if moves.len() >= DRAW_FROM_PLY && draw_run >= DRAW_PLIES {
            break (GameResult::Draw, Termination::AdjudicatedDraw);
        }
        keys.push(pos.key());
        pos.make(result.best);
    };
    Some(Game {
        index,
        back_ranks: (white, black),
        opening,
        outcome,
        termination,
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_legal_scored_and_repeatable() {
        let settings = Settings {
            soft_nodes: 300,
            hard_nodes: 3000,
            ..Settings::default()
        };
        let games: Vec<Game> = (0..3).filter_map(|i| play(i, 3, &settings)).collect();
        assert!(!games.is_empty());
        for g in &games {
            assert!(!g.moves.is_empty());
            assert!((8..=9).contains(&g.opening.len()));
            let mut last = None;
            g.for_each_position(|s| last = Some(s.pos.play(s.mv)))
                .unwrap();
            let end = last.unwrap();
            // The last position is where the game ended, as recorded.
            match g.termination {
                Termination::Checkmate => {
                    assert!(end.in_check() && end.legal_moves().is_empty());
                    assert_eq!(g.outcome, GameResult::win_for(!end.side_to_move()));
                }
                Termination::Stalemate => assert!(end.legal_moves().is_empty()),
                Termination::FiftyMoves => assert!(end.halfmove_clock() >= 100),
                _ => {}
            }
        }
        assert_eq!(play(0, 3, &settings), play(0, 3, &settings), "same seed");
        assert_ne!(play(0, 3, &settings), play(0, 4, &settings), "other seed");
        assert!(games.iter().all(|g| g.labelled() == g.moves.len()));
    }

    /// With a label share below one, about that share of the positions
    /// carries a score and the rest none; the games are still repeatable,
    /// and the settings say how they were made.
    #[test]
    fn a_label_share_leaves_the_other_positions_unscored() {
        let settings = Settings {
            soft_nodes: 300,
            hard_nodes: 3000,
            label_share: 0.25,
            fast_nodes: 100,
            ..Settings::default()
        };
        let games: Vec<Game> = (0..6).filter_map(|i| play(i, 5, &settings)).collect();
        let positions: usize = games.iter().map(|g| g.moves.len()).sum();
        let labelled: usize = games.iter().map(Game::labelled).sum();
        let share = labelled as f64 / positions as f64;
        assert!(positions >= 100, "{positions} positions");
        assert!((0.1..0.4).contains(&share), "{labelled} of {positions}");
        assert_eq!(play(1, 5, &settings), play(1, 5, &settings));
        let text = settings.describe(5);
        assert!(text.contains("label-share=0.25 fast-nodes=100"), "{text}");
        assert!(!Settings::default().describe(5).contains("label-share"));
    }
}
