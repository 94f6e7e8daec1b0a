//! Games in progress on the local server: creation (`Creating:` and the
//! `{Game N ... Creating ...}` block), board updates to players and observers,
//! and every way a game ends, worded as the lasker server words it.

use super::clock::Clock;
use super::core::{Core, PROMPT};
use super::notation::has_mating_material;
use super::ratings::{rating_text, Category};
use super::session::Sid;
use super::style12::{style12, Relation};
use cozy_chess::{Board, Color};
use std::time::Instant;

/// One player of a game.
#[derive(Debug, Clone)]
pub struct Side {
    /// The session while connected.
    pub sid: Option<Sid>,
    pub name: String,
    pub registered: bool,
    /// Rating in the game's category when the game started.
    pub rating: Option<u32>,
}

/// A move already played, for `moves` listings.
#[derive(Debug, Clone)]
pub struct MoveRecord {
    pub san: String,
    pub took_ms: i64,
}

/// The last move, as style 12 shows it.
#[derive(Debug, Clone)]
pub struct LastMove {
    pub verbose: String,
    pub pretty: String,
    pub took_ms: i64,
    /// File (0-7) of a double pawn push.
    pub double_push: Option<u8>,
}

/// A game in progress (or adjourned).
#[derive(Debug, Clone)]
pub struct Game {
    pub number: u32,
    pub white: Side,
    pub black: Side,
    pub rated: bool,
    pub base: u32,
    pub inc: u32,
    pub category: Category,
    /// A Chess960 game (lasker's `fischerandom`).
    pub chess960: bool,
    pub board: Board,
    /// `Board::hash()` of every position so far, the start included.
    pub hashes: Vec<u64>,
    pub moves: Vec<MoveRecord>,
    pub last: Option<LastMove>,
    pub clock: Clock,
    pub observers: Vec<Sid>,
    pub started: chrono::DateTime<chrono::Utc>,
}

/// Why a game ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    Checkmate {
        loser: Color,
    },
    Resign {
        loser: Color,
    },
    Flag {
        loser: Color,
    },
    FlagNoMaterial {
        loser: Color,
    },
    BothFlag,
    Stalemate,
    Agreed,
    Repetition,
    FiftyMove,
    NoMaterial,
    AdjournAgreed,
    /// A player dropped: adjourned when both are registered, else aborted.
    LostConnection {
        who: Color,
    },
    AbortAgreed,
}

