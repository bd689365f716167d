//! One step of AdamW over the network's parameters, on rayon's threads.

use super::checkpoint::Checkpoint;
use super::model::{Shape, CLIP, W1};
use rayon::prelude::*;

/// Parameters are updated in spans of this many, one span to a task.
const SPAN: usize = 16 * 1024;

/// What one span's update needs beside the step: the bias corrections
/// of the moments and the span's weight decay.
#[derive(Clone, Copy)]
struct Rates {
    c1: f32,
    c2: f32,
    decay: f32,
}

/// One AdamW step.
pub struct Adam {
    pub lr: f32,
    pub decay: f32,
    /// The decay of the king buckets' own rows where the network has a
    /// factoriser: a larger one keeps each bucket near the shared rows
    /// unless its positions say otherwise.
    pub bucket_decay: f32,
    /// One over the batch's size: the gradients are sums.
    pub inv_batch: f32,
    /// Steps taken, this one included.
    pub steps: u64,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPS: f32 = 1e-8;

    /// Moves `state`'s parameters along the sum of `grad` and `others`
    /// (the threads' gradients, added in that order), then clips each
    /// weight to what the file can hold, and leaves every gradient zero
    /// for the next batch (here, while each span is in the cache, rather
    /// than in a pass of its own). Span by span in parallel: each
    /// parameter's arithmetic is the same whichever thread does it.
    pub fn update(
        &self,
        state: &mut Checkpoint,
        grad: &mut [f32],
        others: &mut [Vec<f32>],
        shape: &Shape,
    ) {
        let t = self.steps.min(i32::MAX as u64) as i32;
        let (c1, c2) = (1.0 - Self::BETA1.powi(t), 1.0 - Self::BETA2.powi(t));
        let (w2, b2) = (shape.w2(), shape.b2());
        let output_clip = shape.output_clip();
        let own_rows = if shape.factoriser {
            shape.bucket_weights()
        } else {
            W1..W1
        };
        // The other gradients' spans, gathered span by span.
        let mut other_spans: Vec<Vec<&mut [f32]>> =
            (0..grad.len().div_ceil(SPAN)).map(|_| Vec::new()).collect();
        for other in others.iter_mut() {
            for (k, span) in other[..grad.len()].chunks_mut(SPAN).enumerate() {
                other_spans[k].push(span);
            }
        }
        state
            .params
            .par_chunks_mut(SPAN)
            .zip(state.m.par_chunks_mut(SPAN))
            .zip(state.v.par_chunks_mut(SPAN))
            .zip(grad.par_chunks_mut(SPAN))
            .zip(other_spans.par_iter_mut())
            .enumerate()
            .for_each(|(k, ((((params, m), v), g), others))| {
                let at = k * SPAN;
                for other in others.iter_mut() {
                    for (x, y) in g.iter_mut().zip(other.iter_mut()) {
                        *x += *y;
                        *y = 0.0;
                    }
                }
                // The king buckets' own rows decay at their own rate.
                let end = at + params.len();
                let (from, to) = (
                    own_rows.start.clamp(at, end) - at,
                    own_rows.end.clamp(at, end) - at,
                );
                for (r, decay) in [
                    (0..from, self.decay),
                    (from..to, self.bucket_decay),
                    (to..params.len(), self.decay),
                ] {
                    let rates = Rates { c1, c2, decay };
                    let (p, m, v) = (&mut params[r.clone()], &mut m[r.clone()], &mut v[r.clone()]);
                    self.moments(rates, p, m, v, &g[r]);
                }
                g.fill(0.0);
                // The hidden weights and biases, then the output weights.
                for (from, to, clip) in [(W1, w2, CLIP), (w2, b2, output_clip)] {
                    let (from, to) = (from.clamp(at, end), to.clamp(at, end));
                    for w in &mut params[from - at..to - at] {
                        *w = w.clamp(-clip, clip);
                    }
                }
            });
    }

    /// The AdamW update of one span at its `Rates`: on the AVX2 copy
    /// where the CPU has it, which gives the
    /// same floats (the same operations, each correctly rounded).
    #[inline]
    fn moments(&self, r: Rates, params: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32]) {
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just said it has AVX2.
            return unsafe { self.moments_avx2(r, params, m, v, g) };
        }
        self.moments_with(r, params, m, v, g)
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn moments_avx2(
        &self,
        r: Rates,
        params: &mut [f32],
        m: &mut [f32],
        v: &mut [f32],
        g: &[f32],
    ) {
        self.moments_with(r, params, m, v, g)
    }

    #[inline(always)]
    fn moments_with(
        &self,
        Rates { c1, c2, decay }: Rates,
        params: &mut [f32],
        m: &mut [f32],
        v: &mut [f32],
        g: &[f32],
    ) {
        let moments = m.iter_mut().zip(v.iter_mut());
        for ((p, g), (m, v)) in params.iter_mut().zip(g).zip(moments) {
            let g = g * self.inv_batch;
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            *p -= self.lr * ((*m / c1) / ((*v / c2).sqrt() + Self::EPS) + decay * *p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trainer::model::testing::{shapes, three_king_buckets};

    /// With no gradient a step only decays: the king buckets' own rows
    /// at `bucket_decay` where the network has a factoriser, everything
    /// else (the shared rows included) at `decay`.
    #[test]
    fn bucket_rows_decay_at_their_own_rate() {
        let keyed = shapes()
            .into_iter()
            .find(|s| s.factoriser && s.inputs == three_king_buckets())
            .unwrap();
        for shape in [
            keyed,
            Shape {
                factoriser: false,
                ..keyed
            },
        ] {
            let n = shape.params();
            let mut state = Checkpoint {
                epoch: 0,
                steps: 0,
                best: f64::INFINITY,
                params: vec![0.5; n],
                m: vec![0.0; n],
                v: vec![0.0; n],
            };
            let adam = Adam {
                lr: 0.01,
                decay: 0.5,
                bucket_decay: 4.0,
                inv_batch: 1.0,
                steps: 1,
            };
            // Several threads' gradients, spanning many spans.
            let mut grad = vec![0.0; n];
            let mut others = vec![vec![0.0; n]; 2];
            adam.update(&mut state, &mut grad, &mut others, &shape);
            let bucket_end = shape.bucket_weights().end;
            for (i, &p) in state.params.iter().enumerate() {
                let decay = if shape.factoriser && i < bucket_end {
                    4.0
                } else {
                    0.5
                };
                assert_eq!(p, 0.5 - 0.01 * (decay * 0.5), "parameter {i} of {shape:?}");
            }
        }
    }
}
