//! The shared Syzygy tables and the table-loading lock, from the crates' test support
//! (`wily_testkit::syzygy`).

#[allow(unused_imports)]
pub use wily_testkit::syzygy::{serial, syzygy_dir};
