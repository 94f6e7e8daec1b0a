//! A scripted sparring client for the local server: it logs in (registered,
//! `guest`, or an unregistered name), accepts challenges or plays seek ads,
//! answers every style-12 board where it is to move with a move from a seeded
//! random choice or a callback, and offers draws, resigns, aborts or flags
//! when told to. Tests script whole games with it; `wily ics --local` uses it
//! as the offline opponent. It plays Chess960 too (`fr` seeks and challenges;
//! castling rights from the flags and the rooks of each game's first board).

use crate::games::notation::{legal_moves, to_wire};
use crate::icc::sparring::{icc_login_lines, icc_setup_commands, IccSide};
use crate::sparring::input::{fics_input, Asked, Board12, Input};
use chess::castling::CastlingRooks;
use cozy_chess::{Board, Color, Move};
use ics::Dialect;
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

/// How long an answered seek ad may go without a game or word of its fate before the
/// sparring player looks at the ads again.
const AD_PATIENCE: Duration = Duration::from_secs(3);

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
    /// Speak FICS text, or ICC's level-2 datagrams (to the local server's ICC dialect).
    pub dialect: Dialect,
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
            dialect: Dialect::Fics,
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

struct Wire {
    stream: TcpStream,
    /// Text not read yet (IAC sequences and carriage returns removed).
    buf: Vec<u8>,
    /// On ICC: the datagram side, and what it has read.
    icc: Option<IccSide>,
    inputs: Vec<Input>,
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
        let mut clean = Vec::with_capacity(n);
        while i < data.len() {
            if data[i] == 255 {
                i += 3;
                continue;
            }
            if data[i] != b'\r' {
                clean.push(data[i]);
            }
            i += 1;
        }
        match &mut self.icc {
            Some(side) => side.feed(&clean, &mut self.buf, &mut self.inputs),
            None => self.buf.extend_from_slice(&clean),
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
            while let Some(r) = s
                .strip_prefix("fics% ")
                .or_else(|| s.strip_prefix("aics% "))
            {
                s = r.to_string();
            }
            out.push(s);
        }
        out
    }

    /// What arrived: from the text lines on FICS; on ICC from the datagrams (the text
    /// only says when a `play` failed).
    fn inputs(&mut self) -> Vec<Input> {
        let lines = self.lines();
        if self.icc.is_none() {
            return lines.iter().filter_map(|l| fics_input(l)).collect();
        }
        let mut v = std::mem::take(&mut self.inputs);
        v.extend(
            lines
                .iter()
                .filter_map(|l| fics_input(l))
                .filter(|i| matches!(i, Input::SeekGone)),
        );
        v
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
    let icc = policy.dialect == Dialect::Icc;
    let mut w = Wire {
        stream,
        buf: Vec::new(),
        icc: icc.then(IccSide::new),
        inputs: Vec::new(),
    };
    w.expect("login: ").await?;
    if icc {
        for l in icc_login_lines() {
            w.send(&l).await?;
            w.expect("login: ").await?;
        }
    }
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
    let head = w.expect(policy.dialect.prompt()).await?;
    if head.contains("Invalid password") {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "invalid password",
        ));
    }
    let from_text = head
        .split("**** Starting FICS session as ")
        .nth(1)
        .and_then(|r| r.split(" ****").next())
        .map(|n| n.trim_end_matches("(U)").to_string());
    let from_dg = w.icc.as_ref().and_then(|s| s.me()).map(str::to_string);
    let me = from_dg
        .or(from_text)
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "no session start line"))?;
    let mut report = SparringReport {
        handle: me.clone(),
        ..Default::default()
    };
    let setup = if icc {
        icc_setup_commands()
    } else {
        vec![
            "set style 12".into(),
            "iset ms 1".into(),
            "set seek 1".into(),
        ]
    };
    for cmd in setup {
        w.send(&cmd).await?;
    }
    for cmd in &policy.login_commands {
        w.send(cmd).await?;
    }
    let mut rng = StdRng::seed_from_u64(match &policy.chooser {
        MoveChooser::Random { seed } => *seed,
        MoveChooser::Callback(_) => 7,
    });
    // ICC names Chess960 wild 22; the FICS dialect of the local server `fr`.
    let fr = match (policy.chess960, icc) {
        (false, _) => "",
        (true, false) => " fr",
        (true, true) => " w22",
    };
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
    // When an answered ad that led nowhere is given up (no game, no word of the ad's
    // fate): the server may drop a challenge without telling.
    let mut ad_given_up_at: Option<Instant> = None;
    loop {
        for input in w.inputs() {
            match input {
                Input::Board(mut b) => {
                    let Some(color) = my_color(&b, &me) else {
                        continue;
                    };
                    if !in_game {
                        in_game = true;
                        rooks = CastlingRooks::of_start(&b.board);
                        playing_ad = false;
                        ad_given_up_at = None;
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
                        let wait = Duration::from_millis(
                            u64::try_from(opp_time.max(0)).unwrap_or(0) + 150,
                        );
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
                }
                Input::Result {
                    number,
                    white,
                    black,
                    reason,
                    result,
                } => {
                    if !(white.eq_ignore_ascii_case(&me) || black.eq_ignore_ascii_case(&me)) {
                        continue;
                    }
                    in_game = false;
                    flag_at = None;
                    report.games.push(SparringGame {
                        number,
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
                }
                Input::Challenge { from } if policy.accept_challenges => {
                    w.send(&format!("accept {from}")).await?;
                }
                Input::Challenge { .. } => {}
                Input::Asked(Asked::Draw) => {
                    w.send(if policy.accept_draws {
                        "draw"
                    } else {
                        "decline draw"
                    })
                    .await?;
                }
                Input::Asked(Asked::Abort) => {
                    w.send(if policy.accept_aborts {
                        "abort"
                    } else {
                        "decline abort"
                    })
                    .await?;
                }
                Input::Asked(Asked::Adjourn) => {
                    w.send(if policy.accept_adjourns {
                        "adjourn"
                    } else {
                        "decline adjourn"
                    })
                    .await?;
                }
                Input::Illegal => report.illegal_replies += 1,
                Input::SeekGone => {
                    playing_ad = false;
                    ad_given_up_at = None;
                }
                Input::Ad { id, name } => {
                    if !policy.play_seeks || in_game || playing_ad {
                        continue;
                    }
                    let wanted = policy
                        .seeks_of
                        .as_ref()
                        .is_none_or(|who| who.eq_ignore_ascii_case(&name));
                    if !name.eq_ignore_ascii_case(&me) && wanted {
                        playing_ad = true;
                        ad_given_up_at = Some(Instant::now() + AD_PATIENCE);
                        w.send(&format!("play {id}")).await?;
                    }
                }
            }
        }
        let wake = match (flag_at, ad_given_up_at.filter(|_| playing_ad && !in_game)) {
            (Some(f), Some(a)) => Some(f.min(a)),
            (f, a) => f.or(a),
        };
        let more = match wake {
            Some(at) => tokio::select! {
                r = w.fill() => r?,
                _ = tokio::time::sleep_until(at) => {
                    if flag_at.is_some_and(|f| f <= Instant::now()) {
                        flag_at = None;
                        w.send("flag").await?;
                    }
                    if playing_ad && !in_game && ad_given_up_at.is_some_and(|a| a <= Instant::now()) {
                        // Look at the ads afresh.
                        playing_ad = false;
                        ad_given_up_at = None;
                        w.send("sought").await?;
                    }
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
