//! Games in progress on the local server: creation (`Creating:` and the
//! `{Game N ... Creating ...}` block), board updates to players and observers,
//! and every way a game ends, worded as the lasker server words it. The game
//! itself, as a value, is in `games/game.rs`.

use crate::conn::Sid;
use crate::games::clock::Clock;
use crate::games::game::{white_score, End, Game, Side};
use crate::games::notation::has_mating_material;
use crate::games::play::Play;
use crate::games::ratings::Category;
use crate::tourney::config::result_suffix;
use chess::GameHistory;
use cozy_chess::{Board, Color};
use std::time::Instant;

impl Play<'_> {
    fn side_for(&self, sid: Sid, cat: Category) -> Side {
        let s = self.parts.net.sess(sid);
        let name = s.map(|s| s.handle.clone()).unwrap_or_default();
        let registered = s.is_some_and(|s| s.registered);
        Side {
            sid: Some(sid),
            rating: if registered {
                self.parts.games.rating(&name, cat)
            } else {
                None
            },
            name,
            registered,
        }
    }

    /// Start a new game (or continue `resumed`) between two online sessions.
    /// Returns the game number. The caller has sent the accept texts; this
    /// sends the `Creating:` blocks and the first board.
    #[allow(clippy::too_many_arguments)]
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
        let number = self.parts.games.free_game_number();
        let continuing = resumed.is_some();
        let game = match resumed {
            Some(mut g) => {
                g.number = number;
                g.white.sid = Some(white);
                g.black.sid = Some(black);
                g.observers.clear();
                g.resumed += 1;
                if let Some(j) = &self.parts.journal {
                    j.resumed(&g.white.name, &g.black.name);
                }
                g
            }
            None => {
                let cat = Category::of(base, inc);
                let board = if chess960 {
                    crate::games::variant::random_start(&mut self.parts.rng)
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
                    history: GameHistory::new(&board),
                    start: board.clone(),
                    board,
                    moves: Vec::new(),
                    last: None,
                    clock: Clock::new(base, inc, self.parts.net.cfg.zero_base_ms),
                    observers: Vec::new(),
                    started: chrono::Utc::now(),
                    resumed: 0,
                    examined: None,
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
        self.parts.games.games.insert(number, game);
        for sid in [white, black] {
            let observed: Vec<u32> = match self.parts.net.sessions.get_mut(&sid) {
                Some(s) => {
                    s.game = Some(number);
                    std::mem::take(&mut s.observing)
                }
                None => Vec::new(),
            };
            let mut text = String::new();
            for g in observed {
                if let Some(game) = self.parts.games.games.get_mut(&g) {
                    game.observers.retain(|o| *o != sid);
                }
                let t = self.icc_view().stopped_observing(sid, g);
                self.parts.net.send(sid, &t);
                text.push_str(&format!("Removing game {g} from observation list.\n"));
            }
            if continuing {
                text.push_str(&braces);
                text.push('\n');
            }
            let board = self.parts.games.board_for(self.parts.net, number, sid);
            let prompt = self.parts.net.prompt();
            text.push_str(&format!("\n{creating}\n\n{braces}\n\n{board}\n{prompt}"));
            self.parts.net.send(sid, &text);
        }
        for (sid, t) in self.icc_view().game_started(number) {
            self.parts.net.send(sid, &t);
        }
        tracing::info!(game = number, "game started");
        for (follower, player) in self.parts.accounts.followers(self.parts.net, white, black) {
            self.cmd_observe(follower, &[player.as_str()]);
        }
        number
    }

    /// Send the current board of game `g` to players and observers.
    /// `quiet_prompt`: a session that gets the board without the prompt
    /// (the mover when the game is about to end).
    pub fn send_boards(&mut self, g: u32, quiet_prompt: Option<Sid>) {
        let Some(game) = self.parts.games.games.get(&g) else {
            return;
        };
        let mut targets: Vec<Sid> = [game.white.sid, game.black.sid]
            .into_iter()
            .flatten()
            .collect();
        targets.extend(game.observers.iter().copied());
        for sid in targets {
            let line = self.parts.games.board_for(self.parts.net, g, sid);
            if self.parts.net.icc() {
                // DGs first; the board line only for style 12.
                let mut text = self.icc_view().move_text(sid, g);
                if !line.is_empty() {
                    text.push('\n');
                    text.push_str(&line);
                    text.push('\n');
                }
                if Some(sid) != quiet_prompt {
                    text.push_str(self.parts.net.prompt());
                }
                self.parts.net.send(sid, &text);
                continue;
            }
            if Some(sid) == quiet_prompt {
                self.parts.net.send(sid, &format!("\n{line}\n"));
            } else {
                self.parts.net.notify(sid, &format!("{line}\n"));
            }
        }
    }

    /// End game `g`: result lines to players and observers, ratings, and the
    /// adjourned game stored when it was adjourned.
    pub fn end_game(&mut self, g: u32, end: End) {
        let Some(mut game) = self.parts.games.games.remove(&g) else {
            return;
        };
        if let (Some(w), Some(b)) = (game.white.sid, game.black.sid) {
            let mut notes = crate::offers::offer::Notes::new();
            self.dealing().remove_game_offers(w, b, &mut notes);
            self.dealing().flush_notes(notes);
        }
        let now = Instant::now();
        if let Some(j) = &self.parts.journal {
            let clocks = (
                game.clock.remaining(Color::White, now),
                game.clock.remaining(Color::Black, now),
            );
            j.ended(&game, end, clocks, self.parts.shutting_down);
        }
        game.clock.stop(now);
        let (text, score) = game.end_text(end);
        let flagged = |s: Option<Sid>| {
            s.and_then(|s| self.parts.net.sess(s))
                .is_some_and(|x| x.tourney)
        };
        let suffix = if flagged(game.white.sid) && flagged(game.black.sid) {
            result_suffix(game.base, game.inc, game.rated)
        } else {
            String::new()
        };
        let line = format!("{{{} {}}} {}{suffix}", game.title(), text, score);
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
                    let entry = self.parts.games.ratings.entry(key).or_default();
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
        if self.parts.net.icc() {
            let to: Vec<Sid> = [game.white.sid, game.black.sid]
                .into_iter()
                .flatten()
                .chain(game.observers.iter().copied())
                .collect();
            for sid in to {
                let text = self.icc_view().result_text(sid, &game, end);
                self.parts.net.send(sid, &text);
            }
        }
        for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let side = game.side(color).clone();
            let Some(sid) = side.sid else { continue };
            let opp = game.side(!color).name.clone();
            if let Some(s) = self.parts.net.sessions.get_mut(&sid) {
                s.game = None;
                s.last_terms = Some((opp.clone(), game.base, game.inc, game.rated, game.chess960));
                s.last_opponent = Some(opp);
            }
            let rl = rating_lines.get(i).cloned().unwrap_or_default();
            match end {
                End::LostConnection { who } if who == color => {}
                End::LostConnection { .. } => {
                    self.parts.net.reply(
                        sid,
                        &format!("Your opponent has lost contact or quit.\n{line}\n{rl}"),
                    );
                }
                _ => self.parts.net.notify(sid, &format!("{line}\n{rl}")),
            }
        }
        for o in std::mem::take(&mut game.observers) {
            if let Some(s) = self.parts.net.sessions.get_mut(&o) {
                s.observing.retain(|x| *x != g);
            }
            self.parts.net.notify(o, &format!("{line}\n"));
        }
        tracing::info!(game = g, result = %line, "game ended");
        // A tournament game goes to the director (on its next tick), never to storage.
        let tourney_game = match &mut self.parts.director {
            Some(d) if d.plays(g) => {
                d.ended.push((g, end, format!("{text} {score}")));
                true
            }
            _ => false,
        };
        let store = !tourney_game
            && (matches!(end, End::AdjournAgreed)
                || (matches!(end, End::LostConnection { .. }) && game.storable()));
        if store {
            game.white.sid = None;
            game.black.sid = None;
            self.parts.games.stored.retain(|s| {
                !(s.white.name.eq_ignore_ascii_case(&game.white.name)
                    && s.black.name.eq_ignore_ascii_case(&game.black.name))
            });
            self.parts.games.stored.push(game);
        }
    }

    /// A player of game `g` disconnected.
    pub fn player_lost_connection(&mut self, g: u32, sid: Sid) {
        let Some(color) = self
            .parts
            .games
            .games
            .get(&g)
            .and_then(|game| game.color_of(sid))
        else {
            return;
        };
        self.end_game(g, End::LostConnection { who: color });
    }

    /// With `auto_flag`: end games whose side to move has run out of time.
    pub fn check_flags(&mut self, now: Instant) {
        let mut flagged = Vec::new();
        for (n, game) in &self.parts.games.games {
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
