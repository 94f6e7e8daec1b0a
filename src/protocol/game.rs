//! One game as the front ends keep it: the start position, the moves played (with their
//! SAN), every position reached (for take-backs and repetition), and the result once the
//! game is over, with the reason worded as xboard and PGN expect (`1-0 {White mates}`).

use crate::chess::fen::to_fen;
use crate::chess::san::{parse_any_move, to_san};
use cozy_chess::{Board, Color, GameStatus, Move, Piece};

/// The score of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    WhiteWins,
    BlackWins,
    Draw,
}

impl Score {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn as_pgn(self) -> &'static str {
        match self {
            Score::WhiteWins => "1-0",
            Score::BlackWins => "0-1",
            Score::Draw => "1/2-1/2",
        }
    }

    /// A win for `c`.
    pub fn win_for(c: Color) -> Self {
        match c {
            Color::White => Score::WhiteWins,
            Color::Black => Score::BlackWins,
        }
    }

    /// Reads `1-0`, `0-1`, `1/2-1/2`.
    pub fn from_pgn(s: &str) -> Option<Self> {
        match s {
            "1-0" => Some(Score::WhiteWins),
            "0-1" => Some(Score::BlackWins),
            "1/2-1/2" => Some(Score::Draw),
            _ => None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub score: Score,
    /// `White mates`, `Stalemate`, `Draw by repetition`, `Black resigns`...
    pub reason: String,
}

impl Outcome {
    pub fn new(score: Score, reason: impl Into<String>) -> Self {
        Outcome {
            score,
            reason: reason.into(),
        }
    }

    /// `1-0 {White mates}`: the form xboard's `result` and PGN game ends use.
    pub fn describe(&self) -> String {
        format!("{} {{{}}}", self.score.as_pgn(), self.reason)
    }
}

/// Colour name as players read it.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game {
    /// `boards[0]` is the start position, `boards[i]` the position after `i` moves.
    boards: Vec<Board>,
    moves: Vec<Move>,
    sans: Vec<String>,
    /// Set when the game has ended (naturally, by agreement, resignation or time).
    pub outcome: Option<Outcome>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Board::default())
    }
}

impl Game {
    pub fn new(start: Board) -> Self {
        Game {
            boards: vec![start],
            moves: Vec::new(),
            sans: Vec::new(),
            outcome: None,
        }
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        // `boards` always holds the start position, so it is never empty.
        &self.boards[self.boards.len() - 1]
    }

    pub fn start(&self) -> &Board {
        &self.boards[0]
    }

    /// True when the game did not start from the standard initial position.
    pub fn from_setup(&self) -> bool {
        self.boards[0] != Board::default()
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn sans(&self) -> &[String] {
        &self.sans
    }

    /// The position before move `i` (0-based), or the current one for `i == len`.
    pub fn board_at(&self, i: usize) -> Option<&Board> {
        self.boards.get(i)
    }

    pub fn side_to_move(&self) -> Color {
        self.board().side_to_move()
    }

    /// The full-move number of the current position (the `1` of `White(1): `).
    pub fn move_number(&self) -> u16 {
        self.board().fullmove_number()
    }

    /// Hashes of the positions before the current one, oldest first (for the search's
    /// repetition detection).
    pub fn history_hashes(&self) -> Vec<u64> {
        self.boards[..self.boards.len() - 1]
            .iter()
            .map(|b| b.hash())
            .collect()
    }

    /// Reads a move in any notation against the current position.
    pub fn parse_move(&self, text: &str) -> Result<Move, String> {
        parse_any_move(self.board(), text).map_err(|e| e.to_string())
    }

    /// Plays a legal move; the outcome is updated when the move ends the game.
    pub fn play(&mut self, mv: Move) -> Result<(), String> {
        let mut next = self.board().clone();
        let san = to_san(&next, mv);
        next.try_play(mv)
            .map_err(|_| format!("illegal move {san} in {}", to_fen(self.board())))?;
        self.boards.push(next);
        self.moves.push(mv);
        self.sans.push(san);
        self.outcome = self.natural_outcome();
        Ok(())
    }

    /// Takes back the last move; the game is no longer over.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.sans.pop();
        self.boards.pop();
        self.outcome = None;
        Some(mv)
    }

