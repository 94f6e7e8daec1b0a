//! ICC datagrams to the same typed [`Event`]s the FICS text parsers produce, so nothing
//! above `ics/` needs to know which server it talks to.
//!
//! ICC sends a move (`DG_SEND_MOVES`) and then the clocks (`DG_MSEC`), where FICS sends one
//! board line with both. So a board update is held until what completes it has arrived: it
//! is handed on at the next datagram that is not part of the same move (`DG_MY_TURN` for
//! one), or by [`IccReader::settle`] when the connection has been quiet a moment. Likewise a game start waits
//! for its `DG_POSITION_BEGIN` and the moves that follow (a resumed game says it is resumed
//! that way).
//!
//! A datagram with too few fields, or a move that is not legal in the position kept, is
//! reported through [`IccReader::warnings`] and skipped; an unknown datagram becomes
//! [`Event::Unknown`]. Nothing here panics on any input.
//!
//! The files: `reader.rs` holds the reader's state and the held updates; the datagram
//! families are read in `session.rs` (login), `games.rs` (a game's start, position,
//! result), `moves.rs` (moves, clocks, take-backs), `offers.rs` (offers in a game, match
//! offers, seeks, tournaments) and `talk.rs` (tells, kibitzes, channels, shouts), with the
//! field forms they share in `fields.rs`. This file routes each datagram to its family.

mod fields;
mod games;
mod moves;
mod offers;
mod reader;
mod session;
mod talk;

pub use reader::{IccReader, MoveFields};

use crate::events::{ChatKind, Event, TourneyNotice};
use crate::icc::datagram::Datagram;
use crate::icc::numbers::*;

impl IccReader {
    /// True when this datagram completes a held update rather than starting something new.
    fn completes_held(&self, dg: &Datagram) -> bool {
        let game = dg.num::<u32>(0);
        let held = game.is_some_and(|g| self.held.contains(&g));
        match dg.code {
            DG_MSEC
            | DG_MOVE_LAG
            | DG_FLIP
            | DG_FEN
            | DG_PGN_TAG
            | DG_PLAYERS_IN_MY_GAME
            | DG_MUGSHOT
            | DG_COUNTRY
            | DG_MY_RELATION_TO_GAME
            | DG_POSITION_BEGIN
            | DG_SET_CLOCK
            | DG_MORETIME
            | DG_DISABLE_PREMOVE
            | DG_PSTAT
            | DG_MENU_SPEAK => true,
            DG_SEND_MOVES => {
                held && game
                    .and_then(|g| self.games.get(&g))
                    .is_some_and(|g| g.initial_moves_due > 0)
            }
            _ => false,
        }
    }

