//! Playing a game: the session's handling of its own game's board updates, searches,
//! moves (book, ponder hit, search), draw/resign/abort decisions, offers, illegal-move
//! recovery, flagging, and the end of the game.

use crate::input::{Action, BoardUpdate, EndKind, MoveSource, OfferKind, Relation, SearchSpec};
use crate::play::game::{same_position, PlayedGame, StartInfo, Sync};
use crate::play::opponent::OpponentProfile;
use crate::play::policy::{GamePolicy, MATE_CP};
use crate::play::record::search_comment;
use crate::state::{sanitize, ActiveSearch, Purpose, Session};
use crate::talk::{Levels, Report, TalkBound, TalkScore, Talker};
use chess::san::to_ics_move;
use cozy_chess::{Board, Color};
use engine::time::TimeManager;
use engine::{Bound, Limits, Score, SearchInfo, SearchResult};
use std::time::{Duration, Instant};

/// Thinking time in untimed games.
const UNTIMED_MOVE: Duration = Duration::from_secs(5);
/// Do not repeat `flag` more often than this.
const FLAG_GAP: Duration = Duration::from_millis(1000);

/// A score as one number from the side to move (mates as ±[`MATE_CP`] minus the distance).
pub fn score_cp(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => MATE_CP - n,
        Score::Mate(n) => -MATE_CP - n,
    }
}

/// The talk module's view of a search report.
pub fn report_of(info: &SearchInfo) -> Report {
    Report {
        depth: info.depth,
        seldepth: info.seldepth,
        score: talk_score(info.score),
        bound: match info.bound {
            Bound::Exact => TalkBound::Exact,
            Bound::Lower => TalkBound::Lower,
            Bound::Upper => TalkBound::Upper,
        },
        nodes: info.nodes,
        nps: info.nps,
        time: info.time,
        hashfull: info.hashfull,
        pv: info.pv.clone(),
    }
}

pub fn talk_score(s: Score) -> TalkScore {
    match s {
        Score::Cp(c) => TalkScore::Cp(c),
        Score::Mate(n) => TalkScore::Mate(n),
    }
}

/// Search limits from the update's clocks (milliseconds).
fn limits_for(u: &BoardUpdate, ponder: bool, depth_limit: u32) -> Limits {
    let mut l = Limits::default();
    if u.timed() {
        let ms = |v: i64| Some(Duration::from_millis(v.max(1) as u64));
        l.wtime = ms(u.white_ms);
        l.btime = ms(u.black_ms);
        let inc = Some(Duration::from_secs(u.increment as u64));
        l.winc = inc;
        l.binc = inc;
    } else {
        l.movetime = Some(UNTIMED_MOVE);
    }
    if depth_limit > 0 {
        l.depth = Some(depth_limit);
    }
    l.ponder = ponder;
    l
}

impl Session {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn game_start(
        &mut self,
        game: u32,
        white: String,
        black: String,
        continuing: bool,
        rated: bool,
        category: String,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        if !self.is_me(&white) && !self.is_me(&black) {
            return;
        }
        // Whatever starts now, the wait for a reported adjourned game is over.
        self.resume.wait = None;
        if continuing {
            self.resume.hint = false;
        }
        if matches!(
            self.search.as_ref().map(|s| &s.purpose),
            Some(Purpose::Analyse { .. })
        ) {
            self.stop_search(out);
        }
        let opponent = if self.is_me(&white) { &black } else { &white };
        self.tourney.game_started(opponent, now);
        if !continuing {
            let (opp, wily_white) = (opponent.clone(), self.is_me(&white));
            self.game_hooks(game, &opp, wily_white, rated, None, now, out);
            self.players.history.record(opponent, now);
            let hello = self.cfg.talk.greeting.replace("{opponent}", opponent);
            if !hello.trim().is_empty() {
                // With the moves, not behind the rate-limited chat: the greeting goes out
                // before the first move and its whisper (which travel the same way).
                out.push(Action::SendNow(format!("say {}", sanitize(&hello))));
            }
        }
        out.push(Action::GameLogOpen {
            game,
            white: white.clone(),
            black: black.clone(),
        });
        out.push(Action::Commentary(format!(
            "game {game} {}: {white} vs {black}, {} {category}",
            if continuing { "resumes" } else { "starts" },
            if rated { "rated" } else { "unrated" },
        )));
        self.play.start_info = Some(StartInfo {
            game,
            white,
            black,
            rated,
            category,
        });
    }

