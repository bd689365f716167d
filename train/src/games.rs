//! The binary game format of `datagen`: whole self-play games, each a start
//! position and every move with the search's score, so that any position
//! can be rebuilt and filtered when training data is *loaded*.
//!
//! A file (little-endian throughout) is a header and then chunks:
//!
//! ```text
//! header  "CSGD", u16 version (1), u16 n, n bytes of UTF-8 settings text
//! chunk   "CHNK", u32 payload length, u32 next game index,
//!         u32 FNV-1a checksum of the payload, payload
//! game    u32 index, u16 White's back rank, u16 Black's (Scharnagl),
//!         u8 k, k × u16 opening move (unscored random plies),
//!         u8 result (0 Black wins, 1 draw, 2 White wins), u8 termination,
//!         u16 m, m × (u16 move, i16 score for the side to move)
//! ```
//!
//! A score of −32 768 ([`NO_SCORE`]) marks a move played without a
//! labelling search (`datagen --label-share`): the position is replayed,
//! never trained on. No search score comes near it (mates are within
//! ±31 000).
//!
//! A chunk holds the games of one batch, written at once, so a stopped run
//! keeps every finished chunk; "next game index" is where the run goes on
//! (discarded openings take indices too). The reader checks each chunk's
//! length and checksum and replays every move, and stops at the first bad
//! chunk, keeping what came before it and saying where it stopped.

use castella_eval::bytes::Reader;
use castella_movegen::{Color, Move, Position};
use std::io::{Read, Write};

/// The format version this code reads and writes.
pub const VERSION: u16 = 1;
/// The score stored for a position that was not searched for a label.
pub const NO_SCORE: i16 = i16::MIN;

/// Whether a stored score is a label, not [`NO_SCORE`].
#[inline]
pub fn is_label(score: i16) -> bool {
    score != NO_SCORE
}

/// Positions played and positions labelled in `games`: the two differ
/// where `datagen --label-share` left some unsearched.
pub fn position_counts(games: &[Game]) -> (usize, usize) {
    games
        .iter()
        .fold((0, 0), |(p, l), g| (p + g.moves.len(), l + g.labelled()))
}

/// "N positions", and how many of them are labelled where not all are.
pub fn describe_positions(positions: usize, labelled: usize) -> String {
    if labelled < positions {
        format!("{positions} positions ({labelled} labelled)")
    } else {
        format!("{positions} positions")
    }
}

const FILE_MAGIC: &[u8; 4] = b"CSGD";
const CHUNK_MAGIC: &[u8; 4] = b"CHNK";
const CHUNK_HEADER: usize = 16;
/// No chunk is larger; a length beyond it is corruption, not data.
const MAX_CHUNK: usize = 64 << 20;

/// How a game ended, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    BlackWins = 0,
    Draw = 1,
    WhiteWins = 2,
}

impl GameResult {
    /// White's score: 0, 0.5 or 1.
    pub fn white_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    /// `color`'s score: 0, 0.5 or 1.
    pub fn score_for(self, color: Color) -> f32 {
        match color {
            Color::White => self.white_score(),
            Color::Black => 1.0 - self.white_score(),
        }
    }

    /// A win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    fn from_byte(b: u8) -> Option<GameResult> {
        [
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::WhiteWins,
        ]
        .get(b as usize)
        .copied()
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Checkmate = 0,
    Stalemate = 1,
    Repetition = 2,
    FiftyMoves = 3,
    InsufficientMaterial = 4,
    /// One side's score stayed large for several plies.
    AdjudicatedWin = 5,
    /// The score stayed near zero for many plies late in the game.
    AdjudicatedDraw = 6,
    /// The game reached the ply cap.
    MaxPlies = 7,
}

impl Termination {
    pub const ALL: [Termination; 8] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Repetition,
        Termination::FiftyMoves,
        Termination::InsufficientMaterial,
        Termination::AdjudicatedWin,
        Termination::AdjudicatedDraw,
        Termination::MaxPlies,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "repetition",
            Termination::FiftyMoves => "fifty moves",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::AdjudicatedWin => "adjudicated win",
            Termination::AdjudicatedDraw => "adjudicated draw",
            Termination::MaxPlies => "ply cap",
        }
    }
}

