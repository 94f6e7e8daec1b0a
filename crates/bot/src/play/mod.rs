//! wily's own games: the game as a value and its handling (boards, searches, moves), the draw and resign policy, the per-opponent settings, interrupted and adjourned games, the records and the training positions.

pub mod game;
pub mod handle;
pub mod interrupted;
pub mod opponent;
pub mod policy;
pub mod positions;
pub mod record;
pub mod requests;
pub mod resume;
pub mod state;
