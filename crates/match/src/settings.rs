//! Everything about one match, once the command line or the TOML match file is read.

use super::adjudicate::Rules;
use super::config::{EngineSpec, PgnSpec, Tournament, Variant};
use super::openings::OpeningSpec;
use super::resume::{AutosaveSpec, EventSave, State};
use super::sample::SampleSpec;
use super::sprt::SprtSpec;
use std::path::PathBuf;

/// Everything about one match.
#[derive(Clone)]
pub struct MatchSettings {
    pub engines: Vec<EngineSpec>,
    pub tournament: Tournament,
    /// Games per pairing and round.
    pub games: u32,
    pub rounds: u32,
    /// Each opening twice, colours reversed: game pairs.
    pub repeat: bool,
    pub concurrency: usize,
    pub variant: Variant,
    pub openings: Option<OpeningSpec>,
    pub rules: Rules,
    pub sprt: Option<SprtSpec>,
    pub pgn: Option<PgnSpec>,
    pub sample: Option<SampleSpec>,
    pub log_dir: Option<PathBuf>,
    /// The PGN `Event` tag.
    pub event: String,
    /// Print the progress bar (only on a terminal).
    pub progress: bool,
    /// Keep a resume file up to date (`-autosave FILE -autosaveinterval N`).
    pub autosave: Option<AutosaveSpec>,
    /// The saved state this run continues (`-resume FILE`), already read and checked.
    pub resume: Option<State>,
    /// The match's own arguments, as saved in the resume file.
    pub command_line: Vec<String>,
    /// Print the standings on standard output every N games (0: never).
    pub rating_interval: u32,
    /// Show the pentanomial lines in the reports (`-report penta=on|off`).
    pub report_penta: bool,
    /// Append each game's final position to this EPD file.
    pub epd_out: Option<PathBuf>,
    /// `-noswap` / `-reverse`.
    pub colours: super::schedule::Colours,
    /// Pause between a worker's games (`-wait MS`).
    pub wait: std::time::Duration,
    /// `-srand`: seeds the choice among the engines' book moves (with the game number)
    /// and a knockout's draw of the unseeded engines.
    pub seed: u64,
    /// `-seeds N`: the first N engines are a knockout's seeds.
    pub seeds: usize,
    /// Pin each concurrent game's engines to cores of their own (`-use-affinity`).
    pub affinity: bool,
    /// Set by a knockout for each of its rounds: the pairings to play instead of the
    /// tournament's.
    pub plan: Option<Plan>,
}

/// One part of a bigger event that the runner plays as a match of its own (a knockout
/// round, or its tie-break games).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub pairs: Vec<(usize, usize)>,
    /// Games per pairing.
    pub games: u32,
    /// Added to each game's number (the PGN `Round`) and opening index, so that the
    /// event's games are numbered on and its openings go on.
    pub first_game: usize,
    pub first_opening: usize,
    /// The event is being saved (`-autosave`): its fingerprint and results so far.
    pub saved: Option<EventSave>,
}

impl std::fmt::Debug for MatchSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MatchSettings")
            .field("engines", &self.engines)
            .field("tournament", &self.tournament)
            .field("games", &self.games)
            .field("rounds", &self.rounds)
            .field("repeat", &self.repeat)
            .field("concurrency", &self.concurrency)
            .field("variant", &self.variant)
            .field("openings", &self.openings)
            .field("sprt", &self.sprt)
            .finish_non_exhaustive()
    }
}
