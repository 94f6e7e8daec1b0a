//! Playing a game: the session's handling of its own game's board updates, searches,
//! moves (book, ponder hit, search), draw/resign/abort decisions, offers, illegal-move
//! recovery, flagging, and the end of the game.

use crate::input::{Action, BoardUpdate, EndKind, MoveSource, Relation, SearchSpec};
use crate::ops::triggers::HookGame;
use crate::play::game::{same_position, PlayedGame, StartInfo, Sync};
use crate::play::opponent::OpponentProfile;
use crate::play::policy::{GamePolicy, MATE_CP};
use crate::play::record::search_comment;
use crate::play::state::Playing;
use crate::state::{sanitize, ActiveSearch, Bot, Purpose};
use crate::talk::{Levels, Report, TalkBound, TalkScore, Talker};
use chess::san::to_ics_move;
use cozy_chess::{Board, Color};
use engine::time::TimeManager;
use engine::{Bound, Limits, Score, SearchInfo, SearchResult};
use std::time::{Duration, Instant};

/// Thinking time in untimed games.
const UNTIMED_MOVE: Duration = Duration::from_secs(5);

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

/// What the end of one of wily's games leaves to the session.
pub(crate) struct Ended {
    pub opponent: String,
    pub kind: EndKind,
    /// The run's last game (`--games`): the session leaves at once.
    pub last: bool,
}

