//! The rules layer over cozy-chess: coordinate moves, FEN, SAN and ICS move notation,
//! EPD records, test-suite files, PGN streaming, Polyglot keys, perft, `Position` (a board plus its game
//! history), Chess960 start positions and castling rights from per-wing flags.
//!
//! cozy-chess generates every legal move; nothing here generates moves on its own.
//!
//! May depend on: no other wily crate (cozy-chess only). Its `Cargo.toml` lists them and
//! the compiler keeps the wall; the crate map is `docs/modules.md`.

pub mod castling;
pub mod chess960;
pub mod coord;
pub mod epd;
pub mod fen;
pub mod history;
pub mod moves;
pub mod perft;
pub mod pgn;
pub mod polyglot;
pub mod position;
pub mod san;
pub mod suite;

pub use coord::{move_from_uci, move_to_uci, MoveParseError};
pub use epd::{parse_epd_line, EpdError, EpdReader, EpdRecord};
pub use fen::{parse_fen, parse_setboard, to_fen, FenError};
pub use history::GameHistory;
pub use pgn::{PgnGame, PgnMove, PgnReader};
pub use position::{DrawReason, GameStatus, Position};
pub use san::{parse_any_move, parse_san, to_san, SanError};