    fn make_game(&mut self, u: &BoardUpdate) -> PlayedGame {
        let me = if self.is_me(&u.white) {
            Color::White
        } else if self.is_me(&u.black) {
            Color::Black
        } else if u.relation == Relation::MyMove {
            u.board.side_to_move()
        } else {
            !u.board.side_to_move()
        };
        if let Some(mut g) = self.resume.adjourned.take() {
            if g.white.eq_ignore_ascii_case(&u.white) && g.black.eq_ignore_ascii_case(&u.black) {
                tracing::info!("resuming the adjourned game against {}", g.opponent());
                g.number = u.game;
                g.sent = None;
                g.expected_reply = None;
                return g;
            }
            self.resume.adjourned = Some(g);
        }
        let opponent = if me == Color::White {
            &u.black
        } else {
            &u.white
        };
        let titles = self
            .players
            .titles
            .get(&opponent.to_ascii_lowercase())
            .copied()
            .unwrap_or_default();
        let class = self.lists.classify(opponent, titles);
        let rating = self
            .players
            .ratings
            .get(&opponent.to_ascii_lowercase())
            .copied();
        let profile = OpponentProfile::new(class, &self.cfg.opponents)
            .with_strength(&self.cfg.strength, rating);
        tracing::info!("opponent {opponent}: {}", profile.describe());
        let policy = GamePolicy::new(profile, &self.cfg.opponents);
        let talker = Talker::new(self.cfg.talk.max_per_minute);
        let mut g = PlayedGame::new(u, me, policy, talker);
        g.autokibitz = class.autokibitz;
        if let Some(si) = self.play.start_info.take() {
            if si.game == u.game {
                g.rated = si.rated;
                g.category = si.category;
            }
        }
        g.white_elo = self
            .players
            .ratings
            .get(&u.white.to_ascii_lowercase())
            .copied();
        g.black_elo = self
            .players
            .ratings
            .get(&u.black.to_ascii_lowercase())
            .copied();
        self.play.new_game_flag = true;
        g
    }

    /// A board update of wily's own game.
    pub(crate) fn own_board(&mut self, u: BoardUpdate, now: Instant, out: &mut Vec<Action>) {
        if self.play.game.as_ref().is_some_and(|g| g.number != u.game) {
            tracing::warn!(
                "board of game {} while game {} was in progress; its end was not seen",
                u.game,
                self.play.game.as_ref().map_or(0, |g| g.number)
            );
            self.stop_search(out);
            if let Some(old) = self.play.game.take() {
                let f = old.finish(&self.conn.site, "*", EndKind::Other, "end not seen");
                out.push(Action::GameOver(Box::new(f)));
            }
        }
        if self.play.game.is_none() {
            if matches!(
                self.search.as_ref().map(|s| &s.purpose),
                Some(Purpose::Analyse { .. })
            ) {
                self.stop_search(out);
            }
            let g = self.make_game(&u);
            self.play.game = Some(g);
        }
        let Some(g) = self.play.game.as_mut() else {
            return;
        };
        let sync = g.sync(&u);
        match sync {
            Sync::Moved(mv) => {
                if g.sent == Some(mv) {
                    g.sent = None;
                    g.illegal_replies = 0;
                }
                if let Some(line) = move_commentary(g) {
                    out.push(Action::GameLog(line.clone()));
                    out.push(Action::Commentary(line));
                }
            }
            Sync::Resynced => {
                out.push(Action::GameLog(
                    "position re-synchronised from the server".into(),
                ));
                self.stop_search(out);
            }
            Sync::TakenBack(n) => {
                out.push(Action::GameLog(format!("{n} half-move(s) taken back")));
                self.stop_search(out);
            }
            Sync::Same => {}
        }
        if u.relation == Relation::MyMove {
            self.my_turn(&u, sync, now, out);
        } else {
            self.their_turn(&u, out);
        }
        self.flag_check(now, out);
    }

