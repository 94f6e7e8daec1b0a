//! The server bot's state machine: [`Input`] in, [`Action`]s out, no sockets, no clocks
//! of its own (the caller passes `now`). Login → idle/seeking → playing | observing.
//!
//! This file is the entry point ([`Session::handle`]) and the dispatch: each input goes to
//! the concept that owns it, as a method of that concept's state with the shared part
//! passed in: wily's own game to [`Playing`](crate::play::state::Playing) (`play/`),
//! observed and watched games to [`Observing`](crate::watch::state::Observing) (`watch/`),
//! seeks and rematches to [`Matching`](crate::find::state::Matching) (`find/`), operator
//! tells to [`Operated`](crate::ops::command::Operated), public commands to
//! [`PublicLimits`](crate::public::parse::PublicLimits), finger notes to `ops/notes.rs`,
//! hooks to `ops/triggers.rs`. Login, challenges, tells, timers, shutdown, and what
//! follows one concept's event in another (after wily's game) are handled here. Nothing
//! below this file calls back into it.

use crate::find::challenge::{judge, ChallengeInfo};
use crate::find::state::PendingChallenge;
use crate::input::{Action, Challenge, EndKind, Input, ServerEvent};
use crate::ops::command::Operated;
use crate::ops::parse as operator;
use crate::play::handle::{report_of, Ended};
use crate::public::answers::Asked;
use crate::public::parse as public;
use crate::state::{sanitize, Purpose};
use engine::{SearchInfo, SearchResult};
use ics::Dialect;
use lists::{valid_handle, ServerTitles};
use std::time::{Duration, Instant};

pub use crate::input::{BoardUpdate, MoveSource, Relation};
pub use crate::state::{ActiveSearch, Session, Totals};

/// Wait this long after a challenge for the computer notice before deciding.
const CHALLENGE_GRACE: Duration = Duration::from_millis(150);
/// Answer a stranger's tells at most this often.
const STRANGER_GAP: Duration = Duration::from_secs(600);

impl Session {
    /// The one entry point: feed an input, get the actions to perform.
    pub fn handle(&mut self, input: Input, now: Instant) -> Vec<Action> {
        let mut out = Vec::new();
        // A challenge waits for its computer notice only until the next other server
        // event (or a tick after a short grace).
        // In a tournament, `You accept the challenge of X.` without an accept of wily's:
        // the server took it by itself (the director's `rmatch`); nothing is left to
        // decide.
        if let Input::Server(ServerEvent::YouAccepted { other }) = &input {
            if self.bot.tourney.takes_challenge(other)
                && self
                    .matching
                    .pending
                    .as_ref()
                    .is_some_and(|p| p.challenge.name.eq_ignore_ascii_case(other))
            {
                self.matching.pending = None;
            }
        }
        let other_server_event = matches!(&input, Input::Server(e)
            if !matches!(e, ServerEvent::IsComputer { .. }));
        if other_server_event {
            if let Some(p) = self.matching.pending.take() {
                self.decide_challenge(p.challenge, now, &mut out);
            }
        }
        match input {
            Input::Server(ev) => self.server_event(ev, now, &mut out),
            Input::Info { id, info } => self.search_info(id, info, now, &mut out),
            Input::Done { id, result } => self.search_done(id, result, now, &mut out),
            Input::Tick => self.tick(now, &mut out),
            Input::Shutdown { now: at_once } => self.shutdown(at_once, &mut out),
        }
        out
    }

    /// A search report: to the game's log and whispers while thinking or pondering, to
    /// the observed game's analysis while analysing.
    fn search_info(&mut self, id: u64, info: SearchInfo, now: Instant, out: &mut Vec<Action>) {
        let Some(s) = self.bot.search.as_mut().filter(|s| s.id == id) else {
            return;
        };
        if info.multipv > 1 {
            return;
        }
        let report = report_of(&info);
        s.last_report = Some(report.clone());
        let root = s.root.clone();
        match s.purpose {
            Purpose::Think { .. } => self
                .play
                .thinking_iteration(&self.bot, false, &root, &report, now, out),
            Purpose::Ponder { .. } => self
                .play
                .thinking_iteration(&self.bot, true, &root, &report, now, out),
            Purpose::Analyse { game } if self.observing.watch.has(game) => self
                .observing
                .watch_iteration(&self.bot, game, &root, &report, now, out),
            Purpose::Analyse { .. } => self
                .observing
                .analysis_iteration(&self.bot, &root, &report, now, out),
        }
    }

