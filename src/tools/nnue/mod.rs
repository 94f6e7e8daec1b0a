//! The evaluation network's tools: the training-position format (`data.rs`) and self-play
//! generation of positions (`datagen.rs`, `wily datagen`). `docs/nnue.md` is the manual.

pub mod data;
pub mod datagen;
