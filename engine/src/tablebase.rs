//! Syzygy endgame tablebases: win/draw/loss probes inside the search and
//! distance-to-zero ranking of the root moves.
//!
//! The prober is `shakmaty-syzygy` (safe Rust, GPL-3.0-or-later like
//! Castella, by the author of python-chess's prober): a damaged or foreign
//! file gives an error, never a crash, and the table handles are safe to
//! share between search threads. Positions are handed over as FEN, which
//! costs a few microseconds; the search probes only after captures and
//! pawn moves, with few pieces left, so that is rare.

use crate::value::TB_WIN;
use castella_movegen::{Move, Piece, Position};
use shakmaty::{CastlingMode, Chess};
use shakmaty_syzygy::{Tablebase, Wdl};

/// The outcome a probe promises the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    Loss,
    /// A loss the fifty-move rule turns into a draw.
    BlessedLoss,
    Draw,
    /// A win the fifty-move rule turns into a draw.
    CursedWin,
    Win,
}

/// The distance given to a move whose DTZ cannot be probed.
const UNKNOWN_DISTANCE: u32 = 10_000;

impl Outcome {
    /// The same result seen from the other side.
    fn flipped(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::BlessedLoss => Outcome::CursedWin,
            Outcome::Draw => Outcome::Draw,
            Outcome::CursedWin => Outcome::BlessedLoss,
            Outcome::Win => Outcome::Loss,
        }
    }

    fn from_wdl(wdl: Wdl) -> Outcome {
        match wdl {
            Wdl::Loss => Outcome::Loss,
            Wdl::BlessedLoss => Outcome::BlessedLoss,
            Wdl::Draw => Outcome::Draw,
            Wdl::CursedWin => Outcome::CursedWin,
            Wdl::Win => Outcome::Win,
        }
    }

    /// The search value of this outcome at `ply`; with `rule50` cursed
    /// wins and blessed losses are draws (a hair from zero, so that the
    /// better side still plays on).
    pub fn value(self, ply: usize, rule50: bool) -> i32 {
        let win = TB_WIN - ply as i32;
        match (self, rule50) {
            (Outcome::Win, _) | (Outcome::CursedWin, false) => win,
            (Outcome::Loss, _) | (Outcome::BlessedLoss, false) => -win,
            (Outcome::CursedWin, true) => 1,
            (Outcome::BlessedLoss, true) => -1,
            (Outcome::Draw, _) => 0,
        }
    }
}

/// How the search uses the tables (UCI `SyzygyProbeDepth`,
/// `Syzygy50MoveRule`, `SyzygyProbeLimit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeOptions {
    /// Probe inside the search only from this depth on (at the largest
    /// piece count; fewer pieces are probed at any depth).
    pub depth: i32,
    /// Whether the fifty-move rule counts: cursed wins are draws then.
    pub rule50: bool,
    /// Probe positions of at most this many pieces.
    pub limit: usize,
}

impl Default for ProbeOptions {
    fn default() -> ProbeOptions {
        ProbeOptions {
            depth: 1,
            rule50: true,
            limit: 7,
        }
    }
}

/// Loaded tables.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    files: usize,
}

/// Whether `path` looks like a whole Syzygy file of its kind: the right
/// magic number, and the size every table has (16 bytes past a multiple
/// of 64). The prober reports damage found later as a failed probe.
fn check_file(path: &std::path::Path, kind: &str) -> Result<(), String> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let size = file.metadata().map_err(|e| e.to_string())?.len();
    let mut magic = [0u8; 4];
    file.read_exact(&mut magic)
        .map_err(|_| "too short to be a table".to_string())?;
    let expected: [u8; 4] = if kind == "rtbw" {
        [0x71, 0xe8, 0x23, 0x5d]
    } else {
        [0xd7, 0x66, 0x0c, 0xa5]
    };
    if magic != expected {
        return Err("not a Syzygy table (bad magic)".into());
    }
    if size % 64 != 16 {
        return Err(format!("truncated ({size} bytes)"));
    }
    Ok(())
}

