//! The session's side of the watcher (`watch/candidates.rs`): asking for the lists, reading their
//! rows into candidates, observing the chosen games, following their boards (played
//! games, relation 0, and examined ones, relation -2), analysing each new position on
//! its own time budget while wily has no game of its own (its own game always wins the
//! engine: the game's start stops the analysis), whispering or kibitzing each analysis
//! into its game (`xwhisper N` / `xkibitz N`, the `[talk]` noise filter and a per-game
//! rate limit), and saving each finished game with its analysis as annotated PGN.

use crate::input::{Action, BoardUpdate, SearchSpec, WatchRow};
use crate::state::{ActiveSearch, Bot, Purpose};
use crate::talk::{pv_text, white_score, Levels, Report};
use crate::watch::candidates::{Source, WatchGame};
use crate::watch::state::Observing;
use cozy_chess::{Board, Move};
use engine::Limits;
use std::time::{Duration, Instant};

/// The move that turns `from` into `to`, if one does.
fn move_between(from: &Board, to: &Board) -> Option<Move> {
    let mut found = None;
    from.generate_moves(|ms| {
        for m in ms {
            let mut b = from.clone();
            b.play_unchecked(m);
            if crate::play::game::same_position(&b, to) {
                found = Some(m);
                return true;
            }
        }
        false
    });
    found
}

fn has_moves(b: &Board) -> bool {
    let mut any = false;
    b.generate_moves(|_| {
        any = true;
        true
    });
    any
}

/// The PGN comment for an analysis: score from White's side, depth, time, line.
pub fn analysis_comment(root: &Board, r: &Report) -> String {
    let mut s = format!(
        "wily {}/{} {:.1}s",
        white_score(root, r.score),
        r.depth,
        r.time.as_secs_f64()
    );
    if !r.pv.is_empty() {
        s.push(' ');
        s.push_str(&pv_text(root, &r.pv));
    }
    s
}

/// The annotated PGN of a watched game.
pub fn watch_pgn(w: &WatchGame, site: &str) -> String {
    let result = w.result.clone().unwrap_or_else(|| "*".into());
    let event = if w.event.is_empty() {
        format!("observed {} game", w.source.word())
    } else {
        w.event.clone()
    };
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), event),
        ("Site".into(), site.to_string()),
        ("Date".into(), w.date.clone()),
        ("Round".into(), "-".into()),
        ("White".into(), w.white.clone()),
        ("Black".into(), w.black.clone()),
    ];
    if let Some(e) = w.white_elo {
        tags.push(("WhiteElo".into(), e.to_string()));
    }
    if let Some(e) = w.black_elo {
        tags.push(("BlackElo".into(), e.to_string()));
    }
    if w.base > 0 || w.increment > 0 {
        tags.push((
            "TimeControl".into(),
            crate::play::record::time_control(w.base, w.increment),
        ));
    }
    tags.push(("Annotator".into(), "wily".into()));
    let start = w.start.clone().unwrap_or_default();
    let ending = (!w.end_text.is_empty()).then_some(w.end_text.as_str());
    chess::pgn::write_game_ending(&tags, &start, &w.moves, &w.comments, &result, ending)
}

impl Observing {
    fn count_computers(&mut self, bot: &Bot, game: u32) {
        let Some(c) = self.watch.candidates.get(&game) else {
            return;
        };
        let (w, b) = (c.white.clone(), c.black.clone());
        let n = u32::from(bot.computer(&w)) + u32::from(bot.computer(&b));
        if let Some(c) = self.watch.candidates.get_mut(&game) {
            c.computers = n;
        }
    }

