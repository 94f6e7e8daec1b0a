//! Style 12 board lines as the lasker server sends them: 32 fields (the 31
//! FICS documents plus the clock-ticking flag), clocks in seconds, or in
//! milliseconds once the client has done `iset ms 1`.

use crate::conn::Sid;
use crate::games::clock::{min_sec, min_sec_ms, whole_seconds};
use crate::games::game::Game;
use crate::games::notation::material;
use cozy_chess::{Color, File, Piece, Rank, Square};
use ics::board::Relation;
use std::fmt::Write;
use std::time::Instant;

fn piece_char(p: Piece, c: Color) -> char {
    let ch = match p {
        Piece::Pawn => 'P',
        Piece::Knight => 'N',
        Piece::Bishop => 'B',
        Piece::Rook => 'R',
        Piece::Queen => 'Q',
        Piece::King => 'K',
    };
    match c {
        Color::White => ch,
        Color::Black => ch.to_ascii_lowercase(),
    }
}

/// The `<12>` line (no line end) for `game` as one receiver sees it.
pub fn style12(game: &Game, relation: Relation, flip: bool, ms: bool, now: Instant) -> String {
    let b = &game.board;
    let mut s = String::with_capacity(200);
    s.push_str("<12>");
    for r in (0..8).rev() {
        s.push(' ');
        for f in 0..8 {
            let sq = Square::new(File::index(f), Rank::index(r));
            match (b.piece_on(sq), b.color_on(sq)) {
                (Some(p), Some(c)) => s.push(piece_char(p, c)),
                _ => s.push('-'),
            }
        }
    }
    let stm = b.side_to_move();
    let dpp = game
        .last
        .as_ref()
        .and_then(|l| l.double_push)
        .map_or(-1, i32::from);
    let cr = |c: Color| {
        let r = b.castle_rights(c);
        (u8::from(r.short.is_some()), u8::from(r.long.is_some()))
    };
    let (wk, wq) = cr(Color::White);
    let (bk, bq) = cr(Color::Black);
    let wt = game.clock.remaining(Color::White, now);
    let bt = game.clock.remaining(Color::Black, now);
    let (wt, bt) = if ms {
        (wt, bt)
    } else {
        (whole_seconds(wt), whole_seconds(bt))
    };
    let (verbose, took, pretty) = match &game.last {
        Some(l) => (
            l.verbose.as_str(),
            if ms {
                min_sec_ms(l.took_ms)
            } else {
                min_sec(l.took_ms)
            },
            l.pretty.as_str(),
        ),
        None => ("none", if ms { min_sec_ms(0) } else { min_sec(0) }, "none"),
    };
    let _ = write!(
        s,
        " {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} ({}) {} {} {}",
        if stm == Color::White { 'W' } else { 'B' },
        dpp,
        wk,
        wq,
        bk,
        bq,
        b.halfmove_clock(),
        game.number,
        game.white.name,
        game.black.name,
        relation.code(),
        game.base,
        game.inc,
        material(b, Color::White),
        material(b, Color::Black),
        wt,
        bt,
        b.fullmove_number(),
        verbose,
        took,
        pretty,
        u8::from(flip),
        u8::from(game.clock.ticking()),
    );
    s
}

impl Game {
    /// Style 12 for a player or an observer.
    pub fn board_line(&self, sid: Sid, ms: bool, now: Instant) -> String {
        if let Some(x) = &self.examined {
            let rel = if x.examiner == Some(sid) {
                Relation::Examining
            } else {
                Relation::ObservingExamined
            };
            return style12(self, rel, false, ms, now);
        }
        let (rel, flip) = match self.color_of(sid) {
            Some(c) if c == self.board.side_to_move() => (Relation::MyMove, c == Color::Black),
            Some(c) => (Relation::OpponentToMove, c == Color::Black),
            None => (Relation::Observing, false),
        };
        style12(self, rel, flip, ms, now)
    }
}
