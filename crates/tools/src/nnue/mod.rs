//! The evaluation network's tools: the training-position format (`data.rs`), self-play
//! generation of positions (`datagen.rs`, `wily datagen`), OpenBench's opening
//! generator (`genfens.rs`), the converter of runners' PGNs (`convert.rs`, `wily nnue
//! convert`) and the trainer (`net.rs`, `checkpoint.rs`, `scale.rs`, `train.rs`, `wily nnue
//! train`),
//! which writes the network file the engine reads (`engine/nnue/`). `docs/nnue.md` is
//! the manual.

pub mod checkpoint;
pub mod cli;
pub mod convert;
/// The training-position file, kept beside the network in the engine crate (the bot
/// writes it too).
pub use engine::nnue::data;
pub mod datagen;
pub mod genfens;
pub mod net;
pub mod read;
pub mod scale;
pub mod train;
