//! Information commands of the local server: `who`, `finger`, `games`,
//! `moves`, `time`, `stored`, and the lookups of adjourned games.

use crate::conn::Sid;
use crate::core::Core;
use crate::games::clock::min_sec;
use crate::games::game::Game;
use crate::games::ratings::{rating_text, Category};
use cozy_chess::Color;
use std::time::Instant;

fn secs_text(s: u64) -> String {
    if s < 60 {
        format!("{s} secs")
    } else if s < 3600 {
        format!("{} mins", s / 60)
    } else {
        format!("{} hrs, {} mins", s / 3600, (s % 3600) / 60)
    }
}

impl Core {
    /// Online players who have an adjourned game with `name`.
    pub fn adjourned_partners_online(&self, name: &str) -> Vec<String> {
        let mut v = Vec::new();
        for g in &self.games.stored {
            let other = if g.white.name.eq_ignore_ascii_case(name) {
                &g.black.name
            } else if g.black.name.eq_ignore_ascii_case(name) {
                &g.white.name
            } else {
                continue;
            };
            if let Some(o) = self.net.find_online(other) {
                if self.net.name_of(o).eq_ignore_ascii_case(other) && !v.contains(other) {
                    v.push(other.clone());
                }
            }
        }
        v
    }

    /// `stored [NAME]`.
    pub fn cmd_stored(&mut self, sid: Sid, args: &[&str]) {
        let name = match args.first() {
            Some(n) => self
                .net
                .find_online(n)
                .map(|o| self.net.name_of(o))
                .or_else(|| self.accounts.get(n).map(|a| a.handle.clone())),
            None => Some(self.net.name_of(sid)),
        };
        let Some(name) = name else {
            let n = args.first().copied().unwrap_or("");
            self.net
                .reply(sid, &format!("There is no player matching the name {n}.\n"));
            return;
        };
        let list: Vec<String> = self
            .games
            .stored
            .iter()
            .filter(|g| {
                g.white.name.eq_ignore_ascii_case(&name) || g.black.name.eq_ignore_ascii_case(&name)
            })
            .map(|g| {
                format!(
                    "   {} vs. {}",
                    g.white.name.to_ascii_lowercase(),
                    g.black.name.to_ascii_lowercase()
                )
            })
            .collect();
        if list.is_empty() {
            self.net
                .reply(sid, &format!("{name} has no adjourned games.\n"));
            return;
        }
        let n = list.len();
        let mut t = format!("Stored games for {name}:\n");
        for l in list {
            t.push_str(&l);
            t.push('\n');
        }
        t.push_str(&format!(
            "{n} stored game{} found.\n",
            if n == 1 { "" } else { "s" }
        ));
        self.net.reply(sid, &t);
    }

    /// `who`.
    pub fn cmd_who(&mut self, sid: Sid) {
        let mut rows: Vec<(u32, String)> = Vec::new();
        for s in self.net.sessions.values().filter(|s| s.online()) {
            let r = if s.registered {
                self.games.rating(&s.handle, Category::Blitz)
            } else {
                None
            };
            let status = if s.game.is_some() {
                '^'
            } else if !s.vars.open {
                ':'
            } else {
                ' '
            };
            let name = if s.registered {
                s.display_name()
            } else {
                s.handle.clone()
            };
            rows.push((
                r.unwrap_or(0),
                format!("{:>4}{status}{name}", rating_text(s.registered, r)),
            ));
        }
        rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let n = rows.len();
        let mut t = String::from("\n");
        for (_, r) in rows {
            t.push_str(&r);
            t.push('\n');
        }
        t.push_str(&format!(
            "\n {n} players displayed (of {n}). (*) indicates system administrator.\n"
        ));
        self.net.reply(sid, &t);
    }

