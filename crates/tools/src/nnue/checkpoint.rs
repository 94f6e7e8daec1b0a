//! The trainer's checkpoint (`OUT.ckpt`): the float network, Adam's state and the
//! epochs done, written atomically after every epoch so `wily nnue train --resume`
//! continues an interrupted run where it stopped.
//!
//! Little-endian: `WILYCKPT`, `u32` version 1, hidden units, activation code, buckets,
//! epochs done; `f64` best training loss and best validation loss; `u64` seed; `i32` Adam's step count; `u64`
//! parameter count; the parameters, Adam's first and second moments (`f32` each); a
//! 64-bit FNV-1a checksum of everything before it.

use super::net::{FloatNet, Layout};
use super::train::Adam;
use engine::nnue::network::checksum;
use engine::nnue::{Activation, Arch};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"WILYCKPT";
const VERSION: u32 = 1;

/// A training run's state after an epoch.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    pub net: FloatNet,
    pub adam: Adam,
    pub epoch: usize,
    pub best_loss: f64,
    /// The lowest validation loss so far (infinite without validation).
    pub best_validation: f64,
    pub seed: u64,
}

impl Checkpoint {
    /// The checkpoint beside the network file `out`.
    pub fn path_for(out: &Path) -> PathBuf {
        let mut s = out.as_os_str().to_owned();
        s.push(".ckpt");
        PathBuf::from(s)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let a = self.net.arch;
        let mut b = Vec::with_capacity(64 + 12 * self.net.params.len());
        b.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            a.hidden as u32,
            a.activation.code(),
            a.buckets as u32,
            self.epoch as u32,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&self.best_loss.to_le_bytes());
        b.extend_from_slice(&self.best_validation.to_le_bytes());
        b.extend_from_slice(&self.seed.to_le_bytes());
        b.extend_from_slice(&self.adam.t.to_le_bytes());
        b.extend_from_slice(&(self.net.params.len() as u64).to_le_bytes());
        for block in [&self.net.params, &self.adam.m, &self.adam.v] {
            for x in block.iter() {
                b.extend_from_slice(&x.to_le_bytes());
            }
        }
        let sum = checksum(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    pub fn from_bytes(b: &[u8]) -> Result<Checkpoint, String> {
        const HEAD: usize = 8 + 5 * 4 + 8 + 8 + 8 + 4 + 8;
        if b.len() < HEAD + 8 || &b[..8] != MAGIC {
            return Err("not a wily training checkpoint".into());
        }
        let stored = u64::from_le_bytes(b[b.len() - 8..].try_into().expect("8"));
        if checksum(&b[..b.len() - 8]) != stored {
            return Err("checkpoint checksum does not match (damaged or cut-off file)".into());
        }
        let u = |i: usize| u32::from_le_bytes(b[8 + 4 * i..12 + 4 * i].try_into().expect("4"));
        if u(0) != VERSION {
            return Err(format!("checkpoint version {} (this wily reads 1)", u(0)));
        }
        let activation =
            Activation::from_code(u(2)).ok_or_else(|| format!("unknown activation {}", u(2)))?;
        let arch = Arch {
            hidden: u(1) as usize,
            activation,
            buckets: u(3) as usize,
        };
        arch.check()?;
        let epoch = u(4) as usize;
        let at = 8 + 5 * 4;
        let best_loss = f64::from_le_bytes(b[at..at + 8].try_into().expect("8"));
        let best_validation = f64::from_le_bytes(b[at + 8..at + 16].try_into().expect("8"));
        let seed = u64::from_le_bytes(b[at + 16..at + 24].try_into().expect("8"));
        let t = i32::from_le_bytes(b[at + 24..at + 28].try_into().expect("4"));
        let n = u64::from_le_bytes(b[at + 28..at + 36].try_into().expect("8")) as usize;
        if n != Layout::of(&arch).len || b.len() != HEAD + 12 * n + 8 {
            return Err("checkpoint size does not match its network".into());
        }
        let floats = |k: usize| -> Vec<f32> {
            b[HEAD + 4 * n * k..HEAD + 4 * n * (k + 1)]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4")))
                .collect()
        };
        Ok(Checkpoint {
            net: FloatNet {
                arch,
                params: floats(0),
            },
            adam: Adam {
                m: floats(1),
                v: floats(2),
                t,
            },
            epoch,
            best_loss,
            best_validation,
            seed,
        })
    }

    pub fn load(path: &Path) -> Result<Checkpoint, String> {
        let b = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Checkpoint::from_bytes(&b).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes the checkpoint atomically (a temporary file renamed over the name).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let err = |e: std::io::Error| format!("{}: {e}", path.display());
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, self.to_bytes()).map_err(err)?;
        std::fs::rename(&tmp, path).map_err(err)
    }
}
