//! The shared Syzygy tables and the table-loading lock, from the library's own test
//! support file.

#![allow(dead_code)]

#[path = "../../../src/engine/tablebase/testdir.rs"]
mod testdir;

#[allow(unused_imports)]
pub use testdir::{serial, syzygy_dir};
