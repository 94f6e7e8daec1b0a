//! Property tests with fixed seeds: random bytes, and real lines mutated at random, never
//! panic any part of the receive path; the timeseal decoder and the login flow survive
//! garbage; every parse of a mutated style-12 line either fails cleanly or yields a board
//! whose fields are in range.

use crate::ics_common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wily::ics::events::Event;
use wily::ics::login::{Login, LoginFlow, Password};
use wily::ics::parse::{parse_line, style12, ClockUnit, Parser};
use wily::ics::pipeline::{events_of, PipelineOptions};
use wily::ics::timeseal;

const SPECIAL: &[u8] = b" \n\r\0\xff\xfb\xfd\xfa\xf0-+()[]{}<>:;.,/\\\"'*%=0123456789PEWB";

fn literal_lines() -> Vec<String> {
    vec![
        "<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR B 4 1 1 1 1 0 101 GuestQRST wily 1 3 0 39 39 179234 180000 1 P/e2-e4 (0:00.766) e4 0 1 312".into(),
        "<s> 8 w=visar ti=02 rt=2194  t=4 i=0 r=r tp=suicide c=? rr=0-9999 a=t f=f".into(),
        "<pf> 34 w=GuestQRST t=match p=GuestQRST (----) [black] wily (2100E) unrated blitz 5 0".into(),
        "<sr> 8 12".into(),
        "Challenge: GuestQRST (1432P) wily (2104E) rated wild 2 12 Loaded from wild/fr (adjourned).".into(),
        "Kasparov(GM)(2812)[12] kibitzes: nice".into(),
        "{Game 9 (wily vs. Opp) wily ran out of time and Opp has no material to mate} 1/2-1/2".into(),
        "Press return to enter the server as \"GuestZXCV\":".into(),
        "GuestXYZW (++++) seeking 5 0 unrated blitz [white] m (\"play 12\" to respond)".into(),
        " 27 ++++ GuestRNDH(U)       10   0 unrated standard   [black]     0-9999 mf".into(),
    ]
}

/// Real lines: every line of every recording plus the literal shapes.
fn corpus() -> Vec<Vec<u8>> {
    let mut lines: Vec<Vec<u8>> = literal_lines()
        .into_iter()
        .map(String::into_bytes)
        .collect();
    if let Some(all) = ics_common::recordings() {
        for (_, bytes) in all {
            for l in bytes.split(|&b| b == b'\n') {
                if !l.is_empty() {
                    lines.push(l.to_vec());
                }
            }
        }
    }
    lines.sort();
    lines.dedup();
    lines
}

fn mutate(rng: &mut StdRng, line: &[u8]) -> Vec<u8> {
    let mut v = line.to_vec();
    for _ in 0..rng.gen_range(1..=4) {
        let op = rng.gen_range(0..7);
        let pos = if v.is_empty() {
            0
        } else {
            rng.gen_range(0..v.len())
        };
        match op {
            0 if !v.is_empty() => v[pos] = rng.gen(),
            1 if !v.is_empty() => v[pos] = SPECIAL[rng.gen_range(0..SPECIAL.len())],
            2 if !v.is_empty() => {
                v.remove(pos);
            }
            3 => v.insert(pos, SPECIAL[rng.gen_range(0..SPECIAL.len())]),
            4 => v.truncate(pos),
            5 if !v.is_empty() => {
                // Duplicate a slice (a repeated field).
                let end = rng.gen_range(pos..=v.len());
                let piece = v[pos..end].to_vec();
                let at = rng.gen_range(0..=v.len());
                v.splice(at..at, piece);
            }
            _ => {
                // Replace a whitespace-separated field with an extreme token.
                let tokens: &[&[u8]] = &[
                    b"-99999999999999999999",
                    b"",
                    b"none",
                    b"(",
                    b"4294967296",
                    b"-1",
                    b"(9:99:99:99)",
                    b"\xff\xff",
                ];
                let t = tokens[rng.gen_range(0..tokens.len())];
                let fields: Vec<&[u8]> = v.split(|&b| b == b' ').collect();
                if !fields.is_empty() {
                    let k = rng.gen_range(0..fields.len());
                    let mut out = Vec::new();
                    for (i, f) in fields.iter().enumerate() {
                        if i > 0 {
                            out.push(b' ');
                        }
                        out.extend_from_slice(if i == k { t } else { f });
                    }
                    v = out;
                }
            }
        }
    }
    v
}

#[test]
fn random_bytes_never_panic_the_pipeline() {
    let mut rng = StdRng::seed_from_u64(0x5eed_0001);
    for case in 0..3000 {
        let len = rng.gen_range(0..600);
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                if rng.gen_bool(0.3) {
                    SPECIAL[rng.gen_range(0..SPECIAL.len())]
                } else {
                    rng.gen()
                }
            })
            .collect();
        let sizes: Vec<usize> = (0..8).map(|_| rng.gen_range(1..40)).collect();
        let (a, pa) = events_of(&bytes, &sizes, PipelineOptions::default());
        let (b, pb) = events_of(&bytes, &[usize::MAX], PipelineOptions::default());
        assert_eq!((a, pa), (b, pb), "case {case}: chunking changed the result");
    }
}