    /// `finger [NAME]` (short form).
    pub fn cmd_finger(&mut self, sid: Sid, args: &[&str]) {
        let target = match args.first() {
            None => Some(sid),
            Some(n) => self.net.find_online(n),
        };
        let now = Instant::now();
        let table = |core: &Core, handle: &str| {
            let mut t =
                String::from("\n         rating     RD     win   loss   draw  total   best\n");
            if let Some(r) = core.games.ratings.get(&handle.to_ascii_lowercase()) {
                for cat in [Category::Blitz, Category::Standard, Category::Lightning] {
                    if let Some(e) = r.entry(cat) {
                        let total = e.wins + e.losses + e.draws;
                        t.push_str(&format!(
                            "{:<10}{:>4}{:>9}{:>7}{:>7}{:>7}{:>7}{:>7}\n",
                            cat.title(),
                            e.rating,
                            "350.0",
                            e.wins,
                            e.losses,
                            e.draws,
                            total,
                            e.best
                        ));
                    }
                }
            }
            t
        };
        let text = match target.and_then(|t| self.net.sess(t)) {
            Some(s) => {
                let on = secs_text(now.saturating_duration_since(s.connected).as_secs());
                let idle = secs_text(now.saturating_duration_since(s.last_input).as_secs());
                let name = if s.registered {
                    s.display_name()
                } else {
                    s.handle.clone()
                };
                let mut t = format!("\nStatistics for {name:<17}On for: {on}   Idle: {idle}\n");
                if s.registered {
                    t.push_str(&table(self, &s.handle));
                    if let Some(g) = s.game {
                        t.push_str(&format!("\n(playing game {g})\n"));
                    }
                } else {
                    t.push_str(&format!("{} is NOT a registered player.\n\n\n", s.handle));
                }
                t.push_str(&format!(
                    "\nTimeseal: {}\n",
                    if s.timeseal { "On" } else { "no" }
                ));
                t.push_str(&self.accounts.notes_text(&s.handle));
                t
            }
            None => {
                let n = args.first().copied().unwrap_or("");
                match self.accounts.get(n) {
                    Some(a) => {
                        let handle = a.handle.clone();
                        let name = format!("{}{}", a.handle, a.title_suffix());
                        format!(
                            "\nStatistics for {name:<17}(Not logged in.)\n{}{}\n",
                            table(self, &handle),
                            self.accounts.notes_text(&handle)
                        )
                    }
                    None => format!("There is no player matching the name {n}.\n"),
                }
            }
        };
        self.net.reply(sid, &text);
    }

    /// `games [/letters]`: every game, or (as FICS) those of the types named after the
    /// slash (`b` blitz, `s` standard, `l` lightning, `u` untimed, `e` examined).
    /// Examined games show as `(Exam. ...)` rows.
    pub fn cmd_games(&mut self, sid: Sid, args: &[&str]) {
        if self.games.games.is_empty() {
            self.net.reply(sid, "There are no games in progress.\n");
            return;
        }
        let filter: Option<String> = args
            .first()
            .and_then(|a| a.strip_prefix('/').or_else(|| a.strip_prefix('-')))
            .map(str::to_string);
        let wanted = |g: &Game| match &filter {
            None => true,
            Some(f) if g.examined.is_some() => f.contains('e'),
            Some(f) => f.contains(g.category.letter()),
        };
        let now = Instant::now();
        let mut t = String::from("\n");
        let mut shown = 0;
        for g in self.games.games.values().filter(|g| wanted(g)) {
            shown += 1;
            let stm = if g.board.side_to_move() == Color::White {
                'W'
            } else {
                'B'
            };
            if g.examined.is_some() {
                t.push_str(&format!(
                    "{:3} (Exam. {:4} {:<11} {:4} {:<10}) {} {}: {:2}\n",
                    g.number,
                    g.white.rating.unwrap_or(0),
                    g.white.name,
                    g.black.rating.unwrap_or(0),
                    g.black.name,
                    g.type_code(),
                    stm,
                    g.board.fullmove_number()
                ));
                continue;
            }
            let r = |side: &crate::games::game::Side| rating_text(side.registered, side.rating);
            t.push_str(&format!(
                "{:3} {:>4} {:<11} {:>4} {:<10} {} {:>6} -{:>6} ({:2}-{:2}) {}: {:2}\n",
                g.number,
                r(&g.white),
                g.white.name,
                r(&g.black),
                g.black.name,
                g.type_code(),
                min_sec(g.clock.remaining(Color::White, now)),
                min_sec(g.clock.remaining(Color::Black, now)),
                crate::games::notation::material(&g.board, Color::White),
                crate::games::notation::material(&g.board, Color::Black),
                stm,
                g.board.fullmove_number()
            ));
        }
        let n = self.games.games.len();
        if shown == 0 {
            self.net.reply(
                sid,
                &format!("No matching games were found (of {n} in progress).\n"),
            );
            return;
        }
        if shown < n {
            t.push_str(&format!(
                "\n  {shown} game{} displayed (of {n} in progress).\n",
                if shown == 1 { "" } else { "s" }
            ));
        } else {
            t.push_str(&format!(
                "\n  {n} game{} displayed.\n",
                if n == 1 { "" } else { "s" }
            ));
        }
        self.net.reply(sid, &t);
    }

