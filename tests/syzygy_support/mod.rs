//! The shared Syzygy tables and the table-loading lock, from the library's own test
//! support file.

#![allow(dead_code)]

include!("../../src/engine/tablebase/testdir.rs");
