//! The network file. Little-endian: the magic `CSNN`, the hidden size as
//! a `u32`, flags as a `u32` (bit 0: a correction to the hand-written
//! evaluation of builds before network 2, refused now; bit 1: SCReLU; bit
//! 2: output buckets; bit 3: output weights in units of 1/[`QB_FINE`]
//! instead of 1/[`QB`]; bit 4: king buckets; bit 5, with bit 4: the
//! board is not mirrored for them), the number of output buckets as a
//! `u32` when bit 2 is set (one otherwise), the king bucket map when bit
//! 4 is set (32 bytes, see [`Inputs::king_buckets`]; 64 with bit 5, see
//! [`Inputs::king_buckets_unmirrored`]), then
//! the hidden weights (`i16`, input-major, 768 rows per king bucket), the
//! hidden biases (`i16`), each bucket's output weights
//! (`i16`, side to move's half first) and each bucket's output bias
//! (`i32`, in units of 1/(QA·QB), or 1/(QA·QB_FINE) with bit 3).

use super::simd::{Kernels, MAX_SQUARED_WEIGHT};
use super::{
    is_valid_hidden, Inputs, Network, HIDDEN_STEP, INPUTS, KING_SQUARES, MAX_BUCKETS, MAX_HIDDEN,
    QB, QB_FINE,
};
use crate::bytes::Reader;

const MAGIC: &[u8; 4] = b"CSNN";

/// Flag bit: the network's output was a correction to the hand-written
/// evaluation that builds before network 2 had; such files are refused.
pub const RESIDUAL: u32 = 1;
/// Flag bit: the activation is the squared clipped ReLU (SCReLU).
pub const SCRELU: u32 = 2;
/// Flag bit: the output neuron comes in material buckets (their number
/// follows the flags).
pub const BUCKETS: u32 = 4;
/// Flag bit: the output weights are stored in units of 1/[`QB_FINE`].
pub const FINE_OUTPUT: u32 = 8;
/// Flag bit: each view's inputs are mirrored and bucketed by its own
/// king's square (the map follows the output bucket count).
pub const KING_BUCKETS: u32 = 16;
/// Flag bit, with [`KING_BUCKETS`]: the board is not mirrored, and the
/// map covers all 64 king squares.
pub const UNMIRRORED: u32 = 32;

/// The header of a network file, as [`Network::from_bytes`] reads it and
/// the trainer writes it: the magic, the hidden size, the flags, then the
/// output bucket count and the king bucket map where the flags say so.
/// `fine_output` and `screlu` set their flags; `inputs` with king buckets
/// sets [`KING_BUCKETS`] (and [`UNMIRRORED`] where it does not mirror).
pub fn header(
    hidden: usize,
    buckets: usize,
    fine_output: bool,
    screlu: bool,
    inputs: &Inputs,
) -> Vec<u8> {
    let mut flags = 0;
    if screlu {
        flags |= SCRELU;
    }
    if buckets > 1 {
        flags |= BUCKETS;
    }
    if fine_output {
        flags |= FINE_OUTPUT;
    }
    if inputs.keyed() {
        flags |= KING_BUCKETS;
        if !inputs.mirrored() {
            flags |= UNMIRRORED;
        }
    }
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&(hidden as u32).to_le_bytes());
    bytes.extend_from_slice(&flags.to_le_bytes());
    if buckets > 1 {
        bytes.extend_from_slice(&(buckets as u32).to_le_bytes());
    }
    if inputs.keyed() {
        bytes.extend_from_slice(&inputs.map());
    }
    bytes
}

/// A network's values in the order the file holds them, as the trainer
/// makes them and [`Network::weights`] gives them back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The hidden weights (input-major, `rows × hidden`), then the hidden
    /// biases (`hidden`), in units of 1/QA.
    pub hidden: Vec<i16>,
    /// Each output bucket's weights, the side to move's half first
    /// (`buckets × 2 × hidden`).
    pub output: Vec<i16>,
    /// Each output bucket's bias.
    pub output_bias: Vec<i32>,
}

