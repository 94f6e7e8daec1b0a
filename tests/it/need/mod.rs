//! The one rule for a test that needs something the repository does not hold:
//! `wily_testkit::need` (without `CI` it prints why it skips and the test passes; under
//! `CI=true` it fails).

pub use wily_testkit::need::*;
