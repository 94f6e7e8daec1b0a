//! The answers to the public commands (parsed and rate-limited in `public/parse.rs`): one line
//! each, from the bot's own state and settings and the learning store.
//!
//! Fair play: `eval` gives an evaluation only of a game wily observes that is relayed
//! (a relay account's game, `[watch]`) or played between two computers (both in
//! `lists/C` or shown with the server's `(C)`); never of wily's own game and never of a
//! game a person plays, to anyone. `games` names wily's own game but says nothing about
//! its score.

use crate::find::state::Matching;
use crate::hooks::Results;
use crate::input::Action;
use crate::play::state::Playing;
use crate::public::parse::{PublicCommand, PublicLimits};
use crate::state::{sanitize, Bot, Purpose};
use crate::talk::white_score;
use crate::watch::candidates::Source;
use crate::watch::state::Observing;
use lists::ListKind;

fn record_text(r: &Results) -> String {
    format!("{} games (+{} ={} -{})", r.games, r.wins, r.draws, r.losses)
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

/// What the public answers read, borrowed for one answer: the shared part (the
/// learning store behind the book answers `record`), wily's game and totals, its seeking
/// and accepting, what it observes, and the evaluation in use.
pub(crate) struct Asked<'a> {
    pub bot: &'a mut Bot,
    pub play: &'a Playing,
    pub matching: &'a Matching,
    pub observing: &'a Observing,
    /// The engine's description of its evaluation (`hce`, `nnue ...`).
    pub evaluation: &'a str,
}

impl PublicLimits {
    /// A public command from `from`: the answer is told back (one line) and counted.
    pub(crate) fn answer(
        &mut self,
        mut asked: Asked,
        cmd: PublicCommand,
        from: &str,
        out: &mut Vec<Action>,
    ) {
        let answer = match cmd {
            PublicCommand::Help => asked.help(),
            PublicCommand::Info => asked.info(),
            PublicCommand::Record => asked.record(from),
            PublicCommand::Games => asked.games(),
            PublicCommand::Seeks => asked.seeks(),
            PublicCommand::Eval(n) => asked.eval(n),
        };
        tracing::info!("public {} from {from}", cmd.word());
        self.answered[cmd.index()] += 1;
        out.push(Action::Send(format!("tell {from} {}", sanitize(&answer))));
    }
}