    fn server_event(&mut self, ev: ServerEvent, now: Instant, out: &mut Vec<Action>) {
        match ev {
            ServerEvent::LoggedIn { handle } => self.logged_in(handle, now, out),
            ServerEvent::Disconnected => self.disconnected(out),
            ServerEvent::Board(u) => match u.relation {
                Relation::MyMove | Relation::OpponentToMove => {
                    self.play.own_board(&mut self.bot, *u, now, out)
                }
                Relation::Observing | Relation::ObservingExamined
                    if self.observing.watch.has(u.game) =>
                {
                    self.observing
                        .watch_board(&mut self.bot, self.play.number(), *u, now, out)
                }
                Relation::Observing | Relation::ObservingExamined => {
                    self.observing
                        .observed_board(&mut self.bot, self.play.number(), *u, now, out)
                }
                // Examining, isolated and initial positions: nothing for the bot.
                Relation::Examining | Relation::IsolatedPosition | Relation::InitialPosition => {}
            },
            ServerEvent::Creating {
                white,
                black,
                white_rating,
                black_rating,
            } => {
                for (n, r) in [(white, white_rating), (black, black_rating)] {
                    if let Some(r) = r {
                        self.bot.players.remember_rating(&n, r);
                    }
                }
            }
            ServerEvent::GameStart {
                game,
                white,
                black,
                continuing,
                rated,
                category,
            } => self.play.game_start(
                &mut self.bot,
                game,
                white,
                black,
                continuing,
                rated,
                category,
                now,
                out,
            ),
            ServerEvent::GameEnd {
                game,
                white,
                black,
                result,
                kind,
                text,
            } => {
                let ended = self.play.game_end(
                    &mut self.bot,
                    game,
                    &white,
                    &black,
                    &result,
                    kind,
                    &text,
                    now,
                    out,
                );
                if let Some(e) = ended {
                    self.after_game(e, now, out);
                } else if self.observing.watch.has(game) {
                    self.observing.watch_game_end(
                        &mut self.bot,
                        self.play.number(),
                        game,
                        &result,
                        &text,
                        now,
                        out,
                    );
                } else if self.observing.observer.has(game) {
                    self.observing
                        .observed_end(&mut self.bot, game, &result, &text, now, out);
                }
            }
            ServerEvent::Challenge(c) => {
                if let Some(r) = c.rating {
                    self.bot.players.remember_rating(&c.name, r);
                }
                self.bot.players.remember_titles(&c.name, c.titles);
                self.matching.pending = Some(PendingChallenge {
                    challenge: c,
                    at: now,
                });
            }
            ServerEvent::IsComputer { name } => {
                self.bot.players.remember_titles(
                    &name,
                    ServerTitles {
                        computer: true,
                        ..ServerTitles::default()
                    },
                );
                if let Some(p) = &mut self.matching.pending {
                    if p.challenge.name.eq_ignore_ascii_case(&name) {
                        p.challenge.titles.computer = true;
                    }
                }
            }
            ServerEvent::Offer { from, kind } => self.play.offer(&self.bot, &from, kind, out),
            ServerEvent::Tell { from, titles, text } => {
                self.bot.players.remember_titles(&from, titles);
                self.tell(&from, &text, now, out);
            }
            ServerEvent::FingerNotes { name, notes } => {
                self.notes.finger_notes(&self.bot, &name, &notes, out)
            }
            ServerEvent::Arrival { name, adjourned } => {
                let ours = self
                    .play
                    .resume
                    .adjourned
                    .as_ref()
                    .is_some_and(|g| g.opponent().eq_ignore_ascii_case(&name));
                if adjourned && valid_handle(&name) {
                    self.play.resume.hint = true;
                }
                // While `stored` is out, the game may have ended: no `match` yet.
                if (adjourned || ours)
                    && self.play.game.is_none()
                    && self.play.resume.stored_check.is_none()
                    && valid_handle(&name)
                {
                    out.push(Action::Send(format!("match {name}")));
                }
            }
            ServerEvent::AdjournedOnline { names } => {
                // lasker names at login the players online with an adjourned game with
                // us (and says nothing like `You have N adjourned games.`): ask one of
                // them, the opponent of the game wily knows of first, to resume.
                let ours = self
                    .play
                    .resume
                    .adjourned
                    .as_ref()
                    .map(|g| g.opponent().to_string());
                let pick = names
                    .iter()
                    .find(|n| ours.as_deref().is_some_and(|o| o.eq_ignore_ascii_case(n)))
                    .or_else(|| names.iter().find(|n| valid_handle(n)));
                if let Some(name) = pick.filter(|n| valid_handle(n)) {
                    self.play.resume.hint = true;
                    if self.play.game.is_none() && !self.play.resume.asked {
                        self.ask_resume(format!("match {name}"), now, out);
                    }
                }
            }
            ServerEvent::Titles { name, titles } => self.bot.players.remember_titles(&name, titles),
            ServerEvent::PlayersTitles(players) => {
                for (name, titles) in players {
                    self.bot.players.remember_titles(&name, titles);
                }
            }
            ServerEvent::AdjournedGames { count } => {
                if count > 0 {
                    self.play.resume.hint = true;
                }
                // After a restart wily does not know its adjourned games; the server
                // does: ask it to resume one with a player who is online.
                if count > 0
                    && self.play.game.is_none()
                    && self.play.resume.adjourned.is_none()
                    && !self.play.resume.asked
                {
                    self.ask_resume("resume".into(), now, out);
                }
            }
            ServerEvent::StoredGames { player, games } => {
                let recorded = self.play.stored_games(&mut self.bot, &player, &games, out);
                if let Some(last) = recorded {
                    if last {
                        self.shutdown(false, out);
                    }
                    self.maybe_seek(now, true, out);
                }
            }
            ServerEvent::IllegalMove { text } => self.play.illegal_move(&text, out),
            ServerEvent::NotYourMove => self.play.illegal_move("It is not your move.", out),
            ServerEvent::ObserveStarted { game } if self.observing.watch.awaiting(game) => {
                self.observing.watch_started(game)
            }
            ServerEvent::ObserveStarted { game } => self.observing.observer.started(game),
            ServerEvent::ObserveStopped { game } if self.observing.watch.has(game) => self
                .observing
                .watch_end(&mut self.bot, self.play.number(), game, now, out),
            ServerEvent::ObserveStopped { game } => {
                self.observing
                    .observe_stopped(&mut self.bot, game, now, out)
            }
            ServerEvent::Watch(row) => {
                self.observing
                    .watch_row(&mut self.bot, self.play.number(), row, now, out)
            }
            ServerEvent::CommandNotFound { command } => {
                self.observing.watch_command_unknown(&command)
            }
            ServerEvent::FollowList { names } => {
                let wanted = self.observing.observer.followed();
                let cmds = self.observing.follow.members(&wanted, &names);
                out.extend(cmds.into_iter().map(Action::Send));
            }
            ServerEvent::FollowChanged { name, present } => {
                let wanted = self.observing.observer.followed();
                let cmds = self.observing.follow.changed(&wanted, &name, present);
                out.extend(cmds.into_iter().map(Action::Send));
            }
            ServerEvent::NoFollowList => {
                let wanted = self.observing.observer.followed();
                let cmds = self.observing.follow.no_list(&wanted);
                out.extend(cmds.into_iter().map(Action::Send));
            }
            ServerEvent::Tourney(n) => self.tourney_notice(&n, now, out),
            ServerEvent::YouAccepted { .. } => {}
            ServerEvent::SettingRefused { name } => {
                self.bot.conn.setting_refused(&self.bot.cfg, &name)
            }
            ServerEvent::SeekRefused { text } => {
                let held = self.play.holds_seeks(now);
                self.matching.seek_refused(&self.bot, held, &text, now, out)
            }
            ServerEvent::TakenOver { text } => {
                tracing::warn!("{text}: another login of this account took over");
                out.push(Action::Commentary(
                    "another login of this account took over this session".into(),
                ));
                self.bot.conn.taken_over = true;
            }
        }
    }

