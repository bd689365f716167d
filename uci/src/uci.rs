//! The UCI loop: reads commands, keeps the game and the settings, drives the
//! engine, and turns its events into protocol lines.
//!
//! The engine searches on its own threads and reports through a callback,
//! so the loop stays responsive: `isready` is answered at once and `stop`
//! takes effect at once. A `go`, `position`, `ucinewgame`, `flip` or
//! `bench` arriving during a search first stops it and waits for its
//! `bestmove`. Options that change the engine are applied after a running
//! search ends (as Stockfish does); every other command is answered at once.
//!
//! Every `go` gets exactly one `bestmove`. In `go infinite` and `go ponder`
//! the `bestmove` is held back until `stop` (or `ponderhit`), as the
//! protocol requires, even if the search finished earlier.
//!
//! `go perft N` runs on its own thread too and is ended the same way; end
//! of input waits for it (so `echo 'go perft 5' | castella` prints the
//! count), while `quit` ends it at once.

use crate::command::{self, Command, GoCmd};
use crate::format;
use crate::options::{self, Id, Value};
use crate::perft_job::PerftJob;
use crate::setup::Setup;
use crate::stdio::{emit, info_string, Input, LineReader, MAX_LINE};
use castella_engine::{Engine, Event, Limits, Options};
use castella_movegen::{Move, Position};
use std::io;
use std::sync::{Arc, Mutex, MutexGuard};

/// The version with, for a development build, its commit (see `build.rs`).
pub const VERSION: &str = env!("CASTELLA_VERSION");

/// Runs the UCI loop on stdin/stdout until `quit` or end of input.
pub fn run() {
    emit(&format!("Castella {VERSION}"));
    if let Some(note) = castella_engine::ablation::Disabled::from_env().1 {
        info_string(note);
    }
    let mut uci = Uci::new();
    let mut input = LineReader::new(io::stdin().lock(), MAX_LINE);
    loop {
        match input.next_line() {
            Input::Eof => {
                if let Some(job) = uci.perft.take() {
                    job.wait();
                }
                break;
            }
            Input::TooLong(n) => info_string(&format!(
                "ignored an input line of {n} bytes (the limit is {MAX_LINE})"
            )),
            Input::Line(line) => {
                if !uci.handle(&line) {
                    break;
                }
            }
        }
    }
    uci.finish_search();
}

/// What the reporter needs to know about the running `go`.
struct Search {
    /// The position searched: moves are written against it.
    root: Position,
    searchmoves: Vec<Move>,
    chess960: bool,
    show_wdl: bool,
    /// The engine has not yet given this `go`'s best move.
    awaiting: bool,
    /// `go infinite` / `go ponder` not yet ended by `stop` / `ponderhit`.
    hold_infinite: bool,
    hold_ponder: bool,
    /// A `bestmove` line held back until the hold ends.
    held: Option<String>,
}

/// State shared with the search threads.
struct Shared {
    search: Mutex<Search>,
}

impl Shared {
    /// The search state, even if a thread panicked while holding it.
    fn lock(&self) -> MutexGuard<'_, Search> {
        self.search.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Handles one engine event (called on a search thread). Lines are
    /// written with the lock held, so they come out in event order.
    fn on_event(&self, event: Event) {
        let mut s = self.lock();
        match event {
            // Progress of a search whose best move has gone is stale.
            Event::Info(info) if s.awaiting => {
                emit(&format::info_line(&info, &s.root, s.chess960, s.show_wdl));
            }
            Event::Info(_) => {}
            Event::Message(text) => info_string(&text),
            Event::BestMove { best, ponder } => {
                if !s.awaiting {
                    return; // one bestmove per go
                }
                s.awaiting = false;
                let (line, warnings) =
                    format::bestmove_line(&s.root, best, ponder, &s.searchmoves, s.chess960);
                for w in warnings {
                    info_string(&w);
                }
                if s.hold_infinite || s.hold_ponder {
                    s.held = Some(line);
                } else {
                    emit(&line);
                }
            }
        }
    }
}

