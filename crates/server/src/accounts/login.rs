//! The login dialogue of the local server, in the lasker server's shape:
//! banner, `login: `, registered names asked for a password between telnet
//! WILL ECHO / WONT ECHO, `guest` turned into `GuestXXXX`, other names let in
//! unregistered after "Press return", a wrong password answered with
//! `**** Invalid password! ****` and the connection closed. The dialogue ends in an
//! [`Admit`]: the event loop (`events.rs`) takes out the sessions it replaces, then
//! lets the player in with [`Accounts::enter`] and [`Accounts::welcome`].

use crate::accounts::session::LoginState;
use crate::accounts::store::Accounts;
use crate::conn::Sid;
use crate::core::Net;
use crate::icc::login::*;
use rand::rngs::StdRng;
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

/// A name the dialogue lets in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admit {
    /// The handle as the server shows it.
    pub handle: String,
    pub registered: bool,
    /// Older connections of the same registered handle, told they are replaced and
    /// closed; the caller removes them before the new one enters.
    pub kicked: Vec<Sid>,
}

impl Accounts {
    /// The banner and first `login: ` prompt.
    pub fn send_banner(&self, net: &mut Net, sid: Sid) {
        let name = net.cfg.server_name.clone();
        if net.icc() {
            let text = format!(
                "\n  wily local chess server\n\n  Server name : {name}    Dialect : ICC (level 2 datagrams)\n\n\
                 Enter \"guest\" to play unrated games as a guest.\n{ICC_LOGIN_PROMPT}"
            );
            net.send(sid, &text);
            return;
        }
        let text = format!(
            "\n            _ _\n  __      __(_) |_   _\n  \\ \\ /\\ / /| | | | | |\n   \\ V  V / | | | |_| |\n    \\_/\\_/  |_|_|\\__, |\n                 |___/   local chess server\n\n\
             Server name : {name}    Dialect : FICS (lasker flavour)\n\n{LOGIN_PROMPT}"
        );
        net.send(sid, &text);
    }

    fn login_again(net: &mut Net, sid: Sid, code: u8, message: &str) {
        if let Some(s) = net.sessions.get_mut(&sid) {
            s.login = LoginState::Name;
        }
        if net.icc() {
            login_failed(net, sid, code, message);
            net.send(sid, &format!("\n{message}\n\n{ICC_LOGIN_PROMPT}"));
            return;
        }
        net.send(sid, &format!("\n{message}\n\n{LOGIN_PROMPT}"));
    }

    /// A line typed before the session is logged in; the name to let in, when the
    /// dialogue is over.
    pub fn on_login_line(
        &self,
        net: &mut Net,
        rng: &mut StdRng,
        sid: Sid,
        state: LoginState,
        line: &str,
    ) -> Option<Admit> {
        match state {
            LoginState::Name => self.on_login_name(net, rng, sid, line),
            LoginState::Password { handle } => self.on_password(net, sid, &handle, line),
            LoginState::Confirm { name } => {
                net.send_bytes(sid, WONT_ECHO.to_vec());
                if name_in_use(net, &name) {
                    Self::login_again(
                        net,
                        sid,
                        ALREADY_LOGGED_IN,
                        &format!("Sorry, \"{name}\" is already logged in.  Try again."),
                    );
                    return None;
                }
                Some(Admit {
                    handle: name,
                    registered: false,
                    kicked: Vec::new(),
                })
            }
            LoginState::Online => None,
        }
    }

    fn on_login_name(
        &self,
        net: &mut Net,
        rng: &mut StdRng,
        sid: Sid,
        line: &str,
    ) -> Option<Admit> {
        if net.icc() && login_setting(net, sid, line) {
            return None;
        }
        let name = line.split_whitespace().next().unwrap_or("");
        // ICC takes the name and the password on one line.
        if let (true, Some(pw)) = (net.icc(), line.split_whitespace().nth(1)) {
            if let Some(handle) = self.get(name).map(|a| a.handle.clone()) {
                return self.on_password(net, sid, &handle, pw);
            }
        }
        if name.len() < 3 {
            Self::login_again(
                net,
                sid,
                NAME_TOO_SHORT,
                "A name should be at least three characters long!  Try again.",
            );
            return None;
        }
        if !name.bytes().all(|b| b.is_ascii_alphabetic()) {
            Self::login_again(
                net,
                sid,
                NAME_BAD_LETTERS,
                "Sorry, names can only consist of lower and upper case letters.  Try again.",
            );
            return None;
        }
        if name.len() > 17 {
            Self::login_again(
                net,
                sid,
                NAME_TOO_LONG,
                "Sorry, names may be at most 17 characters long.  Try again.",
            );
            return None;
        }
        if name.eq_ignore_ascii_case("guest") {
            let g = guest_name(net, rng);
            if let Some(s) = net.sessions.get_mut(&sid) {
                s.login = LoginState::Confirm { name: g.clone() };
            }
            net.send_bytes(sid, WILL_ECHO.to_vec());
            net.send(
                sid,
                &format!(
                    "\nLogging you in as \"{g}\"\n\n\"{g}\" is not a registered name.  You may play unrated games as a guest.\n\
                     (After logging in, do \"help register\" for more info on how to register.)\n\n\
                     Press return to enter the server as \"{g}\":"
                ),
            );
            return None;
        }
        if let Some(acc) = self.get(name) {
            let handle = acc.handle.clone();
            if let Some(s) = net.sessions.get_mut(&sid) {
                s.login = LoginState::Password {
                    handle: handle.clone(),
                };
            }
            net.send_bytes(sid, WILL_ECHO.to_vec());
            net.send(
                sid,
                &format!(
                    "\n\"{handle}\" is a registered name.  If it is yours, type the password.\n\
                     If not, just hit return to try another name.\n\npassword: "
                ),
            );
            return None;
        }
        if name.len() >= 5 && name[..5].eq_ignore_ascii_case("guest") {
            Self::login_again(
                net,
                sid,
                SOMETHING_WRONG,
                "Sorry, names starting with \"guest\" are reserved.  Try again.",
            );
            return None;
        }
        if name_in_use(net, name) {
            Self::login_again(
                net,
                sid,
                ALREADY_LOGGED_IN,
                &format!("Sorry, \"{name}\" is already logged in.  Try again."),
            );
            return None;
        }
        let name = name.to_string();
        if let Some(s) = net.sessions.get_mut(&sid) {
            s.login = LoginState::Confirm { name: name.clone() };
        }
        net.send_bytes(sid, WILL_ECHO.to_vec());
        net.send(
            sid,
            &format!(
                "\n\"{name}\" is not a registered name.  You may play unrated games as a guest.\n\
                 (After logging in, do \"help register\" for more info on how to register.)\n\n\
                 Press return to enter the server as \"{name}\":"
            ),
        );
        None
    }

