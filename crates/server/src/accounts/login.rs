//! The login dialogue of the local server, in the lasker server's shape:
//! banner, `login: `, registered names asked for a password between telnet
//! WILL ECHO / WONT ECHO, `guest` turned into `GuestXXXX`, other names let in
//! unregistered after "Press return", a wrong password answered with
//! `**** Invalid password! ****` and the connection closed.

use crate::accounts::session::LoginState;
use crate::conn::{Out, Sid};
use crate::core::Core;
use crate::icc::login::*;
use rand::Rng;

const WILL_ECHO: [u8; 3] = [255, 251, 1];
const WONT_ECHO: [u8; 3] = [255, 252, 1];

const LOGIN_PROMPT: &str =
    "If you are not a registered player enter the login name \"guest\"\nlogin: ";

const WELCOME: &str =
    "__________________________________________________________________________ \n\
Do 'help' for a list of the commands that are available.\n\
This is wily's local chess server: games here are practice, nothing is kept.\n\
__________________________________________________________________________\n";

const NEWCOMERS: &str = "\nNewcomers:\n  type 'help' for the commands this server knows.\n  Guests play unrated games; names are not kept after you leave.\n";

impl Core {
    /// Remove a session: its game adjourns (or aborts), its seeks, offers and
    /// observations go. `quit`: it left with `quit` rather than dropping.
    pub fn remove_session(&mut self, sid: Sid, quit: bool) {
        let _ = quit;
        let (game, observing) = match self.net.sessions.get(&sid) {
            Some(s) => (s.game, s.observing.clone()),
            None => return,
        };
        if let Some(g) = game {
            let examining = self
                .games
                .get(&g)
                .and_then(|x| x.examined.as_ref())
                .is_some_and(|x| x.examiner == Some(sid));
            if examining {
                self.close_examined(g);
            } else {
                self.player_lost_connection(g, sid);
            }
        }
        for g in observing {
            if let Some(game) = self.games.get_mut(&g) {
                game.observers.retain(|o| *o != sid);
            }
        }
        self.remove_seeks_of(sid, false);
        self.remove_offers_involving(sid);
        if let Some(s) = self.net.sessions.remove(&sid) {
            let _ = s.tx.try_send(Out::Close);
            tracing::info!(sid, handle = %s.handle, "session closed");
        }
    }

    /// The banner and first `login: ` prompt.
    pub fn send_banner(&mut self, sid: Sid) {
        let name = self.net.cfg.server_name.clone();
        if self.net.icc() {
            let text = format!(
                "\n  wily local chess server\n\n  Server name : {name}    Dialect : ICC (level 2 datagrams)\n\n\
                 Enter \"guest\" to play unrated games as a guest.\n{ICC_LOGIN_PROMPT}"
            );
            self.net.send(sid, &text);
            return;
        }
        let text = format!(
            "\n            _ _\n  __      __(_) |_   _\n  \\ \\ /\\ / /| | | | | |\n   \\ V  V / | | | |_| |\n    \\_/\\_/  |_|_|\\__, |\n                 |___/   local chess server\n\n\
             Server name : {name}    Dialect : FICS (lasker flavour)\n\n{LOGIN_PROMPT}"
        );
        self.net.send(sid, &text);
    }

    fn login_again(&mut self, sid: Sid, code: u8, message: &str) {
        if let Some(s) = self.net.sessions.get_mut(&sid) {
            s.login = LoginState::Name;
        }
        if self.net.icc() {
            self.icc_login_failed(sid, code, message);
            self.net
                .send(sid, &format!("\n{message}\n\n{ICC_LOGIN_PROMPT}"));
            return;
        }
        self.net
            .send(sid, &format!("\n{message}\n\n{LOGIN_PROMPT}"));
    }

