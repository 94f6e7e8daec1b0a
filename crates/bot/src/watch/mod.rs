//! Watching other games: the watcher's candidates and its handling, observing by number or player, and the list of games watched.

pub mod candidates;
pub mod handle;
pub mod list;
pub mod observe;
pub mod state;