/// The UCI layer's state.
struct Uci {
    engine: Engine,
    shared: Arc<Shared>,
    setup: Setup,
    chess960: bool,
    show_wdl: bool,
    /// Engine options set during a search, applied once it has ended.
    pending: Vec<(Id, Value)>,
    /// A running `go perft`.
    perft: Option<PerftJob>,
    /// UCI_LimitStrength and UCI_Elo, applied together.
    limit_strength: bool,
    elo: u32,
}

impl Uci {
    fn new() -> Uci {
        let shared = Arc::new(Shared {
            search: Mutex::new(Search {
                root: Position::startpos(),
                searchmoves: Vec::new(),
                chess960: false,
                show_wdl: false,
                awaiting: false,
                hold_infinite: false,
                hold_ponder: false,
                held: None,
            }),
        });
        let reporter = shared.clone();
        let engine = Engine::new(Arc::new(move |event| reporter.on_event(event)));
        Uci {
            engine,
            shared,
            setup: Setup::default(),
            chess960: false,
            show_wdl: false,
            pending: Vec::new(),
            perft: None,
            limit_strength: false,
            elo: castella_engine::strength::MIN_ELO,
        }
    }

    /// Handles one input line; false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        if !self.pending.is_empty() && !self.searching() {
            self.apply_pending();
        }
        let command = match command::parse(line) {
            Ok(Some(command)) => command,
            Ok(None) => return true,
            Err(e) => {
                info_string(&e);
                return true;
            }
        };
        match command {
            Command::Quit => return false,
            Command::Uci => self.uci(),
            Command::IsReady => emit("readyok"),
            Command::Debug | Command::Register => {}
            Command::SetOption { name, value } => self.setoption(&name, value.as_deref()),
            Command::UciNewGame => {
                self.finish_search();
                self.apply_pending();
                self.engine.clear();
            }
            Command::Position(cmd) => match Setup::from_command(&cmd) {
                Ok((game, warnings)) => {
                    self.finish_search();
                    self.setup = game;
                    for w in warnings {
                        info_string(&w);
                    }
                }
                Err(e) => info_string(&e),
            },
            Command::Go(go) => self.go(go),
            Command::Stop => {
                if let Some(job) = &self.perft {
                    job.stop();
                }
                if self.engine.is_searching() {
                    self.engine.stop();
                }
                self.release_held();
            }
            Command::PonderHit => {
                self.engine.ponderhit();
                let mut s = self.shared.lock();
                s.hold_ponder = false;
                if !s.hold_infinite {
                    if let Some(line) = s.held.take() {
                        emit(&line);
                    }
                }
            }
            Command::Display => emit(&self.setup.display()),
            Command::Eval => emit(&castella_eval::explain(
                &self.setup.pos,
                self.engine.network(),
            )),
            Command::Flip => {
                self.finish_search();
                self.setup = self.setup.flipped();
            }
            Command::Bench(depth) => {
                self.finish_search();
                crate::bench_cmd::run(depth.unwrap_or(castella_engine::bench::DEFAULT_DEPTH));
            }
        }
        true
    }

    fn uci(&self) {
        let mut text = format!("id name Castella {VERSION}\nid author The Castella developers\n");
        for spec in &options::TABLE {
            text.push_str(&spec.uci_line());
            text.push('\n');
        }
        #[cfg(feature = "tune")]
        for p in castella_engine::params::ALL {
            text.push_str(&format!(
                "option name {} type spin default {} min {} max {}\n",
                p.name, p.default, p.min, p.max
            ));
        }
        text.push_str("uciok");
        emit(&text);
    }

    fn setoption(&mut self, name: &str, value: Option<&str>) {
        #[cfg(feature = "tune")]
        if let Some(p) = castella_engine::params::ALL.iter().find(|p| p.name == name) {
            match value.and_then(|v| v.trim().parse::<i32>().ok()) {
                Some(v) if (p.min..=p.max).contains(&v) && !self.searching() => {
                    castella_engine::params::set(p.name, v);
                }
                Some(_) if self.searching() => {
                    info_string(&format!("option {name} cannot change during a search"))
                }
                _ => info_string(&format!(
                    "option {name} takes a whole number from {} to {}; value not changed",
                    p.min, p.max
                )),
            }
            return;
        }
        match options::check(name, value) {
            Err(e) => info_string(&e),
            Ok((id, value)) if id.affects_engine() && self.searching() => {
                let name = options::find(name).map_or(name, |s| s.name);
                info_string(&format!(
                    "option {name} will be applied when the current search ends"
                ));
                self.pending.push((id, value));
            }
            Ok((id, value)) => self.apply(id, value),
        }
    }

    fn apply_pending(&mut self) {
        for (id, value) in std::mem::take(&mut self.pending) {
            self.apply(id, value);
        }
    }

    fn apply(&mut self, id: Id, value: Value) {
        match (id, value) {
            (Id::Hash, Value::Int(n)) => match hash_fits(n as usize) {
                Ok(()) => self.set_engine(|o| o.hash_mb = n as usize),
                Err(e) => info_string(&e),
            },
            (Id::Threads, Value::Int(n)) => self.set_engine(|o| o.threads = n as usize),
            (Id::MultiPv, Value::Int(n)) => self.set_engine(|o| o.multipv = n as usize),
            (Id::MoveOverhead, Value::Int(n)) => self.set_engine(|o| o.move_overhead_ms = n as u64),
            (Id::ClearHash, _) => self.engine.clear(),
            (Id::Ponder, Value::Bool(b)) => self.set_engine(|o| o.ponder = b),
            (Id::Chess960, Value::Bool(b)) => self.chess960 = b,
            (Id::ShowWdl, Value::Bool(b)) => self.show_wdl = b,
            (Id::EvalFile, Value::Text(path)) => self.load_network(&path),
            (Id::SyzygyPath, Value::Text(paths)) => self.load_tablebases(&paths),
            (Id::LimitStrength, Value::Bool(b)) => {
                self.limit_strength = b;
                self.apply_strength();
            }
            (Id::Elo, Value::Int(n)) => {
                self.elo = n as u32;
                self.apply_strength();
            }
            (Id::SyzygyProbeDepth, Value::Int(n)) => self.set_engine(|o| o.syzygy.depth = n as i32),
            (Id::Syzygy50MoveRule, Value::Bool(b)) => self.set_engine(|o| o.syzygy.rule50 = b),
            (Id::SyzygyProbeLimit, Value::Int(n)) => {
                self.set_engine(|o| o.syzygy.limit = n as usize)
            }
            _ => {}
        }
    }

    /// Switches to the network in `path` (or the embedded one for
    /// `<embedded>`); a file that cannot be used is reported, and the
    /// current network stays.
    fn load_network(&mut self, path: &str) {
        if path == options::EMBEDDED {
            self.engine.set_network(castella_eval::embedded_network());
            info_string("EvalFile: using the embedded network");
            return;
        }
        match castella_eval::nnue::Network::read(std::path::Path::new(path)) {
            Ok(net) => {
                info_string(&format!("EvalFile: loaded {path} ({})", net.describe()));
                self.engine.set_network(Arc::new(net));
            }
            Err(e) => info_string(&format!(
                "EvalFile {path}: {e}; keeping the current network"
            )),
        }
    }

    /// Sets the engine's strength limit from UCI_LimitStrength and UCI_Elo.
    fn apply_strength(&mut self) {
        let strength = self
            .limit_strength
            .then(|| castella_engine::strength::Strength::limit(self.elo))
            .flatten();
        self.set_engine(|o| o.strength = strength);
    }

    /// Opens the Syzygy tables in `paths` (`<empty>`: none) and says what
    /// it found in each directory; without usable files the search goes on
    /// without tables.
    fn load_tablebases(&mut self, paths: &str) {
        if paths == options::EMPTY {
            self.engine.set_tablebases(None);
            return;
        }
        let (tables, news) = castella_engine::tablebase::Tablebases::open(paths);
        for line in news {
            info_string(&line);
        }
        match &tables {
            Some(t) => info_string(&format!(
                "Syzygy: {} files, up to {} pieces",
                t.files(),
                t.max_pieces()
            )),
            None => info_string("Syzygy: no usable tables; searching without"),
        }
        self.engine.set_tablebases(tables);
    }

    /// Changes the engine's options (only when they differ: a new Hash size
    /// reallocates the table).
    fn set_engine(&mut self, change: impl FnOnce(&mut Options)) {
        let mut o = self.engine.options().clone();
        change(&mut o);
        if &o != self.engine.options() {
            if let Err(e) = self.engine.set_options(o) {
                info_string(&format!("{e}; value not changed"));
            }
        }
    }

    fn go(&mut self, go: GoCmd) {
        self.finish_search();
        self.apply_pending();
        for w in &go.warnings {
            info_string(w);
        }
        let pos = self.setup.pos;
        if let Some(depth) = go.perft {
            if depth > castella_movegen::perft::MAX_DEPTH {
                let max = castella_movegen::perft::MAX_DEPTH;
                info_string(&format!("perft depth {depth} is beyond {max}; refused"));
                return;
            }
            self.perft = Some(PerftJob::start(pos, depth, self.chess960));
            return;
        }
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match pos.parse_uci_move(text) {
                Ok(m) if !searchmoves.contains(&m) => searchmoves.push(m),
                Ok(_) => {}
                Err(e) => info_string(&format!("searchmoves: {e}; ignored")),
            }
        }
        if !go.searchmoves.is_empty() && searchmoves.is_empty() {
            info_string("no legal move among the searchmoves; searching all moves");
        }
        let limits = Limits {
            searchmoves: searchmoves.clone(),
            ..go.limits.clone()
        };
        *self.shared.lock() = Search {
            root: pos,
            searchmoves,
            chess960: self.chess960,
            show_wdl: self.show_wdl,
            awaiting: true,
            hold_infinite: go.limits.infinite,
            hold_ponder: go.limits.ponder,
            held: None,
        };
        self.engine.go(pos, self.setup.game_keys.clone(), limits);
    }

    /// Whether the engine is searching: it has not given its best move yet.
    /// (Once it has, its thread is ending, and waiting for it is brief.)
    fn searching(&self) -> bool {
        self.shared.lock().awaiting
    }

    /// Ends a held `go infinite`/`go ponder`: prints its best move if the
    /// engine already gave it, otherwise lets it through when it comes.
    fn release_held(&self) {
        let mut s = self.shared.lock();
        s.hold_infinite = false;
        s.hold_ponder = false;
        if let Some(line) = s.held.take() {
            emit(&line);
        }
    }

    /// Stops a running search and waits for it, so that its `bestmove` has
    /// been printed when this returns.
    fn finish_search(&mut self) {
        if let Some(job) = self.perft.take() {
            job.stop();
            job.wait();
        }
        if self.engine.is_searching() {
            self.engine.stop();
        }
        self.release_held();
        self.engine.wait();
        let mut s = self.shared.lock();
        if s.awaiting {
            // The engine broke its promise of one best move per go; the GUI
            // must still get one.
            s.awaiting = false;
            info_string("the search ended without giving a best move");
            let (line, _) =
                format::bestmove_line(&s.root, Move::NULL, None, &s.searchmoves, s.chess960);
            emit(&line);
        }
    }
}

/// Whether a table of `mb` MiB is sensible here: more than the machine's
/// memory is refused (the engine itself refuses what cannot be allocated).
fn hash_fits(mb: usize) -> Result<(), String> {
    let refuse = |why: &str| Err(format!("Hash {mb} MB {why}; value not changed"));
    let Some(bytes) = mb.checked_mul(1 << 20) else {
        return refuse("does not fit in the address space");
    };
    if let Some(total) = physical_memory() {
        if bytes as u64 > total {
            return refuse(&format!(
                "is more than this machine's {} MB of memory",
                total >> 20
            ));
        }
    }
    Ok(())
}

/// The machine's memory in bytes, where the system says (Linux).
fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