    fn my_turn(&mut self, u: &BoardUpdate, sync: Sync, now: Instant, out: &mut Vec<Action>) {
        let Some(g) = self.play.game.as_mut() else {
            return;
        };
        if !g.my_move() {
            return;
        }
        if sync == Sync::Same && g.sent.is_some() {
            return; // a repeated board while our move is on its way
        }
        g.sent = None;
        if let Some(s) = &mut self.search {
            match s.purpose.clone() {
                Purpose::Ponder { game, predicted }
                    if game == u.game
                        && sync == Sync::Moved(predicted)
                        && same_position(&s.root, g.board()) =>
                {
                    s.purpose = Purpose::Think { game };
                    s.since = u.received;
                    // As Crafty: when pondering already used this move's time, move now.
                    let limits = limits_for(u, false, self.cfg.engine.depth_limit);
                    let overhead = Duration::from_millis(self.cfg.engine.move_overhead_ms);
                    let spent =
                        TimeManager::new(&limits, u.board.side_to_move(), overhead, s.started)
                            .soft()
                            .is_some_and(|soft| now.saturating_duration_since(s.started) >= soft);
                    s.source = if spent {
                        MoveSource::PonderHit
                    } else {
                        MoveSource::PonderThenSearch
                    };
                    out.push(if spent {
                        Action::Finish { id: s.id }
                    } else {
                        Action::PonderHit { id: s.id }
                    });
                    out.push(Action::GameLog(format!(
                        "ponder hit ({})",
                        u.last_move_san.as_deref().unwrap_or("?")
                    )));
                    return;
                }
                Purpose::Think { game } if game == u.game && sync == Sync::Same => return,
                _ => {}
            }
        }
        self.stop_search(out);
        let limits = limits_for(u, false, self.cfg.engine.depth_limit);
        let Some(g) = self.play.game.as_mut() else {
            return;
        };
        if g.claimable_now() && g.policy.claim_draw() {
            out.push(Action::SendNow("draw".into()));
            out.push(Action::GameLog("claiming a draw".into()));
        }
        if self.cfg.engine.book && g.plies() < 80 && g.book_allowed() {
            let width = g.policy.profile().book_width;
            if let Some(pick) = self.book.pick(g.board(), width) {
                if g.board().is_legal(pick.mv) {
                    let text = to_ics_move(g.board(), pick.mv);
                    out.push(Action::Expire { game: g.number });
                    out.push(Action::SendMove {
                        text,
                        since: u.received,
                        source: MoveSource::Book,
                    });
                    let root = g.board().clone();
                    let levels = Levels::played(&self.cfg.talk, g.autokibitz);
                    for cmd in g
                        .talker
                        .on_book(now, levels, &root, pick.mv, &pick.candidates)
                    {
                        out.push(Action::SendNow(cmd));
                    }
                    out.push(Action::GameLog(format!(
                        "book move{} ({})",
                        if pick.searched {
                            ", chosen by a search"
                        } else {
                            ""
                        },
                        pick.candidates
                    )));
                    g.sent = Some(pick.mv);
                    g.expected_reply = None;
                    g.pending_comment = Some("book".into());
                    g.pending_search = Some(None);
                    return;
                }
            }
        }
        let spec = SearchSpec {
            id: 0,
            board: g.board().clone(),
            history: g.history().to_vec(),
            limits,
            draw_score: g.policy.profile().draw_score,
            strength: g.policy.profile().strength,
            swindle: g.policy.profile().swindle,
            new_game: std::mem::take(&mut self.play.new_game_flag),
        };
        self.start(spec, Purpose::Think { game: u.game }, u.received, out);
    }

    fn their_turn(&mut self, u: &BoardUpdate, out: &mut Vec<Action>) {
        if !self.cfg.engine.ponder || self.search.is_some() {
            return;
        }
        let limits = limits_for(u, true, self.cfg.engine.depth_limit);
        let Some(g) = self.play.game.as_mut() else {
            return;
        };
        if g.my_move() || g.sent.is_some() {
            return;
        }
        let Some(predicted) = g.expected_reply.take() else {
            return;
        };
        if !g.board().is_legal(predicted) {
            return;
        }
        let mut after = g.board().clone();
        after.play_unchecked(predicted);
        let mut history = g.history().to_vec();
        history.push(g.board().hash());
        let spec = SearchSpec {
            id: 0,
            board: after,
            history,
            limits,
            draw_score: g.policy.profile().draw_score,
            strength: g.policy.profile().strength,
            swindle: g.policy.profile().swindle,
            new_game: std::mem::take(&mut self.play.new_game_flag),
        };
        self.start(
            spec,
            Purpose::Ponder {
                game: u.game,
                predicted,
            },
            u.received,
            out,
        );
    }

