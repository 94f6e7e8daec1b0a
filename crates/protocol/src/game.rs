//! One game as the front ends keep it: the start position, the moves played (with their
//! SAN), every position reached (for take-backs and repetition), and the result once the
//! game is over, with the reason worded as xboard and PGN expect (`1-0 {White mates}`).

use chess::position::{DrawReason, GameStatus, Position};
use chess::san::{parse_any_move, to_san};
use cozy_chess::{Board, Color, Move};

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

/// A game in progress or finished: a [`Position`] (board plus history) with the SAN of
/// every move and the outcome.
#[derive(Clone, Debug)]
pub struct Game {
    pos: Position,
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
        let mut g = Game {
            pos: Position::new(start),
            sans: Vec::new(),
            outcome: None,
        };
        g.outcome = g.natural_outcome();
        g
    }

    /// The position with its history.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        self.pos.board()
    }

    pub fn start(&self) -> &Board {
        self.pos.start_board()
    }

    /// True when the game did not start from the standard initial position.
    pub fn from_setup(&self) -> bool {
        *self.start() != Board::default()
    }

    pub fn moves(&self) -> &[Move] {
        self.pos.moves()
    }

    pub fn sans(&self) -> &[String] {
        &self.sans
    }

    /// The position before move `i` (0-based), or the current one for `i == len`.
    pub fn board_at(&self, i: usize) -> Option<&Board> {
        let prev = self.pos.previous_boards();
        if i == prev.len() {
            Some(self.pos.board())
        } else {
            prev.get(i)
        }
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
        self.pos.history_hashes().to_vec()
    }

    /// Reads a move in any notation against the current position.
    pub fn parse_move(&self, text: &str) -> Result<Move, String> {
        parse_any_move(self.board(), text).map_err(|e| e.to_string())
    }

    /// Plays a legal move; the outcome is updated when the move ends the game.
    pub fn play(&mut self, mv: Move) -> Result<(), String> {
        let san = to_san(self.board(), mv);
        self.pos.play(mv).map_err(|e| e.to_string())?;
        self.sans.push(san);
        self.outcome = self.natural_outcome();
        Ok(())
    }

    /// Takes back the last move; the game is no longer over.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.pos.undo()?;
        self.sans.pop();
        self.outcome = None;
        Some(mv)
    }

    /// Ends the game by a non-board event (resignation, agreement, time).
    pub fn finish(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
    }

    /// The result the rules give the current position: mate, stalemate, threefold
    /// repetition, the 50-move rule, or material too small to mate.
    pub fn natural_outcome(&self) -> Option<Outcome> {
        Some(match self.pos.status() {
            GameStatus::Ongoing => return None,
            GameStatus::Checkmate(winner) => Outcome::new(
                Score::win_for(winner),
                format!("{} mates", color_name(winner)),
            ),
            GameStatus::Stalemate => Outcome::new(Score::Draw, "Stalemate"),
            GameStatus::Draw(DrawReason::Repetition) => {
                Outcome::new(Score::Draw, "Draw by repetition")
            }
            GameStatus::Draw(DrawReason::FiftyMoves) => {
                Outcome::new(Score::Draw, "Draw by 50 move rule")
            }
            GameStatus::Draw(DrawReason::InsufficientMaterial) => {
                Outcome::new(Score::Draw, "Insufficient material")
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::fen::parse_fen;

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
