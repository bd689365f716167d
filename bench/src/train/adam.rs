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
    /// weight to what the file can hold. Span by span in parallel: each
    /// parameter's arithmetic is the same whichever thread does it.
    pub fn update(
        &self,
        state: &mut Checkpoint,
        grad: &mut [f32],
        others: &[Vec<f32>],
        shape: &Shape,
    ) {
        let t = self.steps.min(i32::MAX as u64) as i32;
        let (c1, c2) = (1.0 - Self::BETA1.powi(t), 1.0 - Self::BETA2.powi(t));
        let (w2, b2) = (shape.w2(), shape.b2());
        let output_clip = shape.output_clip();
        state
            .params
            .par_chunks_mut(SPAN)
            .zip(state.m.par_chunks_mut(SPAN))
            .zip(state.v.par_chunks_mut(SPAN))
            .zip(grad.par_chunks_mut(SPAN))
            .enumerate()
            .for_each(|(k, (((params, m), v), g))| {
                let at = k * SPAN;
                for other in others {
                    for (x, y) in g.iter_mut().zip(&other[at..]) {
                        *x += y;
                    }
                }
                let moments = m.iter_mut().zip(v.iter_mut());
                for ((p, g), (m, v)) in params.iter_mut().zip(g.iter()).zip(moments) {
                    let g = g * self.inv_batch;
                    *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
                    *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
                    *p -= self.lr * ((*m / c1) / ((*v / c2).sqrt() + Self::EPS) + self.decay * *p);
                }
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
}