    fn start(
        &mut self,
        mut spec: SearchSpec,
        purpose: Purpose,
        since: Instant,
        out: &mut Vec<Action>,
    ) {
        spec.id = self.new_search_id();
        self.search = Some(ActiveSearch {
            id: spec.id,
            purpose,
            root: spec.board.clone(),
            since,
            started: since,
            source: MoveSource::Search,
            last_report: None,
        });
        out.push(Action::StartSearch(Box::new(spec)));
    }

    /// One finished iteration of wily's own search (thinking, or pondering): into the
    /// game log, and to the game's whispers when thinking.
    pub(crate) fn thinking_iteration(
        &mut self,
        pondering: bool,
        root: &Board,
        report: &Report,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        let Some(g) = self.play.game.as_mut() else {
            return;
        };
        out.push(Action::GameLog(format!(
            "{}{}",
            if pondering { "(ponder) " } else { "" },
            Talker::move_text(6, root, report).unwrap_or_default()
        )));
        if !pondering {
            let levels = Levels::played(&self.cfg.talk, g.autokibitz);
            for text in g.talker.on_iteration(now, levels, root, report) {
                out.push(Action::SendTopical {
                    text,
                    game: g.number,
                    position: root.hash(),
                });
            }
        }
    }

    pub(crate) fn search_done(
        &mut self,
        id: u64,
        result: SearchResult,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        if self.search.as_ref().is_none_or(|s| s.id != id) {
            return; // a stopped or superseded search
        }
        let Some(s) = self.search.take() else {
            return;
        };
        if matches!(s.purpose, Purpose::Think { .. }) {
            self.play.think_ms += now.saturating_duration_since(s.started).as_millis() as u64;
        }
        match s.purpose {
            Purpose::Think { game } => self.play_result(game, s, result, now, out),
            Purpose::Ponder { .. } => {}
            Purpose::Analyse { game } if self.observing.watch.has(game) => {
                self.watch_done(s, now, out)
            }
            Purpose::Analyse { .. } => {}
        }
    }

