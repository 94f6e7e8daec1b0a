//! The operator's side: commands by tell (parsed, then carried out), the operator's hooks and when they fire, the finger notes, and the follow list.

pub mod command;
pub mod follow;
pub mod hooks;
pub mod notes;
pub mod parse;
pub mod triggers;
