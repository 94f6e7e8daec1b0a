//! The bot's connection state ([`Connection`], the `conn` part of the session): the
//! name the server knows wily by, the site the game records name, whether a connection
//! is up, whether a newer login of the account took it over, and the interface
//! variables this server refused. Set at login and disconnect (`session.rs`); read by
//! every handler (`is_me`), the records (`play/handle.rs`, `watch/handle.rs`), the status
//! (`run/status.rs`) and the account rules (`ops/account.rs`).

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
}
