//! Helpers shared by the tools in `src/bin/`; the benchmarks live in
//! `benches/`.

pub mod filter;
pub mod games;
pub mod selfplay;
pub mod train;

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
