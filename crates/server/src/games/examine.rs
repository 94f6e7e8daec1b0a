//! Examined games on the local server, worded as lasker words them: `examine` (a scratch
//! game the session moves both sides of), a move in an examined game (the board to the
//! examiner with relation 2 and to observers with -2, then `X moves: e4`), `unexamine`
//! (observers read `X stopped examining game N.`, `There are no examiners.` and are
//! taken off the game). The relay account (`relay/config.rs`) examines its games through the
//! same functions, with no session behind it.

use crate::conn::Sid;
use crate::core::Net;
use crate::games::clock::Clock;
use crate::games::game::{Examined, Game, LastMove, MoveRecord, Side};
use crate::games::notation::{legal_moves, pretty_move, to_san, verbose_move};
use crate::games::ratings::Category;
use crate::games::Games;
use cozy_chess::{Board, Move, Piece};

/// The players and clock of an examined game, as the examiner names them.
pub struct ExamineSetup {
    pub white: String,
    pub black: String,
    pub white_rating: Option<u32>,
    pub black_rating: Option<u32>,
    pub base: u32,
    pub inc: u32,
    pub board: Board,
}

impl Games {
    /// Opens an examined game; `examiner` is the session moving it (`None` for the
    /// relay). Returns its number.
    pub fn open_examined(
        &mut self,
        net: &mut Net,
        setup: ExamineSetup,
        examiner: Option<Sid>,
        by: &str,
    ) -> u32 {
        let number = self.free_game_number();
        let side = |name: String, rating: Option<u32>| Side {
            sid: None,
            name,
            registered: true,
            rating,
        };
        let game = Game {
            number,
            white: side(setup.white, setup.white_rating),
            black: side(setup.black, setup.black_rating),
            rated: false,
            base: setup.base,
            inc: setup.inc,
            category: Category::of(setup.base, setup.inc),
            chess960: false,
            history: chess::GameHistory::new(&setup.board),
            start: setup.board.clone(),
            board: setup.board,
            moves: Vec::new(),
            last: None,
            clock: Clock::new(setup.base, setup.inc, net.cfg.zero_base_ms),
            observers: Vec::new(),
            started: chrono::Utc::now(),
            resumed: 0,
            examined: Some(Examined {
                examiner,
                by: by.to_string(),
            }),
        };
        self.games.insert(number, game);
        if let Some(sid) = examiner {
            if let Some(s) = net.sessions.get_mut(&sid) {
                s.game = Some(number);
            }
        }
        tracing::info!(game = number, by, "examined game opened");
        number
    }

    /// Plays `mv` in examined game `g` and tells the examiner and the observers.
    /// False when the game is not an examined one or the move is not legal.
    pub fn examined_move(&mut self, net: &mut Net, g: u32, mv: Move) -> bool {
        let Some(game) = self.games.get_mut(&g) else {
            return false;
        };
        let Some(by) = game.examined.as_ref().map(|x| x.by.clone()) else {
            return false;
        };
        if !game.board.is_legal(mv) {
            return false;
        }
        let verbose = verbose_move(&game.board, mv);
        let pretty = pretty_move(&game.board, mv);
        let san = to_san(&game.board, mv);
        let smith = crate::icc::smith::smith_move(&game.board, mv);
        let double_push = (game.board.piece_on(mv.from) == Some(Piece::Pawn)
            && (mv.from.rank() as i32 - mv.to.rank() as i32).abs() == 2)
            .then_some(mv.from.file() as u8);
        game.board.play_unchecked(mv);
        game.history.push(&game.board);
        game.moves.push(MoveRecord {
            san: san.clone(),
            took_ms: 0,
            mv,
            smith,
            clock_ms: 0,
        });
        game.last = Some(LastMove {
            verbose,
            pretty,
            took_ms: 0,
            double_push,
        });
        let end = if legal_moves(&game.board).is_empty() {
            Some(if game.board.checkers().is_empty() {
                "The game is drawn by stalemate.".to_string()
            } else {
                format!(
                    "{} has been checkmated.",
                    if game.board.side_to_move() == cozy_chess::Color::White {
                        "White"
                    } else {
                        "Black"
                    }
                )
            })
        } else {
            None
        };
        let mut to: Vec<Sid> = game.observers.clone();
        to.extend(game.examined.as_ref().and_then(|x| x.examiner));
        for sid in to {
            let board = self.board_for(net, g, sid);
            let mut text = format!("{board}\n{by} moves: {san}\n");
            if let Some(e) = &end {
                text.push_str(e);
                text.push('\n');
            }
            net.notify(sid, &text);
        }
        true
    }

    /// Ends examined game `g`: observers are told and taken off it, the examiner too.
    pub fn close_examined(&mut self, net: &mut Net, g: u32) {
        let Some(game) = self.games.remove(&g) else {
            return;
        };
        let Some(x) = game.examined else {
            // Not an examined game: put it back untouched.
            self.games.insert(g, game);
            return;
        };
        for o in &game.observers {
            if let Some(s) = net.sessions.get_mut(o) {
                s.observing.retain(|n| *n != g);
            }
            net.notify(
                *o,
                &format!(
                    "{} stopped examining game {g}.\nThere are no examiners.\nRemoving game {g} from observation list.\n",
                    x.by
                ),
            );
        }
        if let Some(sid) = x.examiner {
            if let Some(s) = net.sessions.get_mut(&sid) {
                s.game = None;
            }
            net.reply(sid, &format!("You are no longer examining game {g}.\n"));
        }
        tracing::info!(game = g, "examined game closed");
    }

    /// `examine`: a scratch game from the starting position.
    pub fn cmd_examine(&mut self, net: &mut Net, sid: Sid) {
        let Some(s) = net.sess(sid) else { return };
        if let Some(g) = s.game {
            let examining = self
                .games
                .get(&g)
                .is_some_and(|game| game.examined.is_some());
            net.reply(
                sid,
                if examining {
                    "You are already examining a game.\n"
                } else {
                    "You are playing a game.\n"
                },
            );
            return;
        }
        let name = s.handle.clone();
        let setup = ExamineSetup {
            white: name.clone(),
            black: name.clone(),
            white_rating: None,
            black_rating: None,
            base: 0,
            inc: 0,
            board: Board::default(),
        };
        let g = self.open_examined(net, setup, Some(sid), &name);
        let board = self.board_for(net, g, sid);
        net.reply(
            sid,
            &format!("Starting a game in examine (scratch) mode.\n\n{board}\n"),
        );
    }

    /// `unexamine`.
    pub fn cmd_unexamine(&mut self, net: &mut Net, sid: Sid) {
        let g = net.sess(sid).and_then(|s| s.game).filter(|g| {
            self.games
                .get(g)
                .and_then(|game| game.examined.as_ref())
                .is_some_and(|x| x.examiner == Some(sid))
        });
        match g {
            Some(g) => self.close_examined(net, g),
            None => net.reply(sid, "You are not examining any games.\n"),
        }
    }

    /// A move typed by the examiner of `g`; false when `g` is not examined by `sid`
    /// (the caller then treats the line as a move in a played game).
    pub fn examiner_move(&mut self, net: &mut Net, sid: Sid, g: u32, mv: Option<Move>) -> bool {
        let mine = self
            .games
            .get(&g)
            .and_then(|game| game.examined.as_ref())
            .is_some_and(|x| x.examiner == Some(sid));
        if !mine {
            return false;
        }
        match mv {
            // The board and `X moves:` go out with a prompt.
            Some(mv) if self.examined_move(net, g, mv) => {}
            _ => net.reply(sid, "Illegal move.\n"),
        }
        true
    }
}