    fn on_password(&self, net: &mut Net, sid: Sid, handle: &str, line: &str) -> Option<Admit> {
        net.send_bytes(sid, WONT_ECHO.to_vec());
        if line.is_empty() {
            if let Some(s) = net.sessions.get_mut(&sid) {
                s.login = LoginState::Name;
            }
            net.send(sid, &format!("\n{LOGIN_PROMPT}"));
            return None;
        }
        let ok = self.get(handle).is_some_and(|a| a.password_matches(line));
        if !ok {
            tracing::warn!(sid, handle, "wrong password");
            login_failed(net, sid, BAD_PASSWORD, "Invalid password.");
            net.send(sid, "\n\n**** Invalid password! ****\n\n");
            net.close(sid);
            return None;
        }
        // A registered user logging in again replaces the old connection.
        let kicked: Vec<Sid> = net
            .sessions
            .values()
            .filter(|s| {
                s.id != sid
                    && s.login == LoginState::Online
                    && s.handle.eq_ignore_ascii_case(handle)
            })
            .map(|s| s.id)
            .collect();
        Some(Admit {
            handle: handle.to_string(),
            registered: true,
            kicked,
        })
    }

    /// The old connection `old` of a handle that logged in again: told and closed
    /// (lasker's words); the caller removes its session.
    pub fn kick(net: &mut Net, old: Sid, handle: &str) {
        net.send(
            old,
            &format!("**** {handle} has arrived - you can't both be logged in. ****\n"),
        );
        net.close(old);
    }

    /// The admitted player is in: the notice that older connections were replaced, the
    /// session's name and account flags.
    pub fn enter(&self, net: &mut Net, sid: Sid, admit: &Admit) {
        let (name, registered) = (admit.handle.as_str(), admit.registered);
        if !admit.kicked.is_empty() {
            // lasker's words (the new login's line starts with a space).
            net.send(
                sid,
                &format!("\n **** {name} is already logged in - kicking them out. ****\n"),
            );
        }
        let (computer, admin, titles) = match self.get(name).filter(|_| registered) {
            Some(a) => (a.computer, a.admin, a.title_suffix()),
            None => (false, false, String::new()),
        };
        if let Some(s) = net.sessions.get_mut(&sid) {
            s.login = LoginState::Online;
            s.handle = name.to_string();
            s.registered = registered;
            s.computer = computer;
            s.admin = admin;
            s.titles = titles;
        }
        let peer = net
            .sess(sid)
            .map(|s| s.peer.to_string())
            .unwrap_or_default();
        tracing::info!(sid, handle = name, registered, %peer, "logged in");
    }

    /// The welcome after [`Accounts::enter`]; `partners`: the online players who
    /// have an adjourned game with a registered player, told of the arrival.
    pub fn welcome(&self, net: &mut Net, sid: Sid, admit: &Admit, partners: Vec<String>) {
        let (name, registered) = (admit.handle.as_str(), admit.registered);
        let mark = if registered { "" } else { "(U)" };
        let mut text = format!("\n**** Starting FICS session as {name}{mark} ****\n{WELCOME}");
        if registered {
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
                    if let Some(psid) = net.find_online(&p) {
                        net.notify(psid, &format!("Notification: {name}, who has an adjourned game with you, has arrived.\n"));
                    }
                }
            }
        } else {
            text.push('\n');
            text.push_str(NEWCOMERS);
            text.push('\n');
        }
        text.push_str(net.prompt());
        net.send(sid, &text);
    }
}

fn name_in_use(net: &Net, name: &str) -> bool {
    net.sessions
        .values()
        .any(|s| s.login == LoginState::Online && !s.closing && s.handle.eq_ignore_ascii_case(name))
}

fn guest_name(net: &Net, rng: &mut StdRng) -> String {
    loop {
        let mut n = String::from("Guest");
        for _ in 0..4 {
            n.push(char::from(rng.gen_range(b'A'..=b'Z')));
        }
        let taken = name_in_use(net, &n)
            || net
                .sessions
                .values()
                .any(|s| matches!(&s.login, LoginState::Confirm { name } if *name == n));
        if !taken {
            return n;
        }
    }
}
