//! The trainer's float parameters as the quantised network file the
//! engine reads (`castella_eval::nnue`), and back.

use super::model::{Activation, Shape, CLIP, W1};
use castella_eval::nnue::file::{self, Weights};
use castella_eval::nnue::{Inputs, Network, INPUTS, MAX_BUCKETS, QA};

/// The file's header for `shape` (written where the format is read).
fn header(shape: &Shape) -> Vec<u8> {
    castella_eval::nnue::file::header(
        shape.hidden,
        shape.buckets,
        shape.fine_output,
        shape.activation == Activation::SCReLU,
        &shape.inputs,
    )
}

/// The network quantised, in the format `castella_eval::nnue` reads.
pub fn quantise(p: &[f32], shape: &Shape) -> Vec<u8> {
    if shape.factoriser {
        return quantise(&merged(p, shape), &shape.filed());
    }
    let q = |x: f32, scale: i32| (x * scale as f32).round() as i16;
    let (buckets, qb) = (shape.buckets, shape.qb());
    let (w2, b2) = (shape.w2(), shape.b2());
    let weights = Weights {
        hidden: p[W1..w2].iter().map(|&w| q(w, QA)).collect(),
        output: p[w2..w2 + buckets * 2 * shape.hidden]
            .iter()
            .map(|&w| q(w, qb))
            .collect(),
        output_bias: p[b2..b2 + buckets]
            .iter()
            .map(|&b| (b * (QA * qb) as f32).round() as i32)
            .collect(),
    };
    file::write(&header(shape), &weights)
}

/// The float parameters a quantised network file holds, to fine-tune it
/// (`nnue-train --init NET`); its shape must be `shape`'s.
pub fn dequantise(bytes: &[u8], shape: &Shape) -> Result<Vec<f32>, String> {
    if shape.factoriser {
        // The shared rows were added into the buckets': split back out.
        return dequantise(bytes, &shape.filed()).map(|p| with_factoriser(&p, shape));
    }
    let net = Network::from_bytes(bytes)?;
    if !bytes.starts_with(&header(shape)) {
        return Err(
            "the network's shape (hidden size, buckets, king buckets, activation or \
             output units) differs from the options'"
                .into(),
        );
    }
    let weights = net.weights();
    let (w2, b2) = (shape.w2(), shape.b2());
    let (outputs, buckets) = (shape.buckets * 2 * shape.hidden, shape.buckets);
    if (
        weights.hidden.len(),
        weights.output.len(),
        weights.output_bias.len(),
    ) != (w2 - W1, outputs, buckets)
    {
        return Err("the network's sizes differ from the options' shape".into());
    }
    let (qa, qb) = (QA as f32, shape.qb() as f32);
    let mut p = vec![0f32; shape.params()];
    for (p, &w) in p[W1..w2].iter_mut().zip(&weights.hidden) {
        *p = w as f32 / qa;
    }
    for (p, &w) in p[w2..w2 + outputs].iter_mut().zip(&weights.output) {
        *p = w as f32 / qb;
    }
    for (p, &b) in p[b2..b2 + buckets].iter_mut().zip(&weights.output_bias) {
        *p = b as f32 / (qa * qb);
    }
    Ok(p)
}

/// The parameters of a factorised network as those of the network its
/// file holds: each bucket's rows with the shared row of the same piece
/// and square added in, clipped as a trained weight is (to keep the
/// engine's sums within 16 bits; trained sums stay far inside it).
fn merged(p: &[f32], shape: &Shape) -> Vec<f32> {
    let h = shape.hidden;
    let buckets = shape.bucket_weights();
    let shared = &p[buckets.end..shape.b1()];
    let mut out = p[..buckets.end].to_vec();
    for (row, weights) in out[buckets].chunks_exact_mut(h).enumerate() {
        let shared = &shared[row % INPUTS * h..][..h];
        for (w, s) in weights.iter_mut().zip(shared) {
            *w = (*w + s).clamp(-CLIP, CLIP);
        }
    }
    out.extend_from_slice(&p[shape.b1()..]);
    out
}

/// The parameters `p` of `shape.filed()` as those of the factorised
/// `shape`: each input's shared row the mean of its rows in the buckets,
/// and each bucket row what it adds to that mean. Merged again they are
/// the file's rows, and `--bucket-decay` then pulls a bucket toward what
/// the buckets share rather than toward zero.
fn with_factoriser(p: &[f32], shape: &Shape) -> Vec<f32> {
    let h = shape.hidden;
    let buckets = shape.bucket_weights();
    let count = (buckets.len() / (INPUTS * h)) as f32;
    let mut shared = input_sums(&p[buckets.clone()], h);
    shared.iter_mut().for_each(|s| *s /= count);
    let end = buckets.end;
    let mut out = p[..end].to_vec();
    for (row, weights) in out[buckets].chunks_exact_mut(h).enumerate() {
        for (w, s) in weights.iter_mut().zip(&shared[row % INPUTS * h..][..h]) {
            *w -= s;
        }
    }
    out.extend_from_slice(&shared);
    out.extend_from_slice(&p[end..]);
    out
}

