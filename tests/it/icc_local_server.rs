//! The local server's ICC dialect, byte for byte against ICC's `formats.txt`: raw clients
//! log in with `level2settings=` and check each datagram the server sends for the login
//! (who-am-i, login failed), seeks, challenges, a game (start, position, moves with
//! algebraic + smith + time + clock, msec clocks, my turn, illegal moves), offers in the
//! game (draw, takeback, adjourn, abort), an observer (started observing, moves,
//! kibitz and whisper), personal tells, the resumed adjourned game (start FEN and the
//! moves so far), a wild 22 (Chess960) game, and a flag.

use crate::server_support;

use server_support::*;
use std::time::Duration;
use wily::ics::icc::numbers::*;
use wily::ics::Dialect;

/// Every DG the ICC dialect sends.
const ALL: &[u16] = &[
    DG_WHO_AM_I,
    DG_MY_GAME_STARTED,
    DG_MY_GAME_RESULT,
    DG_STARTED_OBSERVING,
    DG_STOP_OBSERVING,
    DG_OFFERS_IN_MY_GAME,
    DG_TAKEBACK,
    DG_SEND_MOVES,
    DG_KIBITZ,
    DG_MATCH,
    DG_MATCH_REMOVED,
    DG_PERSONAL_TELL,
    DG_MOVE_ALGEBRAIC,
    DG_MOVE_SMITH,
    DG_MOVE_TIME,
    DG_MOVE_CLOCK,
    DG_ILLEGAL_MOVE,
    DG_MY_RELATION_TO_GAME,
    DG_SEEK,
    DG_SEEK_REMOVED,
    DG_MSEC,
    DG_PERSONAL_TELL_ECHO,
    DG_LOGIN_FAILED,
    DG_POSITION_BEGIN,
    DG_MY_TURN,
    DG_KNOWS_FISCHER_RANDOM,
    DG_FEN,
];

/// `(24 1 e4)` as sent, control-Y brackets; `(24 1` (no closing parenthesis): the start
/// of such a DG.
fn dg(body: &str) -> String {
    match body.strip_suffix(')') {
        Some(b) => format!("\x19{b}\x19)"),
        None => format!("\x19{body}"),
    }
}

async fn icc_server() -> wily::server::ServerHandle {
    server_with(|mut c| {
        c.dialect = Dialect::Icc;
        c.zero_base_ms = 3000;
        c
    })
    .await
}

/// Log in the ICC way: the settings line first, then the name and password.
async fn icc_login(addr: std::net::SocketAddr, name: &str, pw: &str, codes: &[u16]) -> Client {
    let mut c = Client::connect(addr).await;
    c.name = name.into();
    c.expect("login: ").await;
    c.send(&format!("level2settings={}", level2settings(codes)))
        .await;
    c.expect("login: ").await;
    c.send(name).await;
    c.expect("password: ").await;
    c.send(pw).await;
    c.expect(&dg(&format!("(0 {name} {{}})"))).await;
    c.expect("aics% ").await;
    c
}