/// One game: where it started, how it went, how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The game's number in its run (from the run's seed).
    pub index: u32,
    /// White's and Black's back ranks (Scharnagl numbers; equal for a
    /// plain Chess960 start, different for Double-FRC).
    pub back_ranks: (u16, u16),
    /// The random plies played before the engine took over; not scored.
    pub opening: Vec<Move>,
    pub outcome: GameResult,
    pub termination: Termination,
    /// Each move the engine played, with its search score in centipawns
    /// from the side to move's view (mate scores as the search gives
    /// them), or [`NO_SCORE`] where no labelling search was made.
    pub moves: Vec<(Move, i16)>,
}

/// One scored position of a game, as the trainer and the tools see it.
#[derive(Clone, Copy, Debug)]
pub struct Scored {
    pub pos: Position,
    /// The move the engine played there.
    pub mv: Move,
    /// The search's score for the side to move, or [`NO_SCORE`].
    pub score: i16,
    /// Plies since the engine took over (0 for the first scored position).
    pub ply: usize,
}

impl Scored {
    /// Whether the position was searched for a label (its score is one).
    #[inline]
    pub fn labelled(&self) -> bool {
        is_label(self.score)
    }
}

impl Game {
    /// The position after the opening plies, where scoring starts; `None`
    /// if the back ranks or an opening move are invalid.
    pub fn start(&self) -> Option<Position> {
        let mut pos = Position::double_chess960(self.back_ranks.0, self.back_ranks.1)?;
        for &mv in &self.opening {
            if !pos.is_legal(mv) {
                return None;
            }
            pos.make(mv);
        }
        Some(pos)
    }

    /// How many of the game's positions carry a label.
    pub fn labelled(&self) -> usize {
        self.moves
            .iter()
            .filter(|&&(_, score)| is_label(score))
            .count()
    }

    /// Whether both sides started from the same back rank.
    pub fn is_double_frc(&self) -> bool {
        self.back_ranks.0 != self.back_ranks.1
    }

    /// Calls `f` with every scored position in order. Stops (returning an
    /// error) at a move that is not legal where it stands.
    pub fn for_each_position(&self, mut f: impl FnMut(Scored)) -> Result<(), String> {
        let mut pos = self
            .start()
            .ok_or_else(|| format!("game {}: invalid start or opening", self.index))?;
        for (ply, &(mv, score)) in self.moves.iter().enumerate() {
            if !pos.is_legal(mv) {
                return Err(format!("game {}: illegal move at ply {ply}", self.index));
            }
            f(Scored {
                pos,
                mv,
                score,
                ply,
            });
            pos.make(mv);
        }
        Ok(())
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.index.to_le_bytes());
        out.extend_from_slice(&self.back_ranks.0.to_le_bytes());
        out.extend_from_slice(&self.back_ranks.1.to_le_bytes());
        out.push(self.opening.len() as u8);
        for mv in &self.opening {
            out.extend_from_slice(&mv.bits().to_le_bytes());
        }
        out.push(self.outcome as u8);
        out.push(self.termination as u8);
        out.extend_from_slice(&(self.moves.len() as u16).to_le_bytes());
        for &(mv, score) in &self.moves {
            out.extend_from_slice(&mv.bits().to_le_bytes());
            out.extend_from_slice(&score.to_le_bytes());
        }
    }

    fn decode(r: &mut Reader) -> Result<Game, String> {
        let index = r.u32()?;
        let back_ranks = (r.u16()?, r.u16()?);
        let opening = (0..r.u8()?)
            .map(|_| r.u16().map(Move::from_bits))
            .collect::<Result<_, _>>()?;
        let outcome = GameResult::from_byte(r.u8()?).ok_or("bad result byte")?;
        let termination = *Termination::ALL
            .get(r.u8()? as usize)
            .ok_or("bad termination byte")?;
        let moves = (0..r.u16()?)
            .map(|_| Ok((Move::from_bits(r.u16()?), r.u16()? as i16)))
            .collect::<Result<_, String>>()?;
        let game = Game {
            index,
            back_ranks,
            opening,
            outcome,
            termination,
            moves,
        };
        game.for_each_position(|_| {})?;
        Ok(game)
    }
}

/// 32-bit FNV-1a: enough to tell a damaged chunk from a good one.
pub fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    })
}

/// The file header: the format's magic and version and the run's settings.
pub fn encode_header(settings: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + settings.len());
    out.extend_from_slice(FILE_MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(settings.len() as u16).to_le_bytes());
    out.extend_from_slice(settings.as_bytes());
    out
}