    /// A line typed before the session is logged in.
    pub fn on_login_line(&mut self, sid: Sid, state: LoginState, line: &str) {
        match state {
            LoginState::Name => self.on_login_name(sid, line),
            LoginState::Password { handle } => self.on_password(sid, &handle, line),
            LoginState::Confirm { name } => {
                self.net.send_bytes(sid, WONT_ECHO.to_vec());
                if self.name_in_use(&name) {
                    self.login_again(
                        sid,
                        ALREADY_LOGGED_IN,
                        &format!("Sorry, \"{name}\" is already logged in.  Try again."),
                    );
                    return;
                }
                self.finish_login(sid, &name, false);
            }
            LoginState::Online => {}
        }
    }

    fn name_in_use(&self, name: &str) -> bool {
        self.net.sessions.values().any(|s| {
            s.login == LoginState::Online && !s.closing && s.handle.eq_ignore_ascii_case(name)
        })
    }

    fn guest_name(&mut self) -> String {
        loop {
            let mut n = String::from("Guest");
            for _ in 0..4 {
                n.push(char::from(self.rng.gen_range(b'A'..=b'Z')));
            }
            let taken = self.name_in_use(&n)
                || self
                    .net
                    .sessions
                    .values()
                    .any(|s| matches!(&s.login, LoginState::Confirm { name } if *name == n));
            if !taken {
                return n;
            }
        }
    }

    fn on_login_name(&mut self, sid: Sid, line: &str) {
        if self.net.icc() && self.icc_login_setting(sid, line) {
            return;
        }
        let name = line.split_whitespace().next().unwrap_or("");
        // ICC takes the name and the password on one line.
        if let (true, Some(pw)) = (self.net.icc(), line.split_whitespace().nth(1)) {
            if let Some(handle) = self.account(name).map(|a| a.handle.clone()) {
                self.on_password(sid, &handle, pw);
                return;
            }
        }
        if name.len() < 3 {
            self.login_again(
                sid,
                NAME_TOO_SHORT,
                "A name should be at least three characters long!  Try again.",
            );
            return;
        }
        if !name.bytes().all(|b| b.is_ascii_alphabetic()) {
            self.login_again(
                sid,
                NAME_BAD_LETTERS,
                "Sorry, names can only consist of lower and upper case letters.  Try again.",
            );
            return;
        }
        if name.len() > 17 {
            self.login_again(
                sid,
                NAME_TOO_LONG,
                "Sorry, names may be at most 17 characters long.  Try again.",
            );
            return;
        }
        if name.eq_ignore_ascii_case("guest") {
            let g = self.guest_name();
            if let Some(s) = self.net.sessions.get_mut(&sid) {
                s.login = LoginState::Confirm { name: g.clone() };
            }
            self.net.send_bytes(sid, WILL_ECHO.to_vec());
            self.net.send(
                sid,
                &format!(
                    "\nLogging you in as \"{g}\"\n\n\"{g}\" is not a registered name.  You may play unrated games as a guest.\n\
                     (After logging in, do \"help register\" for more info on how to register.)\n\n\
                     Press return to enter the server as \"{g}\":"
                ),
            );
            return;
        }
        if let Some(acc) = self.account(name) {
            let handle = acc.handle.clone();
            if let Some(s) = self.net.sessions.get_mut(&sid) {
                s.login = LoginState::Password {
                    handle: handle.clone(),
                };
            }
            self.net.send_bytes(sid, WILL_ECHO.to_vec());
            self.net.send(
                sid,
                &format!(
                    "\n\"{handle}\" is a registered name.  If it is yours, type the password.\n\
                     If not, just hit return to try another name.\n\npassword: "
                ),
            );
            return;
        }
        if name.len() >= 5 && name[..5].eq_ignore_ascii_case("guest") {
            self.login_again(
                sid,
                SOMETHING_WRONG,
                "Sorry, names starting with \"guest\" are reserved.  Try again.",
            );
            return;
        }
        if self.name_in_use(name) {
            self.login_again(
                sid,
                ALREADY_LOGGED_IN,
                &format!("Sorry, \"{name}\" is already logged in.  Try again."),
            );
            return;
        }
        let name = name.to_string();
        if let Some(s) = self.net.sessions.get_mut(&sid) {
            s.login = LoginState::Confirm { name: name.clone() };
        }
        self.net.send_bytes(sid, WILL_ECHO.to_vec());
        self.net.send(
            sid,
            &format!(
                "\n\"{name}\" is not a registered name.  You may play unrated games as a guest.\n\
                 (After logging in, do \"help register\" for more info on how to register.)\n\n\
                 Press return to enter the server as \"{name}\":"
            ),
        );
    }

