//! The bot's published, read-only status: what a dashboard may show (the game in
//! progress with its board, clocks, opponent and wily's latest search; totals; the
//! connection history), as plain serialisable values. The driver refreshes it after every
//! input; readers (the web dashboard) hold a `watch::Receiver` and never reach the bot
//! itself. Nothing secret is ever put here: no settings, no password, no operator
//! handles.

use crate::state::Session;
use crate::talk::{pv_text, white_score};
use cozy_chess::{Color, Square};
use serde::Serialize;

/// Everything a dashboard shows about the bot.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BotStatus {
    /// The handle the server knows wily by (empty before the first login).
    pub handle: String,
    /// The server's name (host, or the local server).
    pub site: String,
    pub connected: bool,
    /// Seconds since the Unix epoch when the bot started.
    pub started_unix: i64,
    /// Connection events, oldest first (at most [`MAX_EVENTS`]).
    pub connections: Vec<ConnectionEvent>,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub declined: u32,
    pub seeking: bool,
    pub accepting: bool,
    pub quitting: bool,
    /// The game in progress.
    pub game: Option<GameView>,
    /// The games the watcher (`[watch]`) observes now.
    pub observed: Vec<ObservedView>,
}

/// A game the watcher observes, as shown on the page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ObservedView {
    pub number: u32,
    pub white: String,
    pub black: String,
    /// `relay`, `tourney` or `top`.
    pub source: String,
    pub event: String,
    pub score: i32,
    /// Moves seen since observing began.
    pub plies: usize,
    /// wily's latest analysis comment (`wily +0.35/14 5.0s 23... Nc6`).
    pub analysis: Option<String>,
    /// Whispers/kibitzes said in it.
    pub talked: u32,
}

/// How many connection events are kept.
pub const MAX_EVENTS: usize = 50;

/// A login or a disconnect.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConnectionEvent {
    pub unix: i64,
    /// `connected` or `disconnected`.
    pub what: String,
}

/// The game in progress as shown on the page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameView {
    pub number: u32,
    pub white: String,
    pub black: String,
    pub white_elo: Option<u32>,
    pub black_elo: Option<u32>,
    /// `white` or `black`.
    pub wily_color: String,
    pub opponent: String,
    /// The opponent's class (its list or server title: `GM`, `C`, `player`, ...).
    pub opponent_list: String,
    pub rated: bool,
    pub category: String,
    pub base: u32,
    pub increment: u32,
    /// Eight strings, rank 8 first, one character a square: `KQRBNP` white, `kqrbnp`
    /// black, `.` empty.
    pub board: Vec<String>,
    pub fen: String,
    /// `white` or `black`.
    pub to_move: String,
    /// Clocks at the last board, milliseconds.
    pub white_ms: i64,
    pub black_ms: i64,
    /// The moves so far in SAN.
    pub moves: Vec<String>,
    /// wily's latest search: score from White's side (`+0.35`, `-M3`), depth, PV in SAN.
    pub score: Option<String>,
    pub depth: Option<u32>,
    pub pv: Option<String>,
}

fn color_name(c: Color) -> String {
    match c {
        Color::White => "white".into(),
        Color::Black => "black".into(),
    }
}

/// The board as eight rank strings, rank 8 first.
pub fn board_rows(b: &cozy_chess::Board) -> Vec<String> {
    (0..8)
        .rev()
        .map(|rank| {
            (0..8)
                .map(|file| {
                    let sq = Square::index(rank * 8 + file);
                    match (b.piece_on(sq), b.color_on(sq)) {
                        (Some(p), Some(Color::White)) => char::from(p).to_ascii_uppercase(),
                        (Some(p), Some(Color::Black)) => char::from(p),
                        _ => '.',
                    }
                })
                .collect()
        })
        .collect()
}

impl BotStatus {
    /// Fills this status with the session's current state (the connection history and
    /// start time are the driver's).
    pub fn fill(&mut self, session: &Session) {
        let (st, s) = (self, session);
        st.handle = s.bot.conn.me.clone();
        st.site = s.bot.conn.site.clone();
        st.connected = s.bot.conn.connected;
        let t = s.play.totals;
        st.games = t.games;
        st.wins = t.wins;
        st.draws = t.draws;
        st.losses = t.losses;
        st.declined = t.declined;
        st.seeking = s.matching.seeking;
        st.accepting = s.matching.accepting;
        st.quitting = s.bot.quitting;
        st.observed = s
            .observing
            .watch
            .games
            .values()
            .map(|w| ObservedView {
                number: w.number,
                white: w.white.clone(),
                black: w.black.clone(),
                source: w.source.word().to_string(),
                event: w.event.clone(),
                score: w.score,
                plies: w.moves.len(),
                analysis: w.comments.iter().rev().flatten().next().cloned(),
                talked: w.talked,
            })
            .collect();
        st.game = s.play.game.as_ref().map(|g| {
            let board = g.board();
            let (white_ms, black_ms) = g
                .clocks
                .as_ref()
                .map_or((0, 0), |c| (c.white_ms, c.black_ms));
            let thinking = s
                .bot
                .search
                .as_ref()
                .and_then(|s| s.last_report.as_ref().map(|r| (s.root.clone(), r.clone())));
            GameView {
                number: g.number,
                white: g.white.clone(),
                black: g.black.clone(),
                white_elo: g.white_elo,
                black_elo: g.black_elo,
                wily_color: color_name(g.me),
                opponent: g.opponent().to_string(),
                opponent_list: g.policy.profile().class.category.to_string(),
                rated: g.rated,
                category: g.category.clone(),
                base: g.base,
                increment: g.increment,
                board: board_rows(board),
                fen: format!("{board}"),
                to_move: color_name(board.side_to_move()),
                white_ms,
                black_ms,
                moves: g.sans(),
                score: thinking
                    .as_ref()
                    .map(|(root, r)| white_score(root, r.score)),
                depth: thinking.as_ref().map(|(_, r)| r.depth),
                pv: thinking.as_ref().map(|(root, r)| pv_text(root, &r.pv)),
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_rows_from_rank_8_down() {
        let b: cozy_chess::Board = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
            .parse()
            .expect("fen");
        let rows = board_rows(&b);
        assert_eq!(rows.len(), 8);
        assert_eq!(rows[0], "rnbqkbnr");
        assert_eq!(rows[4], "....P...");
        assert_eq!(rows[6], "PPPP.PPP");
        assert_eq!(rows[7], "RNBQKBNR");
    }
}
