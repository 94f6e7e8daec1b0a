//! `annotate` / `annotateh`: PGN in, annotated `.can` text or `.html` out.

use crate::protocol::console::{CmdResult, Console};

pub fn console_command(_c: &mut Console, _args: &[&str], _html: bool) -> CmdResult {
    Err("annotate: not built yet".into())
}