    /// Ends the game by a non-board event (resignation, agreement, time).
    pub fn finish(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
    }

    /// How many times the current position has occurred (since the last irreversible move).
    pub fn repetitions(&self) -> usize {
        let cur = self.board();
        let window = cur.halfmove_clock() as usize + 1;
        self.boards
            .iter()
            .rev()
            .take(window)
            .filter(|b| b.hash() == cur.hash())
            .count()
    }

    /// The result the rules give the current position: mate, stalemate, threefold
    /// repetition, the 50-move rule, or material too small to mate.
    pub fn natural_outcome(&self) -> Option<Outcome> {
        let b = self.board();
        match b.status() {
            GameStatus::Won => {
                let winner = !b.side_to_move();
                return Some(Outcome::new(
                    Score::win_for(winner),
                    format!("{} mates", color_name(winner)),
                ));
            }
            GameStatus::Drawn => return Some(Outcome::new(Score::Draw, "Stalemate")),
            GameStatus::Ongoing => {}
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::new(Score::Draw, "Draw by repetition"));
        }
        if b.halfmove_clock() >= 100 {
            return Some(Outcome::new(Score::Draw, "Draw by 50 move rule"));
        }
        if insufficient_material(b) {
            return Some(Outcome::new(Score::Draw, "Insufficient material"));
        }
        None
    }
}

/// No sequence of legal moves can mate: K v K, K+minor v K, or only bishops all on
/// squares of one colour.
pub fn insufficient_material(b: &Board) -> bool {
    let heavy = b.pieces(Piece::Pawn) | b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
    if !heavy.is_empty() {
        return false;
    }
    let knights = b.pieces(Piece::Knight).len();
    let bishops = b.pieces(Piece::Bishop);
    if knights + bishops.len() <= 1 {
        return true;
    }
    if knights == 0 {
        let dark = bishops & cozy_chess::BitBoard::DARK_SQUARES;
        return dark.is_empty() || dark == bishops;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen::parse_fen;

    fn play(g: &mut Game, moves: &[&str]) {
        for m in moves {
            let mv = g.parse_move(m).unwrap();
            g.play(mv).unwrap();
        }
    }

    #[test]
    fn fools_mate() {
        let mut g = Game::default();
        play(&mut g, &["f3", "e5", "g4", "Qh4"]);
        assert_eq!(
            g.outcome.as_ref().map(|o| o.describe()),
            Some("0-1 {Black mates}".to_string())
        );
        assert_eq!(g.sans().last().map(String::as_str), Some("Qh4#"));
        g.undo();
        assert!(g.outcome.is_none());
        assert_eq!(g.moves().len(), 3);
    }

    #[test]
    fn repetition_and_history() {
        let mut g = Game::default();
        play(&mut g, &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]);
        assert!(g.outcome.is_none());
        play(&mut g, &["Ng8"]);
        assert_eq!(g.outcome.as_ref().unwrap().reason, "Draw by repetition");
        assert_eq!(g.history_hashes().len(), 8);
    }

    #[test]
    fn material_draws() {
        let kk = parse_fen("8/8/4k3/8/8/3K4/8/8 w - - 0 1").unwrap();
        assert!(insufficient_material(&kk));
        let kbk = parse_fen("8/8/4k3/8/8/3KB3/8/8 w - - 0 1").unwrap();
        assert!(insufficient_material(&kbk));
        let knnk = parse_fen("8/8/4k3/8/8/3KNN2/8/8 w - - 0 1").unwrap();
        assert!(!insufficient_material(&knnk));
        let kpk = parse_fen("8/8/4k3/8/8/3KP3/8/8 w - - 0 1").unwrap();
        assert!(!insufficient_material(&kpk));
        let g = Game::new(kk);
        assert_eq!(g.natural_outcome().unwrap().reason, "Insufficient material");
    }

    #[test]
    fn illegal_text_is_an_error() {
        let g = Game::default();
        assert!(g.parse_move("e5").is_err());
        assert!(g.parse_move("xyz").is_err());
        assert!(g.parse_move("").is_err());
    }
}
