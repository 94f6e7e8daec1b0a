//! The console's command table: every command's name, arguments, help line and handler.
//! `help` prints this table; `help NAME` prints one entry and the manual's text about the
//! command (`helptext.rs`; the handler is here, beside the table it reads).

use super::state::{CmdResult, Console, Flow};
use super::{
    book, cmd_draw, cmd_egtb, cmd_eval, cmd_extensions, cmd_files, cmd_game, cmd_info,
    cmd_opponent, cmd_settings, cmd_tools,
};

/// A command handler: the console and the words after the command name.
pub type Handler = fn(&mut Console, &[&str]) -> CmdResult;

/// One console command.
pub struct Command {
    pub name: &'static str,
    pub args: &'static str,
    pub help: &'static str,
    pub run: Handler,
}

macro_rules! cmd {
    ($name:expr, $args:expr, $help:expr, $run:expr) => {
        Command {
            name: $name,
            args: $args,
            help: $help,
            run: $run,
        }
    };
}

/// Every console command, alphabetically.
pub static COMMANDS: &[Command] = &[
    cmd!("alarm", "on|off", "beep when the computer moves", cmd_settings::alarm),
    cmd!("analyze", "", "search the side to move until a move or 'exit' ('back [N]' steps back, '.' shows the best line)", cmd_game::analyze),
    cmd!("annotate", "FILE COLORS MOVES MARGIN TIME [N]", "annotate a PGN file into FILE.can (COLORS w|b|wb|NAME, MOVES 1-999, MARGIN pawns, TIME s/move, N lines)", cmd_tools::annotate),
    cmd!("annotateh", "FILE COLORS MOVES MARGIN TIME [N]", "like annotate, writing FILE.html", cmd_tools::annotateh),
    cmd!("annotatet", "FILE COLORS MOVES MARGIN TIME [N]", "like annotate, writing FILE.tex (LaTeX, diagrams with the skak package)", cmd_tools::annotatet),
    cmd!("ansi", "on|off", "show the computer's moves in reverse video (Crafty's ANSI)", cmd_settings::ansi),
    cmd!("back", "[N]", "take back N plies (default 1)", cmd_game::back),
    cmd!("black", "", "Black to move; the computer plays White", cmd_game::black),
    cmd!("book", "ARGS", "opening book: on|off, random 0|1, width N, seed N, create, polyglot, moves ('help book')", book::command),
    cmd!("books", "create FILE M", "build the small hand-edited start book", book::command),
    cmd!("bookw", "freq|ratio|eval|learn W", "weights of book move selection", book::command),
    cmd!("clock", "[CTIME [OTIME]]", "show the clocks, or set computer and opponent time left (minutes or hh:mm)", cmd_settings::clock),
    cmd!("computer", "", "the opponent is a computer (draw score 0)", cmd_settings::computer),
    cmd!("display", "[OPTION|noOPTION]", "show the board, or switch output: time changes variation stats extstats movenum moves general", cmd_info::display),
    cmd!("draw", "[accept|decline|offer|nooffer|dynamic [1|0]]", "offer the computer a draw (or accept its offer); accept/decline: answer offers by the score or always decline; offer/nooffer: wily offers draws or never; dynamic: the draw score follows 'rating'", cmd_draw::draw),
    cmd!("drawscore", "N", "value of a draw in centipawns from wily's side (contempt)", cmd_settings::drawscore),
    cmd!("echo", "TEXT", "print TEXT", cmd_info::echo),
    cmd!("edit", "", "set up a position piece by piece (Pe2 places, xe2 clears, c switches colour, # clears, . ends)", cmd_game::edit),
    cmd!("egtb", "[off|PATH|depth N|50 on|off]", "Syzygy tablebases: show what is loaded, unload, load PATH, probe depth, 50-move rule", cmd_egtb::egtb),
    cmd!("elo", "[N|off]", "limit the strength to about N Elo (800 to 2600), or play at full strength", cmd_settings::elo),
    cmd!("end", "", "leave wily (same as quit)", cmd_game::quit),
    cmd!("evaluation", "[asymmetry|bscale|kscale|tropism|pscale|ppscale N]", "adjust evaluation scale knobs (percent, 100 = normal)", cmd_eval::evaluation),
    cmd!("exit", "", "leave analyze mode, or stop reading an input file", cmd_game::exit),
    cmd!("extensions", "[incheck|onerep|pushpp|recapture|mate PLIES]", "show how far the search extends each kind of move, or set one in plies (extensions incheck 1.0; at most a ply)", cmd_extensions::extensions),
    cmd!("flag", "on|off", "claim a win when the opponent's clock runs out", cmd_settings::flag),
    cmd!("force", "[MOVE]", "replace the computer's last move with MOVE (without MOVE: asked for next); with no computer move to replace, force mode (the computer plays neither side)", cmd_game::force),
    cmd!("go", "", "the computer plays the side to move and moves now", cmd_game::go),
    cmd!("hash", "N[K|M|G]", "transposition table size (hash=64M)", cmd_settings::hash),
    cmd!("hashp", "N[K|M]", "pawn hash table size (hashp=4M)", cmd_settings::hashp),
    cmd!("help", "[COMMAND]", "list the commands, or explain one", help),
    cmd!("hint", "", "the move wily expects the side to move to play (Hint: MOVE)", cmd_game::hint),
    cmd!("history", "", "list the game's moves", cmd_info::history),
    cmd!("import", "FILE [clear]", "import learned data (book.lrn or position.lrn text)", book::command),
    cmd!("info", "", "show the current settings", cmd_info::info),
    cmd!("input", "FILE", "read commands from FILE", cmd_files::input),
    cmd!("kibitz", "N", "kibitz level 0-6 (what is kibitzed in ICS mode)", cmd_settings::kibitz),
    cmd!("learn", "N", "learning: 1 book, 2 position, 4 result (sum; 0 off)", book::command),
    cmd!("level", "MOVES MINUTES INC", "time control (MOVES 0 = sudden death; INC seconds)", cmd_settings::level),
    cmd!("list", "GM|IM|C|AK|S +NAME -NAME", "show or edit the opponent lists the server bot reads (lists/)", book::command),
    cmd!("load", "FILE TITLE", "set up the position titled TITLE in a test-suite file (title/setboard lines, or EPD id)", cmd_game::load),
    cmd!("log", "on|off|N [FILE]|number N", "per-game log and game files in logs/ on or off; the last N lines of the log (into FILE); the next game's number", cmd_files::log),
    cmd!("ls", "[PATTERN]", "list the files matching PATTERN (* and ?), or a folder's files", cmd_files::ls),
    cmd!("mode", "tournament|normal", "tournament mode refuses take-backs and position changes", cmd_settings::mode),
    cmd!("move", "", "the computer moves now (same as go; during a search: move now)", cmd_game::go),
    cmd!("mt", "N", "search threads (Crafty's short form of smpmt; mt=2)", cmd_settings::mt),
    cmd!("name", "NAME", "the opponent's name: looked up in the opponent lists (GM, IM, C, S) to set the resign threshold, book width and draw score; not written to the game file", cmd_opponent::name),
    cmd!("new", "[N|FEN]", "start a new game (the computer plays Black); with a number 0-959 or a FEN, a Chess960 game from that position", cmd_game::new),
    cmd!("noise", "N", "print search output only after N nodes", cmd_settings::noise),
    cmd!("operator", "MINUTES", "minutes of the clock kept back for the operator (minutes or hh:mm)", cmd_settings::operator),
    cmd!("output", "long|short", "moves in long algebraic (Ng1f3) or SAN (Nf3) in the search output and the computer's moves", cmd_settings::output),
    cmd!("perf", "", "measure move generation and make/unmake speed", cmd_tools::perf),
    cmd!("perft", "N", "count the leaf nodes N plies deep from the current position", cmd_tools::perft_cmd),
    cmd!("pgn", "TAG VALUE", "set a PGN tag for the game file (pgn Event \"Club match\"); pgn Result 1-0|0-1|1/2-1/2 ends the game with that result", cmd_files::pgn),
    cmd!("pgnscores", "white|mover", "whose view the game file's {score/depth} move comments take (default mover; search output is always White's view)", cmd_settings::pgnscores),
    cmd!("ponder", "on|off|MOVE", "think on the opponent's time, or set the move to ponder", cmd_settings::ponder),
    cmd!("quit", "", "leave wily", cmd_game::quit),
    cmd!("rating", "WILY OPPONENT", "wily's and the opponent's ratings: the game file's Elo tags, and with 'draw dynamic 1' the draw score (an eighth of the difference, at most 300 points)", cmd_draw::rating),
    cmd!("read", "[FILE]", "play the moves of a game file from the start; without FILE, of the game typed next (ended by 'exit')", cmd_files::read),
    cmd!("reada", "[FILE]", "play the moves of a file (or of the lines typed next, until 'exit') from the current position", cmd_files::reada),
    cmd!("remove", "", "take back two plies (xboard's remove)", cmd_game::remove),
    cmd!("reset", "N", "go to move N with the same side to move (back, or forward through moves taken back)", cmd_game::reset),
    cmd!("resign", "N", "resign when N pawns down for several moves (0 = never)", cmd_settings::resign),
    cmd!("savegame", "FILE", "write the game as PGN", cmd_files::savegame),
    cmd!("savepos", "FILE", "write the position as a 'setboard FEN' line", cmd_files::savepos),
    cmd!("score", "", "the evaluation of the position, term by term", cmd_eval::score),
    cmd!("screen", "FILE MARGIN", "search each EPD position of FILE (st/sd/sn) and write those scoring within MARGIN centipawns of 0 to FILE.screened", cmd_tools::screen),
    cmd!("sd", "N", "search depth limit (0 = none)", cmd_settings::sd),
    cmd!("search", "MOVE", "restrict the next search to MOVE", cmd_tools::search),
    cmd!("setboard", "FEN", "set up a position from FEN or Crafty's short form (k2r/ppp////Q/5PPP/7K/ b)", cmd_game::setboard),
    cmd!("settc", "MOVES CTIME OTIME", "moves to the next control and both clocks (minutes or m:ss)", cmd_settings::settc),
    cmd!("show", "book", "show the book moves of the position", book::command),
    cmd!("skill", "[N|off]", "strength level 1 to 10 (elo 600 + 200 N), or off for full strength", cmd_settings::skill),
    cmd!("smpmt", "N", "search threads (smpmt=2)", cmd_settings::smpmt),
    cmd!("sn", "N", "search node limit (0 = none)", cmd_settings::sn),
    cmd!("st", "SECONDS|M:SS", "fixed time per move (0 = use the clock)", cmd_settings::st),
    cmd!("swindle", "on|off", "in level positions refuse draws and play on", cmd_settings::swindle),
    cmd!("tags", "", "show the PGN tags", cmd_files::tags),
    cmd!("tbpath", "DIR[:DIR...]", "load the Syzygy tablebases (.rtbw/.rtbz) of these folders", cmd_egtb::tbpath),
    cmd!("test", "FILE [N]", "run a test suite (Crafty title/setboard/solution/end format or EPD); stop a position after N correct iterations", cmd_tools::test),
    cmd!("time", "CPU|elapsed|SPEC", "timing by CPU or elapsed time, or a time control: 60/30, 60/30/sd/30, sd/15, sd/2/12", cmd_settings::time),
    cmd!("timebook", "FACTOR MOVES", "FACTOR percent extra time (0-500) on the first move out of book, decaying to none over MOVES moves (0-30)", cmd_settings::timebook),
    cmd!("trace", "N", "print the search tree to ply N as it is searched (0: off)", cmd_settings::trace),
    cmd!("uci", "", "switch to the UCI protocol", cmd_game::uci),
    cmd!("undo", "", "take back one ply (xboard's undo; back 1)", cmd_game::undo),
    cmd!("usage", "N", "use N percent more (or less, N < 0) time per move", cmd_settings::usage),
    cmd!("whisper", "N", "whisper level 0-6 (what is whispered in ICS mode)", cmd_settings::whisper),
    cmd!("white", "", "White to move; the computer plays Black", cmd_game::white),
    cmd!("wild", "0|7|22 [N]|fr", "a new game from an ICS wild start: 7 kings and three pawns each, 22 or fr Chess960 (random, or position N)", cmd_game::wild),
    cmd!("xboard", "", "switch to the xboard protocol", cmd_game::xboard),
];