    /// Reads one datagram; the events it makes are appended to `out`.
    pub fn datagram(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        if !self.completes_held(dg) {
            self.settle(out);
        }
        match dg.code {
            DG_WHO_AM_I => self.who_am_i(dg, out),
            DG_LOGIN_FAILED => self.login_failed(dg, out),
            DG_MY_GAME_STARTED | DG_STARTED_OBSERVING | DG_ISOLATED_BOARD | DG_MY_GAME_CHANGE => {
                self.game_started(dg, out)
            }
            DG_POSITION_BEGIN | DG_POSITION_BEGIN2 => self.position_begin(dg),
            DG_SEND_MOVES | DG_PAST_MOVE => self.send_moves(dg),
            DG_MSEC => self.msec(dg),
            DG_SET_CLOCK => self.set_clock(dg),
            DG_MORETIME => self.moretime(dg),
            DG_MOVE_LAG => self.move_lag(dg),
            DG_FLIP => {
                if let (Some(g), Some(f)) = (dg.num::<u32>(0), dg.flag(1)) {
                    if let Some(g) = self.games.get_mut(&g) {
                        g.flip = f;
                    }
                }
            }
            DG_FEN => self.fen(dg),
            DG_TAKEBACK | DG_BACKWARD => self.take_back(dg),
            DG_MY_TURN => {
                // The board and clocks came before it; its only job (ending the held
                // update) is done above.
            }
            DG_MY_GAME_RESULT | DG_GAME_RESULT => self.game_result(dg, out),
            DG_MY_GAME_ENDED | DG_EXAMINED_GAME_IS_GONE => {
                if let Some(g) = dg.num::<u32>(0) {
                    self.games.remove(&g);
                }
            }
            DG_STOP_OBSERVING => {
                if let Some(g) = dg.num::<u32>(0) {
                    if self.games.remove(&g).is_some() {
                        out.push(Event::ObserveStopped { game: g });
                    }
                }
            }
            DG_MY_RELATION_TO_GAME => self.relation(dg, out),
            DG_ILLEGAL_MOVE => self.illegal_move(dg, out),
            DG_OFFERS_IN_MY_GAME => self.offers(dg, out),
            DG_MATCH => self.match_offer(dg, out),
            DG_MATCH_REMOVED => self.match_removed(dg, out),
            DG_SEEK => self.seek(dg, out),
            DG_SEEK_REMOVED => match dg.num::<u32>(0) {
                Some(i) => out.push(Event::SeekRemoved { indices: vec![i] }),
                None => self.warn(dg, "no seek index"),
            },
            DG_PERSONAL_TELL | DG_PERSONAL_QTELL => self.personal_tell(dg, out),
            DG_PERSONAL_TELL_ECHO => match dg.field(0) {
                Some(to) => out.push(Event::Told { to: to.to_string() }),
                None => self.warn(dg, "no receiver"),
            },
            DG_KIBITZ => self.kibitz(dg, out),
            DG_CHANNEL_TELL | DG_CHANNEL_QTELL => self.channel_tell(dg, out),
            DG_SHOUT => self.shout(dg, out),
            DG_TOURNEY => self.tourney(dg, out),
            DG_REMOVE_TOURNEY => match dg.num::<u32>(0) {
                Some(index) => out.push(Event::Tourney(TourneyNotice::Withdrawn { index })),
                None => self.warn(dg, "no tourney index"),
            },
            DG_SET2 => out.push(Event::SettingAck {
                text: format!("set-2 {}", dg.fields.join(" ")),
            }),
            DG_ERROR => out.push(Event::Refused {
                text: dg.field(2).unwrap_or_default().trim().to_string(),
            }),
            DG_FAIL => out.push(Event::Refused {
                text: dg.field(1).unwrap_or_default().trim().to_string(),
            }),
            DG_DUMMY_RESPONSE
            | DG_PLAYERS_IN_MY_GAME
            | DG_PGN_TAG
            | DG_MUGSHOT
            | DG_COUNTRY
            | DG_DISABLE_PREMOVE
            | DG_SOUND => {}
            _ => out.push(Event::Unknown(format!(
                "{} {dg}",
                name(dg.code).unwrap_or("DG_UNKNOWN")
            ))),
        }
    }
}

/// True for a text event that ICC's datagrams (as wily turns them on) also give: with level
/// 2 active the text form is dropped so each thing arrives once. ICC prints match offers,
/// offers in a game and illegal-move notices both ways; the rest is belt and braces.
pub fn covered_by_datagrams(ev: &Event) -> bool {
    match ev {
        Event::Board(_)
        | Event::Creating(_)
        | Event::GameStart(_)
        | Event::GameEnd(_)
        | Event::Challenge(_)
        | Event::Issuing(_)
        | Event::IsComputer { .. }
        | Event::OfferReceived { .. }
        | Event::OfferSent { .. }
        | Event::OfferWithdrawn { .. }
        | Event::OfferDeclined { .. }
        | Event::IllegalMove { .. }
        | Event::NotYourMove
        | Event::ObserveStarted { .. }
        | Event::ObserveStopped { .. }
        | Event::Seek(_)
        | Event::SeekRemoved { .. }
        | Event::Told { .. } => true,
        Event::Chat(c) => matches!(
            c.kind,
            ChatKind::Tell | ChatKind::Say | ChatKind::Kibitz | ChatKind::Whisper
        ),
        _ => false,
    }
}