/// The network file of `header` (see [`header`]) and `weights`; the
/// reader checks that they agree on the sizes.
pub fn write(header: &[u8], weights: &Weights) -> Vec<u8> {
    let mut bytes = header.to_vec();
    bytes
        .reserve(2 * (weights.hidden.len() + weights.output.len()) + 4 * weights.output_bias.len());
    for w in weights.hidden.iter().chain(&weights.output) {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    for b in &weights.output_bias {
        bytes.extend_from_slice(&b.to_le_bytes());
    }
    bytes
}

impl Network {
    /// Reads and parses the network file at `path`; an error says why it
    /// could not be read or what is wrong with it.
    pub fn read(path: &std::path::Path) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        Network::from_bytes(&bytes)
    }

    /// Parses a network file; an error says what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let mut r = Reader::new(bytes, "the network file is truncated");
        if &r.take::<4>()? != MAGIC {
            return Err("not a Castella network file (bad magic)".into());
        }
        let hidden = r.u32()? as usize;
        if !is_valid_hidden(hidden) {
            return Err(format!(
                "the network has {hidden} hidden neurons; this build reads multiples of \
                 {HIDDEN_STEP} up to {MAX_HIDDEN}"
            ));
        }
        let flags = r.u32()?;
        if flags & !(RESIDUAL | SCRELU | BUCKETS | FINE_OUTPUT | KING_BUCKETS | UNMIRRORED) != 0 {
            return Err(format!("unknown network flags {flags:#x}"));
        }
        if flags & (KING_BUCKETS | UNMIRRORED) == UNMIRRORED {
            return Err("the network's flags say unmirrored without king buckets".into());
        }
        if flags & RESIDUAL != 0 {
            return Err(
                "the network is a correction to the hand-written evaluation of \
                        builds before network 2, which this build no longer has"
                    .into(),
            );
        }
        let buckets = if flags & BUCKETS != 0 {
            r.u32()? as usize
        } else {
            1
        };
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(format!(
                "the network has {buckets} output buckets; this build reads 1 to {MAX_BUCKETS}"
            ));
        }
        let inputs = if flags & UNMIRRORED != 0 {
            Inputs::king_buckets_unmirrored(&r.take::<64>()?)?
        } else if flags & KING_BUCKETS != 0 {
            Inputs::king_buckets(&r.take::<KING_SQUARES>()?)?
        } else {
            Inputs::PLAIN
        };
        let mut net = Network {
            hidden,
            inputs,
            hidden_weights: vec![[0; MAX_HIDDEN]; inputs.rows()].into_boxed_slice(),
            hidden_bias: [0; MAX_HIDDEN],
            output_weights: [[[0; MAX_HIDDEN]; 2]; MAX_BUCKETS],
            output_bias: [0; MAX_BUCKETS],
            buckets,
            qb: if flags & FINE_OUTPUT != 0 {
                QB_FINE
            } else {
                QB
            },
            squared: flags & SCRELU != 0,
            kernels: Kernels::detect(),
        };
        for row in net.hidden_weights.iter_mut() {
            r.i16s(&mut row[..hidden])?;
        }
        r.i16s(&mut net.hidden_bias[..hidden])?;
        for half in net.output_weights[..buckets].iter_mut().flatten() {
            r.i16s(&mut half[..hidden])?;
        }
        for bias in &mut net.output_bias[..buckets] {
            *bias = r.i32()?;
        }
        if !r.is_empty() {
            return Err("the network file has trailing bytes".into());
        }
        let too_large = net
            .output_weights
            .iter()
            .flatten()
            .flatten()
            .any(|w| w.abs() > MAX_SQUARED_WEIGHT);
        if net.squared && too_large {
            return Err(format!(
                "a SCReLU network's output weights must lie within ±{MAX_SQUARED_WEIGHT}"
            ));
        }
        Ok(net)
    }
}

impl Network {
    /// This network's file header: [`write()`] with it and
    /// [`Network::weights`] gives back its file.
    pub fn header(&self) -> Vec<u8> {
        self.header_with(&self.inputs)
    }

    /// This network's file header with other `inputs`: for a file of the
    /// same shape whose input rows are rebuilt for them.
    fn header_with(&self, inputs: &Inputs) -> Vec<u8> {
        header(
            self.hidden,
            self.buckets,
            self.fine_output(),
            self.screlu(),
            inputs,
        )
    }

    /// The network's values in file order: [`write()`] with
    /// [`Network::header`] gives back its file.
    pub fn weights(&self) -> Weights {
        let h = self.hidden;
        let mut hidden: Vec<i16> = self
            .hidden_weights
            .iter()
            .flat_map(|row| &row[..h])
            .copied()
            .collect();
        hidden.extend_from_slice(&self.hidden_bias[..h]);
        Weights {
            hidden,
            output: self.output_weights[..self.buckets]
                .iter()
                .flatten()
                .flat_map(|half| &half[..h])
                .copied()
                .collect(),
            output_bias: self.output_bias[..self.buckets].to_vec(),
        }
    }
}

