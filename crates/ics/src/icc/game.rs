//! What the ICC reader remembers about one game it has been told of (played, observed or
//! examined): players, time control, the position from `DG_POSITION_BEGIN` and the moves
//! after it, the clocks from `DG_MSEC`, and the open offers. ICC sends moves, not boards,
//! so this is where the full board update the bot expects ([`Style12`]) is built.
//!
//! Moves are read from their Smith form (`e2e4`, `e1g1c` for castling, `e7e8Q`), with the
//! algebraic form as a second try, and checked against the rules (`chess`): a move
//! that is not legal in the position kept here is refused, so the board handed on is never
//! a guess.

use cozy_chess::{Board, Color as CColor, File, Move, Piece, Rank, Square};

use crate::board::{Color, Relation, Style12};
use chess::coord::{castling_king_target, is_castling};
use chess::{parse_fen, parse_san, Position};

/// The moves of a game and the position they lead to.
#[derive(Debug, Clone)]
pub struct GameState {
    pub game: u32,
    pub white: String,
    pub black: String,
    pub white_titles: Vec<String>,
    pub black_titles: Vec<String>,
    pub white_rating: u32,
    pub black_rating: u32,
    pub wild: u32,
    /// `Blitz`, `Standard`, `Wild`, ... as ICC names the rating type.
    pub rating_type: String,
    pub rated: bool,
    pub base_minutes: u32,
    pub increment_secs: u32,
    /// False for an examined game.
    pub played: bool,
    pub relation: Relation,
    pub position: Position,
    /// SAN of each move played, as the server wrote it.
    pub sans: Vec<String>,
    /// Initial moves still to come after `DG_POSITION_BEGIN`.
    pub initial_moves_due: u32,
    pub white_ms: i64,
    pub black_ms: i64,
    /// Whose clock the server says is running.
    pub running: Option<Color>,
    pub last_move_verbose: Option<String>,
    pub last_move_san: Option<String>,
    pub last_move_ms: u64,
    pub lag_ms: Option<u32>,
    pub flip: bool,
    /// Open offers: [white draw, black draw, white adjourn, black adjourn, white abort,
    /// black abort, white takeback, black takeback] as the last `DG_OFFERS_IN_MY_GAME` said.
    pub offers: [u32; 8],
    /// `Creating`/`GameStart` not yet announced (waiting for `DG_POSITION_BEGIN`).
    pub announce_due: bool,
}

impl GameState {
    pub fn new(game: u32) -> GameState {
        GameState {
            game,
            white: String::new(),
            black: String::new(),
            white_titles: Vec::new(),
            black_titles: Vec::new(),
            white_rating: 0,
            black_rating: 0,
            wild: 0,
            rating_type: String::new(),
            rated: false,
            base_minutes: 0,
            increment_secs: 0,
            played: true,
            relation: Relation::Observing,
            position: Position::startpos(),
            sans: Vec::new(),
            initial_moves_due: 0,
            white_ms: 0,
            black_ms: 0,
            running: None,
            last_move_verbose: None,
            last_move_san: None,
            last_move_ms: 0,
            lag_ms: None,
            flip: false,
            offers: [0; 8],
            announce_due: false,
        }
    }

