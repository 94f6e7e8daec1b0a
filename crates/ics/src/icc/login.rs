//! What wily turns on at an ICC login, and why: the datagrams a computer account needs to
//! play, given in the `level2settings=` line typed at the `login:` prompt (so a game that
//! is resumed the moment we log in is already followed), and the rest with `set-2 N 1`
//! once logged in (ICC's advice: nothing bulky at the login prompt).
//!
//! [`CHOICES`] is the one table: the login line, the commands after login and the table
//! in `docs/icc.md` all come from it (a test checks the page lists every row).

use crate::dialect::Dialect;
use crate::icc::numbers::*;

/// When a datagram is turned on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// In the `level2settings=` line at the login prompt.
    AtLogin,
    /// With `set-2 N 1` after login.
    AfterLogin,
}

/// One datagram wily turns on.
#[derive(Debug, Clone, Copy)]
pub struct Choice {
    pub code: u16,
    pub when: When,
    /// Why wily wants it.
    pub why: &'static str,
}

const fn at(code: u16, why: &'static str) -> Choice {
    Choice {
        code,
        when: When::AtLogin,
        why,
    }
}

const fn after(code: u16, why: &'static str) -> Choice {
    Choice {
        code,
        when: When::AfterLogin,
        why,
    }
}

/// Every datagram wily turns on on ICC.
pub const CHOICES: &[Choice] = &[
    at(
        DG_WHO_AM_I,
        "our handle as the server spells it (a guest learns its name here)",
    ),
    at(
        DG_LOGIN_FAILED,
        "a refused login as a code, not an English sentence",
    ),
    at(
        DG_MY_GAME_STARTED,
        "our games: players, wild number, rated or not, clocks, ratings, titles",
    ),
    at(
        DG_MY_GAME_RESULT,
        "result, reason code and description of our games",
    ),
    at(DG_MY_GAME_ENDED, "an examined game of ours is gone"),
    at(
        DG_MY_RELATION_TO_GAME,
        "a game stops being ours (symbol X): state is dropped",
    ),
    at(
        DG_POSITION_BEGIN,
        "the start FEN and the number of moves that follow: wild games, resumed games",
    ),
    at(DG_SEND_MOVES, "every move of our games and observed ones"),
    at(
        DG_MOVE_ALGEBRAIC,
        "moves carry SAN (kept as the server wrote it)",
    ),
    at(
        DG_MOVE_SMITH,
        "moves carry coordinates with castling and capture marks (what wily plays)",
    ),
    at(DG_MOVE_TIME, "moves carry the time the mover used"),
    at(
        DG_MOVE_CLOCK,
        "moves carry the mover's clock after the increment",
    ),
    at(DG_MSEC, "both clocks in milliseconds and whose clock runs"),
    at(
        DG_MY_TURN,
        "marks the end of a move's update: the board is handed to the bot",
    ),
    at(
        DG_ILLEGAL_MOVE,
        "a refused move with a reason code (not your move, illegal, ...)",
    ),
    at(
        DG_OFFERS_IN_MY_GAME,
        "draw, adjourn, abort and takeback offers in our games",
    ),
    at(DG_TAKEBACK, "a takeback happened: the position goes back"),
    at(DG_SET_CLOCK, "a clock was set (moretime, setclock)"),
    at(DG_MORETIME, "time added to a running clock"),
    at(
        DG_MOVE_LAG,
        "the lag ICC charged to each move (only with timestamp)",
    ),
    at(
        DG_KNOWS_FISCHER_RANDOM,
        "wily applies wild 22 (Chess960) moves itself, castling included",
    ),
    at(
        DG_MATCH,
        "challenges to us and ours, with titles and wild number",
    ),
    at(
        DG_MATCH_REMOVED,
        "a challenge was withdrawn, declined or became a game",
    ),
    at(
        DG_PERSONAL_TELL,
        "tells (operator commands) with the sender's titles",
    ),
    at(DG_PERSONAL_TELL_ECHO, "our own tells were delivered"),
    after(DG_STARTED_OBSERVING, "games we observe: players and clocks"),
    after(DG_STOP_OBSERVING, "we stopped observing a game"),
    after(
        DG_KIBITZ,
        "kibitzes and whispers with game number and titles",
    ),
    after(
        DG_SEEK,
        "seek ads (opponents' titles feed the lists); bulky, so after login",
    ),
    after(DG_SEEK_REMOVED, "a seek ad is gone"),
    after(DG_TOURNEY, "tournaments and events that can be joined"),
    after(DG_REMOVE_TOURNEY, "an event is closed"),
];

/// The datagram numbers turned on, at login and after.
pub fn turned_on() -> Vec<u16> {
    CHOICES.iter().map(|c| c.code).collect()
}

/// The lines typed at the first `login:` prompt before the handle.
pub fn login_preamble() -> Vec<String> {
    let codes: Vec<u16> = CHOICES
        .iter()
        .filter(|c| c.when == When::AtLogin)
        .map(|c| c.code)
        .collect();
    vec![format!("level2settings={}", level2settings(&codes))]
}

/// The commands sent once logged in with level 2 on: the text settings that still matter
/// (style 13: no board text, the datagrams carry the game), then `set-2 N 1` for the
/// datagrams not turned on at login.
pub fn setup_commands(interface: &str) -> Vec<String> {
    let d = Dialect::Icc;
    let mut v = vec![
        d.set("style", "13"),
        d.set("prompt", "1"),
        d.set("wrap", "0"),
        d.set("interface", interface),
        d.set("seek", "0"),
        d.set("open", "1"),
        d.set("bell", "0"),
    ];
    v.extend(
        CHOICES
            .iter()
            .filter(|c| c.when == When::AfterLogin)
            .map(|c| format!("set-2 {} 1", c.code)),
    );
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_login_line_turns_on_the_game_datagrams() {
        let pre = login_preamble();
        assert_eq!(pre.len(), 1);
        let bits = pre[0].strip_prefix("level2settings=").unwrap();
        let on = parse_level2settings(bits);
        for c in [
            DG_WHO_AM_I,
            DG_MY_GAME_STARTED,
            DG_SEND_MOVES,
            DG_MSEC,
            DG_MY_TURN,
            DG_MOVE_LAG,
        ] {
            assert!(on.contains(&c), "{c}");
        }
        assert!(!on.contains(&DG_SEEK), "seeks are bulky: after login");
        let setup = setup_commands("wily");
        assert!(setup.contains(&"set-2 50 1".to_string()));
        assert!(setup.contains(&"set-quietly style 13".to_string()));
        assert!(!setup.iter().any(|c| c == "set-2 24 1"));
        // No number twice, every one named in the spec's table.
        let mut all = turned_on();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), CHOICES.len());
        assert!(all.iter().all(|&c| name(c).is_some()));
    }
}
