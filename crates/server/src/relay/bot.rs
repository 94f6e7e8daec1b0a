//! The local server's relay account at work, in the manner of FICS's relay bot: it
//! replays PGN games move by move as examined games (the players' names as FICS's relay
//! writes them, `GMCarlsen`), answers `tell relay listgames` with qtell lines
//! (`:There are N games in the EVENT`, `:NUM WHITE BLACK RESULT ECO`), shows a finished
//! game's result in that list for a while, then stops examining it. It has no
//! connection: it lives in the core and moves on the core's clock ticks. Its state is
//! [`Relay`] (`relay/config.rs`); its games are examined games in [`Games`], played
//! through `games/examine.rs`.

use crate::conn::Sid;
use crate::core::Net;
use crate::games::examine::ExamineSetup;
use crate::games::Games;
use crate::relay::config::{rating, relay_name, Live, Relay};
use std::time::Instant;

impl Relay {
    /// Clock tick for the relay: open games, play their next moves, close finished ones.
    pub fn tick(&mut self, games: &mut Games, net: &mut Net, now: Instant) {
        // Open games up to `at_once`.
        while self.live.len() < self.cfg.at_once.max(1) {
            let Some(pgn) = self.queue.pop_front() else {
                break;
            };
            let (board, moves) = match pgn.replay_moves() {
                Ok(x) => x,
                Err(e) => {
                    tracing::warn!("relay: a game that cannot be replayed is skipped: {e:?}");
                    continue;
                }
            };
            let (base, inc) = pgn
                .tag("TimeControl")
                .and_then(|t| t.split_once('+'))
                .and_then(|(b, i)| Some((b.parse::<u32>().ok()? / 60, i.parse().ok()?)))
                .unwrap_or((90, 30));
            let setup = ExamineSetup {
                white: relay_name(
                    pgn.tag("White").unwrap_or(""),
                    pgn.tag("WhiteTitle"),
                    "White",
                ),
                black: relay_name(
                    pgn.tag("Black").unwrap_or(""),
                    pgn.tag("BlackTitle"),
                    "Black",
                ),
                white_rating: rating(&pgn, "WhiteElo"),
                black_rating: rating(&pgn, "BlackElo"),
                base,
                inc,
                board,
            };
            let by = self.cfg.name.clone();
            let number = games.open_examined(net, setup, None, &by);
            self.live.push(Live {
                number,
                moves,
                next: 0,
                next_at: now + self.cfg.move_interval,
                result: pgn.result.clone(),
                eco: pgn.tag("ECO").map(str::to_string),
                done_at: None,
            });
        }
        let mut closed = Vec::new();
        for live in &mut self.live {
            if !games.games.contains_key(&live.number) {
                closed.push(live.number);
                continue;
            }
            if let Some(t) = live.done_at {
                if now.saturating_duration_since(t) >= self.cfg.linger {
                    closed.push(live.number);
                }
                continue;
            }
            let watched = games
                .games
                .get(&live.number)
                .is_some_and(|g| !g.observers.is_empty());
            if self.cfg.wait_for_observer && !watched {
                live.next_at = now + self.cfg.move_interval;
                continue;
            }
            if now < live.next_at {
                continue;
            }
            if let Some(mv) = live.moves.get(live.next).copied() {
                if !games.examined_move(net, live.number, mv) {
                    tracing::warn!(game = live.number, "relay: move not legal; game closed");
                    live.done_at = Some(now);
                }
                live.next += 1;
                live.next_at = now + self.cfg.move_interval;
            }
            if live.next >= live.moves.len() && live.done_at.is_none() {
                live.done_at = Some(now);
            }
        }
        for n in &closed {
            self.live.retain(|l| l.number != *n);
            if games.games.contains_key(n) {
                games.close_examined(net, *n);
            }
        }
    }

    /// True when `name` is the relay account.
    pub fn is_named(&self, name: &str) -> bool {
        self.name().eq_ignore_ascii_case(name)
    }

    /// A tell to the relay: `listgames` is answered; anything else gets its usage.
    pub fn tell(&self, games: &Games, net: &mut Net, sid: Sid, text: &str) {
        let name = self.cfg.name.clone();
        let mut t = format!("(told {name})\n");
        if text.trim().eq_ignore_ascii_case("listgames") {
            t.push_str(&format!(
                ":There are {} games in the {}\n:\n",
                self.live.len(),
                self.cfg.event
            ));
            for l in &self.live {
                let Some(g) = games.games.get(&l.number) else {
                    continue;
                };
                let result = if l.done_at.is_some() {
                    l.result.as_str()
                } else {
                    "*"
                };
                t.push_str(&format!(
                    ":{:<3} {:<17} {:<17} {:<7} {}\n",
                    l.number,
                    g.white.name,
                    g.black.name,
                    result,
                    l.eco.as_deref().unwrap_or("?")
                ));
            }
        } else {
            t.push_str(":Usage: tell relay listgames\n");
        }
        net.reply(sid, &t);
    }
}
