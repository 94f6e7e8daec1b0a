//! Reading one source file into the facts the layer check needs: its tokens with comments
//! and literals removed, the inline modules it opens, the items it defines, its `use`
//! statements (each leaf of a use tree) and the other paths it names (`crate::x::f()`,
//! `super::y::Z`, `child::g()`). No parsing beyond that: this is not a Rust parser, only
//! enough of one to see which module a file names.

/// One token: an identifier (keywords included) or a punctuation mark (`::` is one).
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    Punct(&'static str),
}

/// A path a file names, with the module it is written in (inline modules included) and
/// the line where it is.
#[derive(Clone, Debug)]
pub struct PathRef {
    pub context: Vec<String>,
    pub segs: Vec<String>,
    pub line: u32,
}

/// One leaf of a `use` tree: `use a::{b, c::*}` gives `a::b` and `a::c` (glob).
#[derive(Clone, Debug)]
pub struct UseRef {
    pub path: PathRef,
    pub glob: bool,
    /// The name it is known by where it is imported (`as` name or last segment).
    pub name: Option<String>,
    /// `pub use` (any visibility): a re-export other files may name it by.
    pub public: bool,
}

/// What one file says, in module terms.
#[derive(Debug, Default)]
pub struct Facts {
    /// Inline modules (`mod tests { .. }`), as paths below the file's module.
    pub inline_mods: Vec<Vec<String>>,
    /// Items defined: (module path, name).
    pub items: Vec<(Vec<String>, String)>,
    pub uses: Vec<UseRef>,
    /// Paths outside `use` statements.
    pub paths: Vec<PathRef>,
    /// Methods defined in `impl` blocks: (type name, method).
    pub methods: Vec<(String, String)>,
    /// `self.method(..)` calls inside `impl` blocks: (type name, method, line).
    pub self_calls: Vec<(String, String, u32)>,
}

/// Splits source text into tokens with their line numbers; comments, strings and char
/// literals are dropped, lifetimes too.
pub fn lex(text: &str) -> Vec<(Tok, u32)> {
    let c: Vec<char> = text.chars().collect();
    let (mut i, mut line, mut out) = (0usize, 1u32, Vec::new());
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += u32::from(c[i] == '\n');
                    i += 1;
                }
            }
        } else if let Some(end) = raw_string_end(&c, i) {
            line += c[i..end].iter().filter(|&&x| x == '\n').count() as u32;
            i = end;
        } else if ch == '"' || (ch == 'b' && at(i + 1) == '"') {
            i += if ch == 'b' { 2 } else { 1 };
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                line += u32::from(at(i) == '\n');
                i += 1;
            }
            i += 1;
        } else if ch == '\'' || (ch == 'b' && at(i + 1) == '\'') {
            let s = if ch == 'b' { i + 1 } else { i };
            if at(s + 1) == '\\' {
                i = s + 3;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(s + 2) == '\'' {
                i = s + 3;
            } else {
                // A lifetime or label: skip the quote, the name follows as an identifier.
                i = s + 1;
            }
        } else if ch.is_alphabetic() || ch == '_' {
            // A raw identifier (`r#match`) names the identifier after `r#`.
            if ch == 'r' && at(i + 1) == '#' && (at(i + 2).is_alphabetic() || at(i + 2) == '_') {
                i += 2;
            }
            let s = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(c[s..i].iter().collect()), line));
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
        } else if ch == ':' && at(i + 1) == ':' {
            out.push((Tok::Punct("::"), line));
            i += 2;
        } else {
            const MARKS: [&str; 12] = ["{", "}", "(", ")", ";", ",", "*", "!", "[", "]", "<", ">"];
            if let Some(m) = MARKS.iter().find(|m| m.starts_with(ch)) {
                out.push((Tok::Punct(m), line));
            } else {
                out.push((Tok::Punct("."), line));
            }
            i += 1;
        }
    }
    out
}