    fn play_result(
        &mut self,
        game: u32,
        s: ActiveSearch,
        r: SearchResult,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        let Some(g) = self.play.game.as_mut() else {
            return;
        };
        if g.number != game
            || !g.my_move()
            || g.sent.is_some()
            || !same_position(g.board(), &s.root)
        {
            return;
        }
        let Some(best) = r.best.filter(|m| g.board().is_legal(*m)) else {
            tracing::warn!("game {game}: the search returned no legal move");
            return;
        };
        let cp = score_cp(r.score);
        g.policy.record_score(cp);
        if g.policy.should_resign(g.resign_clocks(now)) {
            out.push(Action::SendNow("resign".into()));
            out.push(Action::GameLog(format!("resigning (score {cp})")));
            out.push(Action::Commentary(format!(
                "{} resigns (score {:+.2})",
                self.conn.me,
                cp as f64 / 100.0
            )));
            return;
        }
        let mut report = s.last_report.clone().unwrap_or(Report {
            depth: r.depth,
            seldepth: r.depth,
            score: talk_score(r.score),
            bound: TalkBound::Exact,
            nodes: r.nodes,
            nps: 0,
            time: r.time,
            hashfull: 0,
            pv: r.pv.clone(),
        });
        report.depth = r.depth;
        report.score = talk_score(r.score);
        report.nodes = r.nodes;
        report.time = r.time;
        report.bound = TalkBound::Exact;
        if !r.pv.is_empty() {
            report.pv = r.pv.clone();
        }
        let levels = Levels::played(&self.cfg.talk, g.autokibitz);
        let talk = g.talker.on_move(now, levels, &s.root, &report);
        // A mate announcement goes out before the move: a mating move ends the game, and
        // nobody could hear it afterwards. Talk is rate-limited by the talker, so it may
        // travel with the moves, in order.
        let announce_first = matches!(r.score, Score::Mate(_));
        if announce_first {
            out.extend(talk.iter().cloned().map(Action::SendNow));
        }
        let (repetition_coming, claim_after) = g.after_move(best);
        let move_number = g.board().fullmove_number() as u32;
        // The iteration lines still waiting are about the position this move leaves.
        out.push(Action::Expire { game: g.number });
        out.push(Action::SendMove {
            text: to_ics_move(g.board(), best),
            since: s.since,
            source: s.source,
        });
        if claim_after && g.policy.claim_draw() {
            out.push(Action::SendNow("draw".into()));
            out.push(Action::GameLog("claiming a draw after my move".into()));
        } else if g.policy.offer_draw(move_number, repetition_coming) {
            out.push(Action::SendNow("draw".into()));
            out.push(Action::Commentary(format!(
                "{} offers a draw",
                self.conn.me
            )));
        }
        g.sent = Some(best);
        let mut after = g.board().clone();
        after.play_unchecked(best);
        g.expected_reply = r.ponder.filter(|p| after.is_legal(*p));
        // The search's score is the mover's; game files show it in `log.pgn_scores`.
        g.pending_comment = Some(search_comment(
            r.score,
            g.board().side_to_move(),
            self.cfg.log.pgn_scores,
            r.depth,
            r.time.as_millis() as u64,
        ));
        g.pending_search = Some(Some((cp, r.depth)));
        if !announce_first {
            out.extend(talk.into_iter().map(Action::SendNow));
        }
    }

    /// Sends `flag` when the opponent's clock has run out.
    pub(crate) fn flag_check(&mut self, now: Instant, out: &mut Vec<Action>) {
        let Some(g) = self.play.game.as_mut() else {
            return;
        };
        let Some(ms) = g.opponent_clock_now(now) else {
            return;
        };
        if ms >= 0
            || g.last_flag
                .is_some_and(|t| now.saturating_duration_since(t) < FLAG_GAP)
        {
            return;
        }
        g.last_flag = Some(now);
        out.push(Action::SendNow("flag".into()));
        out.push(Action::GameLog(format!(
            "flagging (opponent clock {ms} ms)"
        )));
    }

    pub(crate) fn offer(&mut self, from: &str, kind: OfferKind, out: &mut Vec<Action>) {
        let Some(g) = &self.play.game else {
            return;
        };
        if !from.eq_ignore_ascii_case(g.opponent()) {
            return;
        }
        let accept_draw = g.policy.accept_draw();
        let accept_abort = g.policy.accept_abort(g.board().fullmove_number() as u32);
        let reply = match kind {
            OfferKind::Draw if accept_draw => "draw",
            OfferKind::Draw => "decline draw",
            OfferKind::Abort if accept_abort => "abort",
            OfferKind::Abort => "decline abort",
            OfferKind::Adjourn if self.quitting => "adjourn",
            OfferKind::Adjourn => "decline adjourn",
            OfferKind::Takeback(_) => self.takeback_reply(),
            _ => return,
        };
        out.push(Action::GameLog(format!("{from} offers {kind:?}: {reply}")));
        out.push(Action::SendNow(reply.to_string()));
    }

    pub(crate) fn illegal_move(&mut self, text: &str, out: &mut Vec<Action>) {
        let Some(g) = self.play.game.as_mut() else {
            return;
        };
        if let Some(mv) = g.sent.take() {
            g.illegal_replies += 1;
            tracing::warn!(
                "game {}: the server refused {mv} ({text}); refreshing",
                g.number
            );
            out.push(Action::GameLog(format!("server refused {mv}: {text}")));
            g.pending_comment = None;
            g.pending_search = None;
            if g.illegal_replies <= 20 {
                out.push(Action::SendNow("refresh".into()));
            }
        }
    }

