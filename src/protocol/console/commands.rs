//! The console's command table: every command's name, arguments, help line and handler.
//! `help` prints this table; `help NAME` prints one entry.

use super::{
    book, cmd_egtb, cmd_eval, cmd_files, cmd_game, cmd_info, cmd_settings, cmd_tools, CmdResult,
    Console,
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
    cmd!("back", "[N]", "take back N plies (default 1)", cmd_game::back),
    cmd!("black", "", "Black to move; the computer plays White", cmd_game::black),
    cmd!("book", "ARGS", "opening book: on|off, random 0|1, width N, seed N, create, polyglot, moves ('help book')", book::command),
    cmd!("books", "create FILE M", "build the small hand-edited start book", book::command),
    cmd!("bookw", "freq|ratio|eval|learn W", "weights of book move selection", book::command),
    cmd!("clock", "[CTIME OTIME]", "show the clocks, or set computer and opponent time left (minutes or m:ss)", cmd_settings::clock),
    cmd!("computer", "", "the opponent is a computer (draw score 0)", cmd_settings::computer),
    cmd!("display", "[OPTION|noOPTION]", "show the board, or switch output: time changes variation stats extstats movenum moves general", cmd_info::display),
    cmd!("draw", "", "offer the computer a draw (accepted unless its score is above the draw score)", cmd_game::draw),
    cmd!("drawscore", "N", "value of a draw in centipawns from wily's side (contempt)", cmd_settings::drawscore),
    cmd!("echo", "TEXT", "print TEXT", cmd_info::echo),
    cmd!("edit", "", "set up a position piece by piece (Pe2 places, xe2 clears, c switches colour, # clears, . ends)", cmd_game::edit),
    cmd!("egtb", "[off|PATH|depth N|50 on|off]", "Syzygy tablebases: show what is loaded, unload, load PATH, probe depth, 50-move rule", cmd_egtb::egtb),
    cmd!("end", "", "leave wily (same as quit)", cmd_game::quit),
    cmd!("evaluation", "[asymmetry|bscale|kscale|tropism|pscale|ppscale N]", "adjust evaluation scale knobs (percent, 100 = normal)", cmd_eval::evaluation),
    cmd!("exit", "", "leave analyze mode, or stop reading an input file", cmd_game::exit),
    cmd!("flag", "on|off", "claim a win when the opponent's clock runs out", cmd_settings::flag),
    cmd!("force", "[MOVE]", "without a move: force mode (the computer plays neither side); with one: replace the computer's last move", cmd_game::force),
    cmd!("go", "", "the computer plays the side to move and moves now", cmd_game::go),
    cmd!("hash", "N[K|M|G]", "transposition table size (hash=64M)", cmd_settings::hash),
    cmd!("hashp", "N[K|M]", "pawn hash table size (hashp=4M)", cmd_settings::hashp),
    cmd!("help", "[COMMAND]", "list the commands, or explain one", cmd_info::help),
    cmd!("history", "", "list the game's moves", cmd_info::history),
    cmd!("import", "FILE [clear]", "import learned data (book.lrn or position.lrn text)", book::command),
    cmd!("info", "", "show the current settings", cmd_info::info),
    cmd!("input", "FILE", "read commands from FILE", cmd_files::input),
    cmd!("kibitz", "N", "kibitz level 0-6 (what is kibitzed in ICS mode)", cmd_settings::kibitz),
    cmd!("learn", "N", "learning: 1 book, 2 position, 4 result (sum; 0 off)", book::command),
    cmd!("level", "MOVES MINUTES INC", "time control (MOVES 0 = sudden death; INC seconds)", cmd_settings::level),
    cmd!("list", "GM|IM|C|AK|S +NAME -NAME", "show or edit the opponent lists the server bot reads (lists/)", book::command),
    cmd!("log", "on|off|N", "per-game log and game files in logs/ on or off, or the next game's number", cmd_files::log),
    cmd!("mode", "tournament|normal", "tournament mode refuses take-backs and position changes", cmd_settings::mode),
    cmd!("move", "", "the computer moves now (same as go; during a search: move now)", cmd_game::go),
    cmd!("name", "NAME", "the opponent's name (for the game file)", cmd_settings::name),
    cmd!("new", "[N|FEN]", "start a new game (the computer plays Black); with a number 0-959 or a FEN, a Chess960 game from that position", cmd_game::new),
    cmd!("noise", "N", "print search output only after N nodes", cmd_settings::noise),
    cmd!("operator", "SECONDS", "time the operator needs per move, kept in reserve", cmd_settings::operator),
    cmd!("perf", "", "measure move generation and make/unmake speed", cmd_tools::perf),
    cmd!("perft", "N", "count the leaf nodes N plies deep from the current position", cmd_tools::perft_cmd),
    cmd!("pgn", "TAG VALUE", "set a PGN tag for the game file (pgn Event \"Club match\")", cmd_files::pgn),
    cmd!("ponder", "on|off|MOVE", "think on the opponent's time, or set the move to ponder", cmd_settings::ponder),
    cmd!("quit", "", "leave wily", cmd_game::quit),
    cmd!("read", "[FILE]", "play the moves of a game file from the start (default: the last game file)", cmd_files::read),
    cmd!("reada", "[FILE]", "play the moves of a file from the current position", cmd_files::reada),
    cmd!("reset", "N", "go back to move N (White to move)", cmd_game::reset),
    cmd!("resign", "N", "resign when N pawns down for several moves (0 = never)", cmd_settings::resign),
    cmd!("savegame", "FILE", "write the game as PGN", cmd_files::savegame),
    cmd!("savepos", "FILE", "write the position as a 'setboard FEN' line", cmd_files::savepos),
    cmd!("score", "", "the evaluation of the position, term by term", cmd_eval::score),
    cmd!("sd", "N", "search depth limit (0 = none)", cmd_settings::sd),
    cmd!("search", "MOVE", "restrict the next search to MOVE", cmd_tools::search),
    cmd!("setboard", "FEN", "set up a position from FEN", cmd_game::setboard),
    cmd!("settc", "MOVES CTIME OTIME", "moves to the next control and both clocks (minutes or m:ss)", cmd_settings::settc),
    cmd!("show", "book", "show the book moves of the position", book::command),
    cmd!("smpmt", "N", "search threads (smpmt=2)", cmd_settings::smpmt),
    cmd!("sn", "N", "search node limit (0 = none)", cmd_settings::sn),
    cmd!("st", "SECONDS", "fixed time per move (0 = use the clock)", cmd_settings::st),
    cmd!("swindle", "on|off", "in level positions refuse draws and play on", cmd_settings::swindle),
    cmd!("tags", "", "show the PGN tags", cmd_files::tags),
    cmd!("tbpath", "DIR[:DIR...]", "load the Syzygy tablebases (.rtbw/.rtbz) of these folders", cmd_egtb::tbpath),
    cmd!("test", "FILE [N]", "run a test suite (Crafty title/setboard/solution/end format or EPD); stop a position after N correct iterations", cmd_tools::test),
    cmd!("time", "CPU|elapsed|SPEC", "timing by CPU or elapsed time, or a time control: 60/30, 60/30/sd/30, sd/15, sd/2/12", cmd_settings::time),
    cmd!("uci", "", "switch to the UCI protocol", cmd_game::uci),
    cmd!("usage", "N", "use N percent more (or less, N < 0) time per move", cmd_settings::usage),
    cmd!("whisper", "N", "whisper level 0-6 (what is whispered in ICS mode)", cmd_settings::whisper),
    cmd!("white", "", "White to move; the computer plays Black", cmd_game::white),
    cmd!("xboard", "", "switch to the xboard protocol", cmd_game::xboard),
];

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

#[cfg(test)]
mod tests {
    use super::*;

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
