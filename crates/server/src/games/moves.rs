//! Playing on the local server: moves (checked with cozy-chess, answered
//! with `Illegal move.` / `It is not your move.`), and the game commands
//! `draw`, `abort`, `adjourn`, `resign`, `flag`.

use crate::conn::Sid;
use crate::games::game::{End, LastMove, MoveRecord};
use crate::games::notation::{
    has_mating_material, legal_moves, parse_move, pretty_move, to_san, verbose_move, MoveError,
};
use crate::games::play::Play;
use crate::icc::smith::smith_move;
use crate::offers::offer::{Notes, OfferKind};
use cozy_chess::{Color, Piece};
use std::time::Instant;

impl Play<'_> {
    /// The game `sid` plays, its colour and the opponent's session; replies
    /// "You are not playing a game." when there is none.
    pub(crate) fn my_game(&mut self, sid: Sid) -> Option<(u32, Color, Option<Sid>)> {
        let found = self.parts.net.sess(sid).and_then(|s| s.game).and_then(|g| {
            let game = self.parts.games.games.get(&g)?;
            let c = game.color_of(sid)?;
            Some((g, c, game.side(!c).sid))
        });
        if found.is_none() {
            self.parts.net.reply(sid, "You are not playing a game.\n");
        }
        found
    }

    /// A refused move: ICC's DG_ILLEGAL_MOVE (`reason` as it numbers them) where asked
    /// for, and the text anyway.
    fn refuse_move(&mut self, sid: Sid, g: u32, text: &str, reason: u8, msg: &str) {
        let dg = self.icc_view().illegal_text(sid, g, text, reason);
        self.parts.net.send(sid, &dg);
        self.parts.net.reply(sid, msg);
    }

    /// A move typed by a player of game `g`.
    pub fn on_move(&mut self, sid: Sid, g: u32, text: &str) {
        let promote = self
            .parts
            .net
            .sess(sid)
            .map_or(Piece::Queen, |s| s.vars.promote);
        if let Some(game) = self
            .parts
            .games
            .games
            .get(&g)
            .filter(|x| x.examined.is_some())
        {
            let mv = match parse_move(&game.board, text, promote) {
                Some(Ok(mv)) => Some(mv),
                _ => None,
            };
            if !self.parts.games.examiner_move(self.parts.net, sid, g, mv) {
                self.parts
                    .net
                    .reply(sid, "You are not examining that game.\n");
            }
            return;
        }
        let Some(game) = self.parts.games.games.get(&g) else {
            self.parts.net.reply(sid, "You are not playing a game.\n");
            return;
        };
        if game.color_of(sid) != Some(game.board.side_to_move()) {
            self.refuse_move(sid, g, text, 4, "It is not your move.\n");
            return;
        }
        let mv = match parse_move(&game.board, text, promote) {
            Some(Ok(mv)) => mv,
            Some(Err(MoveError::Ambiguous)) => {
                self.refuse_move(sid, g, text, 1, "Ambiguous move.\n");
                return;
            }
            Some(Err(MoveError::Illegal)) => {
                self.refuse_move(sid, g, text, 2, "Illegal move.\n");
                return;
            }
            None => {
                self.refuse_move(sid, g, text, 1, "Illegal move.\n");
                return;
            }
        };
        let now = Instant::now();
        let Some(game) = self.parts.games.games.get_mut(&g) else {
            return;
        };
        let mover = game.board.side_to_move();
        let ply = game.moves.len();
        let verbose = verbose_move(&game.board, mv);
        let pretty = pretty_move(&game.board, mv);
        let san = to_san(&game.board, mv);
        let smith = smith_move(&game.board, mv);
        let double_push = (game.board.piece_on(mv.from) == Some(Piece::Pawn)
            && (mv.from.rank() as i32 - mv.to.rank() as i32).abs() == 2)
            .then_some(mv.from.file() as u8);
        if game.board.try_play(mv).is_err() {
            self.parts.net.reply(sid, "Illegal move.\n");
            return;
        }
        let took = game.clock.on_move(mover, now, ply >= 2, ply >= 1);
        game.history.push(&game.board);
        let clock_ms = game.clock.remaining(mover, now);
        game.moves.push(MoveRecord {
            san,
            took_ms: took,
            mv,
            smith,
            clock_ms,
        });
        game.last = Some(LastMove {
            verbose,
            pretty,
            took_ms: took,
            double_push,
        });
        let end = if legal_moves(&game.board).is_empty() {
            if game.board.checkers().is_empty() {
                Some(End::Stalemate)
            } else {
                Some(End::Checkmate { loser: !mover })
            }
        } else if !has_mating_material(&game.board, Color::White)
            && !has_mating_material(&game.board, Color::Black)
        {
            Some(End::NoMaterial)
        } else {
            None
        };
        let opponent = game.side(!mover).sid;
        // The mover's move declines what the opponent had offered.
        let declined: Vec<u32> = self
            .parts
            .offers
            .offers
            .iter()
            .filter(|o| o.to == sid && Some(o.from) == opponent && o.kind != OfferKind::Match)
            .map(|o| o.id)
            .collect();
        let mut notes = Notes::new();
        for id in declined {
            self.dealing().drop_offer(id, &mut notes);
        }
        self.dealing().flush_notes(notes);
        self.send_boards(g, end.map(|_| sid));
        if let Some(end) = end {
            self.end_game(g, end);
        }
    }

    /// Whether the current position (or the one before the last move) has
    /// occurred three times.
    fn repetition(&self, g: u32) -> bool {
        let Some(game) = self.parts.games.games.get(&g) else {
            return false;
        };
        let h = &game.history;
        let last = h.repetitions();
        let prev = h.len().checked_sub(2).map_or(0, |i| h.occurrences_at(i));
        last >= 3 || prev >= 3
    }

    /// `draw`: claim a repetition or the 50 move rule, accept an offer, or offer.
    pub fn cmd_draw(&mut self, sid: Sid) {
        let Some((g, _, opp)) = self.my_game(sid) else {
            return;
        };
        let fifty = self
            .parts
            .games
            .games
            .get(&g)
            .is_some_and(|x| x.board.halfmove_clock() >= 100);
        if fifty {
            self.clear_offers_of_game(sid, opp);
            self.end_game(g, End::FiftyMove);
            return;
        }
        if self.repetition(g) {
            self.clear_offers_of_game(sid, opp);
            self.end_game(g, End::Repetition);
            return;
        }
        let Some(opp) = opp else { return };
        if self
            .dealing()
            .find_offer(&OfferKind::Draw, opp, sid)
            .is_some()
        {
            self.clear_offers_of_game(sid, Some(opp));
            self.end_game(g, End::Agreed);
            return;
        }
        self.dealing().offer_in_game(OfferKind::Draw, sid, opp);
    }

    fn clear_offers_of_game(&mut self, sid: Sid, opp: Option<Sid>) {
        let mut notes = Notes::new();
        self.dealing()
            .remove_game_offers(sid, opp.unwrap_or(sid), &mut notes);
        self.dealing().flush_notes(notes);
    }

    /// `abort`: accept the opponent's request or ask for one.
    pub fn cmd_abort(&mut self, sid: Sid) {
        let Some((g, _, opp)) = self.my_game(sid) else {
            return;
        };
        let Some(opp) = opp else { return };
        if self
            .dealing()
            .find_offer(&OfferKind::Abort, opp, sid)
            .is_some()
        {
            self.clear_offers_of_game(sid, Some(opp));
            self.end_game(g, End::AbortAgreed);
            return;
        }
        let early = self
            .parts
            .games
            .games
            .get(&g)
            .is_some_and(|x| x.moves.len() < 2 && x.resumed == 0);
        if self.parts.net.cfg.abort_before_moves && early {
            self.clear_offers_of_game(sid, Some(opp));
            self.end_game(g, End::AbortEarly);
            return;
        }
        self.dealing().offer_in_game(OfferKind::Abort, sid, opp);
    }

    /// `adjourn`: both players must be registered.
    pub fn cmd_adjourn(&mut self, sid: Sid) {
        let Some((g, _, opp)) = self.my_game(sid) else {
            return;
        };
        let Some(opp) = opp else { return };
        if !self.parts.games.games.get(&g).is_some_and(|x| x.storable()) {
            self.parts.net.reply(
                sid,
                "Both players must be registered to adjourn a game.  Use \"abort\".\n",
            );
            return;
        }
        if self
            .dealing()
            .find_offer(&OfferKind::Adjourn, opp, sid)
            .is_some()
        {
            self.clear_offers_of_game(sid, Some(opp));
            self.end_game(g, End::AdjournAgreed);
            return;
        }
        self.dealing().offer_in_game(OfferKind::Adjourn, sid, opp);
    }

    /// `resign`.
    pub fn cmd_resign(&mut self, sid: Sid) {
        let Some((g, color, opp)) = self.my_game(sid) else {
            return;
        };
        self.clear_offers_of_game(sid, opp);
        self.end_game(g, End::Resign { loser: color });
    }

    /// `flag`: win on time when the opponent's clock is out.
    pub fn cmd_flag(&mut self, sid: Sid) {
        let Some((g, color, opp)) = self.my_game(sid) else {
            return;
        };
        let Some(game) = self.parts.games.games.get(&g) else {
            return;
        };
        if game.clock.untimed() {
            self.parts
                .net
                .reply(sid, "You can't flag an untimed game.\n");
            return;
        }
        if game.moves.len() < 2 {
            self.parts.net.reply(
                sid,
                "You cannot flag before both players have moved.\nUse abort instead.\n",
            );
            return;
        }
        let now = Instant::now();
        let mine = game.clock.remaining(color, now);
        let theirs = game.clock.remaining(!color, now);
        let end = if mine <= 0 && theirs <= 0 {
            End::BothFlag
        } else if theirs > 0 {
            self.parts
                .net
                .reply(sid, "Your opponent is not out of time!\n");
            return;
        } else if has_mating_material(&game.board, color) {
            End::Flag { loser: !color }
        } else {
            End::FlagNoMaterial { loser: !color }
        };
        self.clear_offers_of_game(sid, opp);
        self.end_game(g, end);
    }
}
