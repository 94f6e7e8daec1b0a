//! A scripted sparring client for the local server: it logs in (registered,
//! `guest`, or an unregistered name), accepts challenges or plays seek ads,
//! answers every style-12 board where it is to move with a move from a seeded
//! random choice or a callback, and offers draws, resigns, aborts or flags
//! when told to. Tests script whole games with it; `wily ics --local` uses it
//! as the offline opponent. It plays Chess960 too (`fr` seeks and challenges;
//! castling rights from the flags and the rooks of each game's first board).

use super::notation::{legal_moves, to_wire};
use crate::chess::castling::{CastleFlags, CastlingRooks};
use crate::chess::fen::parse_fen;
use cozy_chess::{Board, Color, Move};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::fmt;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::Instant;

/// A move-choosing function (cozy-chess move encoding).
pub type ChooseFn = Arc<dyn Fn(&Board) -> Option<Move> + Send + Sync>;

/// How the sparring player picks its moves.
#[derive(Clone)]
pub enum MoveChooser {
    /// A random legal move from an RNG with this seed.
    Random { seed: u64 },
    /// Ask a function (cozy-chess move encoding; `None` or an illegal move
    /// falls back to a random move). It runs on a blocking thread, so it may
    /// search for as long as the clock allows.
    Callback(ChooseFn),
}

impl fmt::Debug for MoveChooser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveChooser::Random { seed } => write!(f, "Random {{ seed: {seed} }}"),
            MoveChooser::Callback(_) => write!(f, "Callback"),
        }
    }
}

/// What the sparring player does.
#[derive(Debug, Clone)]
pub struct SparringPolicy {
    pub chooser: MoveChooser,
    /// Post this seek (`base`, `inc`) after logging in and after each game.
    pub seek: Option<(u32, u32)>,
    /// Challenge this player (`name`, `base`, `inc`) after logging in.
    pub challenge: Option<(String, u32, u32)>,
    /// Ask for Chess960 in its seek and challenge (`fr`).
    pub chess960: bool,
    /// Accept challenges.
    pub accept_challenges: bool,
    /// Play the first seek ad of someone else that it hears.
    pub play_seeks: bool,
    /// With `play_seeks`: only the ads of this player (any case).
    pub seeks_of: Option<String>,
    /// Offer a draw with its N-th move (1-based), once per game.
    pub offer_draw_at: Option<u32>,
    /// Resign instead of making its N-th move.
    pub resign_at: Option<u32>,
    /// Ask to abort instead of making its N-th move.
    pub abort_at: Option<u32>,
    /// Stop moving before its N-th move (to lose on time).
    pub stop_moving_at: Option<u32>,
    pub accept_draws: bool,
    pub accept_aborts: bool,
    /// Agree when the opponent asks to adjourn (default: decline).
    pub accept_adjourns: bool,
    /// `flag` the opponent when its clock runs out.
    pub flag_opponent: bool,
    /// Pause before each move.
    pub think: Duration,
    /// Games to finish before logging out.
    pub games: usize,
    /// Give up (an error) after this long.
    pub timeout: Duration,
    /// Command lines sent once after the login's setup (a test's `tell mamer join 3`).
    pub login_commands: Vec<String>,
}

impl Default for SparringPolicy {
    fn default() -> Self {
        SparringPolicy {
            chooser: MoveChooser::Random { seed: 1 },
            seek: None,
            challenge: None,
            chess960: false,
            accept_challenges: true,
            play_seeks: false,
            seeks_of: None,
            offer_draw_at: None,
            resign_at: None,
            abort_at: None,
            stop_moving_at: None,
            accept_draws: false,
            accept_aborts: true,
            accept_adjourns: false,
            flag_opponent: true,
            think: Duration::ZERO,
            games: 1,
            timeout: Duration::from_secs(600),
            login_commands: Vec::new(),
        }
    }
}

/// One finished game as the sparring player saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SparringGame {
    pub number: u32,
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The words inside the braces (`AlphaBot checkmated`).
    pub reason: String,
    /// Moves seen in style 12, as printed there (`e4`, `Qh4+`).
    pub moves: Vec<String>,
}

/// What a sparring session did.
#[derive(Debug, Clone, Default)]
pub struct SparringReport {
    /// The name the server gave it (`GuestABCD` for `guest`).
    pub handle: String,
    pub games: Vec<SparringGame>,
    /// `Illegal move.` answers it got (should stay 0).
    pub illegal_replies: u32,
}

