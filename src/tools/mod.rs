//! Measuring tools: perft, the search benchmark and the EPD test-suite runner.

pub mod bench;
pub mod perft;
pub mod testsuite;