impl Asked<'_> {
    fn help(&self) -> String {
        let words: Vec<&str> = config::PUBLIC_COMMANDS
            .iter()
            .copied()
            .filter(|c| self.bot.cfg.public.allows(c))
            .map(|c| if c == "eval" { "eval [game]" } else { c })
            .collect();
        format!(
            "I am wily, a chess program. Tell me: {}.",
            words.join(" | ")
        )
    }

    fn info(&self) -> String {
        let lists: Vec<String> = [
            ListKind::Gm,
            ListKind::Im,
            ListKind::C,
            ListKind::Ak,
            ListKind::S,
        ]
        .into_iter()
        .map(|k| format!("{} {}", k.file_name(), self.bot.lists.handles(k).count()))
        .collect();
        let e = &self.bot.cfg.engine;
        let eval = if self.evaluation.starts_with("nnue") {
            "NNUE"
        } else {
            "hand-written"
        };
        format!(
            "wily {} (Rust): {eval} evaluation, {} search thread(s), {} MB hash, ponder {}, book {}; opponent lists {}",
            env!("CARGO_PKG_VERSION"),
            e.threads,
            e.hash_mb,
            on_off(e.ponder),
            on_off(e.book),
            lists.join(", ")
        )
    }

    fn record(&mut self, from: &str) -> String {
        let all = self.bot.book.results(None);
        let theirs = self.bot.book.results(Some(from));
        match (all, theirs) {
            (Some(all), Some(theirs)) => format!(
                "my record: {}; against you ({from}): {}",
                record_text(&all),
                record_text(&theirs)
            ),
            _ => {
                let t = self.play.totals;
                format!(
                    "since my start: {} games (+{} ={} -{}) (no learning store)",
                    t.games, t.wins, t.draws, t.losses
                )
            }
        }
    }

    fn games(&self) -> String {
        let mut s = match &self.play.game {
            Some(g) => format!(
                "playing game {}: {} vs {} ({} {} {} {})",
                g.number,
                g.white,
                g.black,
                if g.rated { "rated" } else { "unrated" },
                g.category,
                g.base,
                g.increment
            ),
            None if self.bot.quitting => "not playing; leaving soon".to_string(),
            None => "not playing".to_string(),
        };
        let mut observed: Vec<u32> = self.observing.observer.games.keys().copied().collect();
        observed.extend(self.observing.watch.games.keys().copied());
        observed.sort_unstable();
        observed.dedup();
        if !observed.is_empty() {
            let list: Vec<String> = observed.iter().map(|n| n.to_string()).collect();
            s.push_str(&format!("; observing game(s) {}", list.join(", ")));
        }
        let t = self.play.totals;
        s.push_str(&format!(
            "; since my start {} games (+{} ={} -{})",
            t.games, t.wins, t.draws, t.losses
        ));
        s
    }

    fn seeks(&self) -> String {
        let seeking = self.matching.seeking && !self.bot.quitting;
        let ads: Vec<String> = self
            .bot
            .cfg
            .seek
            .ads
            .iter()
            .map(|a| {
                format!(
                    "{} {} {}{}",
                    a.base,
                    a.increment,
                    if a.rated { "rated" } else { "unrated" },
                    if a.variant == "chess" {
                        String::new()
                    } else {
                        format!(" {}", a.variant)
                    }
                )
            })
            .collect();
        let mut s = if seeking && self.bot.cfg.seek.enabled && !ads.is_empty() {
            format!("I seek {}", ads.join(", "))
        } else {
            "I am not seeking now".to_string()
        };
        let a = &self.bot.cfg.accept;
        if self.matching.accepting && a.enabled && !self.bot.quitting {
            let kinds = match (a.rated, a.unrated) {
                (true, true) => "rated or unrated",
                (true, false) => "rated",
                (false, true) => "unrated",
                (false, false) => "no",
            };
            let mut who = Vec::new();
            if a.humans {
                who.push("people");
            }
            if a.computers {
                who.push("computers");
            }
            if a.guests {
                who.push("guests");
            }
            s.push_str(&format!(
                "; I accept {kinds} {} games of {}-{} min + {}-{} s from {}",
                a.variants.join("/"),
                a.min_base,
                a.max_base,
                a.min_increment,
                a.max_increment,
                if who.is_empty() {
                    "nobody".to_string()
                } else {
                    who.join(", ")
                }
            ));
            if a.min_rating > 0 || a.max_rating < 9999 {
                s.push_str(&format!(" rated {}-{}", a.min_rating, a.max_rating));
            }
        } else {
            s.push_str("; I accept no challenges now");
        }
        s
    }

    /// The games wily may evaluate in public: observed, relayed or between computers.
    fn evaluable(&self) -> Vec<u32> {
        let mut v = Vec::new();
        for (n, g) in &self.observing.watch.games {
            if g.source == Source::Relay
                || (self.bot.computer(&g.white) && self.bot.computer(&g.black))
            {
                v.push(*n);
            }
        }
        for (n, g) in &self.observing.observer.games {
            if self.bot.computer(&g.white) && self.bot.computer(&g.black) {
                v.push(*n);
            }
        }
        let own = self.play.game.as_ref().map(|g| g.number);
        v.retain(|n| Some(*n) != own);
        v.sort_unstable();
        v.dedup();
        v
    }

    fn eval(&self, game: Option<u32>) -> String {
        const RULE: &str =
            "I evaluate only relayed games and games between computers that I observe";
        let ok = self.evaluable();
        let n = match game {
            Some(n) => n,
            None => match ok.as_slice() {
                [one] => *one,
                [] => return format!("{RULE}, and I observe none now."),
                many => {
                    let list: Vec<String> = many.iter().map(|n| n.to_string()).collect();
                    return format!("which game? I can evaluate {}", list.join(", "));
                }
            },
        };
        if self.play.game.as_ref().is_some_and(|g| g.number == n) {
            return format!("game {n} is my own game: no evaluations of it.");
        }
        if !ok.contains(&n) {
            return format!("{RULE}; game {n} is not one of them.");
        }
        let (white, black) = match (
            self.observing.watch.games.get(&n),
            self.observing.observer.games.get(&n),
        ) {
            (Some(g), _) => (g.white.clone(), g.black.clone()),
            (None, Some(g)) => (g.white.clone(), g.black.clone()),
            (None, None) => return format!("{RULE}; game {n} is not one of them."),
        };
        let analysing = self
            .bot
            .search
            .as_ref()
            .filter(|s| s.purpose == Purpose::Analyse { game: n });
        match analysing.and_then(|s| s.last_report.as_ref().map(|r| (&s.root, r))) {
            Some((root, r)) => format!(
                "game {n} {white}-{black}: {} at depth {} (White's view, my analysis of move {})",
                white_score(root, r.score),
                r.depth,
                root.fullmove_number()
            ),
            None => {
                let last = self
                    .observing
                    .watch
                    .games
                    .get(&n)
                    .and_then(|g| g.comments.iter().rev().flatten().next().cloned());
                match last {
                    Some(c) => format!("game {n} {white}-{black}: my last analysis: {c}"),
                    None => format!("game {n} {white}-{black}: no analysis yet, ask again soon"),
                }
            }
        }
    }
}