/// A parsed style 12 line (the fields the sparring player needs).
#[derive(Debug, Clone)]
pub struct Board12 {
    /// The position, castling rights read as the outermost rooks (X-FEN); a game's
    /// later boards should go through [`CastlingRooks::apply`] with its first board's
    /// rooks and [`Board12::castling`].
    pub board: Board,
    pub castling: CastleFlags,
    pub game: u32,
    pub white: String,
    pub black: String,
    pub relation: i32,
    pub white_time: i64,
    pub black_time: i64,
    pub pretty: String,
    pub ticking: bool,
}

/// Parse a `<12>` line; `None` when it is malformed.
pub fn parse_style12(line: &str) -> Option<Board12> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.first() != Some(&"<12>") || f.len() < 31 {
        return None;
    }
    let mut placement = String::new();
    for (i, rank) in f.get(1..9)?.iter().enumerate() {
        if rank.len() != 8 {
            return None;
        }
        let mut empty = 0;
        for c in rank.chars() {
            if c == '-' {
                empty += 1;
            } else {
                if empty > 0 {
                    placement.push_str(&empty.to_string());
                    empty = 0;
                }
                placement.push(c);
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if i < 7 {
            placement.push('/');
        }
    }
    let stm = *f.get(9)?;
    let white_to_move = stm == "W";
    let flag = |i: usize| f.get(i).map(|v| *v == "1");
    let castling = CastleFlags {
        white_short: flag(11)?,
        white_long: flag(12)?,
        black_short: flag(13)?,
        black_long: flag(14)?,
    };
    let dpp: i32 = f.get(10)?.parse().ok()?;
    let ep = if (0..8).contains(&dpp) {
        let file = char::from(b'a' + dpp as u8);
        format!("{file}{}", if white_to_move { 6 } else { 3 })
    } else {
        "-".into()
    };
    let half: u32 = f.get(15)?.parse().ok()?;
    let full: u32 = f.get(26)?.parse().ok()?;
    let side = if white_to_move { 'w' } else { 'b' };
    let board = parse_fen(&format!("{placement} {side} - {ep} {half} {full}"))
        .or_else(|_| parse_fen(&format!("{placement} {side} - - {half} {full}")))
        .ok()?;
    let board = CastlingRooks::of_start(&board).apply(&board, castling);
    Some(Board12 {
        board,
        castling,
        game: f.get(16)?.parse().ok()?,
        white: f.get(17)?.to_string(),
        black: f.get(18)?.to_string(),
        relation: f.get(19)?.parse().ok()?,
        white_time: f.get(24)?.parse().ok()?,
        black_time: f.get(25)?.parse().ok()?,
        pretty: f.get(29)?.to_string(),
        ticking: f.get(31).is_some_and(|t| *t == "1"),
    })
}

/// Parse `{Game N (W vs. B) reason} result`.
pub fn parse_result(line: &str) -> Option<(u32, String, String, String, String)> {
    let rest = line.strip_prefix("{Game ")?;
    let (num, rest) = rest.split_once(" (")?;
    let (white, rest) = rest.split_once(" vs. ")?;
    let (black, rest) = rest.split_once(") ")?;
    let (reason, result) = rest.rsplit_once("} ")?;
    if reason.contains(" Creating ") || reason.contains(" Continuing ") {
        return None;
    }
    Some((
        num.parse().ok()?,
        white.into(),
        black.into(),
        reason.into(),
        result.trim().into(),
    ))
}

struct Wire {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Wire {
    async fn send(&mut self, line: &str) -> io::Result<()> {
        self.stream.write_all(format!("{line}\n").as_bytes()).await
    }

    /// Read more bytes (IAC sequences dropped); false at end of stream.
    async fn fill(&mut self) -> io::Result<bool> {
        let mut tmp = [0u8; 4096];
        let n = self.stream.read(&mut tmp).await?;
        let mut i = 0;
        let data = tmp.get(..n).unwrap_or(&[]);
        while i < data.len() {
            if data[i] == 255 {
                i += 3;
                continue;
            }
            if data[i] != b'\r' {
                self.buf.push(data[i]);
            }
            i += 1;
        }
        Ok(n > 0)
    }

    /// Wait until the unread text contains `what`; returns the text up to and
    /// including it.
    async fn expect(&mut self, what: &str) -> io::Result<String> {
        loop {
            let text = String::from_utf8_lossy(&self.buf).into_owned();
            if let Some(pos) = text.find(what) {
                let upto = pos + what.len();
                let consumed = text.get(..upto).unwrap_or("").to_string();
                let rest = text.get(upto..).unwrap_or("").as_bytes().to_vec();
                self.buf = rest;
                return Ok(consumed);
            }
            if !self.fill().await? {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!("server closed while waiting for {what:?}"),
                ));
            }
        }
    }

    /// Complete lines available now (prompts stripped).
    fn lines(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(pos) = self.buf.iter().position(|b| *b == b'\n') {
            let raw: Vec<u8> = self.buf.drain(..=pos).collect();
            let mut s = String::from_utf8_lossy(raw.get(..pos).unwrap_or(&[])).into_owned();
            while let Some(r) = s.strip_prefix("fics% ") {
                s = r.to_string();
            }
            out.push(s);
        }
        out
    }
}