    /// A row of one of the lists.
    pub(crate) fn watch_row(
        &mut self,
        bot: &mut Bot,
        own: Option<u32>,
        row: WatchRow,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        if !self.watch.enabled() {
            return;
        }
        match row {
            WatchRow::Game(r) => {
                let me = bot.conn.me.clone();
                self.watch.listed(&r, &me);
                self.count_computers(bot, r.game);
            }
            WatchRow::GamesEnd { .. } => {
                self.watch.listing_ended();
                self.watch_choose(bot, own, now, out);
            }
            WatchRow::RelayHeader(e) => self.watch.relay_header(&e),
            WatchRow::Relay(r) => {
                if self.watch.relayed(&r) {
                    out.push(Action::Send(format!("unobserve {}", r.game)));
                    self.watch_end(bot, own, r.game, now, out);
                } else {
                    self.count_computers(bot, r.game);
                    self.watch_choose(bot, own, now, out);
                }
            }
            WatchRow::TourneyHeader => self.watch.tourney_header(),
            WatchRow::Tourney(r) => {
                let t = self.watch.tourney_current;
                self.watch.tourney_game(&r, t);
                if let Some(n) = r.game {
                    self.count_computers(bot, n);
                }
                self.watch_choose(bot, own, now, out);
            }
        }
    }

    /// Observe what the watcher chose (and drop what it replaces).
    fn watch_choose(
        &mut self,
        bot: &mut Bot,
        own: Option<u32>,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        if !bot.conn.connected || bot.quitting {
            return;
        }
        let followed: Vec<u32> = self.observer.games.keys().copied().collect();
        let (observe, drop) = self
            .watch
            .choose(now, |n| Some(n) == own || followed.contains(&n));
        for g in drop {
            out.push(Action::Send(format!("unobserve {g}")));
            out.push(Action::Commentary(format!(
                "watch: game {g} makes room for a better one"
            )));
            self.watch_end(bot, own, g, now, out);
        }
        for g in observe {
            out.push(Action::Send(format!("observe {g}")));
        }
    }

    /// Timer: the lists every `poll_secs`, and analysis when the engine is free.
    pub(crate) fn watch_tick(
        &mut self,
        bot: &mut Bot,
        own: Option<u32>,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        if !self.watch.enabled() || !bot.conn.connected || bot.quitting {
            return;
        }
        for cmd in self.watch.poll(now) {
            out.push(Action::Send(cmd));
        }
        self.watch_schedule(bot, own, now, out);
    }

    /// The server confirmed `observe N` for a game the watcher asked for.
    pub(crate) fn watch_started(&mut self, game: u32) {
        let date = chrono::Utc::now().format("%Y.%m.%d").to_string();
        self.watch.started(game, &date);
    }

    /// A board of a watched game.
    pub(crate) fn watch_board(
        &mut self,
        bot: &mut Bot,
        own: Option<u32>,
        u: BoardUpdate,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        let Some(w) = self.watch.games.get_mut(&u.game) else {
            return;
        };
        w.white = u.white.clone();
        w.black = u.black.clone();
        if w.base == 0 && w.increment == 0 {
            w.base = u.base;
            w.increment = u.increment;
        }
        match w.board.clone() {
            None => w.start = Some(u.board.clone()),
            Some(prev) if crate::play::game::same_position(&prev, &u.board) => return,
            Some(prev) => match move_between(&prev, &u.board) {
                Some(m) => {
                    w.moves.push(m);
                    w.comments.push(None);
                }
                None => {
                    // The examiner went back or jumped: the record starts again here.
                    tracing::info!(game = u.game, "watched game jumped; record restarted");
                    w.start = Some(u.board.clone());
                    w.moves.clear();
                    w.comments.clear();
                }
            },
        }
        w.waiting = has_moves(&u.board).then_some(now);
        w.board = Some(u.board);
        if matches!(bot.search.as_ref().map(|s| &s.purpose), Some(Purpose::Analyse { game }) if *game == u.game)
        {
            self.watch_interrupt(bot, now, out);
        }
        self.watch_schedule(bot, own, now, out);
    }

