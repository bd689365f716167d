//! Castella's static evaluation: a network ([`nnue`]) that is the whole
//! evaluation, embedded in the binary ([`static_eval`]), and the `eval`
//! command's view of it ([`explain()`]).
//!
//! The evaluation is exactly colour-symmetric: mirroring the board top to
//! bottom and swapping the colours (and the side to move) gives the same
//! score, because each half of the network sees the board from its own
//! side.

pub mod bytes;
mod explain;
pub mod nnue;
mod phase;

#[cfg(test)]
mod tests;

use castella_movegen::Position;
pub use phase::{phase, PHASE_MAX};
use std::sync::Arc;

/// Material values in centipawns, pawn to king (king 0), for SEE and
/// MVV-LVA in the search.
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 0];

/// The evaluation never leaves this range, far from the search's mate
/// scores.
pub const EVAL_LIMIT: i32 = 8000;

/// The network embedded in the binary: `eval/nets/castella.nnue`, or the
/// file named by `EVALFILE` when the build was asked for one (see
/// `build.rs`).
pub static NETWORK_FILE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded.nnue"));
static NETWORK: std::sync::OnceLock<Arc<nnue::Network>> = std::sync::OnceLock::new();

/// The embedded evaluation network, parsed on first use.
pub fn network() -> &'static nnue::Network {
    embedded()
}

/// The embedded network, shared: what the search starts with until a UCI
/// `EvalFile` replaces it.
pub fn embedded_network() -> Arc<nnue::Network> {
    embedded().clone()
}

fn embedded() -> &'static Arc<nnue::Network> {
    NETWORK.get_or_init(|| {
        Arc::new(
            nnue::Network::from_bytes(NETWORK_FILE)
                .expect("the embedded network is valid (tested)"),
        )
    })
}

/// The static evaluation with the embedded network (see
/// [`static_eval_with`]).
pub fn static_eval(pos: &Position) -> i32 {
    static_eval_with(network(), pos)
}

/// The static evaluation in centipawns from the side to move's view:
/// `net`'s output, within ±[`EVAL_LIMIT`]. Computed from scratch; the
/// search updates the network's accumulators incrementally instead and
/// bounds the output with [`bounded`].
pub fn static_eval_with(net: &nnue::Network, pos: &Position) -> i32 {
    bounded(net.evaluate(pos))
}

/// A network output brought within ±[`EVAL_LIMIT`].
#[inline(always)]
pub fn bounded(network_output: i32) -> i32 {
    network_output.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The network's view of a position for the UCI `eval` command: its
/// output, the final score from White's and from the side to move's view,
/// and a board of what each piece adds to the output. Every line, the
/// last included, ends with `'\n'`.
pub fn explain(pos: &Position, net: &nnue::Network) -> String {
    explain::explain(pos, net)
}