    /// A search ended: wily's move, or a watched game's analysis booked.
    fn search_done(&mut self, id: u64, result: SearchResult, now: Instant, out: &mut Vec<Action>) {
        if self.bot.search.as_ref().is_none_or(|s| s.id != id) {
            return; // a stopped or superseded search
        }
        let Some(s) = self.bot.search.take() else {
            return;
        };
        if matches!(s.purpose, Purpose::Think { .. }) {
            self.play.think_ms += now.saturating_duration_since(s.started).as_millis() as u64;
        }
        match s.purpose {
            Purpose::Think { game } => {
                self.play
                    .play_result(&mut self.bot, game, s, result, now, out)
            }
            Purpose::Ponder { .. } => {}
            Purpose::Analyse { game } if self.observing.watch.has(game) => self
                .observing
                .watch_done(&mut self.bot, self.play.number(), s, now, out),
            Purpose::Analyse { .. } => {}
        }
    }

    /// After wily's game ended: leave (the run's last game, or a shutdown waiting for
    /// it), ask for a game the server holds adjourned, offer a rematch, seek again.
    fn after_game(&mut self, e: Ended, now: Instant, out: &mut Vec<Action>) {
        if e.last {
            self.shutdown(false, out);
        }
        if self.bot.quitting {
            // The run's last game has already said so (`shutdown`).
            if !matches!(out.last(), Some(Action::Quit)) {
                out.push(Action::Quit);
            }
            return;
        }
        if self.play.resume.hint && e.kind != EndKind::Adjourned {
            // A game the server reported adjourned is still waiting (another game started
            // first): ask for it before seeking again.
            out.push(Action::Send("resume".into()));
        }
        self.matching
            .maybe_rematch(&self.bot, &e.opponent, e.kind, now, out);
        if self.bot.cfg.seek.reseek_after_game {
            self.maybe_seek(now, true, out);
        }
    }

