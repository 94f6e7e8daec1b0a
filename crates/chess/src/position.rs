//! `Position`: a cozy-chess board plus the game that led to it (start position, moves,
//! earlier boards), with undo, repetition and fifty-move bookkeeping, insufficient
//! material, game status, and cheap material / pawn keys.

use super::coord::{move_from_uci, move_to_uci, MoveParseError};
use super::fen::{parse_fen, to_fen, FenError};
use super::history::GameHistory;
pub use super::history::{ep_capture_possible, repetition_key};
use super::san::{parse_any_move, to_san};
use cozy_chess::{BitBoard, Board, Color, Move, Piece};
use std::fmt;

/// Why a game is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position occurred three times.
    Repetition,
    /// Fifty moves by each side without a capture or pawn move.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::Repetition => "threefold repetition",
            DrawReason::FiftyMoves => "fifty-move rule",
            DrawReason::InsufficientMaterial => "insufficient material",
        })
    }
}

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// Play goes on.
    Ongoing,
    /// The side to move is mated; the colour is the winner.
    Checkmate(Color),
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Drawn by rule.
    Draw(DrawReason),
}

impl GameStatus {
    /// The PGN result token (`1-0`, `0-1`, `1/2-1/2`), or `None` while ongoing.
    pub fn result(&self) -> Option<&'static str> {
        match self {
            GameStatus::Ongoing => None,
            GameStatus::Checkmate(Color::White) => Some("1-0"),
            GameStatus::Checkmate(Color::Black) => Some("0-1"),
            GameStatus::Stalemate | GameStatus::Draw(_) => Some("1/2-1/2"),
        }
    }

    /// True when the game is over.
    pub fn is_over(&self) -> bool {
        *self != GameStatus::Ongoing
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameStatus::Ongoing => write!(f, "ongoing"),
            GameStatus::Checkmate(Color::White) => write!(f, "White mates"),
            GameStatus::Checkmate(Color::Black) => write!(f, "Black mates"),
            GameStatus::Stalemate => write!(f, "stalemate"),
            GameStatus::Draw(r) => write!(f, "draw by {r}"),
        }
    }
}

/// Dark squares (a1 is dark).
const DARK_SQUARES: BitBoard = BitBoard(0xAA55_AA55_AA55_AA55);

/// True when neither side can possibly mate: K v K, K+minor v K, or only bishops (any
/// number, either side) all on squares of one colour.
pub fn insufficient_material(board: &Board) -> bool {
    if !(board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen))
        .is_empty()
    {
        return false;
    }
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop);
    if knights.is_empty() {
        (bishops & DARK_SQUARES).is_empty() || (bishops & !DARK_SQUARES).is_empty()
    } else {
        knights.len() == 1 && bishops.is_empty()
    }
}

