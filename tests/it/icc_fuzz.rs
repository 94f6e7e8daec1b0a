//! The ICC datagram path against random, truncated and mutated bytes: the deframer, the
//! datagram reader, the whole level-2 pipeline and both replay printers (events and
//! `--datagrams`) must never panic, and a valid datagram after garbage is still read. The
//! hostile fields go to every datagram wily turns on and every one with a printed form.

use wily::ics::dialect::Dialect;
use wily::ics::events::Event;
use wily::ics::icc::datagram::{deframe, Chunk, Datagram};
use wily::ics::icc::login::turned_on;
use wily::ics::icc::schema::{form, MODIFIERS};
use wily::ics::icc::MoveFields;
use wily::ics::pipeline::{events_of, PipelineOptions};
use wily::ics::replay::{replay, replay_datagrams, ReplayOptions};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn opts() -> PipelineOptions {
    PipelineOptions {
        icc_level2: true,
        ..Default::default()
    }
}

fn capture() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/icc/game_capture.bin"
    ))
    .unwrap()
}

/// Bytes biased towards the framing marks.
fn junk(rng: &mut Rng, len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| match rng.below(10) {
            0 | 1 => 0x19,
            2 => b'(',
            3 => b')',
            4 => b'{',
            5 => b'}',
            6 => b' ',
            7 => b'0' + rng.below(10) as u8,
            _ => rng.next() as u8,
        })
        .collect()
}

#[test]
fn random_bytes_never_panic_and_do_not_block_what_follows() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let good = Datagram::new(31)
        .with("boss")
        .with("")
        .with("still here")
        .with(1)
        .encode();
    for round in 0..400 {
        let len = rng.below(600) as usize;
        let mut bytes = junk(&mut rng, len);
        let _ = deframe(&bytes);
        let sizes = [1 + rng.below(50) as usize, 1 + rng.below(7) as usize];
        let _ = events_of(&bytes, &sizes, opts());
        // Close whatever the junk left open, then a good tell must come through.
        bytes.extend_from_slice(b"\x19)\x19)\n");
        bytes.extend_from_slice(&good);
        let (ev, _) = events_of(&bytes, &sizes, opts());
        assert!(
            ev.iter()
                .any(|e| matches!(e, Event::Chat(c) if c.text == "still here")),
            "round {round}: the datagram after the junk was lost"
        );
    }
}

#[test]
fn every_truncation_and_mutation_of_a_game_is_survived() {
    let cap = capture();
    for cut in 0..cap.len() {
        let _ = events_of(&cap[..cut], &[5], opts());
        let _ = replay(&cap[..cut], ReplayOptions::new(Dialect::Icc));
        let _ = replay_datagrams(&cap[..cut]);
    }
    let mut rng = Rng(42);
    for _ in 0..500 {
        let mut m = cap.clone();
        for _ in 0..1 + rng.below(6) {
            let i = rng.below(m.len() as u64) as usize;
            match rng.below(3) {
                0 => m[i] = rng.next() as u8,
                1 => {
                    m.remove(i);
                }
                _ => m.insert(
                    i,
                    [0x19, b'(', b')', b'{', b'}', b' '][rng.below(6) as usize],
                ),
            }
        }
        let _ = events_of(&m, &[1 + rng.below(64) as usize], opts());
        for line in replay_datagrams(&m) {
            serde_json::from_str::<serde_json::Value>(&line).expect("every line is JSON");
        }
        for line in replay(&m, ReplayOptions::new(Dialect::Icc)) {
            serde_json::from_str::<serde_json::Value>(&line).expect("every line is JSON");
        }
    }
}

#[test]
fn hostile_fields_in_known_datagrams_are_survived() {
    let mut rng = Rng(7);
    // Every datagram wily turns on, and every one the `--datagrams` printer has a form for.
    let mut codes: Vec<u16> = turned_on()
        .into_iter()
        .filter(|c| !MODIFIERS.contains(c))
        .collect();
    codes.extend((0..=200).filter(|&c| form(&Datagram::new(c), MoveFields::default()).is_some()));
    codes.sort_unstable();
    codes.dedup();
    assert!(codes.len() >= 60, "{codes:?}");
    for i in 0..3000 {
        // Each datagram in turn, so every one gets about fifty sets of hostile fields.
        let code = codes[i % codes.len()];
        let mut d = Datagram::new(code);
        for _ in 0..rng.below(24) {
            d = d.with(match rng.below(8) {
                0 => "-1".to_string(),
                1 => "99999999999999999999".to_string(),
                2 => String::new(),
                3 => "e2e4".to_string(),
                4 => "W".to_string(),
                5 => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string(),
                6 => "7".to_string(),
                _ => String::from_utf8_lossy(&junk(&mut rng, 6)).into_owned(),
            });
        }
        let bytes = d.encode();
        assert!(
            deframe(&bytes)
                .iter()
                .all(|c| matches!(c, Chunk::Datagram(_) | Chunk::Bad(_))),
            "{d:?}"
        );
        let _ = events_of(&bytes, &[bytes.len()], opts());
        for line in replay_datagrams(&bytes) {
            serde_json::from_str::<serde_json::Value>(&line).expect("every line is JSON");
        }
    }
}
