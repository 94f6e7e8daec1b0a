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

use std::collections::HashMap;

use crate::ics::board::{Color, Relation};
use crate::ics::events::{
    title, Chat, ChatKind, Creating, EndReason, Event, GameEnd, GameResult, GameStart, MatchOffer,
    OfferKind, PlayerRating, Rating, RatingFlag, SeekAd, TourneyNotice,
};
use crate::ics::icc::datagram::Datagram;
use crate::ics::icc::game::GameState;
use crate::ics::icc::numbers::*;

/// Which optional fields `DG_SEND_MOVES` carries (the switches 33-36 and 113).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveFields {
    pub algebraic: bool,
    pub smith: bool,
    pub time: bool,
    pub clock: bool,
    pub variation: bool,
}

impl Default for MoveFields {
    /// What wily turns on: algebraic, Smith, time and clock.
    fn default() -> Self {
        MoveFields {
            algebraic: true,
            smith: true,
            time: true,
            clock: true,
            variation: false,
        }
    }
}

impl MoveFields {
    /// The fields the given datagram settings turn on.
    pub fn from_settings(on: &[u16]) -> MoveFields {
        MoveFields {
            algebraic: on.contains(&DG_MOVE_ALGEBRAIC),
            smith: on.contains(&DG_MOVE_SMITH),
            time: on.contains(&DG_MOVE_TIME),
            clock: on.contains(&DG_MOVE_CLOCK),
            variation: on.contains(&DG_IS_VARIATION),
        }
    }
}

/// One move as `DG_SEND_MOVES` gives it.
#[derive(Debug, Default)]
struct MoveInfo {
    san: Option<String>,
    smith: Option<String>,
    time_ms: Option<u64>,
    clock_ms: Option<i64>,
}

/// The datagram reader of one connection.
#[derive(Debug, Default)]
pub struct IccReader {
    me: Option<String>,
    moves: MoveFields,
    games: HashMap<u32, GameState>,
    /// Games whose board update is held, in the order they were touched.
    held: Vec<u32>,
    warnings: Vec<String>,
}