/// Each input's rows (`h` weights each, bucket after bucket) summed over
/// the buckets.
fn input_sums(rows: &[f32], h: usize) -> Vec<f32> {
    let mut sums = vec![0f32; INPUTS * h];
    for (row, weights) in rows.chunks_exact(h).enumerate() {
        for (s, w) in sums[row % INPUTS * h..][..h].iter_mut().zip(weights) {
            *s += w;
        }
    }
    sums
}

/// The float parameters of a network file for `shape`: its own; or,
/// when `shape` has king buckets and the file plain inputs of the same
/// shape otherwise, the file's input weights copied into every bucket, or
/// into the factoriser where `shape` has one (a start for king buckets
/// from a trained plain network); or, when the
/// file has fewer hidden neurons than `shape` and is otherwise of its
/// shape, the file's network widened (see [`widen`]) with new neurons'
/// input weights and biases from `fresh` (random starting weights for
/// `shape`).
pub fn dequantise_for(
    bytes: &[u8],
    shape: &Shape,
    fresh: impl FnOnce() -> Vec<f32>,
) -> Result<Vec<f32>, String> {
    let err = match dequantise(bytes, shape) {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    let file_hidden = castella_eval::nnue::Network::from_bytes(bytes)
        .ok()
        .map(|net| net.hidden());
    if let Some(hidden) = file_hidden.filter(|&h| h < shape.hidden) {
        let narrow = Shape { hidden, ..*shape };
        let from = dequantise(bytes, &narrow).map_err(|_| err)?;
        return Ok(widen(&from, &narrow, fresh(), shape));
    }
    let plain = Shape {
        inputs: Inputs::PLAIN,
        ..shape.filed()
    };
    if !shape.inputs.keyed() {
        return Err(err);
    }
    let from = dequantise(bytes, &plain).map_err(|_| err)?;
    let mut p = vec![0f32; shape.params()];
    let rows = &from[W1..plain.b1()];
    // Into the shared rows where there are some, else into every bucket.
    let start = if shape.factoriser {
        shape.bucket_weights().end
    } else {
        W1
    };
    for bucket in p[start..shape.b1()].chunks_exact_mut(rows.len()) {
        bucket.copy_from_slice(rows);
    }
    p[shape.b1()..].copy_from_slice(&from[plain.b1()..]);
    Ok(p)
}

/// A network of `narrow` shape (`from`) as one of `wide` shape, which
/// differs only in having more hidden neurons: the old neurons first,
/// each new one with its input weights and bias from `fresh` and output
/// weights of zero, so the wider network computes exactly what the
/// narrower one does until training moves the new neurons' output
/// weights. A way to grow a trained network on data too scarce to train
/// the wider one from scratch.
pub fn widen(from: &[f32], narrow: &Shape, mut fresh: Vec<f32>, wide: &Shape) -> Vec<f32> {
    let (old, new) = (narrow.hidden, wide.hidden);
    debug_assert!(old <= new && fresh.len() == wide.params());
    for row in 0..narrow.rows() {
        fresh[W1 + row * new..][..old].copy_from_slice(&from[W1 + row * old..][..old]);
    }
    fresh[wide.b1()..][..old].copy_from_slice(&from[narrow.b1()..][..old]);
    for half in 0..MAX_BUCKETS * 2 {
        let out = &mut fresh[wide.w2() + half * new..][..new];
        out[..old].copy_from_slice(&from[narrow.w2() + half * old..][..old]);
        out[old..].fill(0.0);
    }
    fresh[wide.b2()..].copy_from_slice(&from[narrow.b2()..]);
    fresh
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameResult, Scored};
    use crate::trainer::model::testing::*;
    use crate::trainer::model::{init, output_cp};
    use crate::trainer::sample::{Distill, Labels, Sample, Target, Teacher};
    use castella_eval::nnue::Network;
    use castella_movegen::Position;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// The largest difference, in centipawns, between the float model and
    /// the engine's quantised network of the same parameters.
    fn largest_difference(p: &[f32], shape: &Shape) -> f32 {
        let net = Network::from_bytes(&quantise(p, shape)).unwrap();
        let target = Target {
            lambda: 0.0,
            scale: 400.0,
        };
        let labels = Labels {
            target,
            distill: Distill::default(),
            teacher: &Teacher::embedded(),
        };
        let mut largest = 0f32;
        for fen in [
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 b - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let s = Scored {
                pos,
                mv: pos.legal_moves()[0],
                score: 0,
                ply: 0,
            };
            let sample = Sample::new(&s, GameResult::Draw, labels, &shape.inputs).unwrap();
            let float = output_cp(p, &sample, shape);
            largest = largest.max((float - net.evaluate(&pos) as f32).abs());
        }
        largest
    }

    /// On parameters the file holds exactly, the engine's integer network
    /// computes what the float model does, to within its truncations (one
    /// centipawn): the file layout, the buckets and the arithmetic agree.
    #[test]
    fn quantised_output_equals_the_float_model_on_the_grid() {
        let mut rng = StdRng::seed_from_u64(11);
        for shape in shapes() {
            let p = random_network(&mut rng, &shape, true);
            let d = largest_difference(&p, &shape);
            assert!(d <= 1.0, "{shape:?}: {d} cp apart");
        }
    }

    /// An ensemble teacher evaluates as the mean of its networks, and an
    /// empty one as the network this build embeds.
    #[test]
    fn an_ensemble_teaches_its_networks_mean() {
        let mut rng = StdRng::seed_from_u64(7);
        let shape = shapes()[0];
        let nets: Vec<Network> = (0..2)
            .map(|_| {
                let p = random_network(&mut rng, &shape, false);
                Network::from_bytes(&quantise(&p, &shape)).unwrap()
            })
            .collect();
        let pos =
            Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
                .unwrap();
        let each: Vec<i32> = nets
            .iter()
            .map(|n| castella_eval::static_eval_with(n, &pos))
            .collect();
        assert_ne!(each[0], each[1], "two random networks disagree");
        let mean = (each[0] + each[1]) as f32 / 2.0;
        assert_eq!(Teacher::ensemble(nets).eval(&pos), mean);
        let embedded = castella_eval::static_eval(&pos) as f32;
        assert_eq!(Teacher::embedded().eval(&pos), embedded);
    }

    /// A network file read back into floats and written again is the same
    /// file; a file of another shape is refused.
    #[test]
    fn dequantised_files_round_trip() {
        let mut rng = StdRng::seed_from_u64(5);
        for shape in shapes() {
            let p = random_network(&mut rng, &shape, false);
            let bytes = quantise(&p, &shape);
            let back = dequantise(&bytes, &shape).unwrap();
            assert_eq!(quantise(&back, &shape), bytes);
            let other = Shape {
                fine_output: !shape.fine_output,
                ..shape
            };
            assert!(dequantise(&bytes, &other).is_err());
            let other = Shape {
                hidden: 384 - shape.hidden,
                ..shape
            };
            assert!(dequantise(&bytes, &other).is_err());
            let other = Shape {
                inputs: if shape.inputs.keyed() {
                    Inputs::PLAIN
                } else {
                    three_king_buckets()
                },
                ..shape
            };
            assert!(dequantise(&bytes, &other).is_err());
        }
        // The shipped network, whatever its shape, comes back byte for
        // byte.
        let file = castella_eval::NETWORK_FILE;
        let net = Network::from_bytes(file).unwrap();
        let shipped = Shape {
            hidden: net.hidden(),
            activation: if net.screlu() {
                Activation::SCReLU
            } else {
                Activation::CReLU
            },
            scale: 210.0,
            buckets: net.buckets(),
            fine_output: net.fine_output(),
            inputs: *net.inputs(),
            factoriser: false,
        };
        assert_eq!(
            quantise(&dequantise(file, &shipped).unwrap(), &shipped),
            file
        );
    }

    /// A king-bucketed file read for training with a factoriser: each
    /// input's shared row is its buckets' mean, the buckets' own rows
    /// sum to nothing, and written again the file comes back byte for
    /// byte.
    #[test]
    fn factorised_starts_split_the_buckets_mean_out() {
        let mut rng = StdRng::seed_from_u64(9);
        for filed in shapes().into_iter().filter(|s| s.inputs.keyed()) {
            let bytes = quantise(&random_network(&mut rng, &filed, true), &filed);
            let shape = Shape {
                factoriser: true,
                ..filed
            };
            let p = dequantise(&bytes, &shape).unwrap();
            assert_eq!(quantise(&p, &shape), bytes);
            let shared = &p[shape.bucket_weights().end..shape.b1()];
            assert!(shared.iter().any(|&w| w.abs() > 0.01));
            let sums = input_sums(&p[shape.bucket_weights()], shape.hidden);
            assert!(sums.iter().all(|s| s.abs() < 1e-4), "{shape:?}");
        }
    }

    /// A plain network copied into every king bucket evaluates as it did
    /// wherever mirroring changes nothing: positions whose kings are both
    /// on files a–d.
    #[test]
    fn plain_networks_start_king_buckets() {
        let mut rng = StdRng::seed_from_u64(3);
        let plain = shapes()[3];
        let bytes = quantise(&random_network(&mut rng, &plain, true), &plain);
        for factoriser in [false, true] {
            let keyed = Shape {
                inputs: three_king_buckets(),
                factoriser,
                ..plain
            };
            let p = dequantise_for(&bytes, &keyed, || unreachable!()).unwrap();
            // With a factoriser the plain rows are the shared ones (every
            // bucket's mean), and the buckets' own start at zero.
            let bucket_rows = &p[keyed.bucket_weights()];
            assert_eq!(bucket_rows.iter().all(|&w| w == 0.0), factoriser);
            let (a, b) = (
                Network::from_bytes(&bytes).unwrap(),
                Network::from_bytes(&quantise(&p, &keyed)).unwrap(),
            );
            for fen in [
                "2rk4/pp6/8/8/8/8/PP6/2RK4 w - - 0 1",
                "1k6/8/8/3q4/8/2N5/1K6/8 b - - 0 1",
            ] {
                let pos = Position::from_fen(fen).unwrap();
                assert_eq!(a.evaluate(&pos), b.evaluate(&pos), "{fen}");
            }
        }
        let keyed = Shape {
            inputs: three_king_buckets(),
            ..plain
        };
        assert!(dequantise_for(
            &bytes,
            &Shape {
                hidden: 128,
                ..keyed
            },
            || unreachable!()
        )
        .is_err());
    }

    /// Rounding to the file's grid moves the output by at most 30
    /// centipawns on these random networks, whose activations are far
    /// denser than a trained network's (seen: 6.5 to 27), nearly all of it
    /// from output weights stored in units of 1/64.
    #[test]
    fn quantised_output_is_close_to_the_float_model() {
        let mut rng = StdRng::seed_from_u64(11);
        for shape in shapes() {
            let p = random_network(&mut rng, &shape, false);
            let d = largest_difference(&p, &shape);
            assert!(d <= 30.0, "{shape:?}: {d} cp apart");
        }
    }

    /// A network widened to more neurons evaluates exactly as it did, in
    /// floats and in the engine's integers, whatever the new neurons'
    /// input weights; once their output weights move, it does not.
    #[test]
    fn widened_networks_evaluate_as_before() {
        let mut rng = StdRng::seed_from_u64(8);
        for narrow in shapes().into_iter().filter(|s| s.hidden == 128) {
            let wide = Shape {
                hidden: 384,
                ..narrow
            };
            let bytes = quantise(&random_network(&mut rng, &narrow, true), &narrow);
            let fresh = random_network(&mut rng, &wide, true);
            let p = dequantise_for(&bytes, &wide, || fresh.clone()).unwrap();
            let (a, b) = (
                Network::from_bytes(&bytes).unwrap(),
                Network::from_bytes(&quantise(&p, &wide)).unwrap(),
            );
            let fens = [
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            ];
            for fen in fens {
                let pos = Position::from_fen(fen).unwrap();
                assert_eq!(a.evaluate(&pos), b.evaluate(&pos), "{narrow:?} {fen}");
            }
            for (s, t) in samples(&narrow.inputs).iter().zip(samples(&wide.inputs)) {
                let before = output_cp(&dequantise(&bytes, &narrow).unwrap(), s, &narrow);
                assert!((output_cp(&p, &t, &wide) - before).abs() < 1e-3);
            }
            // The new neurons are live: moving their output weights moves
            // the evaluation.
            let mut moved = p.clone();
            for half in 0..MAX_BUCKETS * 2 {
                moved[wide.w2() + half * 384 + 128..][..256].fill(0.3);
            }
            let c = Network::from_bytes(&quantise(&moved, &wide)).unwrap();
            let pos = Position::from_fen(fens[0]).unwrap();
            assert_ne!(a.evaluate(&pos), c.evaluate(&pos), "{narrow:?}");
        }
        // Narrower than the file, or wider with other output units: refused.
        let shape = shapes()[2];
        let bytes = quantise(&random_network(&mut rng, &shape, true), &shape);
        for other in [
            Shape {
                hidden: 128,
                ..shape
            },
            Shape {
                hidden: 512,
                fine_output: !shape.fine_output,
                ..shape
            },
        ] {
            assert!(dequantise_for(&bytes, &other, || init(&mut rng, &other)).is_err());
        }
    }
}