    /// `moves [N|NAME]`.
    pub fn cmd_moves(&mut self, sid: Sid, args: &[&str]) {
        let Some(g) = self.playing().game_or_current(
            sid,
            args,
            "You are neither playing, observing nor examining a game.\n",
        ) else {
            return;
        };
        let Some(game) = self.games.games.get(&g) else {
            return;
        };
        let r = |x: Option<u32>| {
            x.filter(|v| *v > 0)
                .map_or("UNR".to_string(), |v| v.to_string())
        };
        let date = game.started.format("%a %b %e, %H:%M UTC %Y");
        let mut t = format!(
            "\n{} ({}) vs. {} ({}) --- {date}\n{} {} match, initial time: {} minutes, increment: {} seconds.\n\n",
            game.white.name,
            r(game.white.rating),
            game.black.name,
            r(game.black.rating),
            if game.rated { "Rated" } else { "Unrated" },
            game.category.name(),
            game.base,
            game.inc
        );
        t.push_str(&format!(
            "Move  {:<19}{:<19}\n",
            game.white.name, game.black.name
        ));
        t.push_str("----  ----------------   ----------------\n");
        let cell =
            |m: &crate::games::game::MoveRecord| format!("{:<8}({})", m.san, min_sec(m.took_ms));
        for (i, pair) in game.moves.chunks(2).enumerate() {
            match pair {
                [w, b] => t.push_str(&format!(
                    "{:3}.  {:<16}   {:<16}\n",
                    i + 1,
                    cell(w),
                    cell(b)
                )),
                [w] => t.push_str(&format!("{:3}.  {:<16}\n", i + 1, cell(w))),
                _ => {}
            }
        }
        t.push_str("      {Still in progress} *\n\n");
        self.net.reply(sid, &t);
    }

    /// `time [N|NAME]`.
    pub fn cmd_time(&mut self, sid: Sid, args: &[&str]) {
        let Some(g) = self
            .playing()
            .game_or_current(sid, args, "You are not playing a game.\n")
        else {
            return;
        };
        let Some(game) = self.games.games.get(&g) else {
            return;
        };
        let now = Instant::now();
        let f = |ms: i64| {
            let neg = if ms < 0 { "-" } else { "" };
            let s = ms.unsigned_abs() / 1000;
            format!("{neg}{} mins, {} secs", s / 60, s % 60)
        };
        let t = format!(
            "White ({}) : {}\nBlack ({}) : {}\n",
            game.white.name,
            f(game.clock.remaining(Color::White, now)),
            game.black.name,
            f(game.clock.remaining(Color::Black, now))
        );
        self.net.reply(sid, &t);
    }
}
