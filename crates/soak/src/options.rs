//! The soak's settings: how many games, pairs and faults, the time control, where the
//! files go and how progress is reported. Its own file so that the parts of the soak can
//! read it without importing the soak's entry point.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Receives each progress line.
pub type Progress = Arc<dyn Fn(&str) + Send + Sync>;

/// What to soak.
#[derive(Clone)]
pub struct SoakOptions {
    /// Finished games to play in all.
    pub games: u32,
    /// Bot/sparring pairs playing at once.
    pub pairs: u32,
    /// Time control: minutes and increment seconds.
    pub base: u32,
    pub inc: u32,
    /// The bots' search depth limit (0: by the clock).
    pub depth: u32,
    /// Seed of the fault plan, the steady faults and the sparring moves.
    pub seed: u64,
    /// Planned faults: connections dropped mid-game, lines cut then dropped,
    /// adjournments by agreement, server restarts.
    pub drops: u32,
    pub cut_drops: u32,
    pub adjourns: u32,
    pub restarts: u32,
    /// Where the pairs' folders go (kept); `None`: a temporary folder, removed at the end.
    pub dir: Option<PathBuf>,
    /// Give up after this long.
    pub time_limit: Duration,
    /// A progress line every this many finished games (0: none).
    pub progress_every: u32,
    pub progress: Option<Progress>,
    /// What the local server, the bots and the sparring partners speak: FICS text or
    /// ICC's level-2 datagrams.
    pub dialect: ics::Dialect,
}

impl SoakOptions {
    /// The defaults for `games` games: 4 pairs at 1+0, depth 4, a drop every 40 games, a
    /// cut-and-drop every 100, an adjournment by agreement every 100, one server restart.
    pub fn for_games(games: u32) -> SoakOptions {
        SoakOptions {
            games,
            pairs: 4,
            base: 1,
            inc: 0,
            depth: 4,
            seed: 1,
            drops: (games / 40).max(1),
            cut_drops: (games / 100).max(1),
            adjourns: (games / 100).max(1),
            restarts: 1,
            dir: None,
            time_limit: Duration::from_secs(3600),
            progress_every: 50,
            progress: None,
            dialect: ics::Dialect::Fics,
        }
    }
}

impl Default for SoakOptions {
    fn default() -> Self {
        SoakOptions::for_games(1000)
    }
}