#[test]
fn mutated_real_lines_never_panic() {
    let corpus = corpus();
    assert!(corpus.len() >= 10);
    let mut rng = StdRng::seed_from_u64(0x5eed_0002);
    let mut stream = Vec::new();
    let mut boards = 0;
    for _ in 0..20_000 {
        let line = &corpus[rng.gen_range(0..corpus.len())];
        let m = mutate(&mut rng, line);
        let text = String::from_utf8_lossy(&m);
        for part in text.split('\n') {
            if let Some(Event::Board(b)) = parse_line(part, ClockUnit::Auto) {
                boards += 1;
                assert!(b.ep_file.is_none_or(|f| f < 8));
                assert!(b.white_clock_ms.abs() <= (1 << 40) * 1000);
                let _ = b.to_fen();
            }
        }
        stream.extend_from_slice(&m);
        stream.extend_from_slice(b"\n\r");
    }
    assert!(boards > 0, "some mutated boards should still parse");
    let (ev, _) = events_of(&stream, &[1, 7, 300, 4096], PipelineOptions::default());
    assert!(!ev.is_empty());
    // The stateful parser with arbitrary continuation lines.
    let mut p = Parser::new(ClockUnit::Auto);
    let mut out = Vec::new();
    for _ in 0..5000 {
        let line = &corpus[rng.gen_range(0..corpus.len())];
        let mut m = String::from_utf8_lossy(&mutate(&mut rng, line)).into_owned();
        if rng.gen_bool(0.2) {
            m.insert(0, '\\');
        }
        p.line(&m, &mut out);
    }
    p.flush(&mut out);
}

#[test]
fn mutated_style12_fields() {
    // A millisecond board and a seconds board (their clocks take different paths).
    let ms = literal_lines()[0].clone();
    let secs = "<12> rnbqkbnr pppp-ppp -------- ----p--- -------- -----P-- PPPPP-PP RNBQKBNR W 4 1 1 1 1 0 1 AlphaBot BetaBot 1 5 0 39 39 299 299 2 P/e7-e5 (0:01) e5 0 1";
    let mut rng = StdRng::seed_from_u64(0x5eed_0003);
    let tokens = [
        "",
        "-",
        "none",
        "-9223372036854775808",
        "9223372036854775807",
        "(",
        "()",
        "(0:0.0000)",
        "W",
        "B",
        "-4",
        "3",
        "x/y",
        "P/e7-e8=Q",
    ];
    for i in 0..40_000 {
        let base = if i % 2 == 0 { ms.as_str() } else { secs };
        let mut f: Vec<String> = base.split(' ').map(str::to_string).collect();
        for _ in 0..rng.gen_range(1..4) {
            let k = rng.gen_range(1..f.len());
            f[k] = tokens[rng.gen_range(0..tokens.len())].to_string();
        }
        if rng.gen_bool(0.2) {
            let n = rng.gen_range(1..f.len());
            f.truncate(n);
        }
        let line = f.join(" ");
        if let Ok(b) = style12::parse(&line, ClockUnit::Auto) {
            assert_eq!(b.ranks.len(), 8);
            let _ = b.to_fen();
        }
    }
}

#[test]
fn timeseal_decoder_survives_garbage() {
    let mut rng = StdRng::seed_from_u64(0x5eed_0004);
    for _ in 0..20_000 {
        let len = rng.gen_range(0..80);
        let bytes: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        let _ = timeseal::decode_client_line(&bytes);
        // Corrupting an encoded line never panics either.
        let mut enc = timeseal::encode_line(b"tell wily hello", rng.gen_range(0..10_000_000));
        enc.pop();
        let k = rng.gen_range(0..enc.len());
        enc[k] = rng.gen();
        let _ = timeseal::decode_client_line(&enc);
    }
}

#[test]
fn login_flow_survives_any_event_order() {
    let corpus = corpus();
    let mut rng = StdRng::seed_from_u64(0x5eed_0005);
    for _ in 0..500 {
        let login = match rng.gen_range(0..3) {
            0 => Login::Guest,
            1 => Login::Unregistered {
                name: "Visitor".into(),
            },
            _ => Login::Registered {
                handle: "AlphaBot".into(),
                password: Password::new("pw"),
            },
        };
        let mut flow = LoginFlow::new(login);
        let mut bytes = Vec::new();
        for _ in 0..40 {
            bytes.extend_from_slice(&corpus[rng.gen_range(0..corpus.len())]);
            bytes.extend_from_slice(b"\n\r");
        }
        let (ev, _) = events_of(&bytes, &[usize::MAX], PipelineOptions::default());
        for e in &ev {
            let _ = flow.on_event(e);
        }
    }
}