impl Tablebases {
    /// Opens the tables in `paths` (directories separated by `:`, or `;`
    /// on Windows). Returns the tables, if any were found, and a line of
    /// news for each directory (how many files, or why none).
    pub fn open(paths: &str) -> (Option<Tablebases>, Vec<String>) {
        let separator = if cfg!(windows) { ';' } else { ':' };
        let mut tables = Tablebase::new();
        let mut files = 0;
        let mut news = Vec::new();
        for dir in paths
            .split(separator)
            .map(str::trim)
            .filter(|d| !d.is_empty())
        {
            let entries = match std::fs::read_dir(dir) {
                Ok(e) => e,
                Err(e) => {
                    news.push(format!("SyzygyPath {dir}: {e}"));
                    continue;
                }
            };
            let mut found = 0;
            let mut names: Vec<std::path::PathBuf> = entries.flatten().map(|e| e.path()).collect();
            names.sort();
            for path in names {
                let Some(kind) = path.extension().and_then(|e| e.to_str()) else {
                    continue;
                };
                if kind != "rtbw" && kind != "rtbz" {
                    continue;
                }
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
                if let Err(why) = check_file(&path, kind) {
                    news.push(format!("SyzygyPath {dir}: skipped {name}: {why}"));
                    continue;
                }
                match tables.add_file(&path) {
                    Ok(()) => found += 1,
                    Err(e) => news.push(format!("SyzygyPath {dir}: skipped {name}: {e}")),
                }
            }
            news.push(if found == 0 {
                format!("SyzygyPath {dir}: no tablebase files there")
            } else {
                format!("SyzygyPath {dir}: {found} tablebase files")
            });
            files += found;
        }
        if files == 0 {
            return (None, news);
        }
        (Some(Tablebases { tables, files }), news)
    }

    /// How many files were opened.
    pub fn files(&self) -> usize {
        self.files
    }

    /// The most pieces (kings included) any opened table holds.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// The position in the prober's terms, built from the bitboards (no
    /// castling rights: the callers make sure there are none).
    fn convert(pos: &Position) -> Option<Chess> {
        use castella_movegen::{Color, Piece};
        use shakmaty::{Bitboard as Bb, ByColor, ByRole};
        let bb = |b: castella_movegen::Bitboard| Bb(b.0);
        let by_role = ByRole {
            pawn: bb(pos.pieces(Piece::Pawn)),
            knight: bb(pos.pieces(Piece::Knight)),
            bishop: bb(pos.pieces(Piece::Bishop)),
            rook: bb(pos.pieces(Piece::Rook)),
            queen: bb(pos.pieces(Piece::Queen)),
            king: bb(pos.pieces(Piece::King)),
        };
        let by_color = ByColor {
            white: bb(pos.color(Color::White)),
            black: bb(pos.color(Color::Black)),
        };
        let setup = shakmaty::Setup {
            board: shakmaty::Board::try_from_bitboards(by_role, by_color).ok()?,
            turn: match pos.side_to_move() {
                Color::White => shakmaty::Color::White,
                Color::Black => shakmaty::Color::Black,
            },
            ep_square: pos
                .ep_square()
                .map(|sq| shakmaty::Square::new(sq.index() as u32)),
            halfmoves: pos.halfmove_clock() as u32,
            ..shakmaty::Setup::empty()
        };
        // Checks no legal game reaches (two knights, say) are still
        // positions the tables cover.
        <Chess as shakmaty::FromSetup>::from_setup(setup, CastlingMode::Chess960)
            .or_else(shakmaty::PositionError::ignore_impossible_check)
            .or_else(shakmaty::PositionError::ignore_invalid_ep_square)
            .ok()
    }

    /// The outcome for the side to move, for a position reached by a
    /// capture or pawn move (fifty-move counter zero) without castling
    /// rights; `None` when the tables cannot tell (missing, damaged).
    pub fn probe_wdl(&self, pos: &Position) -> Option<Outcome> {
        let chess = Self::convert(pos)?;
        self.tables
            .probe_wdl_after_zeroing(&chess)
            .ok()
            .map(Outcome::from_wdl)
    }

