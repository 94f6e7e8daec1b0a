//! The ICC dialect of the local server (`wily serve --dialect icc`): ICC's level-2
//! protocol as its `formats.txt` describes it. A client turns datagrams (DGs) on with
//! `level2settings=` at the login prompt or `set-2 N V` later, and the server's game,
//! offer, seek and talk notifications reach it as DGs (framed by the shared codec in
//! `ics::icc`) beside, or where ICC says so instead of, the text the FICS dialect
//! sends. The core (sessions, games, clocks, offers) is the same for both dialects; the
//! files here only render and parse what differs: every renderer is a method of
//! [`out::View`], the server's parts lent read-only, and returns the text for the caller
//! to send. `docs/icc-local-server.md` lists
//! which DGs are sent when.

pub mod commands;
pub mod games;
pub mod level2;
pub mod login;
pub mod offers;
pub mod out;
pub mod seeks;
pub mod smith;
pub mod sparring;
pub mod talk;
