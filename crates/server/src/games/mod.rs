//! Games on the local server: the game as a value, its start and end, moves, clocks, takebacks, notation and style 12, Chess960, ratings, examining and observing.

pub(crate) mod clock;
pub(crate) mod examine;
pub(crate) mod game;
pub(crate) mod lifecycle;
pub(crate) mod moves;
pub(crate) mod notation;
pub(crate) mod observe;
pub(crate) mod ratings;
pub(crate) mod style12;
pub(crate) mod takeback;
pub(crate) mod variant;
