//! The operator's side: commands by tell (parsed, then carried out), the operator's hooks, the computer account's rules and the follow list.

pub mod account;
pub mod command;
pub mod follow;
pub mod hooks;
pub mod notes;
pub mod parse;