/// Crafty commands that have no meaning for wily, each with the one line that says why.
pub static NOT_FOR_WILY: &[(&str, &str)] = &[
    ("adaptive", "wily's hash table has a fixed size (hash=N)"),
    ("autotune", "wily's Lazy SMP search has no split-point parameters to tune"),
    ("bench", "the benchmark is a shell command: wily bench"),
    ("batch", "wily's console always reads input asynchronously; a command file works with 'input FILE'"),
    ("bookpath", "only on the command line (wily bookpath=DIR), before the book is opened"),
    ("cache", "wily probes Syzygy tablebases, which need no cache setting (Nalimov's cache does not apply)"),
    ("epdhelp", "test suites (EPD and Crafty's format) are described by 'help test'"),
    ("egtbd", "the Syzygy probe depth is 'egtb depth N'"),
    ("linelength", "wily prints each variation on one line, whatever its length"),
    ("lmp", "wily's late-move pruning is part of the engine, not a console setting"),
    ("lmr", "wily's late-move reductions are part of the engine, not a console setting"),
    ("logpath", "only on the command line (wily logpath=DIR), before the log files are opened"),
    ("null", "wily's null-move reduction is part of the engine, not a console setting"),
    ("personality", "wily has no personality files; 'evaluation' adjusts the evaluation scales"),
    ("phash", "wily has no path hash table"),
    ("selective", "wily's null-move depths are part of the engine, not a console setting"),
    ("smpgroup", "wily's Lazy SMP search has no thread groups (threads: smpmt=N)"),
    ("smpmax", "wily's Lazy SMP search has no split depths (threads: smpmt=N)"),
    ("smpmin", "wily's Lazy SMP search has no split depths (threads: smpmt=N)"),
    ("smpnice", "wily's helper threads stop when the search stops; nothing to set"),
    ("speech", "wily has no speech output"),
];