#[tokio::test]
async fn login_who_am_i_and_login_failed() {
    bounded(30, async {
        let srv = icc_server().await;
        let addr = srv.local_addr();
        // A wrong password: DG_LOGIN_FAILED 11, then the connection closes.
        let mut c = Client::connect(addr).await;
        c.expect("login: ").await;
        c.send(&format!("level2settings={}", level2settings(ALL)))
            .await;
        c.expect("login: ").await;
        c.send("ab").await;
        c.expect(&dg(
            "(69 3 {A name should be at least three characters long!  Try again.})",
        ))
        .await;
        c.expect("login: ").await;
        c.send("AlphaBot").await;
        c.expect("password: ").await;
        c.send("wrong").await;
        c.expect(&dg("(69 11 {Invalid password.})")).await;
        // Name and password on one line, and a computer's titles.
        let mut c = Client::connect(addr).await;
        c.expect("login: ").await;
        c.send(&format!("level2settings={}", level2settings(ALL)))
            .await;
        c.expect("login: ").await;
        c.send("DeltaBot delta").await;
        c.expect(&dg("(0 DeltaBot C)")).await;
        c.expect("aics% ").await;
        // set-2 works after login; a FICS-only client gets no DGs.
        c.send("set-2 124 1").await;
        c.expect("aics% ").await;
        c.send("set-2 81 1").await;
        c.expect(&dg("(124 81 1)")).await;
        c.expect(&dg("(81)")).await;
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn a_game_in_datagrams() {
    bounded(60, async {
        let srv = icc_server().await;
        let addr = srv.local_addr();
        let mut a = icc_login(addr, "AlphaBot", "alpha", ALL).await;
        let mut b = icc_login(addr, "BetaBot", "beta", ALL).await;
        let mut c = icc_login(addr, "GammaBot", "gamma", ALL).await;

        // Seeks: the ad and its removal, as DGs (no seek text).
        a.send("seek 1 0").await;
        b.expect(&dg(
            "(50 0 AlphaBot {} 0 0 0 Bullet 1 0 1 -1 0 9999 1 0 {})",
        ))
        .await;
        a.send("unseek").await;
        b.expect(&dg("(51 0 3)")).await;

        // A challenge both sides see; declined, then made again and accepted.
        a.send("match BetaBot 1 0 white").await;
        let m = "(29 AlphaBot 0 0 {} BetaBot 0 0 {} 0 Bullet 1 0 1 0 1 0 1 {})";
        a.expect(&dg(m)).await;
        b.expect(&dg(m)).await;
        b.send("decline").await;
        a.expect(&dg(
            "(30 AlphaBot BetaBot {BetaBot declines the match offer.})",
        ))
        .await;
        a.send("match BetaBot 1 0 white").await;
        b.expect(&dg(m)).await;
        b.send("accept").await;
        for (p, rel) in [(&mut a, "PW"), (&mut b, "PB")] {
            p.expect(&dg("(30 AlphaBot BetaBot")).await;
            p.expect(&dg("(15 1 AlphaBot BetaBot 0 Bullet 1 1 0 1 0 1 {} 0 0 "))
                .await;
            p.expect("{} {} 0 0 0 {} 0\x19)").await;
            p.expect(&dg(&format!("(43 1 {rel})"))).await;
            p.expect(&dg(
                "(101 1 {rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1} 0)",
            ))
            .await;
            p.expect(&dg("(56 1 W 60000 0 0 0)")).await;
            p.expect(&dg("(56 1 B 60000 0 0 0)")).await;
        }
        a.expect(&dg("(139 1)")).await;

        // An observer gets the game's picture.
        c.send("observe 1").await;
        c.expect(&dg("(18 1 AlphaBot BetaBot 0 Bullet")).await;
        c.expect(&dg("(43 1 O)")).await;
        c.expect(&dg("(101 1 {")).await;

        // Moves both ways; refused moves with their reason codes.
        a.send("e4").await;
        for p in [&mut a, &mut b, &mut c] {
            p.expect(&dg("(24 1 e4 e2e4 0 60)")).await;
        }
        b.expect(&dg("(139 1)")).await;
        a.send("e5").await;
        a.expect(&dg("(42 1 e5 4)")).await;
        a.expect("It is not your move.").await;
        b.send("e7e4").await;
        b.expect(&dg("(42 1 e7e4 2)")).await;
        b.expect("Illegal move.").await;
        b.send("e5").await;
        for p in [&mut a, &mut b, &mut c] {
            p.expect(&dg("(24 1 e5 e7e5 0 60)")).await;
        }
        a.expect(&dg("(56 1 W ")).await;
        a.expect(&dg("(139 1)")).await;
        a.send("Nf3").await;
        b.expect(&dg("(24 1 Nf3 g1f3 ")).await;
        b.expect(&dg("(139 1)")).await;

        // A takeback offer and its acceptance.
        b.send("takeback 1").await;
        a.expect(&dg("(21 1 0 0 0 0 0 0 0 1)")).await;
        a.send("takeback 1").await;
        for p in [&mut a, &mut b, &mut c] {
            p.expect(&dg("(22 1 1)")).await;
        }
        a.expect(&dg("(139 1)")).await;

        // Talk: a kibitz reaches the opponent and the observer, a tell is echoed.
        a.send("kibitz hello there").await;
        b.expect(&dg("(26 1 AlphaBot {} 1 {hello there})")).await;
        c.expect(&dg("(26 1 AlphaBot {} 1 {hello there})")).await;
        a.send("tell BetaBot good luck {really}").await;
        b.expect(&dg("(31 AlphaBot {} \x19{good luck {really}\x19} 1)"))
            .await;
        a.expect(&dg("(62 BetaBot 1 \x19{good luck {really}\x19})"))
            .await;

        // A draw offer, declined.
        a.send("draw").await;
        b.expect(&dg("(21 1 1 0 0 0 0 0 0 0)")).await;
        b.send("decline draw").await;
        a.expect(&dg("(21 1 0 0 0 0 0 0 0 0)")).await;

        // Adjourned by agreement: the result to players and observer.
        a.send("Nc3").await;
        b.expect(&dg("(139 1)")).await;
        b.send("adjourn").await;
        a.expect(&dg("(21 1 0 0 0 1 0 0 0 0)")).await;
        a.send("adjourn").await;
        for p in [&mut a, &mut b, &mut c] {
            p.expect(&dg("(16 1 0 ? * {Game adjourned by mutual agreement} ?)"))
                .await;
            p.expect(&dg("(43 1 X)")).await;
        }

        // Resumed: the start FEN and the three moves so far, then Black to move.
        a.send("match BetaBot").await;
        b.expect(&dg("(29 AlphaBot 0 0 {} BetaBot 0 0 {} 0 Bullet 1 1 "))
            .await;
        b.send("accept").await;
        b.expect(&dg("(15 1 AlphaBot BetaBot 0 Bullet")).await;
        b.expect(&dg("(43 1 PB)")).await;
        b.expect(&dg(
            "(101 1 {rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1} 3)",
        ))
        .await;
        b.expect(&dg("(24 1 e4 e2e4 0 60)")).await;
        b.expect(&dg("(24 1 e5 e7e5 0 60)")).await;
        b.expect(&dg("(24 1 Nc3 b1c3 ")).await;
        b.expect(&dg(
            "(70 1 {rnbqkbnr/pppp1ppp/8/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 2})",
        ))
        .await;
        b.expect(&dg("(139 1)")).await;
        a.send("resign").await;
        for p in [&mut a, &mut b] {
            p.expect(&dg("(16 1 0 Res 0-1 {White resigns} ?)")).await;
            p.expect(&dg("(43 1 X)")).await;
        }

        // Wild 22: a Chess960 start position, aborted by agreement.
        a.send("match BetaBot 1 0 white wild 22").await;
        // The resigned game was rated: AlphaBot 1484, BetaBot 1516 now.
        b.expect(&dg(
            "(29 AlphaBot 1484 2 {} BetaBot 1516 2 {} 22 Wild 1 0 1 0 1 0 1 {})",
        ))
        .await;
        b.send("accept").await;
        b.expect(&dg("(15 1 AlphaBot BetaBot 22 Wild 1 1 0 1 0 1 {} "))
            .await;
        b.expect(&dg("(101 1 {")).await;
        let fen = b.expect("} 0\x19)").await;
        assert!(
            !fen.starts_with("rnbqkbnr/pppppppp"),
            "a Chess960 start position: {fen}"
        );
        b.send("abort").await;
        a.expect(&dg("(21 1 0 0 0 0 0 1 0 0)")).await;
        a.send("abort").await;
        a.expect(&dg(
            "(16 1 0 Agr aborted {Game aborted by mutual agreement} ?)",
        ))
        .await;

        // A flag: 0 1 games start at 3 seconds here.
        a.send("match BetaBot 0 1 white").await;
        b.expect(&dg("(29 AlphaBot")).await;
        b.send("accept").await;
        a.expect(&dg("(15 1 AlphaBot BetaBot 0 Bullet 1 0 1 0 1 1 {}"))
            .await;
        a.expect(&dg("(139 1)")).await;
        a.send("e4").await;
        b.expect(&dg("(139 1)")).await;
        b.send("e5").await;
        a.expect(&dg("(139 1)")).await;
        tokio::time::sleep(Duration::from_millis(3300)).await;
        b.send("flag").await;
        for p in [&mut a, &mut b] {
            p.expect(&dg("(16 1 0 Fla 0-1 {White forfeits on time} ?)"))
                .await;
        }
        srv.shutdown().await;
    })
    .await;
}
