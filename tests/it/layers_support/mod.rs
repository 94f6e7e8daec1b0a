//! The import analysis behind `tests/it/module_layers.rs`: [`scan`] reads one file, [`graph`]
//! resolves what every file names to the file that defines it and finds the loops.

pub mod graph;
pub mod scan;
