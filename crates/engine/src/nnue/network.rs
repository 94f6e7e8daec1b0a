//! The quantised evaluation network and its file (`*.wnn`), which `wily nnue train`
//! writes and the engine loads.
//!
//! The network: 768 inputs per perspective (`features.rs`) into `hidden` units with the
//! same weights for both perspectives, an activation (clipped ReLU or squared clipped
//! ReLU), then one output over the side to move's units followed by the other side's.
//! With output buckets the output layer has one set of weights per bucket, chosen by
//! the number of pieces on the board (`features::output_bucket`). Feature weights and
//! biases are scaled by `QA`, output weights by `QB`, the output biases by `QA * QB`; the
//! output times `SCALE` over `QA * QB` is centipawns.
//!
//! File, little-endian: the magic `WILYNNUE` and a `u32` version. Version 2: inputs,
//! hidden units, activation (1 clipped ReLU, 2 squared clipped ReLU), output buckets,
//! `QA`, `QB`, `SCALE` (`u32` each); the feature weights (`i16`, input-major), the
//! feature biases (`i16`), the output weights (`i16`, bucket-major), the output biases
//! (`i32`, one a bucket); and a 64-bit FNV-1a checksum of every byte before it. Version 1
//! (the first nets: 128 clipped-ReLU units, one bucket) has no bucket field and still
//! loads. A file that is missing, short, long, of an architecture this build does not
//! run, or whose checksum does not match is refused with a message saying which.

use std::path::Path;

/// Inputs per perspective: colour (own, other) x piece x square.
pub const INPUTS: usize = 768;
/// The most hidden units per perspective a network may have.
pub const MAX_HIDDEN: usize = 1024;
/// The most output buckets a network may have.
pub const MAX_BUCKETS: usize = 16;
/// Scale of the feature weights and the clipping ceiling.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's (float) output.
pub const SCALE: i32 = 400;
/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"WILYNNUE";
/// The version this build writes.
pub const VERSION: u32 = 2;

/// The hidden layer's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// clamp(x, 0, 1).
    CRelu,
    /// clamp(x, 0, 1)².
    SCRelu,
}

impl Activation {
    /// The code in the file.
    pub fn code(self) -> u32 {
        match self {
            Activation::CRelu => 1,
            Activation::SCRelu => 2,
        }
    }

    pub fn from_code(c: u32) -> Option<Activation> {
        match c {
            1 => Some(Activation::CRelu),
            2 => Some(Activation::SCRelu),
            _ => None,
        }
    }

    /// `crelu` or `screlu`.
    pub fn name(self) -> &'static str {
        match self {
            Activation::CRelu => "crelu",
            Activation::SCRelu => "screlu",
        }
    }

    pub fn parse(s: &str) -> Option<Activation> {
        match s.to_ascii_lowercase().as_str() {
            "crelu" | "relu" => Some(Activation::CRelu),
            "screlu" => Some(Activation::SCRelu),
            _ => None,
        }
    }
}

/// The shape of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arch {
    pub hidden: usize,
    pub activation: Activation,
    pub buckets: usize,
}

impl Arch {
    /// Checks that this build can run the shape.
    pub fn check(&self) -> Result<(), String> {
        if self.hidden == 0 || self.hidden > MAX_HIDDEN || !self.hidden.is_multiple_of(32) {
            return Err(format!(
                "{} hidden units (this wily runs multiples of 32 up to {MAX_HIDDEN})",
                self.hidden
            ));
        }
        if self.buckets == 0 || self.buckets > MAX_BUCKETS {
            return Err(format!(
                "{} output buckets (this wily runs 1 to {MAX_BUCKETS})",
                self.buckets
            ));
        }
        Ok(())
    }
}

impl std::fmt::Display for Arch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{INPUTS}x{}x2->{} {}",
            self.hidden,
            self.buckets,
            self.activation.name()
        )
    }
}

/// A quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub arch: Arch,
    /// `hidden` weights per input, input-major.
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    /// Per bucket, the side to move's units' weights then the other side's.
    pub output_weights: Vec<i16>,
    /// One per bucket.
    pub output_bias: Vec<i32>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({})", self.arch)
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