impl Game {
    pub fn side(&self, c: Color) -> &Side {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The colour `sid` plays, if it plays here.
    pub fn color_of(&self, sid: Sid) -> Option<Color> {
        if self.white.sid == Some(sid) {
            Some(Color::White)
        } else if self.black.sid == Some(sid) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// `Game 1 (AlphaBot vs. BetaBot)`.
    pub fn title(&self) -> String {
        format!(
            "Game {} ({} vs. {})",
            self.number, self.white.name, self.black.name
        )
    }

    /// `rated blitz` / `unrated lightning` / `rated fischerandom`.
    pub fn kind(&self) -> String {
        format!(
            "{} {}",
            if self.rated { "rated" } else { "unrated" },
            if self.chess960 {
                "fischerandom"
            } else {
                self.category.name()
            }
        )
    }

    /// The `[ bu  5   0]` field of `games` lists.
    pub fn type_code(&self) -> String {
        format!(
            "[ {}{}{:3} {:3}]",
            self.category.letter(),
            if self.rated { 'r' } else { 'u' },
            self.base,
            self.inc
        )
    }

    /// Whether both players are registered (so the game can be stored).
    pub fn storable(&self) -> bool {
        self.white.registered && self.black.registered
    }

    /// Style 12 for a player or an observer.
    pub fn board_line(&self, sid: Sid, ms: bool, now: Instant) -> String {
        let (rel, flip) = match self.color_of(sid) {
            Some(c) if c == self.board.side_to_move() => (Relation::MyMove, c == Color::Black),
            Some(c) => (Relation::OpponentsMove, c == Color::Black),
            None => (Relation::Observing, false),
        };
        style12(self, rel, flip, ms, now)
    }

    fn end_text(&self, end: End) -> (String, &'static str) {
        let name = |c: Color| self.side(c).name.clone();
        let win = |loser: Color| if loser == Color::White { "0-1" } else { "1-0" };
        match end {
            End::Checkmate { loser } => (format!("{} checkmated", name(loser)), win(loser)),
            End::Resign { loser } => (format!("{} resigns", name(loser)), win(loser)),
            End::Flag { loser } => (format!("{} forfeits on time", name(loser)), win(loser)),
            End::FlagNoMaterial { loser } => (
                format!(
                    "{} ran out of time and {} has no material to mate",
                    name(loser),
                    name(!loser)
                ),
                "1/2-1/2",
            ),
            End::BothFlag => (
                "Game drawn because both players ran out of time".into(),
                "1/2-1/2",
            ),
            End::Stalemate => ("Game drawn by stalemate".into(), "1/2-1/2"),
            End::Agreed => ("Game drawn by mutual agreement".into(), "1/2-1/2"),
            End::Repetition => ("Game drawn by repetition".into(), "1/2-1/2"),
            End::FiftyMove => ("Game drawn by the 50 move rule".into(), "1/2-1/2"),
            End::NoMaterial => ("Neither player has mating material".into(), "1/2-1/2"),
            End::AdjournAgreed => ("Game adjourned by mutual agreement".into(), "*"),
            End::LostConnection { .. } => {
                if self.storable() {
                    ("adjourned".into(), "*")
                } else {
                    ("aborted".into(), "*")
                }
            }
            End::AbortAgreed => ("Game aborted by mutual agreement".into(), "*"),
        }
    }
}

/// White's score for a decisive or drawn end (`None`: no result).
fn white_score(end: End) -> Option<f64> {
    match end {
        End::Checkmate { loser } | End::Resign { loser } | End::Flag { loser } => {
            Some(if loser == Color::White { 0.0 } else { 1.0 })
        }
        End::FlagNoMaterial { .. }
        | End::BothFlag
        | End::Stalemate
        | End::Agreed
        | End::Repetition
        | End::FiftyMove
        | End::NoMaterial => Some(0.5),
        End::AdjournAgreed | End::LostConnection { .. } | End::AbortAgreed => None,
    }
}

impl Core {
    fn side_for(&self, sid: Sid, cat: Category) -> Side {
        let s = self.sess(sid);
        let name = s.map(|s| s.handle.clone()).unwrap_or_default();
        let registered = s.is_some_and(|s| s.registered);
        Side {
            sid: Some(sid),
            rating: if registered {
                self.rating(&name, cat)
            } else {
                None
            },
            name,
            registered,
        }
    }

    /// The rating of a registered handle in a category.
    pub fn rating(&self, name: &str, cat: Category) -> Option<u32> {
        self.ratings
            .get(&name.to_ascii_lowercase())
            .and_then(|r| r.get(cat))
    }

    /// `----`, `++++` or the number, for a session.
    pub fn rating_shown(&self, sid: Sid, cat: Category) -> String {
        match self.sess(sid) {
            Some(s) => rating_text(
                s.registered,
                if s.registered {
                    self.rating(&s.handle, cat)
                } else {
                    None
                },
            ),
            None => "----".into(),
        }
    }

    fn free_game_number(&self) -> u32 {
        (1..).find(|n| !self.games.contains_key(n)).unwrap_or(1)
    }

    /// Start a new game (or continue `resumed`) between two online sessions.
    /// Returns the game number. The caller has sent the accept texts; this
    /// sends the `Creating:` blocks and the first board.
    pub fn create_game(
        &mut self,
        white: Sid,
        black: Sid,
        rated: bool,
        base: u32,
        inc: u32,
        chess960: bool,
        resumed: Option<Game>,
    ) -> u32 {
        let number = self.free_game_number();
        let continuing = resumed.is_some();
        let game = match resumed {
            Some(mut g) => {
                g.number = number;
                g.white.sid = Some(white);
                g.black.sid = Some(black);
                g.observers.clear();
                g
            }
            None => {
                let cat = Category::of(base, inc);
                let board = if chess960 {
                    super::variant::random_start(&mut self.rng)
                } else {
                    Board::default()
                };
                Game {
                    number,
                    white: self.side_for(white, cat),
                    black: self.side_for(black, cat),
                    rated,
                    base,
                    inc,
                    category: cat,
                    chess960,
                    hashes: vec![board.hash()],
                    board,
                    moves: Vec::new(),
                    last: None,
                    clock: Clock::new(base, inc, self.cfg.zero_base_ms),
                    observers: Vec::new(),
                    started: chrono::Utc::now(),
                }
            }
        };
        let mut game = game;
        // A continued game's clock runs again once both first moves are in.
        if game.moves.len() >= 2 {
            game.clock.start(game.board.side_to_move(), Instant::now());
        }
        let creating = format!(
            "Creating: {} ({}) {} ({}) {} {} {}",
            game.white.name,
            game.white.rating.unwrap_or(0),
            game.black.name,
            game.black.rating.unwrap_or(0),
            game.kind(),
            game.base,
            game.inc
        );
        let verb = if continuing { "Continuing" } else { "Creating" };
        let braces = format!("{{{} {} {} match.}}", game.title(), verb, game.kind());
        self.games.insert(number, game);
        for sid in [white, black] {
            let observed: Vec<u32> = match self.sessions.get_mut(&sid) {
                Some(s) => {
                    s.game = Some(number);
                    std::mem::take(&mut s.observing)
                }
                None => Vec::new(),
            };
            let mut text = String::new();
            for g in observed {
                if let Some(game) = self.games.get_mut(&g) {
                    game.observers.retain(|o| *o != sid);
                }
                text.push_str(&format!("Removing game {g} from observation list.\n"));
            }
            if continuing {
                text.push_str(&braces);
                text.push('\n');
            }
            let board = self.board_for(number, sid);
            text.push_str(&format!("\n{creating}\n\n{braces}\n\n{board}\n{PROMPT}"));
            self.send(sid, &text);
        }
        tracing::info!(game = number, "game started");
        number
    }

    /// The style 12 line of game `g` for `sid` ("" if no such game).
    pub fn board_for(&self, g: u32, sid: Sid) -> String {
        let ms = self.sess(sid).is_some_and(|s| s.vars.ms);
        self.games
            .get(&g)
            .map(|game| game.board_line(sid, ms, Instant::now()))
            .unwrap_or_default()
    }

    /// Send the current board of game `g` to players and observers.
    /// `quiet_prompt`: a session that gets the board without the prompt
    /// (the mover when the game is about to end).
    pub fn send_boards(&mut self, g: u32, quiet_prompt: Option<Sid>) {
        let Some(game) = self.games.get(&g) else {
            return;
        };
        let mut targets: Vec<Sid> = [game.white.sid, game.black.sid]
            .into_iter()
            .flatten()
            .collect();
        targets.extend(game.observers.iter().copied());
        for sid in targets {
            let line = self.board_for(g, sid);
            if Some(sid) == quiet_prompt {
                self.send(sid, &format!("\n{line}\n"));
            } else {
                self.notify(sid, &format!("{line}\n"));
            }
        }
    }

    /// End game `g`: result lines to players and observers, ratings, and the
    /// adjourned game stored when it was adjourned.
    pub fn end_game(&mut self, g: u32, end: End) {
        let Some(mut game) = self.games.remove(&g) else {
            return;
        };
        if let (Some(w), Some(b)) = (game.white.sid, game.black.sid) {
            let mut notes = super::offers::Notes::new();
            self.remove_game_offers(w, b, &mut notes);
            self.flush_notes(notes);
        }
        game.clock.stop(Instant::now());
        let (text, score) = game.end_text(end);
        let line = format!("{{{} {}}} {}", game.title(), text, score);
        // Ratings.
        let mut rating_lines: [String; 2] = [String::new(), String::new()];
        match white_score(end) {
            Some(ws) if game.rated && game.category != Category::Untimed => {
                let (wr, br) = (game.white.rating, game.black.rating);
                for (i, (side, opp, score)) in [(&game.white, br, ws), (&game.black, wr, 1.0 - ws)]
                    .into_iter()
                    .enumerate()
                {
                    let key = side.name.to_ascii_lowercase();
                    let entry = self.ratings.entry(key).or_default();
                    if let Some((old, new)) = entry.record(game.category, opp, score) {
                        if let Some(l) = rating_lines.get_mut(i) {
                            *l = format!(
                                "{} rating adjustment: {} --> {}\n",
                                game.category.title(),
                                old,
                                new
                            );
                        }
                    }
                }
            }
            _ => {
                rating_lines = [
                    "No ratings adjustment done.\n".into(),
                    "No ratings adjustment done.\n".into(),
                ];
            }
        }
        for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let side = game.side(color).clone();
            let Some(sid) = side.sid else { continue };
            let opp = game.side(!color).name.clone();
            if let Some(s) = self.sessions.get_mut(&sid) {
                s.game = None;
                s.last_opponent = Some(opp);
            }
            let rl = rating_lines.get(i).cloned().unwrap_or_default();
            match end {
                End::LostConnection { who } if who == color => {}
                End::LostConnection { .. } => {
                    self.reply(
                        sid,
                        &format!("Your opponent has lost contact or quit.\n{line}\n{rl}"),
                    );
                }
                _ => self.notify(sid, &format!("{line}\n{rl}")),
            }
        }
        for o in std::mem::take(&mut game.observers) {
            if let Some(s) = self.sessions.get_mut(&o) {
                s.observing.retain(|x| *x != g);
            }
            self.notify(o, &format!("{line}\n"));
        }
        tracing::info!(game = g, result = %line, "game ended");
        let store = matches!(end, End::AdjournAgreed)
            || (matches!(end, End::LostConnection { .. }) && game.storable());
        if store {
            game.white.sid = None;
            game.black.sid = None;
            self.stored.retain(|s| {
                !(s.white.name.eq_ignore_ascii_case(&game.white.name)
                    && s.black.name.eq_ignore_ascii_case(&game.black.name))
            });
            self.stored.push(game);
        }
    }

    /// A player of game `g` disconnected.
    pub fn player_lost_connection(&mut self, g: u32, sid: Sid) {
        let Some(color) = self.games.get(&g).and_then(|game| game.color_of(sid)) else {
            return;
        };
        self.end_game(g, End::LostConnection { who: color });
    }

    /// With `auto_flag`: end games whose side to move has run out of time.
    pub fn check_flags(&mut self, now: Instant) {
        let mut flagged = Vec::new();
        for (n, game) in &self.games {
            if game.clock.untimed() || !game.clock.ticking() {
                continue;
            }
            let stm = game.board.side_to_move();
            if game.clock.remaining(stm, now) <= 0 {
                let end = if has_mating_material(&game.board, !stm) {
                    End::Flag { loser: stm }
                } else {
                    End::FlagNoMaterial { loser: stm }
                };
                flagged.push((*n, end));
            }
        }
        for (n, end) in flagged {
            self.end_game(n, end);
        }
    }
}
