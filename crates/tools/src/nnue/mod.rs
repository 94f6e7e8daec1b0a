//! The evaluation network's tools: the training-position format (`data.rs`), self-play
//! generation of positions (`datagen.rs`, `wily datagen`) and the trainer (`train.rs`,
//! `wily nnue train`), which writes the network file the engine reads
//! (`engine/nnue/`). `docs/nnue.md` is the manual.

pub mod cli;
pub mod data;
pub mod datagen;
pub mod net;
pub mod train;
