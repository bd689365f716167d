//! `go perft N` on a thread of its own, as a search runs: the input loop
//! stays responsive, `isready` is answered during it and `stop` (or a new
//! `position` or `go`) ends it, with an `info string` instead of a total.

use crate::format;
use crate::stdio::{emit, info_string};
use castella_movegen::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// A running perft.
pub struct PerftJob {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

impl PerftJob {
    /// Starts counting; the result is printed when done.
    pub fn start(pos: Position, depth: u32, chess960: bool) -> PerftJob {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle =
            std::thread::spawn(
                move || match format::perft_text(&pos, depth, chess960, &flag) {
                    Some(text) => emit(&text),
                    None => info_string(&format!("perft {depth} stopped before it was done")),
                },
            );
        PerftJob { stop, handle }
    }

    /// Asks the count to end; it does within milliseconds.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Waits for the count to end (printed or stopped).
    pub fn wait(self) {
        // A panic on the thread has already been reported on stderr.
        let _ = self.handle.join();
    }
}
