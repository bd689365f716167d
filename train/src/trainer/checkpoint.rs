//! The trainer's state after an epoch, to resume from: the float
//! parameters, the optimiser's moments and where training stood.

use castella_eval::bytes::Reader;
use std::path::Path;

const MAGIC: &[u8; 4] = b"CSCK";

/// Everything needed to go on training as if never stopped.
#[derive(Debug, PartialEq)]
pub struct Checkpoint {
    /// Epochs finished.
    pub epoch: u32,
    /// Optimiser steps taken.
    pub steps: u64,
    /// The best validation error so far.
    pub best: f64,
    pub params: Vec<f32>,
    /// Adam's first and second moments.
    pub m: Vec<f32>,
    pub v: Vec<f32>,
}

impl Checkpoint {
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.params.len();
        let mut b = Vec::with_capacity(32 + 12 * n);
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&(n as u32).to_le_bytes());
        b.extend_from_slice(&self.epoch.to_le_bytes());
        b.extend_from_slice(&self.steps.to_le_bytes());
        b.extend_from_slice(&self.best.to_le_bytes());
        for x in self.params.iter().chain(&self.m).chain(&self.v) {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b
    }

    /// Reads a checkpoint of a network with `expected` parameters.
    pub fn from_bytes(b: &[u8], expected: usize) -> Result<Checkpoint, String> {
        let mut r = Reader::new(b, "not a trainer checkpoint");
        if b.len() < 28 || r.take::<4>()? != *MAGIC {
            return Err("not a trainer checkpoint".into());
        }
        let params = r.u32()? as usize;
        if params != expected {
            return Err(format!(
                "the checkpoint has {params} parameters; this network has {expected} \
                 (another hidden size?)"
            ));
        }
        if b.len() != 28 + 12 * params {
            return Err(format!(
                "the checkpoint is {} bytes, not {}",
                b.len(),
                28 + 12 * params
            ));
        }
        let (epoch, steps, best) = (r.u32()?, r.u64()?, r.f64()?);
        let mut floats = |n: usize| {
            (0..n)
                .map(|_| r.f32())
                .collect::<Result<Vec<f32>, String>>()
        };
        Ok(Checkpoint {
            epoch,
            steps,
            best,
            params: floats(params)?,
            m: floats(params)?,
            v: floats(params)?,
        })
    }

    /// Writes the checkpoint through a temporary file, so a stop while
    /// writing leaves the previous one whole.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes())
            .and_then(|_| std::fs::rename(&tmp, path))
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn load(path: &Path, expected: usize) -> Result<Checkpoint, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Checkpoint::from_bytes(&bytes, expected).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_round_trip_and_refuse_damage() {
        const N: usize = 1000;
        let c = Checkpoint {
            epoch: 3,
            steps: 12345,
            best: 0.0123,
            params: (0..N).map(|i| i as f32 * 1e-3).collect(),
            m: vec![0.5; N],
            v: vec![0.25; N],
        };
        let bytes = c.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes, N).unwrap(), c);
        assert!(Checkpoint::from_bytes(&bytes, N + 1)
            .unwrap_err()
            .contains("parameters"));
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 1], N)
            .unwrap_err()
            .contains("bytes"));
        assert!(Checkpoint::from_bytes(b"CSNN0000", N)
            .unwrap_err()
            .contains("checkpoint"));
    }
}
