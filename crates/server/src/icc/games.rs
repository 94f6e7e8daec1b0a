//! The game DGs of the local server's ICC dialect, for players and observers: my game
//! started / started observing, my relation to game, the position (DG_POSITION_BEGIN with
//! the start FEN and the moves so far, so a resumed or Chess960 = wild 22 game is whole),
//! each move (DG_SEND_MOVES with the algebraic, smith, time and clock fields the client
//! turned on), millisecond clocks (DG_MSEC), my turn, the board of a wild 22 game for a
//! client that does not know its castling, and the result.

use super::out::{rating_type, Dg, View};
use crate::conn::Sid;
use crate::games::game::{End, Game, MoveRecord};
use chess::fen::to_fen;
use cozy_chess::{Board, Color, File, Rank, Square};
use ics::icc::numbers::*;
use std::time::Instant;

/// How a session stands to a game, as DG_MY_RELATION_TO_GAME writes it.
fn relation(game: &Game, sid: Sid) -> &'static str {
    match game.color_of(sid) {
        Some(Color::White) => "PW",
        Some(Color::Black) => "PB",
        None => "O",
    }
}

fn color_letter(c: Color) -> &'static str {
    match c {
        Color::White => "W",
        Color::Black => "B",
    }
}

/// The 64 squares a8..h1 (`-PNBRQKpnbrqk`), as DG_SET_BOARD writes them.
fn board64(b: &Board) -> String {
    let mut s = String::with_capacity(64);
    for r in (0..8).rev() {
        for f in 0..8 {
            let sq = Square::new(File::index(f), Rank::index(r));
            let c = match (b.piece_on(sq), b.color_on(sq)) {
                (Some(p), Some(col)) => {
                    let ch = match p {
                        cozy_chess::Piece::Pawn => 'P',
                        cozy_chess::Piece::Knight => 'N',
                        cozy_chess::Piece::Bishop => 'B',
                        cozy_chess::Piece::Rook => 'R',
                        cozy_chess::Piece::Queen => 'Q',
                        cozy_chess::Piece::King => 'K',
                    };
                    if col == Color::White {
                        ch
                    } else {
                        ch.to_ascii_lowercase()
                    }
                }
                _ => '-',
            };
            s.push(c);
        }
    }
    s
}

/// Whole seconds, rounded, for the time and clock fields of a move.
fn secs(ms: i64) -> i64 {
    (ms + 500).div_euclid(1000)
}

/// The result words of an end: ICC's three-letter code, the score, the description.
pub fn result_words(game: &Game, end: End, shutdown: bool) -> (&'static str, &'static str, String) {
    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
    let win = |loser: Color| if loser == Color::White { "0-1" } else { "1-0" };
    match end {
        End::Checkmate { loser } => ("Mat", win(loser), format!("{} checkmated", name(loser))),
        End::Resign { loser } => ("Res", win(loser), format!("{} resigns", name(loser))),
        End::Flag { loser } => (
            "Fla",
            win(loser),
            format!("{} forfeits on time", name(loser)),
        ),
        End::FlagNoMaterial { loser } => (
            "TM",
            "1/2-1/2",
            format!(
                "{} ran out of time and {} has no material to mate",
                name(loser),
                name(!loser)
            ),
        ),
        End::BothFlag => (
            "NT",
            "1/2-1/2",
            "Game drawn because both players ran out of time".into(),
        ),
        End::Stalemate => (
            "Sta",
            "1/2-1/2",
            format!("{} stalemated", name(game.board.side_to_move())),
        ),
        End::Agreed => ("Agr", "1/2-1/2", "Game drawn by mutual agreement".into()),
        End::Repetition => ("Rep", "1/2-1/2", "Game drawn by repetition".into()),
        End::FiftyMove => ("50", "1/2-1/2", "Game drawn by the 50 move rule".into()),
        End::NoMaterial => (
            "NM",
            "1/2-1/2",
            "Game drawn because neither player has mating material".into(),
        ),
        End::AdjournAgreed => ("?", "*", "Game adjourned by mutual agreement".into()),
        End::LostConnection { .. } if shutdown && game.storable() => {
            ("?", "*", "Game adjourned by system shutdown".into())
        }
        End::LostConnection { who } if game.storable() => (
            "?",
            "*",
            format!("Game adjourned when {} disconnected", name(who)),
        ),
        End::LostConnection { who } => (
            "BQ",
            "aborted",
            format!("Game aborted when {} disconnected", name(who)),
        ),
        End::AbortAgreed => ("Agr", "aborted", "Game aborted by mutual agreement".into()),
        End::AbortEarly => ("Agr", "aborted", "Game aborted on move 1".into()),
    }
}

