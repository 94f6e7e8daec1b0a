//! The datagram reader's state: the games it follows, the board updates it holds until
//! they are complete, our handle and the warnings to log; and how a held update is handed
//! on ([`IccReader::settle`]). The datagram families that change it are read in the files
//! beside this one.

use std::collections::HashMap;

use crate::events::{Creating, Event, GameStart, Rating, RatingFlag};
use crate::icc::datagram::Datagram;
use crate::icc::game::GameState;
use crate::icc::info::IccInfo;
use crate::icc::numbers::*;
use crate::icc::parse::fields::{category_of, variant_of};

/// Which optional fields `DG_SEND_MOVES` carries (the switches 33-36 and 113).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveFields {
    pub algebraic: bool,
    pub smith: bool,
    pub time: bool,
    pub clock: bool,
    pub variation: bool,
}

impl Default for MoveFields {
    /// What wily turns on: algebraic, Smith, time and clock.
    fn default() -> Self {
        MoveFields {
            algebraic: true,
            smith: true,
            time: true,
            clock: true,
            variation: false,
        }
    }
}

impl MoveFields {
    /// The fields the given datagram settings turn on.
    pub fn from_settings(on: &[u16]) -> MoveFields {
        MoveFields {
            algebraic: on.contains(&DG_MOVE_ALGEBRAIC),
            smith: on.contains(&DG_MOVE_SMITH),
            time: on.contains(&DG_MOVE_TIME),
            clock: on.contains(&DG_MOVE_CLOCK),
            variation: on.contains(&DG_IS_VARIATION),
        }
    }
}

/// The datagram reader of one connection.
#[derive(Debug, Default)]
pub struct IccReader {
    pub(super) me: Option<String>,
    pub(super) moves: MoveFields,
    pub(super) games: HashMap<u32, GameState>,
    /// Games whose board update is held, in the order they were touched.
    pub(super) held: Vec<u32>,
    pub(super) warnings: Vec<String>,
}

impl IccReader {
    pub fn new(moves: MoveFields) -> IccReader {
        IccReader {
            moves,
            ..Default::default()
        }
    }

    /// Our handle, once `DG_WHO_AM_I` has said it.
    pub fn me(&self) -> Option<&str> {
        self.me.as_deref()
    }

    /// Problems met since the last call (malformed datagrams, illegal moves), to log.
    pub fn warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    /// The games being followed (played, observed, examined).
    pub fn game(&self, game: u32) -> Option<&GameState> {
        self.games.get(&game)
    }
    pub(super) fn warn(&mut self, dg: &Datagram, why: &str) {
        let name = name(dg.code).unwrap_or("unknown datagram");
        self.warnings.push(format!("{name} {dg}: {why}; skipped"));
    }

    pub(super) fn is_me(&self, name: &str) -> bool {
        self.me
            .as_deref()
            .is_some_and(|m| m.eq_ignore_ascii_case(name))
    }

    pub(super) fn hold(&mut self, game: u32) {
        if !self.held.contains(&game) {
            self.held.push(game);
        }
    }

    /// True when a board update or game start is held (call [`IccReader::settle`] after a
    /// moment of silence).
    pub fn has_held(&self) -> bool {
        !self.held.is_empty()
    }

    /// A level-1 unit begins or ends: a held update is complete (a unit holds one
    /// command's whole output), then the unit goes out as [`IccInfo`].
    pub fn unit(&mut self, info: IccInfo, out: &mut Vec<Event>) {
        self.settle(out);
        out.push(Event::Icc(Box::new(info)));
    }

    /// Hands on every held board update and game start.
    pub fn settle(&mut self, out: &mut Vec<Event>) {
        for game in std::mem::take(&mut self.held) {
            if let Some(g) = self.games.get_mut(&game) {
                if g.announce_due {
                    g.announce_due = false;
                    // A game that starts with moves already played is a resumed one.
                    announce(g, g.position.ply() > 0, out);
                }
                if g.initial_moves_due == 0 {
                    out.push(Event::Board(Box::new(g.style12())));
                } else {
                    // The promised initial moves never came: show what there is.
                    g.initial_moves_due = 0;
                    out.push(Event::Board(Box::new(g.style12())));
                }
            }
        }
    }
}

/// `Creating:` and the game-start notice of a game of ours.
fn announce(g: &GameState, continuing: bool, out: &mut Vec<Event>) {
    let category = category_of(&g.rating_type, g.wild);
    let rating = |r: u32| {
        if r == 0 {
            Rating::Unrated
        } else {
            Rating::Rated {
                value: r,
                flag: RatingFlag::Established,
            }
        }
    };
    out.push(Event::Creating(Creating {
        white: g.white.clone(),
        white_rating: rating(g.white_rating),
        black: g.black.clone(),
        black_rating: rating(g.black_rating),
        rated: g.rated,
        category: category.clone(),
        base_minutes: g.base_minutes,
        increment_secs: g.increment_secs,
    }));
    out.push(Event::GameStart(GameStart {
        game: g.game,
        white: g.white.clone(),
        black: g.black.clone(),
        continuing,
        rated: g.rated,
        category: match variant_of(g.wild) {
            Some(v) => v,
            None => category,
        },
    }));
}
