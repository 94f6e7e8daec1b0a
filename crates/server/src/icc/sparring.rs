//! The scripted sparring player's ICC side: it logs in the way wily does on ICC (the
//! `level2settings=` line of `ics::icc::login`, then `set-2`), and reads the
//! server's bytes through the shared codec and datagram parser, turning the events that
//! matter to it (its boards, results, challenges, offers, refused moves, seek ads) into
//! the same inputs the FICS text gives. Text between the datagrams is handed back for the
//! login dialogue.

use crate::sparring::input::{Asked, Board12, Input};
use chess::castling::CastlingRooks;
use chess::fen::parse_fen;
use ics::events::{Event, GameResult, OfferKind};
use ics::icc::login::{login_preamble, setup_commands, turned_on};
use ics::icc::{Chunk, Deframer, IccReader, MoveFields};

/// The reading side of an ICC connection.
#[derive(Debug)]
pub struct IccSide {
    deframer: Deframer,
    reader: IccReader,
}

impl Default for IccSide {
    fn default() -> Self {
        IccSide::new()
    }
}

/// The lines typed at the `login:` prompt before the name.
pub fn icc_login_lines() -> Vec<String> {
    login_preamble()
}

/// The commands sent once logged in.
pub fn icc_setup_commands() -> Vec<String> {
    setup_commands("wily sparring partner")
}

fn result_text(r: GameResult) -> &'static str {
    match r {
        GameResult::WhiteWins => "1-0",
        GameResult::BlackWins => "0-1",
        GameResult::Draw => "1/2-1/2",
        GameResult::NoResult => "*",
    }
}

impl IccSide {
    pub fn new() -> IccSide {
        IccSide {
            deframer: Deframer::new(),
            reader: IccReader::new(MoveFields::from_settings(&turned_on())),
        }
    }

    /// Our name, once DG_WHO_AM_I has said it.
    pub fn me(&self) -> Option<&str> {
        self.reader.me()
    }

    /// Bytes read: text goes to `text`, what the datagrams say to `inputs`.
    pub fn feed(&mut self, bytes: &[u8], text: &mut Vec<u8>, inputs: &mut Vec<Input>) {
        let mut chunks = Vec::new();
        self.deframer.feed(bytes, &mut chunks);
        let mut events = Vec::new();
        for c in chunks {
            match c {
                Chunk::Text(t) => text.extend_from_slice(&t),
                Chunk::Datagram(dg) => self.reader.datagram(&dg, &mut events),
                Chunk::Bad(b) => tracing::warn!("sparring: bad datagram: {b}"),
                Chunk::Overflow => tracing::warn!("sparring: the server dropped output"),
                Chunk::Unit(_) | Chunk::UnitEnd => {}
            }
        }
        // A read ends every update the server sent with it.
        self.reader.settle(&mut events);
        for w in self.reader.warnings() {
            tracing::debug!("sparring: {w}");
        }
        inputs.extend(events.into_iter().filter_map(input_of));
    }
}

fn input_of(ev: Event) -> Option<Input> {
    match ev {
        Event::Board(s) => {
            let board = parse_fen(&s.to_fen()).ok()?;
            let castling = chess::castling::CastleFlags {
                white_short: s.white_castle_short,
                white_long: s.white_castle_long,
                black_short: s.black_castle_short,
                black_long: s.black_castle_long,
            };
            let board = CastlingRooks::of_start(&board).apply(&board, castling);
            Some(Input::Board(Board12 {
                board,
                castling,
                game: s.game,
                white: s.white.clone(),
                black: s.black.clone(),
                relation: s.relation.code(),
                white_time: s.white_clock_ms,
                black_time: s.black_clock_ms,
                pretty: s.last_move_san.clone().unwrap_or_else(|| "none".into()),
                ticking: s.clock_ticking.unwrap_or(true),
            }))
        }
        Event::GameEnd(e) => Some(Input::Result {
            number: e.game,
            white: e.white,
            black: e.black,
            reason: e.text,
            result: result_text(e.result).into(),
        }),
        Event::Challenge(m) => Some(Input::Challenge {
            from: m.challenger.name,
        }),
        Event::OfferReceived { kind, .. } => match kind {
            OfferKind::Draw => Some(Input::Asked(Asked::Draw)),
            OfferKind::Abort => Some(Input::Asked(Asked::Abort)),
            OfferKind::Adjourn => Some(Input::Asked(Asked::Adjourn)),
            _ => None,
        },
        Event::IllegalMove { .. } => Some(Input::Illegal),
        Event::Seek(ad) => Some(Input::Ad {
            id: ad.index,
            name: ad.name,
        }),
        _ => None,
    }
}
