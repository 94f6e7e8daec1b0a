//! Command dispatch of the local server (moves first, then commands by name
//! or unique prefix) and the session-variable commands `set`, `iset`,
//! `variables`, `promote`, plus `quit`, `help` and `date`.

use crate::accounts::aliases::{expand, strip_dollar};
use crate::accounts::follow::ListOp;
use crate::accounts::session::Session;
use crate::conn::Sid;
use crate::core::Core;
use crate::games::notation::looks_like_move;
use crate::icc::commands::{parse_set2, SET2_USAGE};
use cozy_chess::Piece;

/// Every command the server knows, in the order prefixes are resolved.
const COMMANDS: &[&str] = &[
    "abort",
    "accept",
    "adjourn",
    "alias",
    "allobservers",
    "date",
    "decline",
    "draw",
    "examine",
    "exit",
    "finger",
    "flag",
    "follow",
    "games",
    "help",
    "iset",
    "ivariables",
    "kibitz",
    "match",
    "moves",
    "observe",
    "pending",
    "play",
    "promote",
    "quit",
    "refresh",
    "rematch",
    "resign",
    "resume",
    "say",
    "seek",
    "set",
    "set-2",
    "set-quietly",
    "sought",
    "stored",
    "style",
    "takeback",
    "tell",
    "time",
    "toggle",
    "unalias",
    "unexamine",
    "unobserve",
    "unseek",
    "variables",
    "whisper",
    "who",
    "withdraw",
    "xkibitz",
    "xtell",
    "xwhisper",
];

fn resolve(word: &str) -> Option<&'static str> {
    let w = word.to_ascii_lowercase();
    match w.as_str() {
        "t" => return Some("tell"),
        "f" => return Some("finger"),
        "w" => return Some("who"),
        "obs" => return Some("observe"),
        "unobs" => return Some("unobserve"),
        "bye" | "logout" => return Some("quit"),
        "vars" => return Some("variables"),
        "ivars" => return Some("ivariables"),
        "ref" => return Some("refresh"),
        "wh" => return Some("whisper"),
        "kib" => return Some("kibitz"),
        // Whole words only: `ad` stays `adjourn`, `su`/`sh` stay ambiguous.
        "addlist" => return Some("addlist"),
        "sublist" => return Some("sublist"),
        "showlist" => return Some("showlist"),
        _ => {}
    }
    if let Some(c) = COMMANDS.iter().find(|c| **c == w) {
        return Some(c);
    }
    let mut hits = COMMANDS.iter().filter(|c| c.starts_with(&w));
    match (hits.next(), hits.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

fn on_off(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "1" | "on" | "true" | "yes" => Some(true),
        "0" | "off" | "false" | "no" => Some(false),
        _ => None,
    }
}

const SET_USAGE: &str = "Command:  set\nPurpose:  fix a value of a variable\nUsage:    set variable_name [value]\nExamples: set style 12; set time 5; set inc 0; set seek 0\n\nSee 'help set' for a complete description.\n";

const HELP: &str = "Commands of wily's local server:\n\
  accounts: finger who quit\n\
  settings: set style iset variables ivariables promote alias unalias\n\
  playing:  match accept decline withdraw pending seek unseek sought play\n\
            draw abort adjourn resign flag refresh moves time stored resume\n\
            rematch takeback\n\
  watching: games observe unobserve allobservers follow\n\
  lists:    +follow NAME, -follow NAME, =follow (follow NAME toggles)\n\
  talking:  tell xtell say kibitz whisper\n\
Moves: e2e4, e2-e4, e7e8=q, o-o, o-o-o, or SAN (Nf3, exd5, e8=Q).\n";