    /// The name of the player of a colour.
    pub fn name_of(&self, c: Color) -> &str {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// Starts again from a FEN (an empty or unreadable one means the standard start).
    /// Returns false when the FEN could not be read.
    pub fn set_start(&mut self, fen: &str) -> bool {
        let fen = fen.trim();
        let (board, ok) = if fen.is_empty() || fen == "*" {
            (Board::default(), true)
        } else {
            match parse_fen(fen) {
                Ok(b) => (b, true),
                Err(_) => (Board::default(), false),
            }
        };
        self.position = Position::new(board);
        if self.wild == 22 {
            self.position.set_chess960(true);
        }
        self.sans.clear();
        self.last_move_verbose = None;
        self.last_move_san = None;
        self.last_move_ms = 0;
        ok
    }

    /// Plays a move given in Smith and/or algebraic form. Err says why it was refused.
    pub fn play(&mut self, smith: Option<&str>, san: Option<&str>) -> Result<Move, String> {
        let board = self.position.board().clone();
        let mv = smith
            .and_then(|s| move_of_smith(&board, s))
            .or_else(|| san.and_then(|s| parse_san(&board, s).ok()))
            .ok_or_else(|| {
                format!(
                    "move {} / {} is not legal in {}",
                    smith.unwrap_or("-"),
                    san.unwrap_or("-"),
                    chess::to_fen(&board)
                )
            })?;
        let verbose = verbose_of(&board, mv);
        let san_text = san
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .unwrap_or_else(|| chess::to_san(&board, mv));
        self.position.play(mv).map_err(|e| e.to_string())?;
        self.sans.push(san_text.clone());
        self.last_move_verbose = Some(verbose);
        self.last_move_san = Some(san_text);
        self.lag_ms = None;
        Ok(mv)
    }

    /// Takes back `n` half-moves.
    pub fn take_back(&mut self, n: u32) {
        for _ in 0..n {
            if self.position.undo().is_none() {
                break;
            }
            self.sans.pop();
        }
        self.last_move_san = self.sans.last().cloned();
        self.last_move_verbose = match (
            self.position.previous_boards().last(),
            self.position.moves().last(),
        ) {
            (Some(b), Some(&m)) => Some(verbose_of(b, m)),
            _ => None,
        };
        self.last_move_ms = 0;
    }

    /// The relation to show for the current side to move.
    fn relation_now(&self) -> Relation {
        match self.relation {
            Relation::MyMove | Relation::OpponentToMove => {
                // `relation` holds MyMove when we play White, OpponentToMove for Black.
                let we_are_white = self.relation == Relation::MyMove;
                let white_to_move = self.position.side_to_move() == CColor::White;
                if we_are_white == white_to_move {
                    Relation::MyMove
                } else {
                    Relation::OpponentToMove
                }
            }
            r => r,
        }
    }

    /// The board update for the current position, as a style-12 line would give it.
    pub fn style12(&self) -> Style12 {
        let board = self.position.board();
        let mut ranks = [[b'-'; 8]; 8];
        let mut material = [0u32; 2];
        for (row, rank) in Rank::ALL.iter().rev().enumerate() {
            for (col, file) in File::ALL.iter().enumerate() {
                let sq = Square::new(*file, *rank);
                if let (Some(p), Some(c)) = (board.piece_on(sq), board.color_on(sq)) {
                    let ch = char::from(p) as u8;
                    ranks[row][col] = if c == CColor::White {
                        ch.to_ascii_uppercase()
                    } else {
                        ch
                    };
                    let v = match p {
                        Piece::Pawn => 1,
                        Piece::Knight | Piece::Bishop => 3,
                        Piece::Rook => 5,
                        Piece::Queen => 9,
                        Piece::King => 0,
                    };
                    material[c as usize] += v;
                }
            }
        }
        let w = board.castle_rights(CColor::White);
        let b = board.castle_rights(CColor::Black);
        Style12 {
            ranks,
            side_to_move: match board.side_to_move() {
                CColor::White => Color::White,
                CColor::Black => Color::Black,
            },
            ep_file: board.en_passant().map(|f| f as u8),
            white_castle_short: w.short.is_some(),
            white_castle_long: w.long.is_some(),
            black_castle_short: b.short.is_some(),
            black_castle_long: b.long.is_some(),
            halfmove_clock: u32::from(board.halfmove_clock()),
            game: self.game,
            white: self.white.clone(),
            black: self.black.clone(),
            relation: self.relation_now(),
            base_minutes: self.base_minutes,
            increment_secs: self.increment_secs,
            white_material: material[0],
            black_material: material[1],
            white_clock_ms: self.white_ms,
            black_clock_ms: self.black_ms,
            clocks_in_ms: true,
            move_number: u32::from(board.fullmove_number()),
            last_move_verbose: self.last_move_verbose.clone(),
            last_move_time_ms: self.last_move_ms,
            last_move_san: self.last_move_san.clone(),
            flip: self.flip,
            clock_ticking: Some(self.running.is_some()),
            lag_ms: self.lag_ms,
        }
    }

    /// Sets the clock of a colour.
    pub fn set_clock(&mut self, c: Color, ms: i64) {
        match c {
            Color::White => self.white_ms = ms,
            Color::Black => self.black_ms = ms,
        }
    }
}

fn square_of(s: &[u8]) -> Option<Square> {
    let f = File::ALL.get(usize::from(s.first()?.checked_sub(b'a')?))?;
    let r = Rank::ALL.get(usize::from(s.get(1)?.checked_sub(b'1')?))?;
    Some(Square::new(*f, *r))
}

/// Reads a Smith move (`e2e4`, `e4g5p`, `e1g1c`, `e1c1C`, `e5d6E`, `f7g8nQ`) in `board`:
/// the legal move it names, or `None`.
pub fn move_of_smith(board: &Board, smith: &str) -> Option<Move> {
    let b = smith.trim().as_bytes();
    if b.len() < 4 || b.len() > 6 {
        return None;
    }
    let from = square_of(&b[0..2])?;
    let to = square_of(&b[2..4])?;
    let mut castle = false;
    let mut promotion = None;
    for &c in &b[4..] {
        match c {
            b'c' | b'C' => castle = true,
            b'N' => promotion = Some(Piece::Knight),
            b'B' => promotion = Some(Piece::Bishop),
            b'R' => promotion = Some(Piece::Rook),
            b'Q' => promotion = Some(Piece::Queen),
            b'p' | b'n' | b'b' | b'r' | b'q' | b'k' | b'E' => {}
            _ => return None,
        }
    }
    let king_move = board.piece_on(from) == Some(Piece::King);
    if castle || king_move {
        // Castling is written as the king's own move (also in Chess960), while the rules
        // layer writes it king-takes-rook: find the castling move with that king target.
        let mut found = None;
        board.generate_moves(|pm| {
            for m in pm {
                if m.from == from && is_castling(board, m) && castling_king_target(m) == to {
                    found = Some(m);
                }
            }
            found.is_some()
        });
        if found.is_some() || castle {
            return found;
        }
    }
    let mv = Move {
        from,
        to,
        promotion,
    };
    board.is_legal(mv).then_some(mv)
}

/// The style-12 verbose form of a move (`P/e2-e4`, `N/g1-f3`, `o-o`, `P/e7-e8=Q`).
pub fn verbose_of(board: &Board, mv: Move) -> String {
    if is_castling(board, mv) {
        return if mv.to.file() > mv.from.file() {
            "o-o".into()
        } else {
            "o-o-o".into()
        };
    }
    let piece = board
        .piece_on(mv.from)
        .map(|p| char::from(p).to_ascii_uppercase())
        .unwrap_or('P');
    let mut s = format!("{piece}/{}-{}", mv.from, mv.to);
    if let Some(p) = mv.promotion {
        s.push('=');
        s.push(char::from(p).to_ascii_uppercase());
    }
    s
}

/// The Smith form of a legal move of `board` (for the local server's `DG_SEND_MOVES`):
/// from and to squares (the king's squares for castling), then the captured piece, `c`/`C`
/// for short/long castling or `E` for en passant, then the promotion piece.
pub fn smith_of(board: &Board, mv: Move) -> String {
    if is_castling(board, mv) {
        let to = castling_king_target(mv);
        let tag = if mv.to.file() > mv.from.file() {
            'c'
        } else {
            'C'
        };
        return format!("{}{}{tag}", mv.from, to);
    }
    let mut s = format!("{}{}", mv.from, mv.to);
    if let Some(p) = board.piece_on(mv.to) {
        s.push(char::from(p));
    } else if board.piece_on(mv.from) == Some(Piece::Pawn) && mv.from.file() != mv.to.file() {
        s.push('E');
    }
    if let Some(p) = mv.promotion {
        s.push(char::from(p).to_ascii_uppercase());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smith_moves_read_and_write() {
        let b = Board::default();
        let m = move_of_smith(&b, "e2e4").unwrap();
        assert_eq!(smith_of(&b, m), "e2e4");
        assert!(move_of_smith(&b, "e2e5").is_none());
        assert!(move_of_smith(&b, "zz").is_none());
        let b = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let m = move_of_smith(&b, "e1g1c").unwrap();
        assert!(is_castling(&b, m));
        assert_eq!(smith_of(&b, m), "e1g1c");
        assert_eq!(verbose_of(&b, m), "o-o");
        let m = move_of_smith(&b, "e1c1C").unwrap();
        assert_eq!(verbose_of(&b, m), "o-o-o");
        let b = parse_fen("1n4k1/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let m = move_of_smith(&b, "a7b8nQ").unwrap();
        assert_eq!(m.promotion, Some(Piece::Queen));
        assert_eq!(smith_of(&b, m), "a7b8nQ");
        assert_eq!(verbose_of(&b, m), "P/a7-b8=Q");
    }

    #[test]
    fn a_game_builds_boards() {
        let mut g = GameState::new(7);
        g.white = "wily".into();
        g.black = "Bob".into();
        g.relation = Relation::MyMove;
        g.play(Some("e2e4"), Some("e4")).unwrap();
        let s = g.style12();
        assert_eq!(s.relation, Relation::OpponentToMove);
        assert_eq!(s.last_move_verbose.as_deref(), Some("P/e2-e4"));
        assert_eq!(
            s.to_fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
        );
        assert!(g.play(Some("e2e4"), None).is_err());
        g.play(None, Some("e5")).unwrap();
        assert_eq!(g.style12().relation, Relation::MyMove);
        g.take_back(1);
        assert_eq!(g.style12().last_move_san.as_deref(), Some("e4"));
        assert_eq!(g.position.ply(), 1);
    }
}