/// A plain network from `file`: the file itself if its inputs are plain,
/// else its first king bucket's input rows with the rest unchanged. For
/// tests that need a plain network whatever the embedded one is.
#[doc(hidden)]
pub fn plain(file: &[u8]) -> Result<Vec<u8>, String> {
    let (net, weights) = plain_weights(file)?;
    Ok(write(&net.header_with(&Inputs::PLAIN), &weights))
}

/// `file`'s network and its weights with the first king bucket's input
/// rows alone (all of them when its inputs are plain).
fn plain_weights(file: &[u8]) -> Result<(Network, Weights), String> {
    let net = Network::from_bytes(file)?;
    let mut weights = net.weights();
    // The first bucket's rows, then the hidden biases.
    let rows = net.inputs.rows() * net.hidden;
    weights.hidden.drain(INPUTS * net.hidden..rows);
    Ok((net, weights))
}

/// The plain network of `file` (see [`plain`]) turned into one with
/// mirrored inputs and `map`'s king buckets, bucket `b`'s input weights
/// the plain ones plus `b · step` (a non-zero step makes the buckets
/// differ). For tests here and in the crates that search with the
/// network.
#[doc(hidden)]
pub fn king_bucketed(file: &[u8], map: &[u8; KING_SQUARES], step: i16) -> Result<Vec<u8>, String> {
    king_bucketed_as(file, &Inputs::king_buckets(map)?, step)
}

/// [`king_bucketed`] for any king-bucketed `inputs`, mirrored or not.
#[doc(hidden)]
pub fn king_bucketed_as(file: &[u8], inputs: &Inputs, step: i16) -> Result<Vec<u8>, String> {
    if !inputs.keyed() {
        return Err("the inputs have no king buckets".into());
    }
    let (plain, mut weights) = plain_weights(file)?;
    // The plain input rows once per bucket, shifted by the bucket's step;
    // the hidden biases follow them.
    let (rows, biases) = weights.hidden.split_at(INPUTS * plain.hidden);
    let mut keyed: Vec<i16> = (0..inputs.buckets() as i16)
        .flat_map(|b| rows.iter().map(move |w| w.saturating_add(b * step)))
        .collect();
    keyed.extend_from_slice(biases);
    weights.hidden = keyed;
    Ok(write(&plain.header_with(inputs), &weights))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`header`] and [`write()`] write is read back as the same shape
    /// and values; a wrong magic or a short body is not read.
    #[test]
    fn headers_round_trip() {
        let map4: [u8; KING_SQUARES] = std::array::from_fn(|sq| (sq / 8).min(3) as u8);
        let unmirrored =
            Inputs::king_buckets_unmirrored(&std::array::from_fn(|sq| (sq / 32) as u8)).unwrap();
        for (hidden, buckets, fine, screlu, inputs) in [
            (128, 1, false, false, Inputs::PLAIN),
            (256, 8, true, true, Inputs::PLAIN),
            (384, 8, true, true, Inputs::king_buckets(&map4).unwrap()),
            (128, 4, false, true, unmirrored),
        ] {
            let mut bytes = header(hidden, buckets, fine, screlu, &inputs);
            let body = 2 * inputs.rows() * hidden + 2 * hidden + 4 * buckets * hidden + 4 * buckets;
            bytes.resize(bytes.len() + body, 0);
            let net = Network::from_bytes(&bytes).unwrap();
            assert_eq!(
                (net.hidden, net.buckets, net.squared, net.inputs),
                (hidden, buckets, screlu, inputs)
            );
            assert_eq!(net.qb, if fine { QB_FINE } else { QB });
            assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
            // A body of distinct values comes back in place.
            let mut weights = net.weights();
            for (i, w) in weights
                .hidden
                .iter_mut()
                .chain(&mut weights.output)
                .enumerate()
            {
                *w = (i % 251) as i16 - 125;
            }
            for (i, b) in weights.output_bias.iter_mut().enumerate() {
                *b = 1000 * i as i32 - 7;
            }
            let head = header(hidden, buckets, fine, screlu, &inputs);
            let file = write(&head, &weights);
            assert_eq!(file.len(), bytes.len());
            assert_eq!(Network::from_bytes(&file).unwrap().weights(), weights);
            bytes[0] = b'X';
            let err = Network::from_bytes(&bytes).err().expect("a bad magic");
            assert!(err.contains("bad magic"), "{err}");
        }
    }
}