fn titles_of(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

fn title_bits(titles: &[String]) -> u32 {
    titles.iter().fold(0, |bits, t| {
        bits | match t.as_str() {
            "U" => title::UNREGISTERED,
            "C" => title::COMPUTER,
            "GM" => title::GM,
            "IM" => title::IM,
            "FM" => title::FM,
            "WGM" => title::WGM,
            "WIM" => title::WIM,
            "WFM" => title::WFM,
            _ => 0,
        }
    })
}

/// A rating and its ICC annotation (0 no games, 1 provisional, 2 established).
fn rating_of(value: Option<u32>, annotation: Option<u32>, unregistered: bool) -> Rating {
    if unregistered {
        return Rating::Unregistered;
    }
    match (value, annotation) {
        (Some(v), Some(1)) if v > 0 => Rating::Rated {
            value: v,
            flag: RatingFlag::Provisional,
        },
        (Some(v), Some(2) | None) if v > 0 => Rating::Rated {
            value: v,
            flag: RatingFlag::Established,
        },
        _ => Rating::Unrated,
    }
}

fn color_of(s: &str) -> Option<Color> {
    match s.trim() {
        "W" | "w" => Some(Color::White),
        "B" | "b" => Some(Color::Black),
        _ => None,
    }
}

/// Seconds as ICC writes them (an integer, sometimes with a fraction) in milliseconds.
fn secs_to_ms(s: &str) -> Option<i64> {
    let v: f64 = s.trim().parse().ok()?;
    v.is_finite().then(|| (v * 1000.0).round() as i64)
}

/// The category word wily's bot knows for an ICC rating type and wild number.
fn category_of(rating_type: &str, wild: u32) -> String {
    if wild != 0 {
        return "wild".into();
    }
    rating_type.trim().to_ascii_lowercase()
}

/// The variant named by a wild number (`wild/22` is Chess960).
fn variant_of(wild: u32) -> Option<String> {
    (wild != 0).then(|| format!("wild/{wild}"))
}

impl IccReader {
    pub fn new(moves: MoveFields) -> IccReader {
        IccReader {
            moves,
            ..Default::default()
        }
    }

    /// Our handle, once `DG_WHO_AM_I` has said it.
    pub fn me(&self) -> Option<&str> {
        self.me.as_deref()
    }

    /// Problems met since the last call (malformed datagrams, illegal moves), to log.
    pub fn warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    /// The games being followed (played, observed, examined).
    pub fn game(&self, game: u32) -> Option<&GameState> {
        self.games.get(&game)
    }

    fn warn(&mut self, dg: &Datagram, why: &str) {
        let name = name(dg.code).unwrap_or("unknown datagram");
        self.warnings.push(format!("{name} {dg}: {why}; skipped"));
    }

    fn is_me(&self, name: &str) -> bool {
        self.me
            .as_deref()
            .is_some_and(|m| m.eq_ignore_ascii_case(name))
    }

    fn hold(&mut self, game: u32) {
        if !self.held.contains(&game) {
            self.held.push(game);
        }
    }

    /// True when a board update or game start is held (call [`IccReader::settle`] after a
    /// moment of silence).
    pub fn has_held(&self) -> bool {
        !self.held.is_empty()
    }

    /// Hands on every held board update and game start.
    pub fn settle(&mut self, out: &mut Vec<Event>) {
        for game in std::mem::take(&mut self.held) {
            if let Some(g) = self.games.get_mut(&game) {
                if g.announce_due {
                    g.announce_due = false;
                    // A game that starts with moves already played is a resumed one.
                    announce(g, g.position.ply() > 0, out);
                }
                if g.initial_moves_due == 0 {
                    out.push(Event::Board(Box::new(g.style12())));
                } else {
                    // The promised initial moves never came: show what there is.
                    g.initial_moves_due = 0;
                    out.push(Event::Board(Box::new(g.style12())));
                }
            }
        }
    }

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

    fn who_am_i(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        let Some(name) = dg.field(0).filter(|n| !n.is_empty()) else {
            return self.warn(dg, "no name");
        };
        let titles = titles_of(dg.field(1).unwrap_or_default());
        self.me = Some(name.to_string());
        out.push(Event::SessionStarted {
            name: name.to_string(),
            unregistered: titles.iter().any(|t| t == "U"),
        });
    }

    fn login_failed(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        let code = dg.num::<u32>(0);
        let text = dg.field(1).unwrap_or_default().trim().to_string();
        match code {
            Some(11) => out.push(Event::InvalidPassword),
            // "is a registered name, type the password" and "hit return to enter":
            // the text prompts that follow carry the login on.
            Some(5) | Some(8) => {}
            Some(_) => out.push(Event::LoginRefused { text }),
            None => self.warn(dg, "no failure code"),
        }
    }

    fn game_started(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (gamenumber white black wild rating-type rated w-init w-inc b-init b-inc
        //  played-game {ex-string} w-rating b-rating game-id w-titles b-titles ...)
        let (Some(game), Some(white), Some(black)) = (dg.num::<i64>(0), dg.field(1), dg.field(2))
        else {
            return self.warn(dg, "too few fields");
        };
        if dg.fields.len() < 11 {
            return self.warn(dg, "too few fields");
        }
        let Ok(game) = u32::try_from(game) else {
            // sposition/smoves boards are numbered -1: nothing to follow.
            return;
        };
        let change = dg.code == DG_MY_GAME_CHANGE;
        let mut g = match (change, self.games.remove(&game)) {
            (true, Some(g)) => g,
            _ => GameState::new(game),
        };
        g.white = white.to_string();
        g.black = black.to_string();
        g.wild = dg.num(3).unwrap_or(0);
        g.rating_type = dg.field(4).unwrap_or_default().to_string();
        g.rated = dg.flag(5).unwrap_or(false);
        g.base_minutes = dg.num(6).unwrap_or(0);
        g.increment_secs = dg.num(7).unwrap_or(0);
        g.played = dg.flag(10).unwrap_or(true);
        g.white_rating = dg.num(12).unwrap_or(0);
        g.black_rating = dg.num(13).unwrap_or(0);
        g.white_titles = titles_of(dg.field(15).unwrap_or_default());
        g.black_titles = titles_of(dg.field(16).unwrap_or_default());
        if !change {
            g.white_ms = i64::from(g.base_minutes) * 60_000;
            g.black_ms = i64::from(dg.num::<u32>(8).unwrap_or(g.base_minutes)) * 60_000;
            g.set_start("");
        }
        g.relation = match dg.code {
            DG_STARTED_OBSERVING => {
                if g.played {
                    Relation::Observing
                } else {
                    Relation::ObservingExamined
                }
            }
            DG_ISOLATED_BOARD => Relation::IsolatedPosition,
            _ if !g.played => Relation::Examining,
            // MyMove when we play White, OpponentToMove for Black (see GameState).
            _ if self.is_me(white) => Relation::MyMove,
            _ if self.is_me(black) => Relation::OpponentToMove,
            _ => g.relation,
        };
        match dg.code {
            DG_MY_GAME_STARTED if g.played => {
                g.announce_due = true;
            }
            DG_STARTED_OBSERVING => out.push(Event::ObserveStarted { game }),
            _ => {}
        }
        self.games.insert(game, g);
        if !change {
            self.hold(game);
        }
    }

    fn position_begin(&mut self, dg: &Datagram) {
        // (gamenumber {initial-FEN} nmoves-to-follow)
        let Some(game) = dg.num::<u32>(0) else {
            return self.warn(dg, "no game number");
        };
        let fen = dg.field(1).unwrap_or_default().to_string();
        let n = dg.num::<u32>(2).unwrap_or(0);
        let Some(g) = self.games.get_mut(&game) else {
            return self.warn(dg, "a game that was never announced");
        };
        let ok = g.set_start(&fen);
        g.initial_moves_due = n;
        self.hold(game);
        if !ok {
            self.warn(
                dg,
                "the start position is not a FEN wily can read; using the standard start",
            );
        }
    }

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

    fn send_moves(&mut self, dg: &Datagram) {
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

    fn msec(&mut self, dg: &Datagram) {
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

    fn set_clock(&mut self, dg: &Datagram) {
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

    fn moretime(&mut self, dg: &Datagram) {
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

    fn move_lag(&mut self, dg: &Datagram) {
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

    fn fen(&mut self, dg: &Datagram) {
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

    fn take_back(&mut self, dg: &Datagram) {
        let (Some(game), Some(n)) = (dg.num::<u32>(0), dg.num::<u32>(1)) else {
            return self.warn(dg, "too few fields");
        };
        if let Some(g) = self.games.get_mut(&game) {
            g.take_back(n);
            self.hold(game);
        }
    }

    fn game_result(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (gamenumber become-examined game_result_code score_string2 description ECO)
        let Some(game) = dg.num::<u32>(0) else {
            return self.warn(dg, "no game number");
        };
        let code = dg.field(2).unwrap_or_default().trim().to_string();
        let score = dg.field(3).unwrap_or_default().trim().to_string();
        let text = dg.field(4).unwrap_or_default().trim().to_string();
        let examined = dg.flag(1).unwrap_or(false);
        let (white, black) = match self.games.get(&game) {
            Some(g) => (g.white.clone(), g.black.clone()),
            None if dg.code == DG_GAME_RESULT => return,
            None => (String::new(), String::new()),
        };
        let result = if score == "aborted" {
            GameResult::NoResult
        } else {
            GameResult::parse(&score).unwrap_or(GameResult::NoResult)
        };
        let reason = end_reason(&code, &score, &text);
        let who = if text.starts_with("White") {
            Some(white.clone())
        } else if text.starts_with("Black") {
            Some(black.clone())
        } else {
            None
        }
        .filter(|n| !n.is_empty());
        out.push(Event::GameEnd(GameEnd {
            game,
            white,
            black,
            result,
            reason,
            who,
            text,
            tourney: None,
        }));
        if !examined {
            self.games.remove(&game);
        }
    }

    fn relation(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        let (Some(game), Some(sym)) = (dg.num::<u32>(0), dg.field(1)) else {
            return self.warn(dg, "too few fields");
        };
        if sym == "X" {
            if let Some(g) = self.games.remove(&game) {
                self.held.retain(|&h| h != game);
                if matches!(
                    g.relation,
                    Relation::Observing | Relation::ObservingExamined
                ) {
                    out.push(Event::ObserveStopped { game });
                }
            }
        }
    }

    fn illegal_move(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
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

    fn offers(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (gamenumber wdraw bdraw wadjourn badjourn wabort babort wtakeback btakeback)
        let Some(game) = dg.num::<u32>(0) else {
            return self.warn(dg, "no game number");
        };
        let mut now = [0u32; 8];
        for (i, slot) in now.iter_mut().enumerate() {
            *slot = dg.num(i + 1).unwrap_or(0);
        }
        let me = self.me.clone();
        let Some(g) = self.games.get_mut(&game) else {
            return;
        };
        let my_color = me.as_deref().and_then(|m| {
            if g.white.eq_ignore_ascii_case(m) {
                Some(Color::White)
            } else if g.black.eq_ignore_ascii_case(m) {
                Some(Color::Black)
            } else {
                None
            }
        });
        let before = g.offers;
        g.offers = now;
        let Some(mine) = my_color else {
            return;
        };
        for (pair, kind) in [
            (0, OfferKind::Draw),
            (1, OfferKind::Adjourn),
            (2, OfferKind::Abort),
            (3, OfferKind::Takeback(0)),
        ] {
            for color in [Color::White, Color::Black] {
                let i = pair * 2 + usize::from(color == Color::Black);
                let (was, is) = (before[i], now[i]);
                if was == is {
                    continue;
                }
                let kind = match kind {
                    OfferKind::Takeback(_) => OfferKind::Takeback(is.max(was)),
                    ref k => k.clone(),
                };
                let other = g
                    .name_of(match mine {
                        Color::White => Color::Black,
                        Color::Black => Color::White,
                    })
                    .to_string();
                let ours = color == mine;
                out.push(match (ours, is > 0) {
                    (false, true) => Event::OfferReceived { from: other, kind },
                    (true, true) => Event::OfferSent { kind },
                    (false, false) => Event::OfferWithdrawn {
                        by_me: false,
                        other,
                        kind,
                    },
                    (true, false) => Event::OfferDeclined { by: other, kind },
                });
            }
        }
    }

    fn match_offer(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (challenger c-rating c-annotation c-titles receiver r-rating r-annotation r-titles
        //  wild rating-type rated adjourned c-time c-inc r-time r-inc color [assess x3] fancy)
        if dg.fields.len() < 17 {
            return self.warn(dg, "too few fields");
        }
        let f = |i: usize| dg.field(i).unwrap_or_default().to_string();
        let c_titles = titles_of(&f(3));
        let r_titles = titles_of(&f(7));
        let challenger = PlayerRating {
            name: f(0),
            rating: rating_of(dg.num(1), dg.num(2), c_titles.iter().any(|t| t == "U")),
        };
        let receiver = PlayerRating {
            name: f(4),
            rating: rating_of(dg.num(5), dg.num(6), r_titles.iter().any(|t| t == "U")),
        };
        let wild: u32 = dg.num(8).unwrap_or(0);
        let (c_time, c_inc): (u32, u32) = (dg.num(12).unwrap_or(0), dg.num(13).unwrap_or(0));
        let (r_time, r_inc): (u32, u32) =
            (dg.num(14).unwrap_or(c_time), dg.num(15).unwrap_or(c_inc));
        let offer = MatchOffer {
            challenger_color: match dg.num::<i32>(16) {
                Some(1) => Some(Color::White),
                Some(0) => Some(Color::Black),
                _ => None,
            },
            rated: dg.flag(10).unwrap_or(false),
            category: category_of(&f(9), wild),
            base_minutes: c_time,
            increment_secs: c_inc,
            other_clock: ((r_time, r_inc) != (c_time, c_inc)).then_some((r_time, r_inc)),
            variant: variant_of(wild),
            adjourned: dg.flag(11).unwrap_or(false),
            challenger_titles: c_titles.clone(),
            challenger,
            receiver,
        };
        let computer = c_titles.iter().any(|t| t == "C");
        let name = offer.challenger.name.clone();
        if self.is_me(&offer.challenger.name) {
            out.push(Event::Issuing(offer));
        } else {
            out.push(Event::Challenge(offer));
            if computer {
                out.push(Event::IsComputer { name });
            }
        }
    }

    fn match_removed(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (challenger receiver ^Y{explanation^Y})
        let (Some(challenger), Some(receiver)) = (dg.field(0), dg.field(1)) else {
            return self.warn(dg, "too few fields");
        };
        let by_me = self.is_me(challenger);
        let other = if by_me { receiver } else { challenger };
        out.push(Event::OfferWithdrawn {
            by_me,
            other: other.to_string(),
            kind: OfferKind::Match,
        });
    }

    fn seek(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (index name titles rating provisional-status wild rating-type time inc rated color
        //  minrating maxrating autoaccept formula fancy-time-control)
        if dg.fields.len() < 11 {
            return self.warn(dg, "too few fields");
        }
        let (Some(index), Some(name)) = (dg.num::<u32>(0), dg.field(1)) else {
            return self.warn(dg, "no index or name");
        };
        let titles = titles_of(dg.field(2).unwrap_or_default());
        let wild: u32 = dg.num(5).unwrap_or(0);
        let range = match (dg.num::<u32>(11), dg.num::<u32>(12)) {
            (Some(lo), Some(hi)) => Some((lo, hi)),
            _ => None,
        };
        out.push(Event::Seek(SeekAd {
            index,
            name: name.to_string(),
            titles: title_bits(&titles),
            rating: rating_of(dg.num(3), dg.num(4), titles.iter().any(|t| t == "U")),
            base_minutes: dg.num(7).unwrap_or(0),
            increment_secs: dg.num(8).unwrap_or(0),
            rated: dg.flag(9).unwrap_or(false),
            category: match variant_of(wild) {
                Some(v) => v,
                None => category_of(dg.field(6).unwrap_or_default(), 0),
            },
            color: match dg.num::<i32>(10) {
                Some(1) => Some(Color::White),
                Some(0) => Some(Color::Black),
                _ => None,
            },
            rating_range: range,
            automatic: dg.flag(13).unwrap_or(true),
            formula: dg.flag(14).unwrap_or(false),
            notify: false,
        }));
    }

    fn chat(
        &mut self,
        kind: ChatKind,
        from: &str,
        titles: &str,
        game: Option<u32>,
        text: &str,
    ) -> Event {
        Event::Chat(Chat {
            kind,
            from: from.to_string(),
            titles: titles_of(titles),
            rating: None,
            game,
            text: text.to_string(),
        })
    }

    fn personal_tell(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (playername titles ^Y{tell string^Y} type); qtells have no type.
        let (Some(from), Some(text)) = (dg.field(0), dg.field(2)) else {
            return self.warn(dg, "too few fields");
        };
        let kind = match (dg.code, dg.num::<u32>(3)) {
            (DG_PERSONAL_TELL, Some(0)) => ChatKind::Say,
            _ => ChatKind::Tell,
        };
        let ev = self.chat(kind, from, dg.field(1).unwrap_or_default(), None, text);
        out.push(ev);
    }

    fn kibitz(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (gamenumber playername titles kib/whi ^Y{kib string^Y})
        let (Some(game), Some(from), Some(text)) = (dg.num::<u32>(0), dg.field(1), dg.field(4))
        else {
            return self.warn(dg, "too few fields");
        };
        let kind = if dg.flag(3).unwrap_or(true) {
            ChatKind::Kibitz
        } else {
            ChatKind::Whisper
        };
        let ev = self.chat(
            kind,
            from,
            dg.field(2).unwrap_or_default(),
            Some(game),
            text,
        );
        out.push(ev);
    }

    fn channel_tell(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (channel playername titles ^Y{tell string^Y} type)
        let (Some(ch), Some(from), Some(text)) = (dg.num::<u32>(0), dg.field(1), dg.field(3))
        else {
            return self.warn(dg, "too few fields");
        };
        let ev = self.chat(
            ChatKind::Channel(ch),
            from,
            dg.field(2).unwrap_or_default(),
            None,
            text,
        );
        out.push(ev);
    }

    fn shout(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (playername titles type ^Y{shout string^Y})
        let (Some(from), Some(text)) = (dg.field(0), dg.field(3)) else {
            return self.warn(dg, "too few fields");
        };
        let kind = match dg.num::<u32>(2) {
            Some(1) => ChatKind::Emote,
            Some(2) => ChatKind::CShout,
            _ => ChatKind::Shout,
        };
        let ev = self.chat(kind, from, dg.field(1).unwrap_or_default(), None, text);
        out.push(ev);
    }

    fn tourney(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (index bitfield description join-command watch-command info-command confirm-text)
        let Some(index) = dg.num::<u32>(0) else {
            return self.warn(dg, "no tourney index");
        };
        let f = |i: usize| dg.field(i).unwrap_or_default().to_string();
        out.push(Event::Tourney(TourneyNotice::Offered {
            index,
            description: f(2),
            join_command: f(3),
            watch_command: f(4),
            info_command: f(5),
            confirm_text: f(6),
        }));
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

/// `Creating:` and the game-start notice of a game of ours.
fn announce(g: &GameState, continuing: bool, out: &mut Vec<Event>) {
    let category = category_of(&g.rating_type, g.wild);
    let rating = |r: u32| {
        if r == 0 {
            Rating::Unrated
        } else {
            Rating::Rated {
                value: r,
                flag: RatingFlag::Established,
            }
        }
    };
    out.push(Event::Creating(Creating {
        white: g.white.clone(),
        white_rating: rating(g.white_rating),
        black: g.black.clone(),
        black_rating: rating(g.black_rating),
        rated: g.rated,
        category: category.clone(),
        base_minutes: g.base_minutes,
        increment_secs: g.increment_secs,
    }));
    out.push(Event::GameStart(GameStart {
        game: g.game,
        white: g.white.clone(),
        black: g.black.clone(),
        continuing,
        rated: g.rated,
        category: match variant_of(g.wild) {
            Some(v) => v,
            None => category,
        },
    }));
}

/// The end reason of ICC's three-letter result code (the game-list codes of `formats.txt`),
/// the score and the description.
fn end_reason(code: &str, score: &str, text: &str) -> EndReason {
    let lower = text.to_ascii_lowercase();
    if score == "aborted" {
        return match code {
            "BA" => EndReason::CourtesyAborted,
            "Sho" if lower.contains("move 1") => EndReason::AbortedOnMove1,
            _ if lower.contains("courtesyabort") => EndReason::CourtesyAborted,
            _ => EndReason::Aborted,
        };
    }
    if score == "*" {
        return if lower.contains("courtesyadjourn") {
            EndReason::CourtesyAdjourned
        } else if lower.contains("adjourn") {
            EndReason::Adjourned
        } else {
            EndReason::Other
        };
    }
    match code {
        "Res" => EndReason::Resignation,
        "Mat" => EndReason::Checkmate,
        "Fla" => EndReason::Time,
        "Adj" => EndReason::Adjudication,
        "BQ" => EndReason::Disconnection,
        "Agr" => EndReason::DrawAgreed,
        "Sta" => EndReason::Stalemate,
        "Rep" => EndReason::Repetition,
        "50" => EndReason::FiftyMoveRule,
        "TM" => EndReason::TimeVsNoMaterial,
        "NM" => EndReason::InsufficientMaterial,
        "NT" => EndReason::BothOutOfTime,
        _ if lower.contains("checkmated") => EndReason::Checkmate,
        _ if lower.contains("resign") => EndReason::Resignation,
        _ if lower.contains("forfeits on time") => EndReason::Time,
        _ if lower.contains("stalemate") => EndReason::Stalemate,
        _ if lower.contains("agreement") => EndReason::DrawAgreed,
        _ => EndReason::Other,
    }
}
