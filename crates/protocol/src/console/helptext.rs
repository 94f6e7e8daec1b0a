//! The full help of one console command (`help NAME`), taken from the documentation
//! itself: the command's rows in `docs/console.md`, both the command table and the table
//! of Crafty's commands (how wily's differs), compiled in so that the help and the manual
//! never disagree. Markdown is turned into plain text (backticks dropped, `\|` as `|`).

/// The console's documentation, as compiled in.
const CONSOLE_MD: &str = include_str!("../../../../docs/console.md");

/// The rows of the markdown tables of `text` under `heading` (a `## ` line), up to the next
/// `## ` heading: each row's cells, the header and separator rows left out.
fn table_rows(text: &str, heading: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            inside = h.trim() == heading;
            continue;
        }
        if !inside || !line.starts_with('|') || line.starts_with("| ---") {
            continue;
        }
        let cells = split_cells(line);
        if cells.len() >= 2 {
            rows.push(cells);
        }
    }
    // The first row of each table is its header.
    rows.retain(|r| !matches!(r[0].as_str(), "command" | "Crafty command"));
    rows
}

/// The cells of one table row (`\|` inside a cell is a literal bar).
fn split_cells(line: &str) -> Vec<String> {
    let body = line.trim().trim_start_matches('|').trim_end_matches('|');
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut chars = body.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' if chars.peek() == Some(&'|') => {
                cur.push('|');
                chars.next();
            }
            '|' => cells.push(std::mem::take(&mut cur).trim().to_string()),
            _ => cur.push(ch),
        }
    }
    cells.push(cur.trim().to_string());
    cells
}

/// Whether a row's first cell names command `name`: one of its backticked forms starts
/// with the name (followed by nothing, a blank, `=` or `[`).
fn names(cell: &str, name: &str) -> bool {
    cell.split('`').skip(1).step_by(2).any(|form| {
        let form = form.trim_start_matches('!');
        let head: String = form
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        head.eq_ignore_ascii_case(name)
    })
}

/// Markdown to plain text: backticks dropped, links as their text.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|i| open + i) else {
            break;
        };
        let Some(end) = rest[close..].find(')').map(|i| close + i) else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..close]);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out.replace('`', "")
}

/// Wraps `text` into lines of at most `width` characters, each after `indent`.
fn wrap(text: &str, width: usize, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in text.split_whitespace() {
        if !cur.is_empty() && cur.len() + 1 + word.len() > width {
            lines.push(format!("{indent}{cur}"));
            cur.clear();
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(format!("{indent}{cur}"));
    }
    lines
}

/// The documentation's text about console command `name`: each of its rows in the command
/// table (the form, then what it does) and in the table of Crafty's commands (`Crafty:`
/// and how wily's compares), wrapped to 78 columns. Empty when the manual has no row.
pub fn full_help(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (heading, prefix) in [("Commands", ""), ("Crafty's commands in wily", "Crafty ")] {
        for row in table_rows(CONSOLE_MD, heading) {
            if !names(&row[0], name) {
                continue;
            }
            out.push(format!("{prefix}{}:", plain(&row[0])));
            out.extend(wrap(&plain(&row[1..].join(" ")), 74, "    "));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_found_by_any_of_their_forms() {
        assert!(names("`end`, `quit`", "quit"));
        assert!(names("`hash=N[K\\|M\\|G]`", "hash"));
        assert!(!names("`hash=N`", "hashp"));
        assert!(names("`!command`", "command"));
        assert!(names("`white` / `black`", "black"));
        assert_eq!(split_cells("| `a\\|b` | x \\| y |"), vec!["`a|b`", "x | y"]);
        assert_eq!(
            plain("see [engine.md](engine.md#x) and `go`"),
            "see engine.md and go"
        );
    }

    #[test]
    fn every_command_of_the_table_has_its_manual_text() {
        for c in super::super::commands::COMMANDS {
            assert!(
                !full_help(c.name).is_empty(),
                "docs/console.md has no row for {}",
                c.name
            );
        }
        let reset = full_help("reset").join("\n");
        assert!(
            reset.contains("same side to move") || reset.contains("same side"),
            "{reset}"
        );
    }
}
