//! ICC's "level 2" protocol: datagrams instead of text for everything a program needs.
//!
//! - [`datagram`]: the framing both ways (`^Y(` ... `^Y)`, quoted fields, datagrams mixed
//!   with text and split across reads) and the encoder the local ICC server shares.
//! - [`parse`]: datagrams to the same [`crate::Event`]s as FICS text, with
//!   [`game`] keeping each game's position (ICC sends moves, not boards).
//! - [`info`]: what the datagrams say beyond the shared events (titles, ratings, ECO,
//!   level-1 unit headers), as [`crate::Event::Icc`].
//! - [`schema`]: every datagram's field names and types from `formats.txt`, for
//!   `wily ics replay --datagrams`.
//! - [`login`]: the datagrams wily turns on, at login and after, and why.
//! - [`numbers`]: the datagram numbers of ICC's `formats.txt` and the `level2settings=`
//!   bit string.
//!
//! Like the rest of [`crate`] it is pure: bytes in, values out, no I/O.

pub mod datagram;
pub mod game;
pub mod info;
pub mod login;
pub mod numbers;
pub mod parse;
pub mod schema;

pub use datagram::{BadDatagram, Chunk, Datagram, Deframer, UnitHeader};
pub use info::IccInfo;
pub use parse::{IccReader, MoveFields};