/// Where a raw string literal starting at `i` (`r"..."`, `r#"..."#`, `br#"..."#`) ends.
fn raw_string_end(c: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if c.get(j) == Some(&'b') {
        j += 1;
    }
    if c.get(j) != Some(&'r') || (i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')) {
        return None;
    }
    j += 1;
    let hashes = c[j..].iter().take_while(|&&x| x == '#').count();
    j += hashes;
    if c.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < c.len() {
        if c[j] == '"'
            && c[j + 1..]
                .iter()
                .take(hashes)
                .filter(|&&x| x == '#')
                .count()
                == hashes
        {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(c.len())
}

fn ident(t: Option<&(Tok, u32)>) -> Option<&str> {
    match t {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

fn punct(t: Option<&(Tok, u32)>, p: &str) -> bool {
    matches!(t, Some((Tok::Punct(q), _)) if *q == p)
}

/// Whether a call's arguments open at `j`, after an optional turbofish
/// (`self.qsearch::<PV>(..)`).
fn call_follows(toks: &[(Tok, u32)], j: usize) -> bool {
    if punct(toks.get(j), "(") {
        return true;
    }
    if !(punct(toks.get(j), "::") && punct(toks.get(j + 1), "<")) {
        return false;
    }
    let mut open = 0usize;
    for k in j + 1..toks.len() {
        if punct(toks.get(k), "<") {
            open += 1;
        } else if punct(toks.get(k), ">") {
            open -= 1;
            if open == 0 {
                return punct(toks.get(k + 1), "(");
            }
        }
    }
    false
}

const ITEM_WORDS: [&str; 8] = [
    "fn", "struct", "enum", "trait", "type", "const", "static", "union",
];

/// Reads the facts of one file whose module path is `module`.
pub fn scan(text: &str, module: &[String]) -> Facts {
    let toks = lex(text);
    let mut facts = Facts::default();
    // Inline modules open: (name, brace depth inside it).
    let mut stack: Vec<(String, usize)> = Vec::new();
    // `impl` blocks open: (type name, brace depth inside it), and one whose `{` is next.
    let mut impls: Vec<(String, usize)> = Vec::new();
    let mut pending_impl: Option<String> = None;
    let mut depth = 0usize;
    let context = |stack: &[(String, usize)]| {
        let mut m = module.to_vec();
        m.extend(stack.iter().map(|(n, _)| n.clone()));
        m
    };
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct("{") => {
                depth += 1;
                if let Some(t) = pending_impl.take() {
                    impls.push((t, depth));
                }
            }
            Tok::Punct("}") => {
                depth = depth.saturating_sub(1);
                while stack.last().is_some_and(|(_, d)| *d > depth) {
                    stack.pop();
                }
                while impls.last().is_some_and(|(_, d)| *d > depth) {
                    impls.pop();
                }
            }
            Tok::Ident(w) if w == "impl" && item_start(&toks, i) => {
                pending_impl = impl_type(&toks, i + 1);
            }
            Tok::Ident(w)
                if w == "self" && punct(toks.get(i + 1), ".") && call_follows(&toks, i + 3) =>
            {
                if let (Some((t, _)), Some(m)) = (impls.last(), ident(toks.get(i + 2))) {
                    facts.self_calls.push((t.clone(), m.to_string(), toks[i].1));
                }
            }
            Tok::Ident(w) if w == "mod" => {
                if let Some(name) = ident(toks.get(i + 1)) {
                    if punct(toks.get(i + 2), "{") {
                        depth += 1;
                        stack.push((name.to_string(), depth));
                        facts
                            .inline_mods
                            .push(context(&stack)[module.len()..].to_vec());
                        i += 3;
                        continue;
                    }
                }
            }
            Tok::Ident(w) if ITEM_WORDS.contains(&w.as_str()) => {
                if let Some(name) = ident(toks.get(i + 1)) {
                    facts.items.push((context(&stack), name.to_string()));
                    match impls.last() {
                        Some((t, d)) if w == "fn" && *d == depth => {
                            facts.methods.push((t.clone(), name.to_string()));
                        }
                        _ => {}
                    }
                }
            }
            Tok::Ident(w) if w == "macro_rules" && punct(toks.get(i + 1), "!") => {
                if let Some(name) = ident(toks.get(i + 2)) {
                    facts.items.push((context(&stack), name.to_string()));
                }
            }
            Tok::Ident(w) if w == "use" => {
                let public = ident(toks.get(i.wrapping_sub(1))) == Some("pub")
                    || (punct(toks.get(i.wrapping_sub(1)), ")")
                        && toks[..i]
                            .iter()
                            .rev()
                            .take(6)
                            .any(|t| ident(Some(t)) == Some("pub")));
                let line = toks[i].1;
                i += 1;
                let mut leaves = Vec::new();
                use_tree(&toks, &mut i, Vec::new(), &mut leaves);
                let ctx = context(&stack);
                for (segs, glob, name) in leaves {
                    let path = PathRef {
                        context: ctx.clone(),
                        segs,
                        line,
                    };
                    facts.uses.push(UseRef {
                        path,
                        glob,
                        name,
                        public,
                    });
                }
                continue;
            }
            Tok::Ident(first)
                if punct(toks.get(i + 1), "::") && !punct(toks.get(i.wrapping_sub(1)), "::") =>
            {
                let line = toks[i].1;
                let mut segs = vec![first.clone()];
                let mut j = i + 1;
                while punct(toks.get(j), "::") {
                    match ident(toks.get(j + 1)) {
                        Some(s) => segs.push(s.to_string()),
                        None => break,
                    }
                    j += 2;
                }
                facts.paths.push(PathRef {
                    context: context(&stack),
                    segs,
                    line,
                });
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    facts
}

/// True when the `impl` at `toks[i]` starts an item (not `-> impl Trait` or `x: impl T`).
fn item_start(toks: &[(Tok, u32)], i: usize) -> bool {
    i == 0
        || ["}", ";", "]", "{"]
            .iter()
            .any(|p| punct(toks.get(i - 1), p))
        || ident(toks.get(i - 1)) == Some("unsafe")
}

/// The type an `impl` header starting at `toks[i]` is for: `impl<T> Trait for Foo<T>` and
/// `impl Foo` both give `Foo`.
fn impl_type(toks: &[(Tok, u32)], mut i: usize) -> Option<String> {
    let mut angle = 0i32;
    let mut name = None;
    let mut after_path_sep = false;
    while let Some((t, _)) = toks.get(i) {
        match t {
            Tok::Punct("<") => angle += 1,
            Tok::Punct(">") => angle -= 1,
            Tok::Punct("{") | Tok::Punct(";") if angle <= 0 => break,
            Tok::Ident(w) if angle <= 0 && w == "where" => break,
            Tok::Ident(w) if angle <= 0 && w == "for" => name = None,
            Tok::Ident(w) if angle <= 0 && (name.is_none() || after_path_sep) => {
                name = Some(w.clone());
            }
            _ => {}
        }
        after_path_sep = matches!(t, Tok::Punct("::"));
        i += 1;
    }
    name
}

/// Reads one use tree from `toks[*i]`, pushing (path, glob, name) per leaf.
fn use_tree(
    toks: &[(Tok, u32)],
    i: &mut usize,
    mut segs: Vec<String>,
    out: &mut Vec<(Vec<String>, bool, Option<String>)>,
) {
    if punct(toks.get(*i), "::") {
        *i += 1; // a leading `::`: an external crate
        segs.push("::".into());
    }
    loop {
        match toks.get(*i) {
            Some((Tok::Punct("{"), _)) => {
                *i += 1;
                while *i < toks.len() && !punct(toks.get(*i), "}") {
                    use_tree(toks, i, segs.clone(), out);
                    if punct(toks.get(*i), ",") {
                        *i += 1;
                    } else if !punct(toks.get(*i), "}") {
                        break;
                    }
                }
                *i += 1;
                break;
            }
            Some((Tok::Punct("*"), _)) => {
                *i += 1;
                out.push((segs, true, None));
                break;
            }
            Some((Tok::Ident(s), _)) => {
                *i += 1;
                if punct(toks.get(*i), "::") {
                    segs.push(s.clone());
                    *i += 1;
                    continue;
                }
                if s != "self" {
                    segs.push(s.clone());
                }
                let mut name = segs.last().cloned();
                if ident(toks.get(*i)) == Some("as") {
                    name = ident(toks.get(*i + 1)).map(str::to_string);
                    *i += 2;
                }
                out.push((segs, false, name));
                break;
            }
            _ => break,
        }
    }
    if punct(toks.get(*i), ";") {
        *i += 1;
    }
}