    /// Starts the next analysis when the engine is free and wily is not playing.
    pub(crate) fn watch_schedule(
        &mut self,
        bot: &mut Bot,
        own: Option<u32>,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        if own.is_some() || !bot.conn.connected {
            return;
        }
        let budget = Duration::from_millis(self.watch.cfg.analysis_ms);
        if let Some(s) = &bot.search {
            // A followed game's open-ended analysis yields once it had a budget's time.
            let follow = matches!(s.purpose, Purpose::Analyse { game } if !self.watch.has(game));
            if follow
                && self.watch.next_to_analyse().is_some()
                && now.saturating_duration_since(s.started) >= budget
            {
                self.finish_analysis(bot, now, out);
            } else {
                return;
            }
        }
        let Some(n) = self.watch.next_to_analyse() else {
            return;
        };
        let Some(w) = self.watch.games.get_mut(&n) else {
            return;
        };
        w.waiting = None;
        let Some(board) = w.board.clone() else {
            return;
        };
        let id = bot.new_search_id();
        bot.search = Some(ActiveSearch {
            id,
            purpose: Purpose::Analyse { game: n },
            root: board.clone(),
            since: now,
            started: now,
            source: crate::input::MoveSource::Search,
            last_report: None,
        });
        out.push(Action::StartSearch(Box::new(SearchSpec {
            id,
            board,
            history: Vec::new(),
            limits: Limits {
                movetime: Some(budget),
                ..Limits::default()
            },
            draw_score: 0,
            strength: None,
            swindle: true,
            new_game: false,
        })));
    }

    /// The running analysis of a watched game is cut short (its position changed):
    /// what it found so far is used, then it is stopped.
    fn watch_interrupt(&mut self, bot: &mut Bot, now: Instant, out: &mut Vec<Action>) {
        let Some(s) = bot.search.take() else {
            return;
        };
        out.push(Action::StopSearch { id: s.id });
        if let Purpose::Analyse { game } = s.purpose {
            self.watch_used(bot, game, &s, now, out);
        }
    }

    /// An analysis of a watched game ended on its own (its budget).
    pub(crate) fn watch_done(
        &mut self,
        bot: &mut Bot,
        own: Option<u32>,
        s: ActiveSearch,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        if let Purpose::Analyse { game } = s.purpose {
            self.watch_used(bot, game, &s, now, out);
        }
        self.watch_schedule(bot, own, now, out);
    }

    /// Books an analysis: the time, the PGN comment on the move that led to the
    /// analysed position, and the whisper/kibitz.
    fn watch_used(
        &mut self,
        bot: &Bot,
        game: u32,
        s: &ActiveSearch,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        let levels = Levels::watched(&self.watch.cfg, &bot.cfg.talk);
        let alone = self.watch.games.len() == 1 && self.observer.games.is_empty();
        let no_x = self.watch.no_x_talk;
        let spent = now.saturating_duration_since(s.started);
        self.watch.totals.analyses += 1;
        self.watch.totals.analysis_ms += spent.as_millis() as u64;
        let Some(w) = self.watch.games.get_mut(&game) else {
            return;
        };
        w.analyses += 1;
        w.analysis_time += spent;
        let Some(r) = &s.last_report else { return };
        // The analysed position is the game's current one, or the one just before a
        // move that interrupted it.
        let plies = w.moves.len();
        let at = match &w.board {
            Some(b) if crate::play::game::same_position(b, &s.root) => Some(plies),
            _ if plies >= 1 => Some(plies - 1),
            _ => None,
        };
        if let Some(p) = at.filter(|p| *p >= 1) {
            if let Some(c) = w.comments.get_mut(p - 1) {
                *c = Some(analysis_comment(&s.root, r));
            }
        }
        if !levels.heard(r.nodes) || !self.watch.may_talk(game, now) {
            return;
        }
        let Some(w) = self.watch.games.get_mut(&game) else {
            return;
        };
        let cmds = w.talker.on_move(now, levels, &s.root, r);
        for cmd in cmds {
            let Some((verb, text)) = cmd.split_once(' ') else {
                continue;
            };
            let line = if !no_x {
                format!("x{verb} {game} {text}")
            } else if alone {
                cmd.clone()
            } else {
                // Plain whisper goes to the primary game only: not said.
                continue;
            };
            w.talked += 1;
            self.watch.totals.talked += 1;
            out.push(Action::Send(line));
        }
    }