impl Playing {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn game_start(
        &mut self,
        bot: &mut Bot,
        game: u32,
        white: String,
        black: String,
        continuing: bool,
        rated: bool,
        category: String,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        if !bot.is_me(&white) && !bot.is_me(&black) {
            return;
        }
        // Whatever starts now, the wait for a reported adjourned game is over.
        self.resume.wait = None;
        if continuing {
            self.resume.hint = false;
        }
        bot.stop_analysis(None, out);
        let opponent = if bot.is_me(&white) { &black } else { &white };
        bot.tourney.game_started(opponent, now);
        if !continuing {
            let (opp, wily_white) = (opponent.clone(), bot.is_me(&white));
            let g = HookGame {
                number: game,
                opponent: &opp,
                wily_white,
                rated,
                result: None,
            };
            bot.hooks
                .game(&bot.cfg.hooks, &bot.conn, &bot.players, g, now, out);
            bot.players.history.record(opponent, now);
            let hello = bot.cfg.talk.greeting.replace("{opponent}", opponent);
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
        self.start_info = Some(StartInfo {
            game,
            white,
            black,
            rated,
            category,
        });
    }

    fn make_game(&mut self, bot: &mut Bot, u: &BoardUpdate) -> PlayedGame {
        let me = if bot.is_me(&u.white) {
            Color::White
        } else if bot.is_me(&u.black) {
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
        let titles = bot.players.titles_of(opponent);
        let class = bot.lists.classify(opponent, titles);
        let rating = bot.players.rating_of(opponent);
        let profile = OpponentProfile::new(class, &bot.cfg.opponents)
            .with_strength(&bot.cfg.strength, rating);
        tracing::info!("opponent {opponent}: {}", profile.describe());
        let policy = GamePolicy::new(profile, &bot.cfg.opponents);
        let talker = Talker::new(bot.cfg.talk.max_per_minute);
        let mut g = PlayedGame::new(u, me, policy, talker);
        g.autokibitz = class.autokibitz;
        if let Some(si) = self.start_info.take() {
            if si.game == u.game {
                g.rated = si.rated;
                g.category = si.category;
            }
        }
        g.white_elo = bot.players.rating_of(&u.white);
        g.black_elo = bot.players.rating_of(&u.black);
        self.new_game_flag = true;
        g
    }

    /// A board update of wily's own game.
    pub(crate) fn own_board(
        &mut self,
        bot: &mut Bot,
        u: BoardUpdate,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        if self.game.as_ref().is_some_and(|g| g.number != u.game) {
            tracing::warn!(
                "board of game {} while game {} was in progress; its end was not seen",
                u.game,
                self.game.as_ref().map_or(0, |g| g.number)
            );
            bot.stop_search(out);
            if let Some(old) = self.game.take() {
                let f = old.finish(&bot.conn.site, "*", EndKind::Other, "end not seen");
                out.push(Action::GameOver(Box::new(f)));
            }
        }
        if self.game.is_none() {
            bot.stop_analysis(None, out);
            let g = self.make_game(bot, &u);
            self.game = Some(g);
        }
        let Some(g) = self.game.as_mut() else {
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
                bot.stop_search(out);
            }
            Sync::TakenBack(n) => {
                out.push(Action::GameLog(format!("{n} half-move(s) taken back")));
                bot.stop_search(out);
            }
            Sync::Same => {}
        }
        if u.relation == Relation::MyMove {
            self.my_turn(bot, &u, sync, now, out);
        } else {
            self.their_turn(bot, &u, out);
        }
        self.flag_check(now, out);
    }

    fn my_turn(
        &mut self,
        bot: &mut Bot,
        u: &BoardUpdate,
        sync: Sync,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        let Some(g) = self.game.as_mut() else {
            return;
        };
        if !g.my_move() {
            return;
        }
        if sync == Sync::Same && g.sent.is_some() {
            return; // a repeated board while our move is on its way
        }
        g.sent = None;
        if let Some(s) = &mut bot.search {
            match s.purpose.clone() {
                Purpose::Ponder { game, predicted }
                    if game == u.game
                        && sync == Sync::Moved(predicted)
                        && same_position(&s.root, g.board()) =>
                {
                    s.purpose = Purpose::Think { game };
                    s.since = u.received;
                    // As Crafty: when pondering already used this move's time, move now.
                    let limits = limits_for(u, false, bot.cfg.engine.depth_limit);
                    let overhead = Duration::from_millis(bot.cfg.engine.move_overhead_ms);
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
        bot.stop_search(out);
        let limits = limits_for(u, false, bot.cfg.engine.depth_limit);
        let Some(g) = self.game.as_mut() else {
            return;
        };
        if g.claimable_now() && g.policy.claim_draw() {
            out.push(Action::SendNow("draw".into()));
            out.push(Action::GameLog("claiming a draw".into()));
        }
        if bot.cfg.engine.book && g.plies() < 80 && g.book_allowed() {
            let width = g.policy.profile().book_width;
            if let Some(pick) = bot.book.pick(g.board(), width) {
                if g.board().is_legal(pick.mv) {
                    let text = to_ics_move(g.board(), pick.mv);
                    out.push(Action::Expire { game: g.number });
                    out.push(Action::SendMove {
                        text,
                        since: u.received,
                        source: MoveSource::Book,
                    });
                    let root = g.board().clone();
                    let levels = Levels::played(&bot.cfg.talk, g.autokibitz);
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
            new_game: std::mem::take(&mut self.new_game_flag),
        };
        bot.start_search(
            spec,
            Purpose::Think { game: u.game },
            u.received,
            u.received,
            out,
        );
    }

    fn their_turn(&mut self, bot: &mut Bot, u: &BoardUpdate, out: &mut Vec<Action>) {
        if !bot.cfg.engine.ponder || bot.search.is_some() {
            return;
        }
        let limits = limits_for(u, true, bot.cfg.engine.depth_limit);
        let Some(g) = self.game.as_mut() else {
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
            new_game: std::mem::take(&mut self.new_game_flag),
        };
        bot.start_search(
            spec,
            Purpose::Ponder {
                game: u.game,
                predicted,
            },
            u.received,
            u.received,
            out,
        );
    }

    /// One finished iteration of wily's own search (thinking, or pondering): into the
    /// game log, and to the game's whispers when thinking.
    pub(crate) fn thinking_iteration(
        &mut self,
        bot: &Bot,
        pondering: bool,
        root: &Board,
        report: &Report,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        let Some(g) = self.game.as_mut() else {
            return;
        };
        out.push(Action::GameLog(format!(
            "{}{}",
            if pondering { "(ponder) " } else { "" },
            Talker::move_text(6, root, report).unwrap_or_default()
        )));
        if !pondering {
            let levels = Levels::played(&bot.cfg.talk, g.autokibitz);
            for text in g.talker.on_iteration(now, levels, root, report) {
                out.push(Action::SendTopical {
                    text,
                    game: g.number,
                    position: root.hash(),
                });
            }
        }
    }

    pub(crate) fn play_result(
        &mut self,
        bot: &mut Bot,
        game: u32,
        s: ActiveSearch,
        r: SearchResult,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        let Some(g) = self.game.as_mut() else {
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
                bot.conn.me,
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
        let levels = Levels::played(&bot.cfg.talk, g.autokibitz);
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
            out.push(Action::Commentary(format!("{} offers a draw", bot.conn.me)));
        }
        g.sent = Some(best);
        let mut after = g.board().clone();
        after.play_unchecked(best);
        g.expected_reply = r.ponder.filter(|p| after.is_legal(*p));
        // The search's score is the mover's; game files show it in `log.pgn_scores`.
        g.pending_comment = Some(search_comment(
            r.score,
            g.board().side_to_move(),
            bot.cfg.log.pgn_scores,
            r.depth,
            r.time.as_millis() as u64,
        ));
        g.pending_search = Some(Some((cp, r.depth)));
        if !announce_first {
            out.extend(talk.into_iter().map(Action::SendNow));
        }
    }

    /// The end of a game: wily's own (the record, the totals, the goodbye), or, when it
    /// is not wily's game, nothing (`None`: the session passes it on to observing). What
    /// comes after wily's game (leaving, `resume`, a rematch, seeking) is the session's.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn game_end(
        &mut self,
        bot: &mut Bot,
        game: u32,
        white: &str,
        black: &str,
        result: &str,
        kind: EndKind,
        text: &str,
        now: Instant,
        out: &mut Vec<Action>,
    ) -> Option<Ended> {
        let ours = self.game.as_ref().is_some_and(|g| {
            g.number == game
                || (g.white.eq_ignore_ascii_case(white) && g.black.eq_ignore_ascii_case(black))
        });
        if !ours {
            return None;
        }
        if matches!(
            bot.purpose(),
            Some(Purpose::Think { .. } | Purpose::Ponder { .. })
        ) {
            bot.stop_search(out);
        }
        let g = self.game.take()?;
        let line = format!("game {game} ends: {result} ({text})");
        out.push(Action::GameLog(line.clone()));
        out.push(Action::Commentary(line));
        let opponent = g.opponent().to_string();
        let hook = HookGame {
            number: game,
            opponent: &opponent,
            wily_white: g.me == Color::White,
            rated: g.rated,
            result: Some(result),
        };
        bot.hooks
            .game(&bot.cfg.hooks, &bot.conn, &bot.players, hook, now, out);
        let last = if kind == EndKind::Adjourned {
            self.resume.park(g, now);
            false
        } else {
            self.record_finished(bot, g, result, kind, text, out)
        };
        bot.tourney.touch(now);
        self.new_game_flag = true;
        Some(Ended {
            opponent,
            kind,
            last,
        })
    }

    /// A finished game of wily's: the totals, the goodbye, and the record for the archive
    /// and learning. True when it was the run's last game (`--games`): the session leaves
    /// at once, as a shutdown does, before any seek, rematch or `resume` could start
    /// another game.
    pub(crate) fn record_finished(
        &mut self,
        bot: &mut Bot,
        g: PlayedGame,
        result: &str,
        kind: EndKind,
        text: &str,
        out: &mut Vec<Action>,
    ) -> bool {
        self.totals.games += 1;
        let won =
            (result == "1-0" && g.me == Color::White) || (result == "0-1" && g.me == Color::Black);
        let lost =
            (result == "0-1" && g.me == Color::White) || (result == "1-0" && g.me == Color::Black);
        if won {
            self.totals.wins += 1;
        } else if lost {
            self.totals.losses += 1;
        } else if result == "1/2-1/2" {
            self.totals.draws += 1;
        }
        let bye = bot.cfg.talk.goodbye.replace("{opponent}", g.opponent());
        if !bye.trim().is_empty() && kind != EndKind::Aborted {
            out.push(Action::Send(format!("say {}", sanitize(&bye))));
        }
        let mut f = g.finish(&bot.conn.site, result, kind, text);
        if let Some((event, round)) = bot.tourney.game_over(g.opponent()) {
            f.record.event = event;
            f.record.round = round;
        }
        out.push(Action::GameOver(Box::new(f)));
        let limit = self.game_limit;
        let last = limit > 0 && self.totals.games >= limit && !bot.quitting;
        if last {
            tracing::info!("{limit} game(s) played: leaving");
        }
        last
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