    fn on_password(&mut self, sid: Sid, handle: &str, line: &str) {
        self.net.send_bytes(sid, WONT_ECHO.to_vec());
        if line.is_empty() {
            if let Some(s) = self.net.sessions.get_mut(&sid) {
                s.login = LoginState::Name;
            }
            self.net.send(sid, &format!("\n{LOGIN_PROMPT}"));
            return;
        }
        let ok = self
            .account(handle)
            .is_some_and(|a| a.password_matches(line));
        if !ok {
            tracing::warn!(sid, handle, "wrong password");
            self.icc_login_failed(sid, BAD_PASSWORD, "Invalid password.");
            self.net.send(sid, "\n\n**** Invalid password! ****\n\n");
            self.net.close(sid);
            return;
        }
        // A registered user logging in again replaces the old connection.
        let old: Vec<Sid> = self
            .net
            .sessions
            .values()
            .filter(|s| {
                s.id != sid
                    && s.login == LoginState::Online
                    && s.handle.eq_ignore_ascii_case(handle)
            })
            .map(|s| s.id)
            .collect();
        let mut notice = String::new();
        // lasker's words on both sides (the new login's line starts with a space).
        for o in old {
            self.net.send(
                o,
                &format!("**** {handle} has arrived - you can't both be logged in. ****\n"),
            );
            self.net.close(o);
            self.remove_session(o, false);
            notice = format!(" **** {handle} is already logged in - kicking them out. ****\n");
        }
        if !notice.is_empty() {
            self.net.send(sid, &format!("\n{notice}"));
        }
        self.finish_login(sid, handle, true);
    }

    fn finish_login(&mut self, sid: Sid, name: &str, registered: bool) {
        let (computer, admin, titles) = match self.account(name).filter(|_| registered) {
            Some(a) => (a.computer, a.admin, a.title_suffix()),
            None => (false, false, String::new()),
        };
        if let Some(s) = self.net.sessions.get_mut(&sid) {
            s.login = LoginState::Online;
            s.handle = name.to_string();
            s.registered = registered;
            s.computer = computer;
            s.admin = admin;
            s.titles = titles;
        }
        let peer = self
            .net
            .sess(sid)
            .map(|s| s.peer.to_string())
            .unwrap_or_default();
        tracing::info!(sid, handle = name, registered, %peer, "logged in");
        if self.net.icc() {
            self.icc_logged_in(sid);
        }
        let mark = if registered { "" } else { "(U)" };
        let mut text = format!("\n**** Starting FICS session as {name}{mark} ****\n{WELCOME}");
        if registered {
            let partners = self.adjourned_partners_online(name);
            if partners.is_empty() {
                text.push_str("\n\n");
            } else {
                let n = partners.len();
                let who = if n == 1 {
                    "player, who has an adjourned game with you, is"
                } else {
                    "players, who have an adjourned game with you, are"
                };
                text.push_str(&format!("\n{n} {who} online:\x07\n"));
                for p in &partners {
                    text.push_str(&format!("{p}  "));
                }
                text.push_str("\n\n");
                for p in partners {
                    if let Some(psid) = self.net.find_online(&p) {
                        self.net.notify(psid, &format!("Notification: {name}, who has an adjourned game with you, has arrived.\n"));
                    }
                }
            }
        } else {
            text.push('\n');
            text.push_str(NEWCOMERS);
            text.push('\n');
        }
        text.push_str(self.net.prompt());
        self.net.send(sid, &text);
    }
}
