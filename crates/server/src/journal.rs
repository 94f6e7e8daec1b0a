//! The local server's journal, for whoever runs the server in-process and wants to check
//! its clients against it (the fault soak, `wily soak`): every finished game with the
//! server's own clocks at its end, the adjournments (by agreement, by a dropped player, by
//! a server shutdown) and resumptions, and the adjourned games themselves across a
//! restart. A server started with a journal takes back the adjourned games that an earlier
//! server with the same journal stored when it stopped: they are kept in memory, in this
//! process, not on disk. Nothing is written here for a server without a journal.

use crate::games::game::{End, Game};
use cozy_chess::Color;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

/// One finished game as the server scored it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedRecord {
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The words inside the braces (`wily1 checkmated`).
    pub reason: String,
    /// For a game lost on time: the handle that lost, and the server's clock for that
    /// player (milliseconds, negative once run out) at the moment the flag fell.
    pub time_forfeit: Option<(String, i64)>,
    /// FEN of the final position.
    pub final_fen: String,
    /// Moves played, in plies, all sessions of the game together.
    pub plies: usize,
    /// How many times the game was resumed after an adjournment.
    pub resumed: u32,
}

/// Adjournments and resumptions so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JournalCounts {
    /// Adjourned by mutual agreement (`adjourn` from both players).
    pub adjourned_agreed: u32,
    /// Adjourned because a player's connection closed while the server ran on.
    pub adjourned_dropped: u32,
    /// Adjourned because the server shut down.
    pub adjourned_shutdown: u32,
    /// Adjourned games continued (`resume`, or `match` with the adjourned opponent).
    pub resumptions: u32,
}

#[derive(Default)]
struct State {
    finished: Vec<FinishedRecord>,
    counts: JournalCounts,
    adjourned: Vec<Game>,
    /// The players (white, black) of games adjourned and not resumed since.
    waiting: Vec<(String, String)>,
}

/// A handle on the journal; clones share it.
#[derive(Clone, Default)]
pub struct Journal(Arc<Mutex<State>>);

impl fmt::Debug for Journal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.lock();
        f.debug_struct("Journal")
            .field("finished", &s.finished.len())
            .field("counts", &s.counts)
            .field("adjourned_held", &s.adjourned.len())
            .finish()
    }
}

impl Journal {
    /// An empty journal.
    pub fn new() -> Journal {
        Journal::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere while holding the lock leaves plain data behind: keep going.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Every finished game so far, oldest first.
    pub fn finished(&self) -> Vec<FinishedRecord> {
        self.lock().finished.clone()
    }

    /// How many games have finished.
    pub fn finished_count(&self) -> usize {
        self.lock().finished.len()
    }

    /// Finished games with `handle` (any case) as one of the players.
    pub fn finished_by(&self, handle: &str) -> usize {
        self.lock()
            .finished
            .iter()
            .filter(|f| {
                f.white.eq_ignore_ascii_case(handle) || f.black.eq_ignore_ascii_case(handle)
            })
            .count()
    }

    pub fn counts(&self) -> JournalCounts {
        self.lock().counts
    }

    /// Adjourned games held for the next server (those stored when the last server with
    /// this journal stopped, until a new one takes them).
    pub fn adjourned_held(&self) -> usize {
        self.lock().adjourned.len()
    }

    /// The players (white, black) of the adjourned games held for the next server.
    pub fn adjourned_held_players(&self) -> Vec<(String, String)> {
        self.lock()
            .adjourned
            .iter()
            .map(|g| (g.white.name.clone(), g.black.name.clone()))
            .collect()
    }

    /// Adjourned games with `handle` (any case) as a player that have not been resumed
    /// since.
    pub fn adjourned_waiting_for(&self, handle: &str) -> usize {
        self.lock()
            .waiting
            .iter()
            .filter(|(w, b)| w.eq_ignore_ascii_case(handle) || b.eq_ignore_ascii_case(handle))
            .count()
    }

    /// A game ended (`now`-clocks given in ms as (white, black)); `shutdown`: the server
    /// is stopping.
    pub(super) fn ended(&self, game: &Game, end: End, clocks: (i64, i64), shutdown: bool) {
        let mut s = self.lock();
        let (text, result) = game.end_text(end);
        let players = (game.white.name.clone(), game.black.name.clone());
        match end {
            End::AdjournAgreed => {
                s.counts.adjourned_agreed += 1;
                s.waiting.push(players);
            }
            End::LostConnection { .. } if game.storable() => {
                if shutdown {
                    s.counts.adjourned_shutdown += 1;
                } else {
                    s.counts.adjourned_dropped += 1;
                }
                s.waiting.push(players);
            }
            _ => {}
        }
        if result == "*" {
            return;
        }
        let time_forfeit = match end {
            End::Flag { loser } => {
                let ms = if loser == Color::White {
                    clocks.0
                } else {
                    clocks.1
                };
                Some((game.side(loser).name.clone(), ms))
            }
            _ => None,
        };
        s.finished.push(FinishedRecord {
            white: game.white.name.clone(),
            black: game.black.name.clone(),
            result: result.to_string(),
            reason: text,
            time_forfeit,
            final_fen: format!("{}", game.board),
            plies: game.moves.len(),
            resumed: game.resumed,
        });
    }

    /// An adjourned game of `white` and `black` was continued.
    pub(super) fn resumed(&self, white: &str, black: &str) {
        let mut s = self.lock();
        s.counts.resumptions += 1;
        let same = |(w, b): &(String, String)| {
            w.eq_ignore_ascii_case(white) && b.eq_ignore_ascii_case(black)
        };
        if let Some(i) = s.waiting.iter().position(same) {
            s.waiting.remove(i);
        }
    }

    /// The stopping server's adjourned games, for the next one.
    pub(super) fn hold_adjourned(&self, games: Vec<Game>) {
        self.lock().adjourned.extend(games);
    }

    /// The adjourned games an earlier server left, for a starting one.
    pub(super) fn take_adjourned(&self) -> Vec<Game> {
        std::mem::take(&mut self.lock().adjourned)
    }
}
