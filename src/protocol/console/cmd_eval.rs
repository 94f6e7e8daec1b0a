//! Console commands about the evaluation: `evaluation KNOB N` (Crafty's scale knobs).

use super::{CmdResult, Console};

pub fn evaluation(_c: &mut Console, _args: &[&str]) -> CmdResult {
    Err("evaluation: the scale knobs arrive with the full evaluation".into())
}
