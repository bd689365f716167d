//! The trainer's state after an epoch, to resume from: the float
//! parameters, the optimiser's moments and where training stood.

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
        if b.len() < 28 || &b[..4] != MAGIC {
            return Err("not a trainer checkpoint".into());
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let params = u32_at(4) as usize;
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
        let floats: Vec<f32> = b[28..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        Ok(Checkpoint {
            epoch: u32_at(8),
            steps: u64::from_le_bytes(b[12..20].try_into().expect("8 bytes")),
            best: f64::from_le_bytes(b[20..28].try_into().expect("8 bytes")),
            params: floats[..params].to_vec(),
            m: floats[params..2 * params].to_vec(),
            v: floats[2 * params..].to_vec(),
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
