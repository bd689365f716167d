//! Every tunable number of the search, named and documented in one place,
//! with the range an SPSA tune may move it in.
//!
//! Each parameter is read through a function of its name (`rfp_margin()`).
//! In a normal build that function returns a constant, so the compiler
//! sees the same numbers as before and it costs nothing. Built with the
//! cargo feature `tune` (`cargo build --release --features tune`), every
//! parameter becomes a UCI `spin` option and `castella spsa` prints the
//! lines OpenBench's SPSA form takes (`name, int, default, min, max,
//! c_end, r_end`), so a tune can run on OpenBench workers; the values then
//! live in atomics, read with relaxed loads.
//!
//! Fractions are stored as integers (`lmr_base` 75 means 0.75).

/// One tunable parameter: its name, value and SPSA range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's final step (`c_end`), in the parameter's own units.
    pub step: i32,
}

macro_rules! params {
    ($($(#[doc = $doc:expr])* $name:ident = $default:literal, $min:literal ..= $max:literal, $step:literal;)*) => {
        #[cfg(not(feature = "tune"))]
        mod values {
            $(
                $(#[doc = $doc])*
                #[inline(always)]
                pub const fn $name() -> i32 {
                    $default
                }
            )*
        }

        #[cfg(feature = "tune")]
        mod values {
            use std::sync::atomic::Ordering;
            pub mod cells {
                use std::sync::atomic::AtomicI32;
                $(
                    #[allow(non_upper_case_globals)]
                    pub static $name: AtomicI32 = AtomicI32::new($default);
                )*
            }
            $(
                $(#[doc = $doc])*
                #[inline(always)]
                pub fn $name() -> i32 {
                    cells::$name.load(Ordering::Relaxed)
                }
            )*
            /// Sets the parameter `name` (exact spelling); false for an
            /// unknown name.
            pub fn set(name: &str, value: i32) -> bool {
                match name {
                    $(stringify!($name) => cells::$name.store(value, Ordering::Relaxed),)*
                    _ => return false,
                }
                true
            }
        }

        pub use values::*;

        /// Every parameter, in declaration order.
        pub const ALL: &[Spec] = &[
            $(Spec { name: stringify!($name), default: $default, min: $min, max: $max, step: $step },)*
        ];
    };
}

params! {
    /// Aspiration window: half-width of the first window around the last
    /// score.
    asp_delta = 20, 5..=60, 3;
    /// Razoring: at depth ≤ 3 a node whose evaluation is below alpha by
    /// `razor_base + razor_depth_sq · depth²` asks the capture search.
    razor_base = 263, 50..=600, 25;
    razor_depth_sq = 220, 50..=500, 20;
    /// Reverse futility: at depth ≤ `rfp_depth`, an evaluation above beta
    /// by `(rfp_margin − rfp_improving · improving) · depth` cuts.
    rfp_depth = 8, 4..=14, 1;
    rfp_margin = 86, 30..=160, 6;
    rfp_improving = 26, 0..=80, 4;
    /// Null move from depth `nmp_min_depth`, reduced by `nmp_base + depth /
    /// nmp_depth_div + min((eval − beta) / nmp_eval_div, nmp_eval_max)`.
    nmp_min_depth = 3, 2..=5, 1;
    nmp_base = 3, 2..=5, 1;
    nmp_depth_div = 4, 2..=8, 1;
    nmp_eval_div = 189, 80..=400, 15;
    nmp_eval_max = 3, 1..=6, 1;
    /// ProbCut from depth `probcut_depth` at beta + `probcut_margin` −
    /// `probcut_improving` · improving.
    probcut_depth = 5, 3..=8, 1;
    probcut_margin = 149, 60..=300, 12;
    probcut_improving = 50, 0..=120, 6;
    /// Internal iterative reduction from this depth.
    iir_depth = 4, 2..=8, 1;
    /// Singular extensions from depth `se_depth`, at the table's value
    /// minus `se_margin` · depth; two plies when the search falls
    /// `se_double_margin` below that, at most `se_double_max` times a line.
    se_depth = 7, 4..=10, 1;
    se_margin = 2, 1..=4, 1;
    se_double_margin = 25, 5..=60, 4;
    se_double_max = 6, 2..=12, 1;
    /// Late-move pruning: at depth ≤ `lmp_depth`, after `(lmp_base +
    /// depth²) / (2 − improving)` moves only checks are searched.
    lmp_depth = 8, 4..=12, 1;
    lmp_base = 3, 1..=8, 1;
    /// Futility: a quiet move at reduced depth d ≤ `futility_depth` is
    /// skipped when eval + `futility_base` + `futility_per_depth` · d ≤ alpha.
    futility_depth = 8, 4..=12, 1;
    futility_base = 88, 30..=250, 10;
    futility_per_depth = 99, 40..=200, 8;
    /// History pruning: at reduced depth < `hist_prune_depth` a quiet move
    /// with history below −`hist_prune_margin` · (depth − 1) is skipped.
    hist_prune_depth = 5, 2..=8, 1;
    hist_prune_margin = 3978, 1000..=8000, 250;
    /// SEE pruning: quiet moves losing more than `see_quiet_margin` ·
    /// (reduced depth)², at any depth, bad captures at depth ≤
    /// `see_capture_depth` losing more than `see_capture_margin` · depth.
    see_quiet_margin = 27, 10..=80, 3;
    see_capture_depth = 6, 3..=10, 1;
    see_capture_margin = 105, 40..=200, 8;
    /// Late-move reductions: `lmr_base / 100 + ln(depth) · ln(moves) /
    /// (lmr_div / 100)`, one ply less per `lmr_hist_div` of history.
    lmr_base = 77, 20..=150, 6;
    lmr_div = 249, 150..=350, 10;
    lmr_hist_div = 7513, 3000..=16000, 500;
    /// The reduction's adjustments, in 1/1024 plies: more off the table's
    /// principal variations, when not improving and at expected cut nodes;
    /// less for killers and the counter-move and for checks.
    lmr_not_pv = 1120, 0..=2048, 96;
    lmr_not_improving = 950, 0..=2048, 96;
    lmr_cut_node = 979, 0..=2560, 96;
    lmr_refutation = 1124, 0..=2048, 96;
    lmr_check = 909, 0..=2048, 96;
    /// After a reduced search beats alpha, the full-depth search goes a ply
    /// deeper when it beat the best score by `deeper_base +
    /// deeper_per_depth · depth`.
    deeper_base = 60, 20..=120, 5;
    deeper_per_depth = 10, 0..=30, 2;
    /// History: a cutoff at depth d adds `min(hist_bonus_quad · d² +
    /// hist_bonus_lin · d, hist_bonus_max)` to its quiet move's history
    /// and `hist_malus_pct` percent of that from the quiet moves tried
    /// before it.
    hist_bonus_quad = 16, 4..=40, 2;
    hist_bonus_lin = 32, 0..=120, 6;
    hist_bonus_max = 1600, 400..=4000, 120;
    hist_malus_pct = 114, 40..=200, 8;
    /// Quiescence futility: a capture that cannot lift the stand-pat
    /// score within this of alpha is skipped.
    qs_futility = 356, 50..=600, 15;
    /// Time: without `movestogo` the clock and the increments to come are
    /// shared over `tm_horizon` moves; move 1 gets `tm_ramp_start` percent
    /// of a share, growing to a full one over `tm_ramp_moves` moves.
    tm_horizon = 40, 15..=50, 2;
    tm_ramp_start = 40, 10..=100, 5;
    tm_ramp_moves = 12, 1..=30, 2;
    /// The reserve a clock keeps late in a game, when the increment pays
    /// for each move: the soft limit is at most the clock over
    /// `tm_soft_cap_div`, the hard limit at most `tm_hard_pct` percent of
    /// it, so a scheduling delay on a busy machine does not lose on time.
    tm_soft_cap_div = 8, 3..=16, 1;
    tm_hard_pct = 50, 25..=80, 4;
    /// The soft limit scales by `(tm_unstable − tm_stable_step ·
    /// min(stability, tm_stable_max)) / 100` while the best move changes,
    /// and by `1 + min(score drop / tm_drop_div, tm_drop_max / 100)` when
    /// the score falls.
    tm_unstable = 160, 100..=250, 8;
    tm_stable_step = 12, 0..=30, 2;
    tm_stable_max = 5, 1..=10, 1;
    tm_drop_div = 100, 40..=300, 10;
    tm_drop_max = 60, 0..=150, 8;
}

/// OpenBench's SPSA input, one line per parameter.
pub fn spsa_lines() -> String {
    ALL.iter()
        .map(|p| {
            format!(
                "{}, int, {}, {}, {}, {}, 0.002\n",
                p.name, p.default, p.min, p.max, p.step
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_hold_their_defaults() {
        for p in ALL {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(p.step > 0, "{}", p.name);
        }
        let mut names: Vec<&str> = ALL.iter().map(|p| p.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ALL.len(), "names are unique");
        // One line a parameter in OpenBench's shape, which spsa.py reads:
        // name, "int", value, min, max, c_end (the step) and r_end.
        let lines = spsa_lines();
        assert_eq!(lines.lines().count(), ALL.len());
        for (line, p) in lines.lines().zip(ALL) {
            let fields: Vec<&str> = line.split(", ").collect();
            assert_eq!(fields.len(), 7, "{line}");
            assert_eq!((fields[0], fields[1]), (p.name, "int"), "{line}");
            let n: Vec<i32> = fields[2..6].iter().map(|f| f.parse().unwrap()).collect();
            assert_eq!(n, [p.default, p.min, p.max, p.step], "{line}");
            assert!(fields[6].parse::<f64>().is_ok_and(|r| r > 0.0), "{line}");
        }
    }
}