/// Piece counts packed 4 bits each (pawn..queen for White, then Black): equal keys mean
/// equal material.
pub fn material_key(board: &Board) -> u64 {
    let mut key = 0u64;
    let mut shift = 0;
    for color in Color::ALL {
        for piece in [
            Piece::Pawn,
            Piece::Knight,
            Piece::Bishop,
            Piece::Rook,
            Piece::Queen,
        ] {
            let n = board.colored_pieces(color, piece).len().min(15) as u64;
            key |= n << shift;
            shift += 4;
        }
    }
    key
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A hash of the pawn structure alone (both colours), for pawn-structure caches.
pub fn pawn_key(board: &Board) -> u64 {
    let white = board.colored_pieces(Color::White, Piece::Pawn).0;
    let black = board.colored_pieces(Color::Black, Piece::Pawn).0;
    mix(white ^ 0x9E37_79B9_7F4A_7C15) ^ mix(black.rotate_left(17) ^ 0x2545_F491_4F6C_DD1D)
}

/// A board with its game history.
#[derive(Debug, Clone)]
pub struct Position {
    start: Board,
    board: Board,
    moves: Vec<Move>,
    /// The board before each move of `moves`.
    previous: Vec<Board>,
    /// Every position so far, for the repetition rule and the engine's history.
    history: GameHistory,
    chess960: bool,
}

impl Default for Position {
    fn default() -> Self {
        Position::new(Board::default())
    }
}

/// True when the castling rights are not the standard ones (king on e, rooks on a/h).
pub fn looks_like_chess960(board: &Board) -> bool {
    Color::ALL.iter().any(|&c| {
        let r = board.castle_rights(c);
        (r.short.is_some() || r.long.is_some())
            && (board.king(c).file() != cozy_chess::File::E
                || r.short.is_some_and(|f| f != cozy_chess::File::H)
                || r.long.is_some_and(|f| f != cozy_chess::File::A))
    })
}

impl Position {
    /// A game starting from `start`. Chess960 is assumed when the castling rights are not
    /// the standard ones (king on e, rooks on a/h).
    pub fn new(start: Board) -> Self {
        let history = GameHistory::new(&start);
        let chess960 = looks_like_chess960(&start);
        Position {
            board: start.clone(),
            start,
            moves: Vec::new(),
            previous: Vec::new(),
            history,
            chess960,
        }
    }

    /// A game from the standard starting position.
    pub fn startpos() -> Self {
        Position::default()
    }

    /// A game starting from a FEN.
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        parse_fen(fen).map(Position::new)
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board the game started from.
    pub fn start_board(&self) -> &Board {
        &self.start
    }

    /// FEN of the starting position.
    pub fn start_fen(&self) -> String {
        to_fen(&self.start)
    }

    /// FEN of the current position.
    pub fn fen(&self) -> String {
        to_fen(&self.board)
    }

    /// Whether coordinate moves use Chess960 castling (king takes rook).
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// Sets the Chess960 flag used by [`Position::play_uci`] and [`Position::to_uci`].
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Number of moves (plies) played since the start position.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    /// `Board::hash` of the current position.
    pub fn hash(&self) -> u64 {
        self.board.hash()
    }

    /// `Board::hash` of every earlier position of the game, oldest first (what the
    /// engine's `SearchRequest::history` wants).
    pub fn history_hashes(&self) -> &[u64] {
        self.history.earlier_hashes()
    }

    /// The boards before each move, oldest first.
    pub fn previous_boards(&self) -> &[Board] {
        &self.previous
    }

    /// The legal moves of the current position.
    pub fn legal_moves(&self) -> Vec<Move> {
        super::moves::legal_moves(&self.board)
    }

    /// Plays a legal move; an illegal one is refused and changes nothing.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveParseError> {
        if !self.board.is_legal(mv) {
            return Err(MoveParseError::illegal(
                &move_to_uci(&self.board, mv, self.chess960),
                format!("not legal in {}", to_fen(&self.board)),
            ));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move the caller has already checked to be legal.
    pub(crate) fn play_unchecked(&mut self, mv: Move) {
        let before = self.board.clone();
        self.board.play_unchecked(mv);
        self.previous.push(before);
        self.moves.push(mv);
        self.history.push(&self.board);
    }

    /// Reads a move in any notation (coordinate, SAN, ICS verbose) and plays it.
    pub fn play_str(&mut self, text: &str) -> Result<Move, MoveParseError> {
        let mv = parse_any_move(&self.board, text)?;
        self.play_unchecked(mv);
        Ok(mv)
    }

    /// Reads a coordinate move (honouring the Chess960 flag) and plays it.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, MoveParseError> {
        let mv = move_from_uci(&self.board, text, self.chess960)?;
        self.play_unchecked(mv);
        Ok(mv)
    }

    /// A move of the current position in coordinate notation (honouring Chess960).
    pub fn to_uci(&self, mv: Move) -> String {
        move_to_uci(&self.board, mv, self.chess960)
    }

    /// Takes back the last move, returning it (`None` at the start position).
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        if let Some(b) = self.previous.pop() {
            self.board = b;
        }
        self.history.pop();
        Some(mv)
    }

    /// How many times the current position has occurred (1 = first time).
    pub fn repetition_count(&self) -> usize {
        self.history.repetitions()
    }

    /// True when the current position has occurred at least three times.
    pub fn is_threefold(&self) -> bool {
        self.repetition_count() >= 3
    }

    /// True when 100 plies have passed without a capture or pawn move.
    pub fn is_fifty_move(&self) -> bool {
        self.board.halfmove_clock() >= 100
    }

    /// True when neither side can mate (see [`insufficient_material`]).
    pub fn insufficient_material(&self) -> bool {
        insufficient_material(&self.board)
    }

    /// The game status: mate and stalemate first, then the draw rules.
    pub fn status(&self) -> GameStatus {
        let has_moves = self.board.generate_moves(|_| true);
        if !has_moves {
            return if self.board.checkers().is_empty() {
                GameStatus::Stalemate
            } else {
                GameStatus::Checkmate(!self.board.side_to_move())
            };
        }
        if self.insufficient_material() {
            GameStatus::Draw(DrawReason::InsufficientMaterial)
        } else if self.is_fifty_move() {
            GameStatus::Draw(DrawReason::FiftyMoves)
        } else if self.is_threefold() {
            GameStatus::Draw(DrawReason::Repetition)
        } else {
            GameStatus::Ongoing
        }
    }

    /// Material key of the current position (see [`material_key`]).
    pub fn material_key(&self) -> u64 {
        material_key(&self.board)
    }

    /// Pawn key of the current position (see [`pawn_key`]).
    pub fn pawn_key(&self) -> u64 {
        pawn_key(&self.board)
    }

    /// The game's moves in SAN.
    pub fn moves_san(&self) -> Vec<String> {
        self.previous
            .iter()
            .zip(&self.moves)
            .map(|(b, &m)| to_san(b, m))
            .collect()
    }
}
