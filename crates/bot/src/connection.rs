//! The bot's connection state ([`Connection`], the `conn` part of the shared [`Bot`](crate::state::Bot)):
//! the name the server knows wily by, the site the game records name, whether a connection
//! is up, whether a newer login of the account took it over, and the interface variables
//! this server refused: a FICS computer must set them at every login to be offered the
//! variants it accepts (`iset fr 1` for Chess960), and a server without one (lasker) is
//! not sent it again. Set at login and disconnect (`session.rs`); read by every handler
//! (`is_me`), the records and the status.

use config::Config;
use ics::Dialect;
use std::collections::HashSet;

/// The connection part of the session.
pub(crate) struct Connection {
    /// The handle the server knows wily by (empty before the first login).
    pub me: String,
    /// The server, as the game records' `Site` tag names it.
    pub site: String,
    /// A connection is up and logged in.
    pub connected: bool,
    /// A newer login of this account took over the last connection.
    pub taken_over: bool,
    /// Interface variables the server answered `No such ivariable` to: not sent again.
    pub refused_ivars: HashSet<String>,
}

impl Connection {
    /// Not connected yet, to `site`.
    pub fn new(site: String) -> Connection {
        Connection {
            me: String::new(),
            site,
            connected: false,
            taken_over: false,
            refused_ivars: HashSet::new(),
        }
    }

    /// `name` is wily's own handle (ASCII case ignored; never before the login).
    pub fn is_me(&self, name: &str) -> bool {
        !self.me.is_empty() && name.eq_ignore_ascii_case(&self.me)
    }

    /// The interface variables to send at the next login, before `iset lock 1`: FICS
    /// resets them at every login. Those a server refused are left out.
    pub fn login_ivariables(&self, cfg: &Config) -> Vec<(String, String)> {
        if cfg.server.dialect != Dialect::Fics {
            return Vec::new();
        }
        let mut v: Vec<(String, String)> = Vec::new();
        for var in cfg.accept.variants.iter().filter_map(|x| ivariable_for(x)) {
            if !self.refused_ivars.contains(var) && !v.iter().any(|(k, _)| k == var) {
                v.push((var.to_string(), "1".to_string()));
            }
        }
        v
    }

    /// `No such ivariable "fr".`: this server has no such variable (lasker); logged once,
    /// and not sent at later logins.
    pub(crate) fn setting_refused(&mut self, cfg: &Config, name: &str) {
        let name = name.trim().to_ascii_lowercase();
        let ours = cfg
            .accept
            .variants
            .iter()
            .filter_map(|x| ivariable_for(x))
            .any(|v| v == name);
        if ours && self.refused_ivars.insert(name.clone()) {
            tracing::warn!(
                "the server has no ivariable {name:?}: not sent again; it may offer no games of that variant to this account"
            );
        }
    }
}

/// The interface variable a variant of `accept.variants` needs on FICS (`help
/// computers`: a computer open to Chess960 must `iset fr 1`; `iset wildcastle 1` is for
/// the wild boards with shuffled castling, which wily does not play, so no variant asks
/// for it).
fn ivariable_for(variant: &str) -> Option<&'static str> {
    match variant {
        "chess960" => Some("fr"),
        _ => None,
    }
}
