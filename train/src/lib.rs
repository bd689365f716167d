//! Castella's training pipeline, apart from the engine it trains:
//! self-play games and their file format (`datagen`, `data`), which of
//! their positions make training data, and the network trainer
//! (`nnue-train`). The binaries are in `src/bin/`; README.md is the guide.

pub mod filter;
pub mod games;
pub mod selfplay;
pub mod trainer;

/// Sizes rayon's global pool to `threads` when given (otherwise rayon uses
/// one thread per core). Called first thing in `main`, before any pool
/// exists, so it cannot fail.
pub fn set_threads(threads: Option<usize>) {
    if let Some(t) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .ok();
    }
}