fn my_color(b: &Board12, me: &str) -> Option<Color> {
    if b.white.eq_ignore_ascii_case(me) {
        Some(Color::White)
    } else if b.black.eq_ignore_ascii_case(me) {
        Some(Color::Black)
    } else {
        None
    }
}

/// Log in to the server at `addr` as `handle` (`guest` for a guest name;
/// `password` for registered accounts) and play by `policy` until
/// `policy.games` games are over.
pub async fn sparring_player(
    addr: SocketAddr,
    handle: &str,
    password: Option<&str>,
    policy: SparringPolicy,
) -> io::Result<SparringReport> {
    let limit = policy.timeout;
    match tokio::time::timeout(limit, run(addr, handle, password, policy)).await {
        Ok(r) => r,
        Err(_) => Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "sparring session timed out",
        )),
    }
}

async fn run(
    addr: SocketAddr,
    handle: &str,
    password: Option<&str>,
    policy: SparringPolicy,
) -> io::Result<SparringReport> {
    let stream = TcpStream::connect(addr).await?;
    let _ = stream.set_nodelay(true);
    let mut w = Wire {
        stream,
        buf: Vec::new(),
    };
    w.expect("login: ").await?;
    w.send(handle).await?;
    match password {
        Some(pw) => {
            w.expect("password: ").await?;
            w.send(pw).await?;
        }
        None => {
            w.expect("Press return").await?;
            w.send("").await?;
        }
    }
    let head = w.expect("fics% ").await?;
    if head.contains("Invalid password") {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "invalid password",
        ));
    }
    let me = head
        .split("**** Starting FICS session as ")
        .nth(1)
        .and_then(|r| r.split(" ****").next())
        .map(|n| n.trim_end_matches("(U)").to_string())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "no session start line"))?;
    let mut report = SparringReport {
        handle: me.clone(),
        ..Default::default()
    };
    for cmd in ["set style 12", "iset ms 1", "set seek 1"] {
        w.send(cmd).await?;
    }
    for cmd in &policy.login_commands {
        w.send(cmd).await?;
    }
    let mut rng = StdRng::seed_from_u64(match &policy.chooser {
        MoveChooser::Random { seed } => *seed,
        MoveChooser::Callback(_) => 7,
    });
    let fr = if policy.chess960 { " fr" } else { "" };
    if let Some((b, i)) = policy.seek {
        w.send(&format!("seek {b} {i}{fr}")).await?;
    }
    if policy.play_seeks {
        w.send("sought").await?;
    }
    if let Some((name, b, i)) = &policy.challenge {
        w.send(&format!("match {name} {b} {i}{fr}")).await?;
    }
    // The castling rooks of the game in progress (from its first board).
    let mut rooks = CastlingRooks::default();
    let mut moves_made = 0u32;
    let mut offered_draw = false;
    let mut seen_moves: Vec<String> = Vec::new();
    let mut flag_at: Option<Instant> = None;
    let mut in_game = false;
    // A `play` was sent and its game has not started yet.
    let mut playing_ad = false;
    loop {
        for line in w.lines() {
            if let Some(mut b) = line
                .strip_prefix("<12> ")
                .map(|_| line.as_str())
                .and_then(parse_style12)
            {
                let Some(color) = my_color(&b, &me) else {
                    continue;
                };
                if !in_game {
                    in_game = true;
                    rooks = CastlingRooks::of_start(&b.board);
                    playing_ad = false;
                    moves_made = 0;
                    offered_draw = false;
                    seen_moves.clear();
                }
                b.board = rooks.apply(&b.board, b.castling);
                if b.pretty != "none"
                    && seen_moves.len() < usize::from(b.board.fullmove_number()) * 2
                {
                    seen_moves.push(b.pretty.clone());
                }
                let opp_time = if color == Color::White {
                    b.black_time
                } else {
                    b.white_time
                };
                flag_at = None;
                if b.relation == -1 && b.ticking && policy.flag_opponent {
                    let wait =
                        Duration::from_millis(u64::try_from(opp_time.max(0)).unwrap_or(0) + 150);
                    flag_at = Some(Instant::now() + wait);
                }
                if b.relation != 1 {
                    continue;
                }
                let n = moves_made + 1;
                if policy.resign_at == Some(n) {
                    w.send("resign").await?;
                    continue;
                }
                if policy.abort_at == Some(n) {
                    w.send("abort").await?;
                    continue;
                }
                if policy.stop_moving_at.is_some_and(|s| n >= s) {
                    continue;
                }
                if policy.offer_draw_at == Some(n) && !offered_draw {
                    offered_draw = true;
                    w.send("draw").await?;
                }
                if !policy.think.is_zero() {
                    tokio::time::sleep(policy.think).await;
                }
                let legal = legal_moves(&b.board);
                let picked = match &policy.chooser {
                    MoveChooser::Callback(f) => {
                        // The callback may search for a while: keep it off the runtime's workers.
                        let (f, board) = (Arc::clone(f), b.board.clone());
                        tokio::task::spawn_blocking(move || f(&board))
                            .await
                            .ok()
                            .flatten()
                            .filter(|m| legal.contains(m))
                    }
                    MoveChooser::Random { .. } => None,
                };
                let mv = match picked {
                    Some(m) => Some(m),
                    None if legal.is_empty() => None,
                    None => legal.get(rng.gen_range(0..legal.len())).copied(),
                };
                if let Some(mv) = mv {
                    moves_made = n;
                    w.send(&to_wire(&b.board, mv)).await?;
                }
            } else if let Some((num, white, black, reason, result)) = parse_result(&line) {
                if !(white.eq_ignore_ascii_case(&me) || black.eq_ignore_ascii_case(&me)) {
                    continue;
                }
                in_game = false;
                flag_at = None;
                report.games.push(SparringGame {
                    number: num,
                    white,
                    black,
                    result,
                    reason,
                    moves: std::mem::take(&mut seen_moves),
                });
                if report.games.len() >= policy.games {
                    w.send("quit").await?;
                    return Ok(report);
                }
                if let Some((b, i)) = policy.seek {
                    w.send(&format!("seek {b} {i}{fr}")).await?;
                }
                if policy.play_seeks {
                    w.send("sought").await?;
                }
            } else if line.starts_with("Challenge: ") && policy.accept_challenges {
                if let Some(from) = line
                    .strip_prefix("Challenge: ")
                    .and_then(|r| r.split_whitespace().next())
                {
                    w.send(&format!("accept {from}")).await?;
                }
            } else if line.ends_with(" offers you a draw.") {
                w.send(if policy.accept_draws {
                    "draw"
                } else {
                    "decline draw"
                })
                .await?;
            } else if line.contains(" would like to abort the game;") {
                w.send(if policy.accept_aborts {
                    "abort"
                } else {
                    "decline abort"
                })
                .await?;
            } else if line.contains(" would like to adjourn the game;") {
                w.send(if policy.accept_adjourns {
                    "adjourn"
                } else {
                    "decline adjourn"
                })
                .await?;
            } else if line == "Illegal move." {
                report.illegal_replies += 1;
            } else if line == "That seek is not available." || line.starts_with("ERROR: ") {
                playing_ad = false;
            } else if policy.play_seeks && !in_game && !playing_ad {
                let f: Vec<&str> = line.split_whitespace().collect();
                if let [id, _rating, name, _base, _inc, "rated" | "unrated", ..] = f.as_slice() {
                    let wanted = policy
                        .seeks_of
                        .as_ref()
                        .is_none_or(|who| who.eq_ignore_ascii_case(name));
                    if id.parse::<u32>().is_ok() && !name.eq_ignore_ascii_case(&me) && wanted {
                        playing_ad = true;
                        w.send(&format!("play {id}")).await?;
                    }
                }
            }
        }
        let more = match flag_at {
            Some(at) => tokio::select! {
                r = w.fill() => r?,
                _ = tokio::time::sleep_until(at) => {
                    flag_at = None;
                    w.send("flag").await?;
                    true
                }
            },
            None => w.fill().await?,
        };
        if !more {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "server closed the connection",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_recorded_style12_and_results() {
        let l = "<12> rnbqkbnr pppp-ppp -------- ----p--- -------- -----P-- PPPPP-PP RNBQKBNR W 4 1 1 1 1 0 1 AlphaBot BetaBot 1 5 0 39 39 300 300 2 P/e7-e5 (0:00) e5 0 1";
        let b = parse_style12(l).expect("parses");
        assert_eq!(b.relation, 1);
        assert_eq!(b.game, 1);
        assert!(b.ticking);
        assert_eq!(b.board.side_to_move(), Color::White);
        assert_eq!(legal_moves(&b.board).len(), 19);
        assert!(parse_style12("<12> junk").is_none());
        let r = parse_result("{Game 1 (AlphaBot vs. BetaBot) AlphaBot checkmated} 0-1")
            .expect("result");
        assert_eq!(r.3, "AlphaBot checkmated");
        assert_eq!(r.4, "0-1");
        assert!(
            parse_result("{Game 1 (AlphaBot vs. BetaBot) Creating rated blitz match.}").is_none()
        );
    }
}
