//! Castella's search: iterative deepening alpha-beta over a shared
//! transposition table, with time management, run on its own threads.
//!
//! The `Engine` is the whole interface the UCI layer needs: it owns the
//! search threads and the table, takes a position with the keys of the
//! game's earlier positions and the `go` limits, and reports through a
//! callback (the vocabulary of `report.rs`).

pub mod ablation;
mod accumulators;
pub mod bench;
mod correction;
pub mod draw;
mod history;
mod limits;
mod movepick;
mod options;
pub mod params;
mod report;
mod search;
pub mod see;
pub mod strength;
pub mod tablebase;
mod time;
pub mod tt;
pub mod value;

pub use limits::Limits;
pub use options::Options;
pub use report::{Bound, Event, Info, Reporter, Score};
pub use search::ThreadResult;

use castella_eval::nnue::Network;
use castella_movegen::Position;
use search::{Control, Job, Searcher};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;
use strength::Strength;
use time::TimeManager;
use tt::TranspositionTable;

/// The search engine: settings, the shared table and the running search.
pub struct Engine {
    options: Options,
    report: Reporter,
    tt: Arc<TranspositionTable>,
    searchers: Vec<Searcher>,
    control: Arc<Control>,
    worker: Option<JoinHandle<Vec<Searcher>>>,
    network: Arc<Network>,
    tablebases: Option<Arc<tablebase::Tablebases>>,
    /// Counts `clear` calls (new games), to seed the strength limit's
    /// choices per game.
    games: u64,
}