    /// Iterations of a watched game's analysis (levels 5 and 6).
    pub(crate) fn watch_iteration(
        &mut self,
        bot: &Bot,
        game: u32,
        root: &Board,
        r: &Report,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        let levels = Levels::watched(&self.watch.cfg, &bot.cfg.talk);
        if !levels.heard(r.nodes) || self.watch.no_x_talk {
            return;
        }
        if levels.level() < 5 || !self.watch.may_talk(game, now) {
            return;
        }
        let Some(w) = self.watch.games.get_mut(&game) else {
            return;
        };
        for cmd in w.talker.on_iteration(now, levels, root, r) {
            if let Some((verb, text)) = cmd.split_once(' ') {
                w.talked += 1;
                self.watch.totals.talked += 1;
                out.push(Action::SendTopical {
                    text: format!("x{verb} {game} {text}"),
                    game,
                    position: root.hash(),
                });
            }
        }
    }

    /// A watched game is over (end line, relay result, unobserved, replaced): its
    /// analysis stops and it is saved.
    pub(crate) fn watch_end(
        &mut self,
        bot: &mut Bot,
        own: Option<u32>,
        game: u32,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        if matches!(bot.search.as_ref().map(|s| &s.purpose), Some(Purpose::Analyse { game: g }) if *g == game)
        {
            self.watch_interrupt(bot, now, out);
        }
        let Some(w) = self.watch.remove(game) else {
            return;
        };
        out.push(Action::Commentary(format!(
            "watched game {game} ({} vs {}) ends: {} after {} moves, {} analyses, {} said",
            w.white,
            w.black,
            w.result.as_deref().unwrap_or("*"),
            w.moves.len(),
            w.analyses,
            w.talked
        )));
        if self.watch.cfg.save && (!w.moves.is_empty() || w.result.is_some()) {
            self.watch.totals.saved += 1;
            out.push(Action::SaveObserved(watch_pgn(&w, &bot.conn.site)));
        }
        self.watch_schedule(bot, own, now, out);
    }

    /// The end line of a watched played game.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn watch_game_end(
        &mut self,
        bot: &mut Bot,
        own: Option<u32>,
        game: u32,
        result: &str,
        text: &str,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        if let Some(w) = self.watch.games.get_mut(&game) {
            w.result = Some(result.to_string());
            w.end_text = text.to_string();
        }
        self.watch_end(bot, own, game, now, out);
    }

    /// A server answer `xwhisper: Command not found.` and the like.
    pub(crate) fn watch_command_unknown(&mut self, command: &str) {
        if matches!(command, "xwhisper" | "xkibitz") && !self.watch.no_x_talk {
            tracing::info!(
                "the server has no {command}: watched games are talked to only when alone"
            );
            self.watch.no_x_talk = true;
        }
    }

    /// Disconnected: what was recorded of the watched games is saved (result `*`).
    pub(crate) fn watch_disconnected(&mut self, bot: &Bot, out: &mut Vec<Action>) {
        for w in self.watch.disconnected() {
            if self.watch.cfg.save && !w.moves.is_empty() {
                self.watch.totals.saved += 1;
                out.push(Action::SaveObserved(watch_pgn(&w, &bot.conn.site)));
            }
        }
    }

    /// One line per watched game, for the status and the dashboard.
    pub fn watched_games(&self) -> Vec<String> {
        self.watch
            .games
            .values()
            .map(|w| {
                format!(
                    "{} {} vs {} ({}, score {}, {} moves, {} analyses, {} said)",
                    w.number,
                    w.white,
                    w.black,
                    match &w.source {
                        Source::Tourney(t) => format!("tourney {t}"),
                        s => s.word().to_string(),
                    },
                    w.score,
                    w.moves.len(),
                    w.analyses,
                    w.talked
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::fen::parse_fen;

    #[test]
    fn the_move_between_two_boards() {
        let a = Board::default();
        let b = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let m = move_between(&a, &b).unwrap();
        assert_eq!(chess::san::to_san(&a, m), "e4");
        assert!(move_between(&b, &a).is_none());
        assert!(has_moves(&a));
    }
}
