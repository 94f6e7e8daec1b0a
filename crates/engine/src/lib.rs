//! The engine: search, evaluation, transposition table, time control and threads.
//!
//! Front ends use the facade: [`Engine`], [`SearchRequest`], [`Limits`], [`SearchHandle`],
//! [`SearchResult`], [`SearchInfo`], [`Score`].
//!
//! May depend on: `chess`. Its `Cargo.toml` lists them and the compiler keeps the wall; the
//! crate map is `docs/modules.md`.

pub mod checks;
mod correction;
pub mod eval;
mod extend;
mod facade;
pub mod history;
mod keyahead;
pub mod learned;
pub mod limits;
mod movelist;
pub mod movepick;
pub mod nnue;
mod prefetch;
mod qsearch;
mod root;
pub mod search;
pub mod see;
pub mod shared;
pub mod skill;
pub mod tablebase;
mod tablemem;
mod tbsearch;
pub mod threads;
pub mod time;
pub mod tt;
pub mod tunables;
pub mod types;
pub mod watch;
pub mod worker;

pub use facade::{Engine, SearchControl, SearchHandle};
pub use learned::LearnedPosition;
pub use limits::{EngineOptions, Limits, SearchRequest};
pub use tablebase::{Tablebases, TbConfig, Wdl};
pub use tablemem::max_hash_mb;
pub use types::{
    Bound, InfoCallback, Score, ScoreView, SearchInfo, SearchResult, INF, MATE, MAX_PLY, TB_WIN,
};
pub use watch::{
    RootMoveCallback, RootMoveInfo, TraceCallback, TraceNode, Watchers, MAX_TRACE_PLY,
};