impl Engine {
    pub fn new(report: Reporter) -> Engine {
        let options = Options::default();
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mb).expect("the default table fits")),
            searchers: vec![Searcher::new(0)],
            control: Arc::new(Control::new(1, false)),
            options,
            report,
            worker: None,
            network: castella_eval::embedded_network(),
            tablebases: None,
            games: 0,
        }
    }

    /// An engine that reports nothing, for tools that search with
    /// `search_sync` (bench, rank960, benchmarks).
    pub fn silent(options: Options) -> Result<Engine, String> {
        let mut engine = Engine::new(Arc::new(|_: Event| {}));
        engine.set_options(options)?;
        Ok(engine)
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Changes settings; waits for a running search to end first. A hash
    /// size that cannot be allocated is an error and changes nothing.
    pub fn set_options(&mut self, options: Options) -> Result<(), String> {
        self.wait();
        if options.hash_mb != self.options.hash_mb {
            // Free the old table before allocating the new one; fall back to
            // the old size if the new one does not fit.
            let old = self.options.hash_mb;
            self.tt = Arc::new(TranspositionTable::new(1)?);
            match TranspositionTable::new(options.hash_mb) {
                Ok(tt) => self.tt = Arc::new(tt),
                Err(e) => {
                    self.tt = Arc::new(TranspositionTable::new(old)?);
                    return Err(e);
                }
            }
        }
        let threads = options.threads.max(1);
        self.searchers.truncate(threads);
        while self.searchers.len() < threads {
            let mut s = Searcher::new(self.searchers.len());
            s.set_network(self.network.clone());
            self.searchers.push(s);
        }
        self.options = options;
        Ok(())
    }

    /// The evaluation network searches use.
    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// Evaluates with `net` from the next search on (waits for a running
    /// search to end first).
    pub fn set_network(&mut self, net: Arc<Network>) {
        self.wait();
        for s in &mut self.searchers {
            s.set_network(net.clone());
        }
        self.network = net;
    }

    /// Searches with these Syzygy tables from the next search on (none:
    /// without); waits for a running search to end first.
    pub fn set_tablebases(&mut self, tables: Option<tablebase::Tablebases>) {
        self.wait();
        self.tablebases = tables.map(Arc::new);
    }

    /// Empties the transposition table and the move-ordering histories (waits for the
    /// search); for `ucinewgame`.
    pub fn clear(&mut self) {
        self.wait();
        self.games += 1;
        let threads = self.options.threads;
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(threads),
            None => {
                // Only the search threads hold the table, and they have ended.
                if let Ok(tt) = TranspositionTable::new(self.options.hash_mb) {
                    self.tt = Arc::new(tt);
                }
            }
        }
        for s in &mut self.searchers {
            s.history.clear();
            s.correction.clear();
        }
    }

    /// Starts searching `pos`. `game_keys` holds the keys of the game's earlier
    /// positions, oldest first, for repetition detection. Returns at once;
    /// exactly one `Event::BestMove` follows.
    pub fn go(&mut self, pos: Position, game_keys: Vec<u64>, limits: Limits) {
        self.wait();
        let start = Instant::now();
        let control = Arc::new(Control::new(
            self.searchers.len(),
            limits.ponder || limits.infinite,
        ));
        self.control = control.clone();
        let tt = self.tt.clone();
        let report = self.report.clone();
        let strength = self.options.strength;
        let (limits, multipv) = limited(strength, limits, self.options.multipv);
        let seed = self.seed(&pos);
        let (tablebases, syzygy) = (self.tablebases.clone(), self.options.syzygy);
        let time = TimeManager::new(&limits, &pos, &self.options, start);
        let mut searchers = std::mem::take(&mut self.searchers);
        self.worker = Some(std::thread::spawn(move || {
            let job = Job {
                game_keys: &game_keys,
                limits: &limits,
                multipv,
                tt: &tt,
                control: &control,
                time,
                report: Some(&report),
                tablebases: tablebases.as_deref(),
                syzygy,
            };
            let result = chosen(strength, search_all(&mut searchers, &pos, job), seed);
            report(Event::BestMove {
                best: result.best,
                ponder: result.ponder,
            });
            searchers
        }));
    }

    /// Searches synchronously with this engine's table and threads, without
    /// reporting; returns the result and the nodes searched (for `bench` and
    /// tools).
    pub fn search_sync(
        &mut self,
        pos: &Position,
        game_keys: &[u64],
        limits: &Limits,
    ) -> (ThreadResult, u64) {
        self.search_sync_reporting(pos, game_keys, limits, None)
    }

    /// As [`Engine::search_sync`], with each finished iteration's `Info`
    /// passed to `report` (tools that look at more than the last score).
    pub fn search_sync_reporting(
        &mut self,
        pos: &Position,
        game_keys: &[u64],
        limits: &Limits,
        report: Option<&Reporter>,
    ) -> (ThreadResult, u64) {
        self.wait();
        let strength = self.options.strength;
        let (limits, multipv) = limited(strength, limits.clone(), self.options.multipv);
        let limits = &limits;
        let seed = self.seed(pos);
        let control = Arc::new(Control::new(self.searchers.len(), false));
        let time = TimeManager::new(limits, pos, &self.options, Instant::now());
        let job = Job {
            game_keys,
            limits,
            multipv,
            tt: &self.tt,
            control: &control,
            time,
            report,
            tablebases: self.tablebases.as_deref(),
            syzygy: self.options.syzygy,
        };
        let result = chosen(strength, search_all(&mut self.searchers, pos, job), seed);
        (result, control.total_nodes())
    }

    /// The strength limit's seed for `pos` in this game.
    fn seed(&self, pos: &Position) -> u64 {
        self.games.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ pos.key()
    }

    /// Asks the search to end; the best move follows shortly.
    pub fn stop(&self) {
        self.control.pondering.store(false, Ordering::SeqCst);
        self.control.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the expected move: the search goes on under the
    /// normal time limits.
    pub fn ponderhit(&self) {
        self.control.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| !w.is_finished())
    }

    /// Blocks until the running search (if any) has ended.
    pub fn wait(&mut self) {
        if let Some(w) = self.worker.take() {
            match w.join() {
                Ok(searchers) => self.searchers = searchers,
                Err(_) => {
                    // A search thread panicked: start again with fresh threads.
                    self.searchers = (0..self.options.threads.max(1))
                        .map(Searcher::new)
                        .collect();
                }
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// The limits and MultiPV a search runs with under `strength`: a node cap,
/// and enough principal variations to choose from.
fn limited(strength: Option<Strength>, mut limits: Limits, multipv: usize) -> (Limits, usize) {
    match strength {
        None => (limits, multipv),
        Some(s) => {
            let cap = s.node_cap();
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
            (limits, multipv.max(s.candidates()))
        }
    }
}

/// The move played from a finished search under `strength`.
fn chosen(strength: Option<Strength>, mut result: ThreadResult, seed: u64) -> ThreadResult {
    if let Some(mv) = strength.and_then(|s| s.choose(&result.candidates, seed)) {
        if mv != result.best {
            result.best = mv;
            result.ponder = None;
        }
    }
    result
}

/// Runs every searcher on `pos` (thread 0 here, helpers on scoped threads),
/// then waits, while pondering or in an infinite search, for `stop` or
/// `ponderhit`, and returns the best thread's result.
fn search_all(searchers: &mut [Searcher], pos: &Position, job: Job) -> ThreadResult {
    let (tt, control) = (job.tt, job.control);
    tt.new_search();
    let (main, helpers) = searchers.split_first_mut().expect("at least one searcher");
    let results: Vec<ThreadResult> = std::thread::scope(|s| {
        let handles: Vec<_> = helpers
            .iter_mut()
            .map(|h| {
                let helper = Job {
                    multipv: 1,
                    report: None,
                    ..job
                };
                s.spawn(move || h.run(pos, helper))
            })
            .collect();
        let main_result = main.run(pos, job);
        // The GUI must not get a best move before it says stop or ponderhit.
        while control.pondering.load(Ordering::SeqCst) && !control.stop.load(Ordering::SeqCst) {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        control.stop.store(true, Ordering::SeqCst);
        let mut all = vec![main_result];
        all.extend(handles.into_iter().map(|h| h.join().unwrap_or_default()));
        all
    });
    // The deepest thread wins; at equal depth the better score.
    let mut best = results[0].clone();
    if job.multipv == 1 {
        for r in &results[1..] {
            if !r.best.is_null()
                && (r.depth > best.depth || (r.depth == best.depth && r.score > best.score))
            {
                best = r.clone();
            }
        }
    }
    // The last `pv` must begin with the `bestmove` (GUIs and match
    // runners check it): report the played move's line unless it was the
    // last one shown (a move that took over in an unfinished iteration,
    // or a helper's).
    if best.best != results[0].shown {
        if let (Some(report), Some(line)) = (job.report, &best.line) {
            report(Event::Info(line.clone()));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use castella_movegen::Move;
    use std::sync::Mutex;
    use std::time::Duration;

    fn engine() -> (Engine, Arc<Mutex<Vec<Event>>>) {
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink = events.clone();
        let engine = Engine::new(Arc::new(move |e: Event| sink.lock().unwrap().push(e)));
        (engine, events)
    }

    fn best_moves(events: &Mutex<Vec<Event>>) -> Vec<Move> {
        events
            .lock()
            .unwrap()
            .iter()
            .filter_map(|e| match e {
                Event::BestMove { best, .. } => Some(*best),
                _ => None,
            })
            .collect()
    }

    /// Threads start, stop and change between searches without races: every
    /// search gives exactly one legal best move.
    #[test]
    fn threaded_searches_start_stop_and_resize() {
        let (mut engine, events) = engine();
        let pos = Position::chess960(333).unwrap();
        let mut expected = 0;
        for (threads, hash) in [(1, 1), (3, 2), (2, 8), (4, 1)] {
            engine.set_options(Options::fixed(hash, threads)).unwrap();
            engine.go(
                pos,
                vec![],
                Limits {
                    depth: Some(4),
                    ..Default::default()
                },
            );
            engine.wait();
            engine.go(
                pos,
                vec![],
                Limits {
                    infinite: true,
                    ..Default::default()
                },
            );
            std::thread::sleep(Duration::from_millis(30));
            assert!(engine.is_searching(), "an infinite search waits for stop");
            engine.stop();
            engine.wait();
            engine.go(
                pos,
                vec![],
                Limits {
                    ponder: true,
                    movetime: Some(50),
                    ..Default::default()
                },
            );
            std::thread::sleep(Duration::from_millis(10));
            engine.ponderhit();
            engine.wait();
            engine.clear();
            expected += 3;
            let moves = best_moves(&events);
            assert_eq!(moves.len(), expected);
            assert!(moves.iter().all(|m| pos.is_legal(*m)));
        }
    }

    #[test]
    fn node_counts_are_summed_over_threads() {
        let (mut engine, _) = engine();
        engine.set_options(Options::fixed(4, 2)).unwrap();
        let pos = Position::startpos();
        let (result, nodes) = engine.search_sync(
            &pos,
            &[],
            &Limits {
                depth: Some(6),
                ..Default::default()
            },
        );
        assert!(pos.is_legal(result.best));
        assert!(nodes > 0);
        let (_, one) = {
            engine.set_options(Options::fixed(4, 1)).unwrap();
            engine.clear();
            engine.search_sync(
                &pos,
                &[],
                &Limits {
                    nodes: Some(5000),
                    ..Default::default()
                },
            )
        };
        assert!((5000..5100).contains(&one), "node limit: {one}");
    }
}