impl Core {
    /// A line from a logged-in client.
    pub fn on_command(&mut self, sid: Sid, line: &str) {
        let (line, raw) = strip_dollar(line.trim());
        if line.is_empty() {
            self.net.reply(sid, "");
            return;
        }
        let expanded = if raw {
            None
        } else {
            self.net.sess(sid).and_then(|s| expand(&s.aliases, line))
        };
        let line = expanded.as_deref().unwrap_or(line);
        let playing = self.net.sess(sid).and_then(|s| s.game);
        if looks_like_move(line) {
            match playing {
                Some(g) => self.playing().on_move(sid, g, line),
                None => self
                    .net
                    .reply(sid, "You are not playing or examining a game.\n"),
            }
            return;
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let args: Vec<&str> = rest.split_whitespace().collect();
        if let Some(op) = word.chars().next().and_then(ListOp::from_prefix) {
            self.accounts
                .cmd_list(&mut self.net, sid, op, &word[1..], args.first().copied());
            return;
        }
        let Some(cmd) = resolve(word).filter(|c| self.net.icc() || !c.starts_with("set-")) else {
            self.net
                .reply(sid, &format!("{word}: Command not found.\n"));
            return;
        };
        match cmd {
            "set" => self.cmd_set(sid, &args, rest, false),
            "set-quietly" => self.cmd_set(sid, &args, rest, true),
            "set-2" => self.cmd_set2(sid, &args),
            "takeback" => self.playing().cmd_takeback(sid, &args),
            "iset" => self.cmd_iset(sid, &args),
            "style" => {
                let value = args.first().copied().unwrap_or("");
                self.cmd_set(sid, &["style", value], rest, false)
            }
            "alias" => self.session_answer(sid, |s| s.cmd_alias(&args, rest)),
            "unalias" => self.session_answer(sid, |s| s.cmd_unalias(&args)),
            "variables" => self.cmd_variables(sid),
            "ivariables" => self.cmd_ivariables(sid),
            "promote" => self.cmd_promote(sid, &args),
            "quit" | "exit" => self.cmd_quit(sid),
            "help" => self.net.reply(sid, HELP),
            "date" => {
                let now = chrono::Utc::now().format("%a %b %e, %H:%M UTC %Y");
                self.net.reply(sid, &format!("Server time - {now}\n"))
            }
            "who" => self.cmd_who(sid),
            "finger" => self.cmd_finger(sid, &args),
            "games" => self.cmd_games(sid, &args),
            "examine" => self.games.cmd_examine(&mut self.net, sid),
            "unexamine" => self.games.cmd_unexamine(&mut self.net, sid),
            "tell" => self.cmd_tell(sid, &args, rest, true),
            "xtell" => self.cmd_tell(sid, &args, rest, false),
            "say" => self.cmd_say(sid, rest),
            "kibitz" => self.cmd_kibitz(sid, rest, true, None),
            "whisper" => self.cmd_kibitz(sid, rest, false, None),
            "xkibitz" | "xwhisper" => {
                let kibitz = cmd == "xkibitz";
                match rest.split_once(char::is_whitespace) {
                    Some((n, text)) if n.parse::<u32>().is_ok() => {
                        self.cmd_kibitz(sid, text.trim(), kibitz, n.parse().ok())
                    }
                    _ => self
                        .net
                        .reply(sid, &format!("Usage: {cmd} game-number message\n")),
                }
            }
            "seek" => self.dealing().cmd_seek(sid, &args),
            "unseek" => self.dealing().cmd_unseek(sid),
            "sought" => self.dealing().cmd_sought(sid),
            "play" => self.dealing().cmd_play(sid, &args),
            "match" => self.dealing().cmd_match(sid, &args),
            "rematch" => self.playing().cmd_rematch(sid),
            "resume" => self.dealing().cmd_resume(sid, &args),
            "accept" => self.dealing().cmd_accept(sid, &args),
            "decline" => self.dealing().cmd_decline(sid, &args),
            "withdraw" => self.dealing().cmd_withdraw(sid, &args),
            "pending" => self.dealing().cmd_pending(sid),
            "stored" => self.cmd_stored(sid, &args),
            "draw" => self.playing().cmd_draw(sid),
            "abort" => self.playing().cmd_abort(sid),
            "adjourn" => self.playing().cmd_adjourn(sid),
            "resign" => self.playing().cmd_resign(sid),
            "flag" => self.playing().cmd_flag(sid),
            "time" => self.cmd_time(sid, &args),
            "refresh" => self.playing().cmd_refresh(sid, &args),
            "moves" => self.cmd_moves(sid, &args),
            "observe" => self.playing().cmd_observe(sid, &args),
            "unobserve" => self.playing().cmd_unobserve(sid, &args),
            "allobservers" => self.playing().cmd_allobservers(sid, &args),
            "follow" => self.accounts.cmd_list(
                &mut self.net,
                sid,
                ListOp::Toggle,
                "follow",
                args.first().copied(),
            ),
            "toggle" | "addlist" | "sublist" | "showlist" => {
                let op = match cmd {
                    "toggle" => ListOp::Toggle,
                    "addlist" => ListOp::Add,
                    "sublist" => ListOp::Remove,
                    _ => ListOp::Show,
                };
                let list = args.first().copied().unwrap_or("");
                self.accounts
                    .cmd_list(&mut self.net, sid, op, list, args.get(1).copied());
            }
            _ => self
                .net
                .reply(sid, &format!("{word}: Command not found.\n")),
        }
    }

    /// `set-2 N V` (ICC): one DG on or off.
    fn cmd_set2(&mut self, sid: Sid, args: &[&str]) {
        let Some((n, v)) = parse_set2(args) else {
            self.net.reply(sid, SET2_USAGE);
            return;
        };
        let was = self.net.dg_on(sid, n);
        if let Some(s) = self.net.sessions.get_mut(&sid) {
            s.level2.set(usize::from(n), v);
        }
        let text = self.icc_view().set2_text(sid, n, v);
        tracing::debug!(sid, dg = n, on = v, was, "set-2");
        self.net.reply(sid, &text);
    }

    /// A command that only reads or changes the caller's session: its answer, when
    /// the session is there.
    fn session_answer(&mut self, sid: Sid, f: impl FnOnce(&mut Session) -> String) {
        if let Some(text) = self.net.sessions.get_mut(&sid).map(f) {
            self.net.reply(sid, &text);
        }
    }

    fn cmd_quit(&mut self, sid: Sid) {
        self.net.send(
            sid,
            "\nThank you for using a Free (GNU) Internet Chess server.\n\n",
        );
        self.net.close(sid);
    }

    fn cmd_promote(&mut self, sid: Sid, args: &[&str]) {
        let piece = match args.first().map(|a| a.to_ascii_lowercase()) {
            None => Some(Piece::Queen),
            Some(a) => match a.as_str() {
                "q" | "queen" => Some(Piece::Queen),
                "r" | "rook" => Some(Piece::Rook),
                "b" | "bishop" => Some(Piece::Bishop),
                "n" | "knight" => Some(Piece::Knight),
                _ => None,
            },
        };
        let Some(piece) = piece else {
            self.net.reply(sid, "Promote to what? Use q, r, b or n.\n");
            return;
        };
        if let Some(s) = self.net.sessions.get_mut(&sid) {
            s.vars.promote = piece;
        }
        let name = match piece {
            Piece::Queen => "QUEEN",
            Piece::Rook => "ROOK",
            Piece::Bishop => "BISHOP",
            _ => "KNIGHT",
        };
        self.net
            .reply(sid, &format!("Promotion piece set to {name}.\n"));
    }

    /// `set` (`quiet`: ICC's `set-quietly`, which answers with the prompt only).
    fn cmd_set(&mut self, sid: Sid, args: &[&str], rest: &str, quiet: bool) {
        let Some(var) = args.first().map(|v| v.to_ascii_lowercase()) else {
            self.net.reply(sid, SET_USAGE);
            return;
        };
        if let Ok(n) = var.parse::<usize>() {
            let msg = self.accounts.cmd_set_note(&self.net, sid, n, rest);
            self.net.reply(sid, if quiet { "" } else { &msg });
            return;
        }
        let value = args.get(1).copied().unwrap_or("");
        let flag = on_off(value);
        let icc = self.net.icc();
        let Some(s) = self.net.sessions.get_mut(&sid) else {
            return;
        };
        let v = &mut s.vars;
        let msg: String = match var.as_str() {
            "style" => match value.parse::<u32>() {
                // ICC's style 13: no board text, the client lives on DGs.
                Ok(13) if icc => {
                    v.style = 13;
                    "Style 13 set.\n".into()
                }
                Ok(n @ 1..=12) => {
                    v.style = n;
                    format!("Style {n} set.\n")
                }
                _ => "Bad value given for variable \"style\".\n".into(),
            },
            "seek" => {
                v.seek = flag.unwrap_or(!v.seek);
                if v.seek {
                    "You will now hear ads.\n"
                } else {
                    "You will not hear ads.\n"
                }
                .into()
            }
            "open" => {
                v.open = flag.unwrap_or(!v.open);
                if v.open {
                    "You are now open to receive match requests.\n"
                } else {
                    "You are no longer receiving match requests.\n"
                }
                .into()
            }
            "bell" => {
                v.bell = flag.unwrap_or(!v.bell);
                if v.bell { "Bell on.\n" } else { "Bell off.\n" }.into()
            }
            "kibitz" => {
                v.kibitz = flag.unwrap_or(!v.kibitz);
                if v.kibitz {
                    "You will now hear kibitzes.\n"
                } else {
                    "You will not hear kibitzes.\n"
                }
                .into()
            }
            "tell" => {
                v.tell = flag.unwrap_or(!v.tell);
                if v.tell {
                    "You will now hear direct tells from unregistered users.\n"
                } else {
                    "You will not hear direct tells from unregistered users.\n"
                }
                .into()
            }
            "shout" => {
                v.shout = flag.unwrap_or(!v.shout);
                if v.shout {
                    "You will now hear shouts.\n"
                } else {
                    "You will not hear shouts.\n"
                }
                .into()
            }
            "rated" => {
                v.rated = flag.unwrap_or(!v.rated);
                if v.rated {
                    "Games will be rated by default.\n"
                } else {
                    "Games will be unrated by default.\n"
                }
                .into()
            }
            "time" => match value.parse::<u32>() {
                Ok(n) if n <= 999 => {
                    v.time = n;
                    format!("Default time set to {n}.\n")
                }
                _ => "Bad value given for variable \"time\".\n".into(),
            },
            "inc" => match value.parse::<u32>() {
                Ok(n) if n <= 999 => {
                    v.inc = n;
                    format!("Default increment set to {n}.\n")
                }
                _ => "Bad value given for variable \"inc\".\n".into(),
            },
            "width" => match value.parse::<u32>() {
                Ok(n @ 32..=240) => {
                    v.width = n;
                    format!("Width set to {n}.\n")
                }
                _ => "Bad value given for variable \"width\".\n".into(),
            },
            "interface" => {
                let text = rest
                    .split_once(char::is_whitespace)
                    .map_or("", |(_, t)| t.trim());
                v.interface = text.chars().take(60).collect();
                String::new()
            }
            "pin" | "gin" | "mailmess" | "highlight" | "cshout" | "jprivate" | "private"
            | "automail" | "pgn" | "notifiedby" | "flip" | "ropen" | "simopen" | "tourney"
            | "kiblevel" | "availinfo" | "availmin" | "availmax" | "height" | "prompt" | "wrap"
            | "level1" => {
                format!("{var} set.\n")
            }
            _ => format!("No such variable \"{var}\".\n"),
        };
        self.net.reply(sid, if quiet { "" } else { &msg });
    }

    fn cmd_iset(&mut self, sid: Sid, args: &[&str]) {
        let Some(var) = args.first().map(|v| v.to_ascii_lowercase()) else {
            self.net.reply(sid, "Usage: iset ivariable [value]\n");
            return;
        };
        let value = on_off(args.get(1).copied().unwrap_or("1"));
        let Some(s) = self.net.sessions.get_mut(&sid) else {
            return;
        };
        if s.vars.lock {
            self.net
                .reply(sid, "Cannot alter: Interface setting locked.\n");
            return;
        }
        let Some(on) = value else {
            self.net
                .reply(sid, &format!("Bad value given for ivariable \"{var}\".\n"));
            return;
        };
        let v = &mut s.vars;
        let known = match var.as_str() {
            "ms" => {
                v.ms = on;
                true
            }
            "nowrap" => {
                v.nowrap = on;
                true
            }
            "defprompt" => {
                v.defprompt = on;
                true
            }
            "seekinfo" => {
                v.seekinfo = on;
                true
            }
            "pendinfo" => {
                v.pendinfo = on;
                true
            }
            "seekremove" => {
                v.seekremove = on;
                true
            }
            "lock" => {
                v.lock = on;
                true
            }
            "startpos" | "block" | "gameinfo" | "graph" | "extascii" | "showownseek"
            | "premove" | "smartmove" | "movecase" | "compressmove" | "allresults"
            | "singleboard" | "pin" | "audiochat" | "xml" => true,
            // FICS's computer-account variables (`help computers`); lasker has none.
            "fr" | "wildcastle" => self.net.cfg.computer_ivars,
            _ => false,
        };
        if !known {
            self.net
                .reply(sid, &format!("No such ivariable \"{var}\".\n"));
            return;
        }
        let mut text = format!("{var} set\n");
        if var == "seekinfo" && on {
            text.push_str("<sc>\n");
            for line in self.dealing().seekinfo_lines() {
                text.push_str(&line);
                text.push('\n');
            }
        }
        if var == "pendinfo" && on {
            for line in self.dealing().pendinfo_lines(sid) {
                text.push_str(&line);
                text.push('\n');
            }
        }
        self.net.reply(sid, &text);
    }

    fn cmd_variables(&mut self, sid: Sid) {
        let Some(s) = self.net.sess(sid) else { return };
        let v = &s.vars;
        let b = |x: bool| u8::from(x);
        let text = format!(
            "Variable settings of {}:\n\n\
             time={:<6} inc={:<6} rated={:<5} open={:<5} seek={}\n\
             style={:<5} bell={:<6} kibitz={:<4} tell={:<5} shout={}\n\
             width={:<5} Interface: {}\n\n",
            s.handle,
            v.time,
            v.inc,
            b(v.rated),
            b(v.open),
            b(v.seek),
            v.style,
            b(v.bell),
            b(v.kibitz),
            b(v.tell),
            b(v.shout),
            v.width,
            if v.interface.is_empty() {
                "NONE"
            } else {
                &v.interface
            },
        );
        self.net.reply(sid, &text);
    }

    fn cmd_ivariables(&mut self, sid: Sid) {
        let Some(s) = self.net.sess(sid) else { return };
        let v = &s.vars;
        let b = |x: bool| u8::from(x);
        let text = format!(
            "Interface variable settings of {}:\n\n\
             ms={}  nowrap={}  defprompt={}  seekinfo={}  pendinfo={}  seekremove={}  lock={}\n\n",
            s.handle,
            b(v.ms),
            b(v.nowrap),
            b(v.defprompt),
            b(v.seekinfo),
            b(v.pendinfo),
            b(v.seekremove),
            b(v.lock)
        );
        self.net.reply(sid, &text);
    }
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn prefixes_and_aliases() {
        assert_eq!(resolve("obs"), Some("observe"));
        assert_eq!(resolve("sough"), Some("sought"));
        assert_eq!(resolve("QUIT"), Some("quit"));
        assert_eq!(resolve("s"), None);
        assert_eq!(resolve("se"), None);
        assert_eq!(resolve("see"), Some("seek"));
        assert_eq!(resolve("set"), Some("set"));
        assert_eq!(resolve("nosuchcommand"), None);
    }
}