    /// A public command from `from`, answered from the whole bot's state (`public/`).
    fn public_command(&mut self, cmd: public::PublicCommand, from: &str, out: &mut Vec<Action>) {
        let asked = Asked {
            bot: &mut self.bot,
            play: &self.play,
            matching: &self.matching,
            observing: &self.observing,
            evaluation: &self.notes.eval,
        };
        self.public.answer(asked, cmd, from, out);
    }

    /// Posts the seek ads when due (`force`: now), unless a game is on or an adjourned
    /// one is awaited.
    pub(crate) fn maybe_seek(&mut self, now: Instant, force: bool, out: &mut Vec<Action>) {
        let held = self.play.holds_seeks(now);
        self.matching.maybe_seek(&self.bot, held, now, force, out);
    }

    fn logged_in(&mut self, handle: String, now: Instant, out: &mut Vec<Action>) {
        tracing::info!("logged in as {handle}");
        self.bot.conn.me = handle;
        self.bot.conn.connected = true;
        self.matching.last_seek = None;
        // A game interrupted by the disconnect is adjourned (or lost) on the server.
        if let Some(g) = self.play.game.take() {
            self.play.resume.park(g, now);
        }
        self.play.reclaim_interrupted(now, out);
        let wanted = self.observing.observer.followed();
        for cmd in self.observing.follow.login(&wanted) {
            out.push(Action::Send(cmd));
        }
        for cmd in self.observing.observer.login_commands(now) {
            out.push(Action::Send(cmd));
        }
        for cmd in self.bot.tourney.login(now) {
            out.push(Action::Send(cmd));
        }
        // Guests' tells are heard only with `set tell 1` (FICS, lasker), and the public
        // commands answer guests too.
        let p = &self.bot.cfg.public;
        if p.enabled && p.guests && self.bot.cfg.server.dialect == Dialect::Fics {
            out.push(Action::Send("set tell 1".into()));
        }
        self.notes.notes_login(&self.bot, out);
        let playing = self.play.game.is_some();
        let b = &mut self.bot;
        b.hooks.login(&b.cfg.hooks, &b.conn, playing, now, out);
        self.maybe_seek(now, true, out);
    }

    /// A director's notice: the manager decides; a join takes back the seek ad (the
    /// tournament's pairings must find the account free).
    fn tourney_notice(
        &mut self,
        n: &ics::tourney::TourneyNotice,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        let me = self.bot.conn.me.clone();
        let cmds = if self.bot.quitting {
            Vec::new()
        } else {
            self.bot.tourney.notice(n, &me, now)
        };
        if !cmds.is_empty()
            && self.bot.tourney.blocks_seeking()
            && self.matching.last_seek.take().is_some()
        {
            out.push(Action::Send("unseek".into()));
        }
        out.extend(cmds.into_iter().map(Action::Send));
    }

