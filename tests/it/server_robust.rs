//! The local server survives anything a client sends: random bytes in every
//! login state, random commands with absurd arguments, endless lines, a
//! client that never reads, connections that come and go.

use crate::server_support;

use server_support::*;
use std::time::{Duration, Instant};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

const WORDS: &[&str] = &[
    "match",
    "accept",
    "decline",
    "withdraw",
    "seek",
    "unseek",
    "sought",
    "play",
    "observe",
    "unobserve",
    "allobservers",
    "refresh",
    "moves",
    "games",
    "who",
    "finger",
    "tell",
    "xtell",
    "say",
    "kibitz",
    "whisper",
    "draw",
    "abort",
    "adjourn",
    "resign",
    "flag",
    "set",
    "iset",
    "variables",
    "ivariables",
    "promote",
    "time",
    "stored",
    "resume",
    "pending",
    "help",
    "e2e4",
    "e7e8=q",
    "o-o",
    "o-o-o",
    "Nf3",
    "exd5",
    "P/e2-e4",
    "bxc3",
    "zzz",
    "",
    "ms",
    "style",
];

const ARGS: &[&str] = &[
    "0",
    "1",
    "-1",
    "999",
    "1000",
    "4294967296",
    "99999999999999999999",
    "AlphaBot",
    "BetaBot",
    "Guest",
    "nosuch",
    "white",
    "black",
    "rated",
    "unrated",
    "r",
    "u",
    "w",
    "b",
    "12",
    "ms",
    "seekinfo",
    "lock",
    "\u{e9}t\u{e9}",
    "%s%s%n",
    "{Game 1 (A vs. B) A resigns} 1-0",
    "<12>",
    "draw",
    "abort",
    "1-2",
    "x",
    "=",
    "\t",
];

fn random_command(r: &mut Rng) -> String {
    let mut s = WORDS[r.below(WORDS.len())].to_string();
    for _ in 0..r.below(4) {
        s.push(' ');
        s.push_str(ARGS[r.below(ARGS.len())]);
    }
    s
}

async fn can_still_play(addr: std::net::SocketAddr) {
    let mut a = Client::login(addr, "GammaBot", Some("gamma")).await;
    let mut b = Client::login(addr, "guest", None).await;
    start_match(&mut a, &mut b, "5 0 u").await;
    a.send("e4").await;
    a.board().await;
    b.board().await;
    b.send("e5").await;
    let line = a.board().await;
    assert!(line.contains(" P/e7-e5 "), "{line}");
    let who = a.cmd("who").await;
    assert!(who.contains("players displayed"), "{who}");
}

#[tokio::test]
async fn random_bytes_in_every_state_never_hurt() {
    bounded(60, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut r = Rng(0x9e37_79b9_7f4a_7c15);
        // Before login, at the password prompt, at "Press return", online.
        for state in 0..4 {
            for k in 0..3 {
                let mut c = Client::connect(addr).await;
                c.expect("login: ").await;
                match state {
                    1 => {
                        c.send("AlphaBot").await;
                        c.expect("password: ").await;
                    }
                    2 => {
                        c.send(["Drifter", "Rover", "Nomad"][k]).await;
                        c.expect("Press return").await;
                    }
                    3 => {
                        c.send("guest").await;
                        c.expect("Press return").await;
                        c.send("").await;
                        c.expect("fics% ").await;
                    }
                    _ => {}
                }
                for _ in 0..40 {
                    let n = 1 + r.below(3000);
                    let mut chunk = r.bytes(n);
                    if r.below(3) == 0 {
                        chunk.extend_from_slice(
                            b"\xff\xfa\x18\x01\xff\xf0\xff\xfd\x01\xff\xff\r\n\0\x08\x7f",
                        );
                    }
                    c.send_bytes(&chunk).await;
                }
                c.settle(Duration::from_millis(20)).await;
            }
        }
        // An endless line without a newline.
        let mut long = Client::connect(addr).await;
        long.expect("login: ").await;
        for _ in 0..64 {
            long.send_bytes(&[b'a'; 4096]).await;
        }
        long.send_bytes(b"\n").await;
        can_still_play(addr).await;
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn random_commands_in_and_out_of_games() {
    bounded(60, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        let mut g = Client::login(addr, "guest", None).await;
        start_match(&mut a, &mut b, "5 0 u").await;
        let mut r = Rng(42);
        for i in 0..1500 {
            let cmd = random_command(&mut r);
            match i % 3 {
                0 => a.send(&cmd).await,
                1 => b.send(&cmd).await,
                _ => g.send(&cmd).await,
            }
        }
        for c in [&mut a, &mut b, &mut g] {
            // Each client still gets answers.
            c.settle(Duration::from_millis(300)).await;
            c.pos = c.all.len();
            c.send("date").await;
            c.expect("Server time - ").await;
        }
        can_still_play(addr).await;
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn a_client_that_never_reads_does_not_stall_others() {
    bounded(60, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut lazy = Client::login(addr, "DeltaBot", Some("delta")).await;
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        start_match(&mut a, &mut b, "5 0 u").await;
        // The lazy client asks for lots of output and reads none of it.
        let spam = tokio::spawn(async move {
            for _ in 0..3000 {
                lazy.send_bytes(b"help\nwho\ngames\n").await;
            }
            lazy
        });
        let moves = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"];
        for (i, mv) in moves.iter().enumerate() {
            let (m, o) = if i % 2 == 0 {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            let t = Instant::now();
            m.send(mv).await;
            m.board().await;
            o.board().await;
            assert!(
                t.elapsed() < Duration::from_secs(2),
                "move {mv} took {:?}",
                t.elapsed()
            );
        }
        let _lazy = spam.await.expect("spam task");
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn connections_that_come_and_go() {
    bounded(60, async {
        let srv = server().await;
        let addr = srv.local_addr();
        for i in 0..100 {
            let s = tokio::net::TcpStream::connect(addr).await.expect("connect");
            if i % 2 == 0 {
                drop(s);
            } else {
                let mut c = Client::connect(addr).await;
                c.send("guest").await;
                drop(s);
            }
        }
        can_still_play(addr).await;
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn login_and_idle_timeouts() {
    bounded(30, async {
        let srv = server_with(|c| wily::server::ServerConfig {
            login_timeout: Duration::from_millis(400),
            idle_timeout: Some(Duration::from_millis(600)),
            ..c
        })
        .await;
        let addr = srv.local_addr();
        let mut slow = Client::connect(addr).await;
        slow.expect("login: ").await;
        slow.expect("**** LOGIN TIMEOUT ****").await;
        slow.expect_closed().await;
        let mut idle = Client::login(addr, "AlphaBot", Some("alpha")).await;
        idle.expect("**** Auto-logout because you were idle more than 0 minutes. ****")
            .await;
        idle.expect_closed().await;
        // Players in a game are not logged out for being idle.
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        start_match(&mut a, &mut b, "5 0 u").await;
        tokio::time::sleep(Duration::from_millis(900)).await;
        a.send("e4").await;
        b.board().await;
        srv.shutdown().await;
    })
    .await;
}