    /// The distance to zeroing for the side to move (negative when it
    /// loses, as Syzygy counts it; possibly rounded by one, see
    /// `shakmaty_syzygy::MaybeRounded`); `None` when the tables cannot tell.
    pub fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        let chess = Self::convert(pos)?;
        Some(self.tables.probe_dtz(&chess).ok()?.ignore_rounding().0)
    }

    /// The outcome as an integer, as python-chess's `probe_wdl` gives it
    /// (−2 loss, −1 blessed loss, 0 draw, 1 cursed win, 2 win).
    pub fn wdl_number(outcome: Outcome) -> i32 {
        outcome as i32 - 2
    }

    /// The root moves that keep the best outcome the tables promise, and
    /// that outcome; among winning moves only those that reach the next
    /// capture or pawn move soonest (so a won ending is converted), among
    /// losing ones those that delay it longest (a move whose distance
    /// cannot be probed ranks by its WDL outcome, behind the known
    /// distances, or first when it is a capture or pawn move that keeps
    /// the win). `None` when the position is not in the tables, or some
    /// move cannot be probed at all and no known move keeps a win; then
    /// the search decides alone.
    pub fn rank_root(&self, root: &Position, rule50: bool) -> Option<(Vec<Move>, Outcome)> {
        if !root.castling().is_empty() {
            return None;
        }
        let moves = root.legal_moves();
        if moves.is_empty() || root.occupied().count() as usize > self.max_pieces() {
            return None;
        }
        // Each move's outcome for us, and its distance to zeroing in plies.
        let mut scored = Vec::with_capacity(moves.len());
        let mut unknown = Vec::new();
        for &mv in moves.iter() {
            let child = root.play(mv);
            let chess = Self::convert(&child)?;
            let zeroing = root.is_noisy(mv) || root.piece_on(mv.from()) == Some(Piece::Pawn);
            let (outcome, distance) = match self.tables.probe_dtz(&chess) {
                Ok(d) => {
                    let dtz = d.ignore_rounding().0;
                    // The child's side loses when its DTZ is negative.
                    let plies = dtz.unsigned_abs() as u16 + child.halfmove_clock();
                    let outcome = match dtz.signum() {
                        -1 if rule50 && plies > 100 => Outcome::CursedWin,
                        -1 => Outcome::Win,
                        1 if rule50 && plies > 100 => Outcome::BlessedLoss,
                        1 => Outcome::Loss,
                        // Zero: a draw, or the child is mate or stalemate.
                        _ if child.in_check() && child.legal_moves().is_empty() => Outcome::Win,
                        _ => Outcome::Draw,
                    };
                    // A capture or pawn move that keeps the win has reached
                    // the zeroing move the distance counts to: the fastest.
                    let distance = if zeroing && dtz < 0 {
                        0
                    } else {
                        dtz.unsigned_abs()
                    };
                    (outcome, distance)
                }
                // No distance (a table the DTZ probe needs is not in the
                // set, say one an under-promotion leads to): the move's
                // outcome from the WDL table, ranked behind every known
                // distance unless it is itself the zeroing move.
                Err(_) => match self.tables.probe_wdl_after_zeroing(&chess) {
                    Ok(wdl) => {
                        let outcome = Outcome::from_wdl(wdl).flipped();
                        let fastest = zeroing && outcome == Outcome::Win;
                        (outcome, if fastest { 0 } else { UNKNOWN_DISTANCE })
                    }
                    // Neither (a promotion into a missing table): set
                    // aside, kept only if no known move keeps a win.
                    Err(_) => {
                        unknown.push(mv);
                        continue;
                    }
                },
            };
            scored.push((mv, outcome, distance));
        }
        let best = scored.iter().map(|s| s.1).max();
        if !unknown.is_empty() && best.is_none_or(|b| b != Outcome::Win) {
            // What the unknown moves lead to cannot be told, so none of
            // the known ones may be ruled out: the search decides alone.
            return None;
        }
        let best = best?;
        scored.retain(|s| s.1 == best);
        let key = |d: u32| match best {
            Outcome::Win | Outcome::CursedWin => d as i64,
            _ => -(d as i64),
        };
        let target = scored.iter().map(|s| key(s.2)).min()?;
        // Where some distances are unknown, the fastest known one may not
        // be the fastest: then every move that keeps the outcome stays
        // (unless one zeroes at once) and the search, which sees the wins
        // behind captures and pawn moves, picks; the root avoids
        // repetitions.
        let partial = scored.iter().any(|s| s.2 == UNKNOWN_DISTANCE);
        if best != Outcome::Draw && (!partial || target == 0) {
            scored.retain(|s| key(s.2) == target);
        }
        Some((scored.into_iter().map(|s| s.0).collect(), best))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The repository's few tables (tests/data/syzygy: KQvK, KRvK, KBvK,
    /// KPvK and KRvKR).
    pub(crate) fn repo_tables() -> Tablebases {
        let dir = repo_dir();
        let (tb, news) = Tablebases::open(dir.to_str().expect("a UTF-8 path"));
        tb.unwrap_or_else(|| panic!("no tables in {}: {news:?}", dir.display()))
    }

    fn repo_dir() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/syzygy")
    }

    #[test]
    fn bad_paths_are_reported_not_fatal() {
        let (tb, news) = Tablebases::open("/nonexistent/syzygy:/");
        assert!(tb.is_none());
        assert_eq!(news.len(), 2, "{news:?}");
        assert!(news[0].contains("/nonexistent/syzygy"), "{news:?}");
        assert!(news[1].contains("no tablebase files"), "{news:?}");
        assert!(Tablebases::open("").0.is_none());
    }

    /// A truncated table and a foreign file are skipped with a reason; the
    /// good tables beside them still answer, and a probe of an ending
    /// whose table was skipped gives no answer rather than a crash.
    #[test]
    fn damaged_files_are_skipped() {
        let tables = repo_dir();
        let dir = std::env::temp_dir().join(format!("castella-syzygy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let krvk = std::fs::read(tables.join("KRvK.rtbw")).unwrap();
        std::fs::write(dir.join("KRvK.rtbw"), &krvk[..krvk.len() - 64 - 7]).unwrap();
        std::fs::write(
            dir.join("KQvK.rtbw"),
            b"definitely not a table, but 16+64 bytes long..........................",
        )
        .unwrap();
        std::fs::copy(tables.join("KBvK.rtbw"), dir.join("KBvK.rtbw")).unwrap();
        let (tb, news) = Tablebases::open(dir.to_str().unwrap());
        let text = news.join("\n");
        assert!(text.contains("skipped KRvK.rtbw: truncated"), "{text}");
        assert!(
            text.contains("skipped KQvK.rtbw: not a Syzygy table"),
            "{text}"
        );
        assert!(text.contains("1 tablebase files"), "{text}");
        let tb = tb.unwrap();
        let probe = |fen: &str| tb.probe_wdl(&Position::from_fen(fen).unwrap());
        assert_eq!(probe("8/8/8/4k3/8/8/8/3BK3 w - - 0 1"), Some(Outcome::Draw));
        assert_eq!(probe("8/8/8/4k3/8/8/8/3RK3 w - - 0 1"), None);
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Values checked with python-chess's prober (`chess.syzygy`) on the
    /// same files; `bench/tools/syzygy-compare.py` compares thousands more.
    #[test]
    fn probes_match_python_chess() {
        let tb = repo_tables();
        for (fen, wdl, dtz) in [
            ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", 2, 27),
            ("8/8/8/4k3/8/8/8/R3K3 b - - 0 1", -2, -28),
            ("8/8/8/3k4/8/8/2Q5/4K3 w - - 0 1", 2, 15),
            ("8/8/8/4k3/8/8/3KP3/8 w - - 0 1", 2, 9),
            ("8/8/4r3/4k3/8/8/8/R3K3 w - - 0 1", 0, 0),
            ("8/4k3/8/8/8/8/4P3/4K3 w - - 0 1", 0, 0),
            ("8/8/8/8/8/4k3/4p3/4K3 w - - 0 1", 0, 0),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let outcome = tb.probe_wdl(&pos).unwrap();
            assert_eq!(Tablebases::wdl_number(outcome), wdl, "{fen}");
            assert_eq!(tb.probe_dtz(&pos), Some(dtz), "{fen}");
        }
    }

    #[test]
    fn probes_known_endings() {
        let tb = repo_tables();
        assert!(tb.max_pieces() >= 4);
        let wdl = |fen: &str| tb.probe_wdl(&Position::from_fen(fen).unwrap());
        // KQ v K and KR v K: won for the strong side to move, lost for
        // the lone king.
        assert_eq!(wdl("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"), Some(Outcome::Win));
        assert_eq!(wdl("8/8/8/4k3/8/8/8/3RK3 b - - 0 1"), Some(Outcome::Loss));
        // K v K with a bare minor: a draw.
        assert_eq!(wdl("8/8/8/4k3/8/8/8/3BK3 w - - 0 1"), Some(Outcome::Draw));
        // Too many pieces: the tables cannot tell.
        assert_eq!(
            wdl("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
            None
        );
        // Castling rights: not in the tables.
        let castling = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        assert_eq!(tb.rank_root(&castling, true), None);
    }

    #[test]
    fn the_root_keeps_the_winning_moves_that_convert_fastest() {
        let tb = repo_tables();
        // KR v K: every move that keeps the win is a win; the kept ones
        // have the shortest distance to mate or capture.
        let pos = Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1").unwrap();
        let (moves, outcome) = tb.rank_root(&pos, true).unwrap();
        assert_eq!(outcome, Outcome::Win);
        assert!(!moves.is_empty() && moves.len() < pos.legal_moves().len());
        // KR v K, Black to move: every move loses; the longest resistance
        // is kept.
        let pos = Position::from_fen("8/8/8/4k3/8/8/8/R3K3 b - - 0 1").unwrap();
        let (moves, outcome) = tb.rank_root(&pos, true).unwrap();
        assert_eq!(outcome, Outcome::Loss);
        assert!(!moves.is_empty());
        // K+R v K+R: drawn; every drawing move stays.
        let pos = Position::from_fen("8/8/4r3/4k3/8/8/8/R3K3 w - - 0 1").unwrap();
        let (moves, outcome) = tb.rank_root(&pos, true).unwrap();
        assert_eq!(outcome, Outcome::Draw);
        assert!(moves.len() > 5);
    }

    /// The 5-piece tables of the endings below are 30 MB, too large for the
    /// repository: this test reads them from `CASTELLA_SYZYGY` or the
    /// project's ../shared/syzygy, and fails, saying so, without them.
    #[test]
    #[ignore = "needs the 5-piece KRPvKR tables (CASTELLA_SYZYGY=DIR)"]
    fn five_piece_roots_keep_every_winning_move() {
        let dir = std::env::var("CASTELLA_SYZYGY")
            .unwrap_or_else(|_| format!("{}/../../shared/syzygy", env!("CARGO_MANIFEST_DIR")));
        assert!(
            Path::new(&dir).join("KRPvKR.rtbw").is_file(),
            "no KRPvKR.rtbw in {dir}: set CASTELLA_SYZYGY to the absolute path of a folder of the \
             3- to 5-piece tables (tests run in engine/)"
        );
        let tb = Tablebases::open(&dir).0.expect("tables");
        // K+R+P v K+R where the DTZ of most moves needs KRRvKR (a rook
        // promotion), which is not in the set: the WDL table still ranks
        // them, and the three king moves that draw are left out.
        let pos = Position::from_fen("8/7P/3K2r1/8/8/8/R7/6k1 w - - 0 1").unwrap();
        let (moves, outcome) = tb.rank_root(&pos, true).unwrap();
        assert_eq!(outcome, Outcome::Win);
        for draw in ["d6e7", "d6d7", "d6c7"] {
            let mv = pos.parse_uci_move(draw).unwrap();
            assert!(!moves.contains(&mv), "{draw} draws");
        }
        // Games Castella drew by repetition against Stockfish: the pawn
        // push d6d7 (its DTZ needs KRRvKR, missing) is the fastest win;
        // d8=R cannot be probed at all, and most moves' DTZ needs KRRvKR:
        // every move that keeps the win stays, none that draws.
        let pos = Position::from_fen("8/5k2/2KP4/8/8/4R3/8/r7 w - - 7 11").unwrap();
        let (moves, outcome) = tb.rank_root(&pos, true).unwrap();
        assert_eq!(outcome, Outcome::Win);
        assert_eq!(moves, vec![pos.parse_uci_move("d6d7").unwrap()]);
        let pos = Position::from_fen("8/3P4/5R2/8/8/1K4r1/8/k7 w - - 4 3").unwrap();
        let (moves, outcome) = tb.rank_root(&pos, true).unwrap();
        assert_eq!(outcome, Outcome::Win);
        assert!(moves.len() > 1, "{moves:?}");
        for mv in &moves {
            let child = pos.play(*mv);
            let wdl = tb
                .tables
                .probe_wdl_after_zeroing(&Tablebases::convert(&child).unwrap());
            assert_eq!(wdl.ok(), Some(Wdl::Loss), "{mv:?}");
        }
    }

    /// With the tables the engine converts won endings before the
    /// fifty-move rule, playing both sides at 2 000 nodes a move: the
    /// loser resists as long as the tables allow.
    #[test]
    fn won_endings_are_converted() {
        for fen in [
            "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
            "8/8/8/3k4/8/8/2Q5/4K3 w - - 0 1",
            // Through a promotion into KQ v K.
            "8/8/8/4k3/8/8/3KP3/8 w - - 0 1",
        ] {
            let mut engine = crate::Engine::silent(crate::Options::fixed(16, 1)).unwrap();
            engine.set_tablebases(Some(repo_tables()));
            let limits = crate::Limits {
                nodes: Some(2000),
                ..Default::default()
            };
            let mut pos = Position::from_fen(fen).unwrap();
            let mut keys = Vec::new();
            while !pos.legal_moves().is_empty() {
                assert!(pos.halfmove_clock() < 100, "{fen}: fifty moves reached");
                let (result, _) = engine.search_sync(&pos, &keys, &limits);
                keys.push(pos.key());
                pos.make(result.best);
            }
            assert!(pos.in_check(), "{fen}: ended in stalemate at {}", pos.fen());
        }
    }
}
