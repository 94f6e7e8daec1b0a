//! Writes a set of weights as the Rust source of `crates/engine/src/eval/tuned.rs`, the file the
//! engine compiles its default weights from: every field of `EvalParams` in declaration
//! order, in a fixed layout (pairs as `s(mg, eg)`, eight to a line, a piece-square table
//! rank by rank), so that a new tuning shows in the diff as the numbers that changed.

use std::fmt::Write as _;
use std::path::Path;

use book::atomic::write_atomically;
use engine::eval::layout::{fields, Field};
use engine::eval::EvalParams;

/// The opening of the generated file, before the provenance lines.
const INTRO: &str = "\
//! The evaluation's default weights (`EvalParams::default()`), written by `wily tune` (see
//! docs/tuning.md): a tuning run rewrites this whole file, in a fixed layout, so
//! that the diff shows the numbers that changed. The meaning of every field is documented
//! in `params.rs`.
//!";

/// The names of the rows of a table indexed by piece.
const PIECES: [&str; 6] = ["Pawn", "Knight", "Bishop", "Rook", "Queen", "King"];

/// Values per line in arrays (a rank of a square table).
const PER_LINE: usize = 8;
/// Arrays of at most this many values are written on the field's line (so that which
/// arrays are wrapped never depends on the values).
const INLINE: usize = 6;

/// `values` (one element's worth each) as `s(mg, eg)` pairs or plain numbers.
fn items(values: &[i32], pairs: bool) -> Vec<String> {
    if pairs {
        values
            .chunks(2)
            .map(|p| format!("s({}, {})", p[0], p[1]))
            .collect()
    } else {
        values.iter().map(|v| v.to_string()).collect()
    }
}

/// Writes a one-dimensional array's items at `indent`: on the field's line when there are
/// few, else eight to a line.
fn write_row(out: &mut String, items: &[String], indent: &str) {
    if items.len() <= INLINE {
        let _ = write!(out, "[{}]", items.join(", "));
        return;
    }
    out.push_str("[\n");
    for chunk in items.chunks(PER_LINE) {
        let _ = writeln!(out, "{indent}    {},", chunk.join(", "));
    }
    let _ = write!(out, "{indent}]");
}

/// One field as `name: value,` lines.
fn write_field(out: &mut String, f: &Field, values: &[i32]) {
    let indent = "    ";
    let _ = write!(out, "{indent}{}: ", f.name);
    let per_element = if f.pairs { 2 } else { 1 };
    match f.dims.as_slice() {
        [] => out.push_str(&items(values, f.pairs)[0]),
        [_] => write_row(out, &items(values, f.pairs), indent),
        [rows, cols] => {
            out.push_str("[\n");
            let row_len = cols * per_element;
            for (r, row) in values.chunks(row_len).enumerate().take(*rows) {
                if *rows == PIECES.len() {
                    let _ = writeln!(out, "{indent}    // {}", PIECES[r]);
                }
                let _ = write!(out, "{indent}    ");
                write_row(out, &items(row, f.pairs), &format!("{indent}    "));
                out.push_str(",\n");
            }
            let _ = write!(out, "{indent}]");
        }
        _ => unreachable!("EvalParams has no arrays of more than two dimensions"),
    }
    out.push_str(",\n");
}

/// The source of `tuned.rs` for `params`, with `provenance` (how the weights were made, one
/// line each) in its module doc.
pub fn render(params: &EvalParams, provenance: &[String]) -> String {
    let mut out = String::from(INTRO);
    out.push('\n');
    for line in provenance {
        let _ = writeln!(out, "//! {line}");
    }
    out.push_str(
        "\nuse super::params::EvalParams;\nuse super::score::s;\n\n\
         /// The default weights.\n#[rustfmt::skip]\n\
         pub(super) const TUNED: EvalParams = EvalParams {\n",
    );
    let flat = params.to_flat();
    for f in fields() {
        write_field(&mut out, &f, &flat[f.start..f.start + f.len]);
    }
    out.push_str("};\n");
    out
}

/// The provenance lines of a file `render` wrote (its module doc after the fixed opening).
pub fn provenance_of(source: &str) -> Vec<String> {
    source
        .strip_prefix(INTRO)
        .unwrap_or("")
        .lines()
        .skip(1)
        .map_while(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l).to_string())
        .collect()
}

/// Writes `render(params, provenance)` to `path`, atomically.
pub fn write(path: &Path, params: &EvalParams, provenance: &[String]) -> Result<(), String> {
    let text = render(params, provenance);
    write_atomically(path, |w| std::io::Write::write_all(w, text.as_bytes()))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compiled-in defaults are exactly what `render` writes for them: the file is the
    /// generator's output, and the generator's layout is stable.
    #[test]
    fn tuned_rs_is_the_rendering_of_the_defaults() {
        let source = include_str!("../../engine/src/eval/tuned.rs");
        let provenance = provenance_of(source);
        assert!(!provenance.is_empty(), "tuned.rs has no provenance lines");
        let rendered = render(&EvalParams::default(), &provenance);
        if rendered != source {
            let diff = rendered
                .lines()
                .zip(source.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(rendered.lines().count().min(source.lines().count()));
            panic!(
                "tuned.rs differs from the rendering of the defaults at line {}: {:?}",
                diff + 1,
                rendered.lines().nth(diff)
            );
        }
    }

    #[test]
    fn rendering_changes_only_the_lines_of_changed_weights() {
        let p = EvalParams::default();
        let mut q = p.clone();
        q.tempo.eg += 3;
        q.pst[1][27].mg -= 5;
        let lines = vec!["test".to_string()];
        let (a, b) = (render(&p, &lines), render(&q, &lines));
        let changed = a.lines().zip(b.lines()).filter(|(x, y)| x != y).count();
        assert_eq!(a.lines().count(), b.lines().count());
        assert_eq!(changed, 2);
        assert_eq!(provenance_of(&a), lines);
    }
}