    /// The end of a game: wily's own (records, totals, goodbye, seeking again), or, when
    /// it is not wily's game, nothing (false: the caller passes it on to observing).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn game_end(
        &mut self,
        game: u32,
        white: &str,
        black: &str,
        result: &str,
        kind: EndKind,
        text: &str,
        now: Instant,
        out: &mut Vec<Action>,
    ) -> bool {
        let ours = self.play.game.as_ref().is_some_and(|g| {
            g.number == game
                || (g.white.eq_ignore_ascii_case(white) && g.black.eq_ignore_ascii_case(black))
        });
        if !ours {
            return false;
        }
        if matches!(
            self.search.as_ref().map(|s| &s.purpose),
            Some(Purpose::Think { .. } | Purpose::Ponder { .. })
        ) {
            self.stop_search(out);
        }
        let Some(g) = self.play.game.take() else {
            return true;
        };
        let line = format!("game {game} ends: {result} ({text})");
        out.push(Action::GameLog(line.clone()));
        out.push(Action::Commentary(line));
        let (opp, wily_white, rated) = (g.opponent().to_string(), g.me == Color::White, g.rated);
        self.game_hooks(game, &opp, wily_white, rated, Some(result), now, out);
        if kind == EndKind::Adjourned {
            self.resume.park(g, now);
        } else {
            self.record_finished(g, result, kind, text, out);
        }
        self.tourney.touch(now);
        self.play.new_game_flag = true;
        if self.quitting {
            // The run's last game has already said so (`record_finished`).
            if !matches!(out.last(), Some(Action::Quit)) {
                out.push(Action::Quit);
            }
            return true;
        }
        if self.resume.hint && kind != EndKind::Adjourned {
            // A game the server reported adjourned is still waiting (another game started
            // first): ask for it before seeking again.
            out.push(Action::Send("resume".into()));
        }
        self.maybe_rematch(&opp, kind, now, out);
        if self.cfg.seek.reseek_after_game {
            self.maybe_seek(now, true, out);
        }
        true
    }
}

impl Session {
    /// A finished game of wily's: the totals, the goodbye, and the record for the archive
    /// and learning.
    pub(crate) fn record_finished(
        &mut self,
        g: PlayedGame,
        result: &str,
        kind: EndKind,
        text: &str,
        out: &mut Vec<Action>,
    ) {
        self.play.totals.games += 1;
        let won =
            (result == "1-0" && g.me == Color::White) || (result == "0-1" && g.me == Color::Black);
        let lost =
            (result == "0-1" && g.me == Color::White) || (result == "1-0" && g.me == Color::Black);
        if won {
            self.play.totals.wins += 1;
        } else if lost {
            self.play.totals.losses += 1;
        } else if result == "1/2-1/2" {
            self.play.totals.draws += 1;
        }
        let bye = self.cfg.talk.goodbye.replace("{opponent}", g.opponent());
        if !bye.trim().is_empty() && kind != EndKind::Aborted {
            out.push(Action::Send(format!("say {}", sanitize(&bye))));
        }
        let mut f = g.finish(&self.conn.site, result, kind, text);
        if let Some((event, round)) = self.tourney.game_over(g.opponent()) {
            f.record.event = event;
            f.record.round = round;
        }
        out.push(Action::GameOver(Box::new(f)));
        let limit = self.play.game_limit;
        if limit > 0 && self.play.totals.games >= limit && !self.quitting {
            // The run's last game: leave as a shutdown does (out of a tournament too),
            // before any seek, rematch or `resume` could start another game.
            tracing::info!("{limit} game(s) played: leaving");
            self.shutdown(false, out);
        }
    }
}

/// `12. Nf3 (wily +0.35/14 1.2s)` for the move just recorded.
fn move_commentary(g: &PlayedGame) -> Option<String> {
    let (san, comment) = g.last_recorded()?;
    let b: &Board = g.board();
    // The board is after the move: the mover is the other side.
    let white_moved = b.side_to_move() == Color::Black;
    let number = if white_moved {
        b.fullmove_number()
    } else {
        b.fullmove_number().saturating_sub(1)
    };
    let mover = if white_moved { &g.white } else { &g.black };
    Some(format!(
        "{number}{} {san:<8} {mover}{}",
        if white_moved { "." } else { "..." },
        comment.map(|c| format!(" {{{c}}}")).unwrap_or_default()
    ))
}
