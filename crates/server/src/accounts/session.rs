//! One connected client of the local server: where it stands in the login,
//! who it is once logged in, its `set`/`iset` variables, and what it plays
//! or observes.

use crate::conn::{Out, Sid};
use crate::icc::level2::Level2;
use cozy_chess::Piece;
use std::net::SocketAddr;
use std::time::Instant;
use tokio::sync::mpsc;

/// Where a connection stands in the login dialogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginState {
    /// Waiting for a name at `login: `.
    Name,
    /// A registered name was given; waiting for its password.
    Password { handle: String },
    /// An unregistered or guest name; waiting for return.
    Confirm { name: String },
    /// Logged in: lines are commands.
    Online,
}

/// The variables a client can `set` or `iset`.
#[derive(Debug, Clone)]
pub struct Vars {
    pub style: u32,
    pub ms: bool,
    pub seek: bool,
    pub open: bool,
    pub bell: bool,
    pub seekinfo: bool,
    pub pendinfo: bool,
    pub seekremove: bool,
    pub nowrap: bool,
    pub defprompt: bool,
    pub lock: bool,
    pub kibitz: bool,
    pub tell: bool,
    pub shout: bool,
    pub rated: bool,
    pub time: u32,
    pub inc: u32,
    pub width: u32,
    pub interface: String,
    pub promote: Piece,
}

impl Default for Vars {
    fn default() -> Vars {
        Vars {
            style: 1,
            ms: false,
            seek: true,
            open: true,
            bell: false,
            seekinfo: false,
            pendinfo: false,
            seekremove: false,
            nowrap: false,
            defprompt: false,
            lock: false,
            kibitz: true,
            // lasker's default (`variables` shows `tell=0`): guests' tells are not heard
            // until `set tell 1`.
            tell: false,
            shout: true,
            rated: true,
            time: 2,
            inc: 12,
            width: 79,
            interface: String::new(),
            promote: Piece::Queen,
        }
    }
}

/// One connection.
#[derive(Debug)]
pub struct Session {
    pub id: Sid,
    pub tx: mpsc::Sender<Out>,
    pub peer: SocketAddr,
    pub login: LoginState,
    /// The name once known (empty before).
    pub handle: String,
    pub registered: bool,
    pub computer: bool,
    pub admin: bool,
    /// `(GM)(C)` etc. as shown after the name.
    pub titles: String,
    pub vars: Vars,
    pub connected: Instant,
    pub last_input: Instant,
    /// Game being played.
    pub game: Option<u32>,
    /// Games observed, most recent last.
    pub observing: Vec<u32>,
    pub last_opponent: Option<String>,
    /// The last game's opponent and terms, for `rematch`: (name, base, inc, rated,
    /// Chess960).
    pub last_terms: Option<(String, u32, u32, bool, bool)>,
    pub last_told: Option<String>,
    /// Client speaks timeseal.
    pub timeseal: bool,
    /// Output failed or a close was requested: being torn down.
    pub closing: bool,
    /// `alias` table: (name, text), at most `aliases::MAX_ALIASES`.
    pub aliases: Vec<(String, String)>,
    /// ICC dialect: the level-2 datagrams this client asked for (none on FICS).
    pub level2: Level2,
    /// The tournament flag, set by the director while the player is in one of its
    /// tournaments: the server then refuses every other match.
    pub tourney: bool,
    /// Channels listened to (`+channel N`).
    pub channels: Vec<u32>,
}

impl Session {
    pub fn new(id: Sid, tx: mpsc::Sender<Out>, peer: SocketAddr) -> Session {
        let now = Instant::now();
        Session {
            id,
            tx,
            peer,
            login: LoginState::Name,
            handle: String::new(),
            registered: false,
            computer: false,
            admin: false,
            titles: String::new(),
            vars: Vars::default(),
            connected: now,
            last_input: now,
            game: None,
            observing: Vec::new(),
            last_opponent: None,
            last_terms: None,
            last_told: None,
            timeseal: false,
            closing: false,
            aliases: Vec::new(),
            level2: Level2::none(),
            tourney: false,
            channels: Vec::new(),
        }
    }

    /// Logged in and not being torn down.
    pub fn online(&self) -> bool {
        self.login == LoginState::Online && !self.closing
    }

    /// The name with its title marks (`Crafty(C)`); guests/unregistered get `(U)`.
    pub fn display_name(&self) -> String {
        if self.registered {
            format!("{}{}", self.handle, self.titles)
        } else {
            format!("{}(U)", self.handle)
        }
    }
}
