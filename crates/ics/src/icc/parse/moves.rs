//! Moves and clocks of a followed game: `DG_SEND_MOVES` (with the optional fields of
//! [`MoveFields`](crate::icc::MoveFields)), the clock datagrams, take-backs, a late
//! FEN, and the server's refusal of a move of ours.

use crate::board::Color;
use crate::events::Event;
use crate::icc::datagram::Datagram;
use crate::icc::parse::fields::{color_of, secs_to_ms};
use crate::icc::parse::reader::IccReader;

/// One move as `DG_SEND_MOVES` gives it.
#[derive(Debug, Default)]
struct MoveInfo {
    san: Option<String>,
    smith: Option<String>,
    time_ms: Option<u64>,
    clock_ms: Option<i64>,
}

impl IccReader {
    fn move_info(&self, dg: &Datagram) -> MoveInfo {
        let mut i = 1;
        let mut next = |on: bool| {
            if on {
                let f = dg.field(i).map(str::to_string);
                i += 1;
                f
            } else {
                None
            }
        };
        let san = next(self.moves.algebraic);
        let smith = next(self.moves.smith);
        let time = next(self.moves.time);
        let clock = next(self.moves.clock);
        MoveInfo {
            san,
            smith,
            time_ms: time
                .as_deref()
                .and_then(secs_to_ms)
                .and_then(|v| u64::try_from(v).ok()),
            clock_ms: clock.as_deref().and_then(secs_to_ms),
        }
    }

    pub(super) fn send_moves(&mut self, dg: &Datagram) {
        let Some(game) = dg.num::<u32>(0) else {
            return self.warn(dg, "no game number");
        };
        let info = self.move_info(dg);
        let Some(g) = self.games.get_mut(&game) else {
            return self.warn(dg, "a game that was never announced");
        };
        let mover = g.style12().side_to_move;
        let initial = g.initial_moves_due > 0;
        match g.play(info.smith.as_deref(), info.san.as_deref()) {
            Ok(_) => {
                if let Some(ms) = info.time_ms {
                    g.last_move_ms = ms;
                }
                if let Some(ms) = info.clock_ms {
                    g.set_clock(mover, ms);
                }
                if initial {
                    g.initial_moves_due -= 1;
                }
                self.hold(game);
            }
            Err(e) => self.warn(dg, &e),
        }
    }

    pub(super) fn msec(&mut self, dg: &Datagram) {
        // (gamenumber color msec running free_time_to_move min_move_time)
        let (Some(game), Some(color), Some(ms)) = (
            dg.num::<u32>(0),
            dg.field(1).and_then(color_of),
            dg.num::<i64>(2),
        ) else {
            return self.warn(dg, "too few fields");
        };
        let running = dg.flag(3).unwrap_or(false);
        let Some(g) = self.games.get_mut(&game) else {
            return;
        };
        g.set_clock(color, ms);
        if running {
            g.running = Some(color);
        } else if g.running == Some(color) {
            g.running = None;
        }
        self.hold(game);
    }

    pub(super) fn set_clock(&mut self, dg: &Datagram) {
        // (gamenumber white-clock black-clock), seconds
        let (Some(game), Some(w), Some(b)) = (
            dg.num::<u32>(0),
            dg.field(1).and_then(secs_to_ms),
            dg.field(2).and_then(secs_to_ms),
        ) else {
            return self.warn(dg, "too few fields");
        };
        if let Some(g) = self.games.get_mut(&game) {
            g.white_ms = w;
            g.black_ms = b;
            self.hold(game);
        }
    }

    pub(super) fn moretime(&mut self, dg: &Datagram) {
        // (gamenumber color seconds)
        let (Some(game), Some(color), Some(add)) = (
            dg.num::<u32>(0),
            dg.field(1).and_then(color_of),
            dg.field(2).and_then(secs_to_ms),
        ) else {
            return self.warn(dg, "too few fields");
        };
        if let Some(g) = self.games.get_mut(&game) {
            let now = match color {
                Color::White => g.white_ms,
                Color::Black => g.black_ms,
            };
            g.set_clock(color, now.saturating_add(add));
            self.hold(game);
        }
    }

    pub(super) fn move_lag(&mut self, dg: &Datagram) {
        // (player lag-ms): the lag charged to that player's last move.
        let (Some(player), Some(lag)) = (dg.field(0), dg.num::<u32>(1)) else {
            return self.warn(dg, "too few fields");
        };
        let game = self.held.iter().rev().copied().find(|g| {
            self.games.get(g).is_some_and(|s| {
                let mover = match s.style12().side_to_move {
                    Color::White => Color::Black,
                    Color::Black => Color::White,
                };
                s.name_of(mover).eq_ignore_ascii_case(player)
            })
        });
        match game.and_then(|g| self.games.get_mut(&g)) {
            Some(g) => g.lag_ms = Some(lag),
            None => self.warnings.push(format!(
                "DG_MOVE_LAG {dg}: no move of {player} waiting for it; noted only"
            )),
        }
    }

    pub(super) fn fen(&mut self, dg: &Datagram) {
        let (Some(game), Some(fen)) = (dg.num::<u32>(0), dg.field(1)) else {
            return self.warn(dg, "too few fields");
        };
        let fen = fen.to_string();
        if let Some(g) = self.games.get_mut(&game) {
            // Only a start nothing else has given (no DG_POSITION_BEGIN, no moves yet).
            if g.position.ply() == 0 && g.initial_moves_due == 0 && g.set_start(&fen) {
                self.hold(game);
            }
        }
    }

    pub(super) fn take_back(&mut self, dg: &Datagram) {
        let (Some(game), Some(n)) = (dg.num::<u32>(0), dg.num::<u32>(1)) else {
            return self.warn(dg, "too few fields");
        };
        if let Some(g) = self.games.get_mut(&game) {
            g.take_back(n);
            self.hold(game);
        }
    }

    pub(super) fn illegal_move(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (gamenumber movestring reason)
        let mv = dg.field(1).unwrap_or_default();
        match dg.num::<u32>(2) {
            Some(4) => out.push(Event::NotYourMove),
            reason => {
                let why = match reason {
                    Some(1) => "bad or ambiguous notation",
                    Some(2) => "illegal",
                    Some(3) => "king in check",
                    Some(10) => "lost on time before the move",
                    _ => "refused",
                };
                out.push(Event::IllegalMove {
                    text: format!("Illegal move ({mv}): {why}."),
                });
            }
        }
    }
}
