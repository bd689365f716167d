//! One step of AdamW over the network's parameters, on rayon's threads.

use super::checkpoint::Checkpoint;
use super::model::{Shape, CLIP, W1};
use rayon::prelude::*;

/// Parameters are updated in spans of this many, one span to a task.
const SPAN: usize = 16 * 1024;

/// One AdamW step.
pub struct Adam {
    pub lr: f32,
    pub decay: f32,
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
                self.moments((c1, c2), params, m, v, g);
                g.fill(0.0);
                // The hidden weights and biases, then the output weights.
                let end = at + params.len();
                for (from, to, clip) in [(W1, w2, CLIP), (w2, b2, output_clip)] {
                    let (from, to) = (from.clamp(at, end), to.clamp(at, end));
                    for w in &mut params[from - at..to - at] {
                        *w = w.clamp(-clip, clip);
                    }
                }
            });
    }

    /// The AdamW update of one span, given the bias corrections `c1`
    /// and `c2`: on the AVX2 copy where the CPU has it, which gives the
    /// same floats (the same operations, each correctly rounded).
    #[inline]
    fn moments(&self, c: (f32, f32), params: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32]) {
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just said it has AVX2.
            return unsafe { self.moments_avx2(c, params, m, v, g) };
        }
        self.moments_with(c, params, m, v, g)
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn moments_avx2(
        &self,
        c: (f32, f32),
        params: &mut [f32],
        m: &mut [f32],
        v: &mut [f32],
        g: &[f32],
    ) {
        self.moments_with(c, params, m, v, g)
    }

    #[inline(always)]
    fn moments_with(
        &self,
        (c1, c2): (f32, f32),
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
            *p -= self.lr * ((*m / c1) / ((*v / c2).sqrt() + Self::EPS) + self.decay * *p);
        }
    }
}