impl View<'_> {
    /// DG_MY_GAME_STARTED / DG_STARTED_OBSERVING (`code`) of a game.
    fn started_dg(&self, game: &Game, code: u16) -> Dg {
        let (wr, _) = self.rating(&game.white.name, game.category);
        let (br, _) = self.rating(&game.black.name, game.category);
        let tc = if game.clock.untimed() { "-" } else { "" };
        Dg::new(code)
            .num(game.number)
            .word(&game.white.name)
            .word(&game.black.name)
            .num(if game.chess960 { 22 } else { 0 })
            .word(rating_type(game.category, game.chess960))
            .flag(game.rated)
            .num(game.base)
            .num(game.inc)
            .num(game.base)
            .num(game.inc)
            .num(1)
            .braced("")
            .num(if game.white.registered { wr } else { 0 })
            .num(if game.black.registered { br } else { 0 })
            .num(game.started.timestamp().max(0))
            .braced(self.titles(&game.white.name))
            .braced(self.titles(&game.black.name))
            .num(0)
            .flag(game.chess960)
            .num(0)
            .word(tc)
            .num(0)
    }

    /// DG_SEND_MOVES (or DG_PAST_MOVE, `code`) of one move, with the fields `sid` asked for.
    fn move_dg(&self, sid: Sid, game: &Game, m: &MoveRecord, code: u16, variation: u8) -> Dg {
        let mut d = Dg::new(code).num(game.number);
        if self.net.dg_on(sid, DG_MOVE_ALGEBRAIC) {
            d = d.word(&m.san);
        }
        if self.net.dg_on(sid, DG_MOVE_SMITH) {
            d = d.word(&m.smith);
        }
        if self.net.dg_on(sid, DG_MOVE_TIME) {
            d = d.num(secs(m.took_ms));
        }
        if self.net.dg_on(sid, DG_MOVE_CLOCK) {
            d = d.num(secs(m.clock_ms));
        }
        if self.net.dg_on(sid, DG_IS_VARIATION) {
            d = d.num(variation);
        }
        d
    }

    fn msec_dg(game: &Game, color: Color, now: Instant, running: bool) -> Dg {
        Dg::new(DG_MSEC)
            .num(game.number)
            .word(color_letter(color))
            .num(
                game.clock
                    .remaining(color, now)
                    .clamp(-(1 << 31), (1 << 31) - 1),
            )
            .flag(running)
            .num(0)
            .num(0)
    }

    fn clock_dgs(game: &Game, now: Instant) -> Vec<Dg> {
        let running = |c: Color| game.clock.ticking() && game.board.side_to_move() == c;
        vec![
            Self::msec_dg(game, Color::White, now, running(Color::White)),
            Self::msec_dg(game, Color::Black, now, running(Color::Black)),
        ]
    }

    /// A wild 22 board for a client that does not know Chess960 castling.
    fn set_board_dg(&self, sid: Sid, game: &Game) -> Option<Dg> {
        (game.chess960 && !self.net.dg_on(sid, DG_KNOWS_FISCHER_RANDOM)).then(|| {
            Dg::new(DG_SET_BOARD)
                .num(game.number)
                .word(board64(&game.board))
                .word(color_letter(game.board.side_to_move()))
        })
    }

    /// Everything a client needs to set up game `g` it now plays (`code` 15) or
    /// observes (18): the start DG, its relation, flip, the position and moves so far,
    /// both clocks, and DG_MY_TURN when it is to move.
    fn game_picture(&self, sid: Sid, game: &Game, code: u16) -> String {
        let now = Instant::now();
        let mut dgs = vec![
            self.started_dg(game, code),
            Dg::new(DG_MY_RELATION_TO_GAME)
                .num(game.number)
                .word(relation(game, sid)),
            Dg::new(DG_FLIP)
                .num(game.number)
                .flag(game.color_of(sid) == Some(Color::Black)),
        ];
        if self.net.dg_on(sid, DG_POSITION_BEGIN2) {
            dgs.push(
                Dg::new(DG_POSITION_BEGIN2)
                    .num(game.number)
                    .braced(to_fen(&game.start))
                    .num(game.moves.len()),
            );
            for m in &game.moves {
                dgs.push(self.move_dg(sid, game, m, DG_PAST_MOVE, 0));
            }
        } else {
            dgs.push(
                Dg::new(DG_POSITION_BEGIN)
                    .num(game.number)
                    .braced(to_fen(&game.start))
                    .num(game.moves.len()),
            );
            for m in &game.moves {
                dgs.push(self.move_dg(sid, game, m, DG_SEND_MOVES, 0));
            }
        }
        dgs.push(Dg::new(DG_FEN).num(game.number).braced(to_fen(&game.board)));
        dgs.extend(self.set_board_dg(sid, game));
        dgs.extend(Self::clock_dgs(game, now));
        if game.color_of(sid) == Some(game.board.side_to_move()) {
            dgs.push(Dg::new(DG_MY_TURN).num(game.number));
        }
        dgs.iter().map(|d| self.net.dg_for(sid, d)).collect()
    }

    /// Game `g` has just started (or resumed): its players' pictures, to send.
    pub fn game_started(&self, g: u32) -> Vec<(Sid, String)> {
        let Some(game) = self.games.games.get(&g) else {
            return Vec::new();
        };
        [game.white.sid, game.black.sid]
            .into_iter()
            .flatten()
            .map(|sid| (sid, self.game_picture(sid, game, DG_MY_GAME_STARTED)))
            .collect()
    }

    /// `sid` started observing game `g`: the game's picture.
    pub fn started_observing(&self, sid: Sid, g: u32) -> String {
        match self.games.games.get(&g) {
            Some(game) => self.game_picture(sid, game, DG_STARTED_OBSERVING),
            None => String::new(),
        }
    }

    /// `sid` stopped observing game `g` (which goes on).
    pub fn stopped_observing(&self, sid: Sid, g: u32) -> String {
        [
            Dg::new(DG_STOP_OBSERVING).num(g),
            Dg::new(DG_MY_RELATION_TO_GAME).num(g).word("X"),
        ]
        .iter()
        .map(|d| self.net.dg_for(sid, d))
        .collect()
    }

    /// The DGs of the last move of game `g` for `sid`: the move, both clocks, a wild 22
    /// board where needed, and DG_MY_TURN for the player now to move.
    pub fn move_text(&self, sid: Sid, g: u32) -> String {
        let Some(game) = self.games.games.get(&g) else {
            return String::new();
        };
        let Some(m) = game.moves.last() else {
            return String::new();
        };
        let mut dgs = vec![self.move_dg(sid, game, m, DG_SEND_MOVES, 1)];
        dgs.extend(Self::clock_dgs(game, Instant::now()));
        dgs.extend(self.set_board_dg(sid, game));
        if game.color_of(sid) == Some(game.board.side_to_move()) {
            dgs.push(Dg::new(DG_MY_TURN).num(game.number));
        }
        dgs.iter().map(|d| self.net.dg_for(sid, d)).collect()
    }

    /// A takeback of `n` half-moves in game `g`: DG_TAKEBACK, clocks, whose turn.
    pub fn takeback_text(&self, sid: Sid, g: u32, n: usize) -> String {
        let Some(game) = self.games.games.get(&g) else {
            return String::new();
        };
        let mut dgs = vec![Dg::new(DG_TAKEBACK).num(g).num(n)];
        dgs.extend(Self::clock_dgs(game, Instant::now()));
        dgs.extend(self.set_board_dg(sid, game));
        if game.color_of(sid) == Some(game.board.side_to_move()) {
            dgs.push(Dg::new(DG_MY_TURN).num(game.number));
        }
        dgs.iter().map(|d| self.net.dg_for(sid, d)).collect()
    }

    /// The DGs of a game's end for `sid`: final clocks, the result, relation X.
    pub fn result_text(&self, sid: Sid, game: &Game, end: End) -> String {
        let now = Instant::now();
        let (code, score, text) = result_words(game, end, self.shutting_down);
        let mut dgs = vec![
            Self::msec_dg(game, Color::White, now, false),
            Self::msec_dg(game, Color::Black, now, false),
            Dg::new(DG_MY_GAME_RESULT)
                .num(game.number)
                .num(0)
                .word(code)
                .word(score)
                .braced(text)
                .word("?"),
        ];
        dgs.push(Dg::new(DG_MY_RELATION_TO_GAME).num(game.number).word("X"));
        dgs.iter().map(|d| self.net.dg_for(sid, d)).collect()
    }

    /// DG_ILLEGAL_MOVE: `reason` 1 bad notation, 2 illegal, 4 not your move.
    pub fn illegal_text(&self, sid: Sid, g: u32, typed: &str, reason: u8) -> String {
        let typed: String = typed
            .split_whitespace()
            .next()
            .unwrap_or("")
            .chars()
            .take(20)
            .collect();
        self.net.dg_for(
            sid,
            &Dg::new(DG_ILLEGAL_MOVE).num(g).word(typed).num(reason),
        )
    }
}
