//! The quantised evaluation network and its file (`*.wnn`), which `wily nnue train`
//! writes and the engine loads.
//!
//! The network: 768 inputs per perspective (`features.rs`) into `HIDDEN` clipped-ReLU
//! units, the same weights for both perspectives, then one output over the side to
//! move's units followed by the other side's. Feature weights and biases are scaled by
//! `QA`, output weights by `QB`, the output bias by `QA * QB`; the output times `SCALE`
//! over `QA * QB` is centipawns.
//!
//! File, little-endian: the magic `WILYNNUE`; `u32` version, inputs, hidden units,
//! activation (1: clipped ReLU), `QA`, `QB`, `SCALE`; the feature weights (`i16`,
//! input-major), the feature biases (`i16`), the output weights (`i16`), the output bias
//! (`i32`); and a 64-bit FNV-1a checksum of every byte before it. A file that is
//! missing, short, long, of another architecture or whose checksum does not match is
//! refused with a message saying which.

use std::path::Path;

/// Inputs per perspective: colour (own, other) x piece x square.
pub const INPUTS: usize = 768;
/// Hidden units per perspective.
pub const HIDDEN: usize = 128;
/// Scale of the feature weights and the clipping ceiling.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's (float) output.
pub const SCALE: i32 = 400;
/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"WILYNNUE";
/// The file format's version.
pub const VERSION: u32 = 1;
/// Activation code of clipped ReLU.
pub const ACTIVATION_CRELU: u32 = 1;
const HEADER_BYTES: usize = 8 + 7 * 4;
/// Bytes of a network file.
pub const FILE_BYTES: usize = HEADER_BYTES + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4 + 8;

/// A quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// One row of `HIDDEN` weights per input.
    pub feature_weights: Vec<[i16; HIDDEN]>,
    pub feature_bias: [i16; HIDDEN],
    /// The side to move's units first.
    pub output_weights: [i16; 2 * HIDDEN],
    pub output_bias: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({INPUTS}x{HIDDEN}x2->1)")
    }
}

/// 64-bit FNV-1a.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl Network {
    /// A network of zeros (evaluates every position as 0).
    pub fn zeroed() -> Network {
        Network {
            feature_weights: vec![[0; HIDDEN]; INPUTS],
            feature_bias: [0; HIDDEN],
            output_weights: [0; 2 * HIDDEN],
            output_bias: 0,
        }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(FILE_BYTES);
        b.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            INPUTS as u32,
            HIDDEN as u32,
            ACTIVATION_CRELU,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for row in &self.feature_weights {
            for w in row {
                b.extend_from_slice(&w.to_le_bytes());
            }
        }
        for w in self.feature_bias.iter().chain(self.output_weights.iter()) {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b.extend_from_slice(&self.output_bias.to_le_bytes());
        let sum = checksum(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads a network file's bytes.
    pub fn from_bytes(b: &[u8]) -> Result<Network, String> {
        if b.len() < HEADER_BYTES || &b[0..8] != MAGIC {
            return Err("not a wily network file (no WILYNNUE header)".into());
        }
        let u = |i: usize| u32::from_le_bytes(b[8 + 4 * i..12 + 4 * i].try_into().expect("4"));
        if u(0) != VERSION {
            return Err(format!(
                "network file version {} (this wily reads version {VERSION})",
                u(0)
            ));
        }
        let arch = (u(1), u(2), u(3), u(4), u(5), u(6));
        let want = (
            INPUTS as u32,
            HIDDEN as u32,
            ACTIVATION_CRELU,
            QA as u32,
            QB as u32,
            SCALE as u32,
        );
        if arch != want {
            return Err(format!(
                "network architecture {}x{} (activation {}, QA {}, QB {}, scale {}) does not \
                 match this wily's {}x{} (activation {}, QA {}, QB {}, scale {})",
                arch.0,
                arch.1,
                arch.2,
                arch.3,
                arch.4,
                arch.5,
                want.0,
                want.1,
                want.2,
                want.3,
                want.4,
                want.5
            ));
        }
        if b.len() != FILE_BYTES {
            return Err(format!(
                "network file is {} bytes, expected {FILE_BYTES} ({})",
                b.len(),
                if b.len() < FILE_BYTES {
                    "truncated"
                } else {
                    "trailing bytes"
                }
            ));
        }
        let body = &b[..FILE_BYTES - 8];
        let stored = u64::from_le_bytes(b[FILE_BYTES - 8..].try_into().expect("8"));
        if checksum(body) != stored {
            return Err("network file checksum does not match (damaged file)".into());
        }
        let mut at = HEADER_BYTES;
        let mut next = || {
            let v = i16::from_le_bytes([b[at], b[at + 1]]);
            at += 2;
            v
        };
        let mut net = Network::zeroed();
        for row in net.feature_weights.iter_mut() {
            for w in row.iter_mut() {
                *w = next();
            }
        }
        for w in net.feature_bias.iter_mut() {
            *w = next();
        }
        for w in net.output_weights.iter_mut() {
            *w = next();
        }
        let at = FILE_BYTES - 12;
        net.output_bias = i32::from_le_bytes(b[at..at + 4].try_into().expect("4"));
        Ok(net)
    }

    /// Loads a network file.
    pub fn load(path: &Path) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes a network file.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        std::fs::write(path, self.to_bytes()).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Network {
        let mut n = Network::zeroed();
        for (i, row) in n.feature_weights.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = ((i * 31 + j * 7) % 97) as i16 - 48;
            }
        }
        n.feature_bias[3] = 17;
        n.output_weights[200] = -5;
        n.output_bias = 1234;
        n
    }

    #[test]
    fn files_round_trip() {
        let n = sample();
        let b = n.to_bytes();
        assert_eq!(b.len(), FILE_BYTES);
        assert_eq!(Network::from_bytes(&b).unwrap(), n);
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let b = sample().to_bytes();
        let e = Network::from_bytes(&b[..b.len() - 100]).unwrap_err();
        assert!(e.contains("truncated"), "{e}");
        let mut c = b.clone();
        c[5000] ^= 1;
        assert!(Network::from_bytes(&c).unwrap_err().contains("checksum"));
        let mut c = b.clone();
        c[16..20].copy_from_slice(&256u32.to_le_bytes());
        assert!(Network::from_bytes(&c)
            .unwrap_err()
            .contains("architecture"));
        let mut c = b.clone();
        c[8] = 9;
        assert!(Network::from_bytes(&c).unwrap_err().contains("version"));
        assert!(Network::from_bytes(b"hello")
            .unwrap_err()
            .contains("not a wily"));
        let e = Network::load(Path::new("/nonexistent/x.wnn")).unwrap_err();
        assert!(e.contains("/nonexistent/x.wnn"), "{e}");
    }
}