    /// Asks the server for an adjourned game it reported (`resume`, or `match NAME` for a
    /// player online with one), once per connection. The login's seek went out just
    /// before the server's notice: it is taken back, or an opponent may start a new game
    /// in place of this one, and new seeks wait a while for the game.
    fn ask_resume(&mut self, request: String, now: Instant, out: &mut Vec<Action>) {
        self.play.resume.asked = true;
        self.play.resume.wait = Some(now);
        if self.matching.last_seek.take().is_some() {
            out.push(Action::Send("unseek".into()));
        }
        out.push(Action::Send(request));
    }

    fn disconnected(&mut self, out: &mut Vec<Action>) {
        if self.bot.conn.connected {
            tracing::warn!("disconnected from the server");
        }
        self.bot.conn.connected = false;
        self.play.resume.disconnected();
        self.matching.pending = None;
        self.bot.stop_search(out);
        self.observing.observer.clear();
        self.observing.watch_disconnected(&self.bot, out);
    }

    fn decide_challenge(&mut self, c: Challenge, now: Instant, out: &mut Vec<Action>) {
        if !valid_handle(&c.name) || self.bot.is_me(&c.name) {
            tracing::warn!("ignoring a challenge from an odd name {:?}", c.name);
            return;
        }
        if self.play.game.is_none() && self.bot.tourney.takes_challenge(&c.name) {
            tracing::info!("accepting {}'s challenge: a tournament pairing", c.name);
            out.push(Action::SendNow(format!("accept {}", c.name)));
            return;
        }
        let titles = self.bot.players.titles_of(&c.name).merge(c.titles);
        let class = self.bot.lists.classify(&c.name, titles);
        let kind = c.variant.clone().unwrap_or_else(|| c.kind.clone());
        let info = ChallengeInfo {
            name: c.name.clone(),
            rating: c.rating,
            registered: c.registered,
            category: class.category,
            rated: c.rated,
            kind,
            base: c.base,
            increment: c.increment,
            other_clock: c.other_clock,
            adjourned: c.adjourned,
        };
        let mut accept = self.bot.cfg.accept.clone();
        accept.enabled = self.matching.accepting && !self.bot.quitting;
        self.matching
            .widen_for_own_ad(&self.bot, &c, &info.kind, &mut accept);
        let busy = self.play.game.is_some();
        match judge(&info, &accept, &self.bot.players.history, busy, now) {
            Ok(()) => {
                tracing::info!(
                    "accepting {} {} {} {} from {} ({})",
                    if c.rated { "rated" } else { "unrated" },
                    c.kind,
                    c.base,
                    c.increment,
                    c.name,
                    class.category
                );
                out.push(Action::SendNow(format!("accept {}", c.name)));
            }
            Err(reason) => {
                tracing::info!("declining {} from {}: {:?}", c.kind, c.name, reason);
                self.play.totals.declined += 1;
                if let Some(msg) = reason.message(&self.bot.cfg.accept.decline, &c.name) {
                    out.push(Action::Send(format!("tell {} {}", c.name, sanitize(&msg))));
                }
                out.push(Action::Send(format!("decline {}", c.name)));
                out.push(Action::Commentary(format!(
                    "declined a challenge from {} ({reason:?})",
                    c.name
                )));
            }
        }
    }