/// Why `name` means nothing to wily, if it is one of Crafty's commands that do not apply.
pub fn not_for_wily(name: &str) -> Option<&'static str> {
    NOT_FOR_WILY
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, why)| *why)
}

/// The command called `name` (exact, case-insensitive).
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name.eq_ignore_ascii_case(name))
}

/// `name ARGS` padded with dots to a column, then the help text.
pub fn help_line(c: &Command) -> String {
    let left = if c.args.is_empty() {
        c.name.to_string()
    } else {
        format!("{} {}", c.name, c.args)
    };
    let dots = 30usize.saturating_sub(left.len()).max(2);
    format!("{left} {} {}", ".".repeat(dots), c.help)
}

pub fn help(c: &mut Console, args: &[&str]) -> CmdResult {
    match args {
        [] => {
            c.say("commands (a move in SAN or coordinates, e.g. e4, Nf3, e2e4, plays it):");
            for cmd in COMMANDS {
                c.say(&help_line(cmd));
            }
        }
        ["book"] | ["books"] | ["bookw"] | ["show"] => {
            for l in ::book::console::HELP.lines() {
                c.say(l);
            }
        }
        ["learn"] | ["import"] => {
            for l in learn::console::HELP.lines() {
                c.say(l);
            }
        }
        [name] => {
            let name = name.split('=').next().unwrap_or(name);
            if let Some(why) = not_for_wily(name) {
                c.say(&format!("{name}: not needed in wily: {why}"));
                for l in super::helptext::full_help(name) {
                    c.say(&l);
                }
                return Ok(Flow::Continue);
            }
            let cmd = find(name)
                .ok_or_else(|| format!("help: no command '{name}' (type 'help' for the list)"))?;
            c.say(&help_line(cmd));
            // The manual's text about it (docs/console.md), compiled in.
            for l in super::helptext::full_help(cmd.name) {
                c.say(&l);
            }
        }
        _ => return Err("usage: help [COMMAND]".into()),
    }
    Ok(Flow::Continue)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_without_meaning_are_not_commands() {
        for (name, why) in NOT_FOR_WILY {
            assert!(find(name).is_none(), "{name} is both");
            assert!(!why.is_empty());
        }
        assert!(not_for_wily("CACHE").is_some());
    }

    #[test]
    fn table_is_sorted_and_unique() {
        for w in COMMANDS.windows(2) {
            assert!(w[0].name < w[1].name, "{} before {}", w[0].name, w[1].name);
        }
        assert!(find("HELP").is_some());
        assert!(find("nonsense").is_none());
    }

    #[test]
    fn every_issue_command_is_listed() {
        for name in [
            "alarm",
            "analyze",
            "annotate",
            "annotateh",
            "back",
            "reset",
            "black",
            "white",
            "clock",
            "computer",
            "display",
            "draw",
            "drawscore",
            "echo",
            "edit",
            "end",
            "quit",
            "evaluation",
            "flag",
            "force",
            "hash",
            "hashp",
            "help",
            "history",
            "info",
            "input",
            "level",
            "log",
            "mode",
            "name",
            "new",
            "noise",
            "operator",
            "perf",
            "perft",
            "pgn",
            "ponder",
            "read",
            "reada",
            "resign",
            "savegame",
            "savepos",
            "score",
            "sd",
            "search",
            "settc",
            "setboard",
            "smpmt",
            "sn",
            "st",
            "swindle",
            "tags",
            "test",
            "time",
            "usage",
            "whisper",
            "kibitz",
            "xboard",
            "book",
            "books",
            "bookw",
            "show",
            "import",
            "learn",
            "list",
        ] {
            assert!(find(name).is_some(), "{name} missing");
        }
    }
}