/// One chunk holding `games`, after which the run goes on at `next_index`.
pub fn encode_chunk(games: &[Game], next_index: u32) -> Vec<u8> {
    let mut payload = Vec::new();
    for g in games {
        g.encode(&mut payload);
    }
    let mut out = Vec::with_capacity(CHUNK_HEADER + payload.len());
    out.extend_from_slice(CHUNK_MAGIC);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&next_index.to_le_bytes());
    out.extend_from_slice(&checksum(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// What a file holds, read as far as it is sound.
#[derive(Debug, Default)]
pub struct Contents {
    /// The settings text of the run that wrote it.
    pub settings: String,
    pub games: Vec<Game>,
    /// Where the run that wrote the file goes on.
    pub next_index: u32,
    /// Bytes up to the end of the last sound chunk.
    pub sound_len: u64,
    /// Why reading stopped early, if it did: a truncated or damaged chunk,
    /// with its byte offset.
    pub problem: Option<String>,
}

/// Parses a whole file. A bad header is an error; a bad chunk ends the
/// reading, with everything before it kept and the reason in `problem`.
pub fn parse(bytes: &[u8]) -> Result<Contents, String> {
    if bytes.len() < 8 || &bytes[..4] != FILE_MAGIC {
        return Err("not a Castella game file (bad magic)".into());
    }
    let mut header = Reader::new(&bytes[4..], "the header is truncated");
    let version = header.u16()?;
    if version != VERSION {
        return Err(format!(
            "game file version {version}; this build reads version {VERSION}"
        ));
    }
    let n = header.u16()? as usize;
    let settings = bytes.get(8..8 + n).ok_or("the header is truncated")?;
    let settings = std::str::from_utf8(settings)
        .map_err(|_| "the header's settings are not UTF-8")?
        .to_string();
    let mut c = Contents {
        settings,
        sound_len: (8 + n) as u64,
        ..Contents::default()
    };
    let mut at = 8 + n;
    while at < bytes.len() {
        match parse_chunk(&bytes[at..]) {
            Ok((games, next_index, len)) => {
                c.games.extend(games);
                c.next_index = next_index;
                at += len;
                c.sound_len = at as u64;
            }
            Err(why) => {
                c.problem = Some(format!(
                    "{why} in the chunk at byte {at}; kept the {} games before it",
                    c.games.len()
                ));
                break;
            }
        }
    }
    Ok(c)
}

fn parse_chunk(bytes: &[u8]) -> Result<(Vec<Game>, u32, usize), String> {
    let mut header = Reader::new(bytes, "truncated header");
    let (magic, len, next_index, sum) = (
        header.take::<4>()?,
        header.u32()? as usize,
        header.u32()?,
        header.u32()?,
    );
    if &magic != CHUNK_MAGIC {
        return Err("bad magic".into());
    }
    if len > MAX_CHUNK {
        return Err(format!("implausible length {len}"));
    }
    let payload = bytes.get(CHUNK_HEADER..CHUNK_HEADER + len).ok_or_else(|| {
        format!(
            "truncated payload ({} of {len} bytes)",
            bytes.len() - CHUNK_HEADER
        )
    })?;
    if checksum(payload) != sum {
        return Err("checksum mismatch".into());
    }
    let mut r = Reader::new(payload, "a game runs past the end of its chunk");
    let mut games = Vec::new();
    while !r.is_empty() {
        games.push(Game::decode(&mut r)?);
    }
    Ok((games, next_index, CHUNK_HEADER + len))
}

/// Reads a game file from disk (see [`parse`]).
pub fn read(path: &std::path::Path) -> Result<Contents, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Appends chunks to a game file, each flushed to disk as it is written.
pub struct Writer {
    file: std::fs::File,
}

impl Writer {
    /// Creates `path` with a header for `settings`, replacing any file
    /// there.
    pub fn create(path: &std::path::Path, settings: &str) -> Result<Writer, String> {
        let mut file =
            std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        file.write_all(&encode_header(settings))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Writer { file })
    }

    /// Opens `path` to go on writing after its first `sound_len` bytes (a
    /// damaged tail is cut off).
    pub fn resume(path: &std::path::Path, sound_len: u64) -> Result<Writer, String> {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        file.set_len(sound_len)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let mut w = Writer { file };
        use std::io::Seek;
        w.file
            .seek(std::io::SeekFrom::End(0))
            .map_err(|e| e.to_string())?;
        Ok(w)
    }

    /// Writes one chunk and flushes it to disk.
    pub fn write_chunk(&mut self, games: &[Game], next_index: u32) -> Result<(), String> {
        self.file
            .write_all(&encode_chunk(games, next_index))
            .and_then(|_| self.file.sync_data())
            .map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short legal game from Double-FRC start 0 against 959.
    fn sample(index: u32) -> Game {
        let start = Position::double_chess960(0, 959).unwrap();
        let opening = vec![start.legal_moves()[0]];
        let mut pos = start.play(opening[0]);
        let mut moves = Vec::new();
        for i in 0..6 {
            let mv = pos.legal_moves()[i % 3];
            moves.push((mv, (i as i16 - 3) * 37));
            pos.make(mv);
        }
        Game {
            index,
            back_ranks: (0, 959),
            opening,
            outcome: GameResult::Draw,
            termination: Termination::AdjudicatedDraw,
            moves,
        }
    }

    fn file(games: &[&[Game]]) -> Vec<u8> {
        let mut bytes = encode_header("seed=1 nodes=5000");
        for (i, chunk) in games.iter().enumerate() {
            bytes.extend(encode_chunk(chunk, 10 * (i as u32 + 1)));
        }
        bytes
    }

    #[test]
    fn games_round_trip() {
        let games = [sample(0), sample(1), sample(2)];
        let c = parse(&file(&[&games[..2], &games[2..]])).unwrap();
        assert_eq!(c.settings, "seed=1 nodes=5000");
        assert_eq!(c.games, games);
        assert_eq!(c.next_index, 20);
        assert!(c.problem.is_none());
        let mut n = 0;
        c.games[0]
            .for_each_position(|s| {
                assert_eq!(s.ply, n);
                assert_eq!(s.score, (n as i16 - 3) * 37);
                n += 1;
            })
            .unwrap();
        assert_eq!(n, 6);
        assert!(c.games[0].is_double_frc());
    }

    #[test]
    fn a_truncated_file_keeps_its_sound_chunks() {
        let games = [sample(0), sample(1)];
        let bytes = file(&[&games[..1], &games[1..]]);
        let first_end = parse(&file(&[&games[..1]])).unwrap().sound_len as usize;
        for cut in [bytes.len() - 1, first_end + 3, first_end + CHUNK_HEADER + 5] {
            let c = parse(&bytes[..cut]).unwrap();
            assert_eq!(c.games, games[..1]);
            assert_eq!(c.sound_len as usize, first_end);
            let problem = c.problem.expect("the cut is reported");
            assert!(problem.contains("truncated"), "{problem}");
            assert!(problem.contains(&format!("byte {first_end}")), "{problem}");
        }
    }

    #[test]
    fn corrupt_data_is_refused_with_a_reason() {
        let games = [sample(0), sample(1)];
        let bytes = file(&[&games[..1], &games[1..]]);
        let first_end = parse(&file(&[&games[..1]])).unwrap().sound_len as usize;
        // A flipped bit in the second chunk's payload.
        let mut damaged = bytes.clone();
        damaged[first_end + CHUNK_HEADER + 9] ^= 4;
        let c = parse(&damaged).unwrap();
        assert_eq!(c.games, games[..1]);
        assert!(c.problem.unwrap().contains("checksum"));
        // Garbage where a chunk should start.
        let mut damaged = bytes.clone();
        damaged[first_end] = b'X';
        assert!(parse(&damaged).unwrap().problem.unwrap().contains("magic"));
        // A checksum that matches an illegal move.
        let mut bad = sample(1);
        bad.moves[2].0 = Move::from_bits(0x0fff);
        let mut bytes = encode_header("");
        bytes.extend(encode_chunk(&[bad], 1));
        let c = parse(&bytes).unwrap();
        assert!(c.games.is_empty());
        assert!(c.problem.unwrap().contains("illegal move at ply 2"));
        // Not a game file at all, or another version.
        assert!(parse(b"CSNN\x01\0\0\0").unwrap_err().contains("magic"));
        let mut other = file(&[]);
        other[4] = 9;
        assert!(parse(&other).unwrap_err().contains("version 9"));
        assert!(parse(&file(&[])[..9]).unwrap_err().contains("truncated"));
    }
}