/// Bytes of a version-2 file of shape `a`.
pub fn file_bytes(a: &Arch) -> usize {
    8 + 8 * 4 + 2 * (INPUTS * a.hidden + a.hidden + a.buckets * 2 * a.hidden) + 4 * a.buckets + 8
}

impl Network {
    /// A network of zeros (evaluates every position as 0).
    pub fn zeroed(arch: Arch) -> Network {
        Network {
            arch,
            feature_weights: vec![0; INPUTS * arch.hidden],
            feature_bias: vec![0; arch.hidden],
            output_weights: vec![0; arch.buckets * 2 * arch.hidden],
            output_bias: vec![0; arch.buckets],
        }
    }

    /// The weight row of input `i`.
    #[inline]
    pub fn row(&self, i: usize) -> &[i16] {
        let h = self.arch.hidden;
        &self.feature_weights[i * h..(i + 1) * h]
    }

    /// The output weights of bucket `b` (side to move's units, then the other side's).
    #[inline]
    pub fn output_row(&self, b: usize) -> &[i16] {
        let h2 = 2 * self.arch.hidden;
        &self.output_weights[b * h2..(b + 1) * h2]
    }

    /// The file's bytes (always the current version).
    pub fn to_bytes(&self) -> Vec<u8> {
        let a = self.arch;
        let mut b = Vec::with_capacity(file_bytes(&a));
        b.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            INPUTS as u32,
            a.hidden as u32,
            a.activation.code(),
            a.buckets as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for w in self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
        {
            b.extend_from_slice(&w.to_le_bytes());
        }
        for w in &self.output_bias {
            b.extend_from_slice(&w.to_le_bytes());
        }
        let sum = checksum(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// The checksum stored at the end of the network's file (its identity).
    pub fn file_checksum(&self) -> u64 {
        let b = self.to_bytes();
        u64::from_le_bytes(b[b.len() - 8..].try_into().expect("8 bytes"))
    }

    /// Reads a network file's bytes (version 1 or 2).
    pub fn from_bytes(b: &[u8]) -> Result<Network, String> {
        if b.len() < 12 || &b[0..8] != MAGIC {
            return Err("not a wily network file (no WILYNNUE header)".into());
        }
        let u = |i: usize| -> Option<u32> {
            b.get(8 + 4 * i..12 + 4 * i)
                .map(|s| u32::from_le_bytes(s.try_into().expect("4")))
        };
        let short = || "network file is truncated (its header is cut off)".to_string();
        let version = u(0).ok_or_else(short)?;
        // Version 1: inputs, hidden, activation, QA, QB, SCALE; one bucket.
        // Version 2: inputs, hidden, activation, buckets, QA, QB, SCALE.
        let (fields, header): (Vec<u32>, usize) = match version {
            1 => (
                (1..7).map(u).collect::<Option<_>>().ok_or_else(short)?,
                8 + 7 * 4,
            ),
            2 => (
                (1..8).map(u).collect::<Option<_>>().ok_or_else(short)?,
                8 + 8 * 4,
            ),
            v => {
                return Err(format!(
                    "network file version {v} (this wily reads versions 1 and {VERSION})"
                ))
            }
        };
        let (inputs, hidden, act, buckets, qa, qb, scale) = if version == 1 {
            (
                fields[0], fields[1], fields[2], 1, fields[3], fields[4], fields[5],
            )
        } else {
            (
                fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], fields[6],
            )
        };
        let describe = || {
            format!(
                "{inputs} inputs, {hidden} hidden units, activation {act}, {buckets} buckets, \
                 QA {qa}, QB {qb}, scale {scale}"
            )
        };
        if inputs as usize != INPUTS || qa != QA as u32 || qb != QB as u32 || scale != SCALE as u32
        {
            return Err(format!(
                "network architecture ({}) does not match this wily's ({INPUTS} inputs, QA {QA}, \
                 QB {QB}, scale {SCALE})",
                describe()
            ));
        }
        let activation = Activation::from_code(act).ok_or_else(|| {
            format!(
                "network architecture ({}): unknown activation {act}",
                describe()
            )
        })?;
        let arch = Arch {
            hidden: hidden as usize,
            activation,
            buckets: buckets as usize,
        };
        arch.check()
            .map_err(|e| format!("network architecture ({}): {e}", describe()))?;
        let body_len = 2 * (INPUTS * arch.hidden + arch.hidden + arch.buckets * 2 * arch.hidden)
            + 4 * arch.buckets;
        let want = header + body_len + 8;
        if b.len() != want {
            return Err(format!(
                "network file is {} bytes, expected {want} ({})",
                b.len(),
                if b.len() < want {
                    "truncated"
                } else {
                    "trailing bytes"
                }
            ));
        }
        let stored = u64::from_le_bytes(b[want - 8..].try_into().expect("8"));
        if checksum(&b[..want - 8]) != stored {
            return Err("network file checksum does not match (damaged file)".into());
        }
        let mut at = header;
        let mut i16s = |n: usize| -> Vec<i16> {
            let v = b[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let feature_weights = i16s(INPUTS * arch.hidden);
        let feature_bias = i16s(arch.hidden);
        let output_weights = i16s(arch.buckets * 2 * arch.hidden);
        let output_bias = b[at..at + 4 * arch.buckets]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().expect("4")))
            .collect();
        Ok(Network {
            arch,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    /// Loads a network file.
    pub fn load(path: &Path) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes a network file atomically (a temporary file renamed over the name).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let err = |e: std::io::Error| format!("{}: {e}", path.display());
        let tmp = path.with_extension("wnn.tmp");
        std::fs::write(&tmp, self.to_bytes()).map_err(err)?;
        std::fs::rename(&tmp, path).map_err(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(arch: Arch) -> Network {
        let mut n = Network::zeroed(arch);
        for (i, w) in n.feature_weights.iter_mut().enumerate() {
            *w = ((i * 31) % 97) as i16 - 48;
        }
        n.feature_bias[3] = 17;
        n.output_weights[2 * arch.hidden - 5] = -5;
        n.output_bias[arch.buckets - 1] = 1234;
        n
    }

    const SMALL: Arch = Arch {
        hidden: 64,
        activation: Activation::SCRelu,
        buckets: 8,
    };

    #[test]
    fn files_round_trip() {
        for arch in [
            SMALL,
            Arch {
                hidden: 128,
                activation: Activation::CRelu,
                buckets: 1,
            },
        ] {
            let n = sample(arch);
            let b = n.to_bytes();
            assert_eq!(b.len(), file_bytes(&arch));
            assert_eq!(Network::from_bytes(&b).unwrap(), n);
        }
    }

    #[test]
    fn version_one_files_still_load() {
        // A version-1 file: 7 header words, no bucket count, one output bias.
        let arch = Arch {
            hidden: 128,
            activation: Activation::CRelu,
            buckets: 1,
        };
        let n = sample(arch);
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        for v in [1u32, 768, 128, 1, 255, 64, 400] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for w in n
            .feature_weights
            .iter()
            .chain(&n.feature_bias)
            .chain(&n.output_weights)
        {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b.extend_from_slice(&n.output_bias[0].to_le_bytes());
        let sum = checksum(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        assert_eq!(Network::from_bytes(&b).unwrap(), n);
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let b = sample(SMALL).to_bytes();
        let e = Network::from_bytes(&b[..b.len() - 100]).unwrap_err();
        assert!(e.contains("truncated"), "{e}");
        let e = Network::from_bytes(&b[..20]).unwrap_err();
        assert!(e.contains("truncated"), "{e}");
        let mut c = b.clone();
        c[5000] ^= 1;
        assert!(Network::from_bytes(&c).unwrap_err().contains("checksum"));
        let mut c = b.clone();
        c[16..20].copy_from_slice(&100u32.to_le_bytes());
        let e = Network::from_bytes(&c).unwrap_err();
        assert!(
            e.contains("architecture") && e.contains("100 hidden"),
            "{e}"
        );
        let mut c = b.clone();
        c[20..24].copy_from_slice(&9u32.to_le_bytes());
        assert!(Network::from_bytes(&c).unwrap_err().contains("activation"));
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
