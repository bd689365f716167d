//! Benchmark helpers live in `benches/`; this crate has no library code of its own.