    fn tell(&mut self, from: &str, text: &str, now: Instant, out: &mut Vec<Action>) {
        if !valid_handle(from) || self.bot.is_me(from) {
            return;
        }
        let operator = self
            .bot
            .cfg
            .operators
            .handles
            .iter()
            .any(|h| h.eq_ignore_ascii_case(from));
        if operator {
            tracing::info!("operator {from}: {text}");
            let reply = match operator::parse(text) {
                Ok(cmd) => Operated {
                    bot: &mut self.bot,
                    play: &mut self.play,
                    matching: &mut self.matching,
                    observing: &mut self.observing,
                }
                .run(cmd, now, out),
                // An operator may use the public commands too (no rate limit).
                Err(_)
                    if public::parse(text)
                        .is_some_and(|c| self.bot.cfg.public.allows(c.word())) =>
                {
                    if let Some(cmd) = public::parse(text) {
                        self.public_command(cmd, from, out);
                    }
                    return;
                }
                Err(e) => format!("{e}. {}", operator::HELP),
            };
            for line in reply.lines() {
                out.push(Action::Send(format!("tell {from} {}", sanitize(line))));
            }
            return;
        }
        let guest_heard =
            self.bot.cfg.public.guests || !from.to_ascii_lowercase().starts_with("guest");
        if let Some(cmd) = public::parse(text).filter(|c| self.bot.cfg.public.allows(c.word())) {
            if !guest_heard {
                tracing::debug!(
                    "public {} from guest {from} ignored (public.guests = false)",
                    cmd.word()
                );
                return;
            }
            let p = &self.bot.cfg.public;
            let (per_handle, all) = (p.per_handle_per_minute, p.per_minute);
            if self.public.allow(from, now, per_handle, all) {
                self.public_command(cmd, from, out);
            } else {
                tracing::debug!(
                    "public {} from {from} over the rate limit; ignored",
                    cmd.word()
                );
            }
            return;
        }
        tracing::debug!("tell from {from} (not an operator) ignored");
        let reply = self.bot.cfg.operators.stranger_reply.trim();
        if reply.is_empty() {
            return;
        }
        let key = from.to_ascii_lowercase();
        let recent = self
            .bot
            .players
            .strangers
            .get(&key)
            .is_some_and(|t| now.saturating_duration_since(*t) < STRANGER_GAP);
        if recent {
            return;
        }
        if self.bot.players.strangers.len() > 1000 {
            self.bot.players.strangers.clear();
        }
        self.bot.players.strangers.insert(key, now);
        out.push(Action::Send(format!("tell {from} {}", sanitize(reply))));
    }

    fn tick(&mut self, now: Instant, out: &mut Vec<Action>) {
        if let Some(p) = &self.matching.pending {
            if now.saturating_duration_since(p.at) >= CHALLENGE_GRACE {
                if let Some(p) = self.matching.pending.take() {
                    self.decide_challenge(p.challenge, now, out);
                }
            }
        }
        self.play.flag_check(now, out);
        self.play.idle_abort_check(&self.bot, now, out);
        self.play.stored_wait_over(now, out);
        if self.bot.conn.connected && !self.bot.quitting {
            for cmd in self.bot.tourney.tick(now, self.play.game.is_none()) {
                out.push(Action::Send(cmd));
            }
        }
        self.maybe_seek(now, false, out);
        let active = self.bot.conn.connected && self.play.game.is_none() && !self.bot.quitting;
        let b = &mut self.bot;
        b.hooks.idle(&b.cfg.hooks, &b.conn, active, now, out);
        if self.play.game.is_none() && self.bot.conn.connected && !self.bot.quitting {
            let fics = self.bot.cfg.server.dialect == Dialect::Fics;
            for cmd in self.observing.observer.idle_commands(now, fics) {
                out.push(Action::Send(cmd));
            }
        }
        self.observing
            .watch_tick(&mut self.bot, self.play.number(), now, out);
        if self.finished() {
            out.push(Action::Quit);
        }
    }

    /// Leaves: out of any tournament at once, then now (`at_once`, or no game) or after
    /// the game in progress (an adjournment offered).
    pub(crate) fn shutdown(&mut self, at_once: bool, out: &mut Vec<Action>) {
        if self.bot.conn.connected {
            // Leave any tournament at once: its later rounds must not wait for wily.
            for cmd in self.bot.tourney.withdraw() {
                out.push(Action::Send(cmd));
            }
        }
        if at_once || self.play.game.is_none() || !self.bot.conn.connected {
            self.bot.quitting = true;
            self.bot.stop_search(out);
            if self.bot.conn.connected && self.matching.seeking {
                out.push(Action::Send("unseek".into()));
            }
            if let Some(g) = &self.play.game {
                if at_once {
                    // Leaving mid-game: ask for an adjournment; the server adjourns or
                    // scores the game when the connection closes.
                    out.push(Action::SendNow("adjourn".into()));
                    tracing::warn!("quitting during game {}", g.number);
                }
            }
            out.push(Action::Quit);
            return;
        }
        if !self.bot.quitting {
            self.bot.quitting = true;
            tracing::info!("shutdown requested: finishing the current game first");
            out.push(Action::Commentary(
                "shutdown requested: finishing the current game (adjournment offered)".into(),
            ));
            if self.matching.seeking {
                out.push(Action::Send("unseek".into()));
            }
            out.push(Action::SendNow("adjourn".into()));
        }
    }
}
