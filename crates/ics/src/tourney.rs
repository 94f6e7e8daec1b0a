//! The typed notices of a tournament director bot (mamer, on FICS-lineage servers):
//! announcements, the director's `:mamer notes:` replies, `listtourneys` rows, the
//! standings header, byes, the player's tournament flag, and the short reports mamer
//! posts on its channel. Built by [`crate::parse::tourney`]; each is one variant of
//! [`TourneyNotice`], carried by [`crate::Event::Tourney`].

/// A tournament as an announcement (or a `listtourneys` row) describes it.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct TourneyInfo {
    /// The director bot that runs it (the announcement's sender, `tell X join N`).
    pub director: String,
    pub number: u32,
    /// Minutes.
    pub base: u32,
    /// Seconds a move.
    pub increment: u32,
    pub rated: bool,
    /// `swiss`, `round robin` or `mcmahon`.
    pub style: String,
    /// wily's variant names: `chess`, `chess960` (wild fr), `wild/N`, `bughouse`,
    /// `suicide`; `wild` for a wild tournament whose type the line does not show.
    pub variant: String,
    /// The ratings allowed to join (inclusive).
    pub rating_range: (u32, u32),
    /// Players entered so far.
    pub players: u32,
    /// Rounds (`listtourneys` only; 0: the director chooses; `None`: not shown).
    pub rounds: Option<u32>,
    /// Whether the text says computers may play (`Some(false)`: it says they may not;
    /// `None`: it says nothing, as lasker's mamer never does).
    pub computers: Option<bool>,
}

/// One row of a `listtourneys` answer (`:   2   3   s    1   0  u    r    0-9999   open`).
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct TourneyRow {
    /// What the row says; `info.director` is the sender of the `:X Notes:` header the
    /// rows follow (empty when no header was seen).
    pub info: TourneyInfo,
    /// `new`, `open`, `closed` (playing), `done`, ...
    pub status: String,
}

/// The ` [5 0 1 0 2]` suffix lasker adds to the result line of a game between two
/// players with the tournament flag set (for the director): base minutes, increment,
/// rated, private, the game type number.
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TourneyGameTag {
    pub base: u32,
    pub increment: u32,
    pub rated: bool,
    pub private: bool,
    pub kind: u32,
}

/// What a tournament director says, typed.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub enum TourneyNotice {
    /// `*****Tourney Announcement***** Trny #2  1 0 u  SWISS 0-9999 0 plr(s).  tell mamer
    /// join 2. Avg:   0.0` (on the director's channel or as a c-shout).
    Announced(TourneyInfo),
    /// `:mamer notes: You joined the tournament.` (a reply line of the director's
    /// `qtell`; a header `:mamer Notes: ` has empty text).
    Note { director: String, text: String },
    /// A `listtourneys` row.
    Listed(TourneyRow),
    /// `mamer has set your tourney variable to ON.` / `OFF.`
    Flag { director: String, on: bool },
    /// `mamer tells you: you get a BYE this round.`
    Bye { director: String },
    /// `:Tourney Players: Round 2 of 3` (the standings shown before a round's pairings).
    Round { round: u32, rounds: u32 },
    /// `:  1 +TPlayC [   0]  1.0 ...` (a standings row: place, name, still playing,
    /// score).
    Standing {
        place: u32,
        name: String,
        active: bool,
        score: String,
    },
    /// `mamer(49): TPlayA (0) has joined tourney #2 1 players now.`
    Joined {
        director: String,
        number: u32,
        player: String,
        players: u32,
    },
    /// `mamer(49): A vs. B a game in tourney #2 just started.` / `... just ended.  A
    /// resigns 0-1`
    GameReported {
        director: String,
        number: u32,
        white: String,
        black: String,
        ended: bool,
        text: String,
    },
    /// `mamer(49): Tourney Results: First place in tourney #2 goes to:  A B`
    Finished {
        director: String,
        number: u32,
        winners: Vec<String>,
    },
    /// ICC's `DG_TOURNEY`: a tournament or event that can be joined or watched, with the
    /// commands that do it; one with an index already seen replaces it.
    Offered {
        index: u32,
        description: String,
        join_command: String,
        watch_command: String,
        info_command: String,
        confirm_text: String,
    },
    /// ICC's `DG_REMOVE_TOURNEY`: the event with this index is over or closed.
    Withdrawn { index: u32 },
    /// A line that names a tournament announcement but is not in a shape this parser
    /// knows (kept for the log; never acted on).
    Unreadable { text: String },
}
