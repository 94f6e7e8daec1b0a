//! The crate as a graph of files: which module each file is, what each path a file names
//! resolves to (following `pub use` re-exports to the file that defines the item), the
//! file-to-file import edges, and the cycles among them.

use super::scan::{scan, Facts, PathRef};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

/// One import edge: `from` names something in `to`, first at `line` of `from`.
#[derive(Clone, Debug)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub line: u32,
}

pub struct Graph {
    /// File paths as given (`src/ics/mod.rs`).
    pub files: Vec<String>,
    /// Each file's module path (`["ics"]`; the binary's `src/main.rs` is `["main"]`).
    pub modules: Vec<Vec<String>>,
    /// Edges, one per ordered pair of different files.
    pub edges: Vec<Edge>,
    /// Per file, the paths it names in other crates (`std::fs::File`, `tokio::net`), with
    /// their lines.
    pub externals: Vec<Vec<(Vec<String>, u32)>>,
}

impl Graph {
    /// Builds the graph from `(path relative to the crate root, text)` pairs of `src/`.
    pub fn build(sources: &[(String, String)]) -> Graph {
        let mut module_of: Vec<Vec<String>> = sources.iter().map(|(p, _)| module_path(p)).collect();
        // `#[path = "x.rs"] mod name;` puts x.rs at the declaring module + name.
        for (p, text) in sources {
            let decl = module_path(p);
            let dir = p.rsplit_once('/').map_or("", |(d, _)| d);
            for (target, name) in path_attrs(text) {
                let full = normalize(&format!("{dir}/{target}"));
                if let Some(k) = sources.iter().position(|(q, _)| *q == full) {
                    let mut m = decl.clone();
                    m.push(name);
                    module_of[k] = m;
                }
            }
        }
        let facts: Vec<Facts> = sources
            .iter()
            .zip(&module_of)
            .map(|((_, t), m)| scan(t, m))
            .collect();
        let mut r = Resolver::default();
        for (k, m) in module_of.iter().enumerate() {
            r.module_file.insert(m.clone(), k);
            for inline in &facts[k].inline_mods {
                let mut full = m.clone();
                full.extend(inline.iter().cloned());
                r.module_file.insert(full, k);
            }
        }
        for f in &facts {
            for (m, name) in &f.items {
                r.items.entry(m.clone()).or_default().insert(name.clone());
            }
            for u in f.uses.iter().filter(|u| u.public) {
                let Some(abs) = r.absolute(&u.path) else {
                    continue;
                };
                let entry = r.reexports.entry(u.path.context.clone()).or_default();
                match &u.name {
                    Some(n) if !u.glob => {
                        entry.named.insert(n.clone(), abs);
                    }
                    _ => entry.globs.push(abs),
                }
            }
        }
        let mut seen: HashMap<(usize, usize), u32> = HashMap::new();
        let mut add = |from: usize, to: Option<usize>, line: u32| {
            if let Some(to) = to.filter(|&t| t != from) {
                seen.entry((from, to)).or_insert(line);
            }
        };
        let mut externals = vec![Vec::new(); sources.len()];
        for (k, f) in facts.iter().enumerate() {
            let own = &module_of[k];
            // A module's root file (mod.rs) that has files below it is the module's face:
            // its `pub use` of its own parts only names them, it does not depend on them.
            let is_root = module_of
                .iter()
                .any(|m| m.len() > own.len() && m.starts_with(own));
            // Names brought in by `use` that stand for modules, for paths like `eval::x`.
            let mut aliases: HashMap<String, Vec<String>> = HashMap::new();
            for u in &f.uses {
                let abs = r.absolute(&u.path);
                if abs.is_none() {
                    externals[k].push((u.path.segs.clone(), u.path.line));
                }
                let target = abs.and_then(|a| r.resolve(&a, 0));
                if let (Some((m, None)), Some(n), false) = (&target, &u.name, u.glob) {
                    aliases.insert(n.clone(), m.clone());
                }
                let facade = u.public && is_root;
                let target = target.filter(|(m, _)| !(facade && m.starts_with(own)));
                add(k, target.map(|(m, _)| r.module_file[&m]), u.path.line);
            }
            for p in &f.paths {
                let abs = match aliases.get(&p.segs[0]) {
                    Some(m) => Some(m.iter().chain(&p.segs[1..]).cloned().collect()),
                    None => r.absolute(p),
                };
                if abs.is_none() {
                    externals[k].push((p.segs.clone(), p.line));
                }
                let target = abs.and_then(|a| r.resolve(&a, 0));
                add(k, target.map(|(m, _)| r.module_file[&m]), p.line);
            }
        }
        // A type's methods may be spread over several files of one folder (`impl Session`
        // in play.rs and in observe.rs): `self.method()` calls one in another file, and that
        // is a dependency as real as an import.
        let dir = |k: usize| {
            sources[k]
                .0
                .rsplit_once('/')
                .map_or("", |(d, _)| d)
                .to_string()
        };
        let mut defined: HashMap<(String, &str, &str), Vec<usize>> = HashMap::new();
        for (k, f) in facts.iter().enumerate() {
            for (t, m) in &f.methods {
                defined
                    .entry((dir(k), t.as_str(), m.as_str()))
                    .or_default()
                    .push(k);
            }
        }
        for (k, f) in facts.iter().enumerate() {
            for (t, m, line) in &f.self_calls {
                let at = defined.get(&(dir(k), t.as_str(), m.as_str()));
                if let Some([one]) = at.map(Vec::as_slice) {
                    add(k, Some(*one), *line);
                }
            }
        }
        let mut edges: Vec<Edge> = seen
            .into_iter()
            .map(|((from, to), line)| Edge { from, to, line })
            .collect();
        edges.sort_by_key(|e| (e.from, e.to));
        let files = sources.iter().map(|(p, _)| p.clone()).collect();
        Graph {
            files,
            modules: module_of,
            edges,
            externals,
        }
    }

    /// Every group of files that import each other in a loop: its files, and one loop
    /// spelled out (`a.rs:3 -> b.rs:9 -> a.rs`: the line where each file names the next).
    pub fn cycles(&self) -> Vec<(Vec<String>, String)> {
        let n = self.files.len();
        let mut adj: Vec<Vec<&Edge>> = vec![Vec::new(); n];
        for e in &self.edges {
            adj[e.from].push(e);
        }
        let mut out = Vec::new();
        for scc in sccs(n, &adj).into_iter().filter(|s| s.len() > 1) {
            let start = scc[0];
            let members: BTreeSet<usize> = scc.iter().copied().collect();
            // Shortest way from `start` back to itself inside the group.
            let mut prev: HashMap<usize, &Edge> = HashMap::new();
            let mut queue = VecDeque::from([start]);
            'bfs: while let Some(v) = queue.pop_front() {
                for e in adj[v].iter().filter(|e| members.contains(&e.to)) {
                    if e.to == start {
                        prev.insert(start, e);
                        break 'bfs;
                    }
                    if let std::collections::hash_map::Entry::Vacant(slot) = prev.entry(e.to) {
                        slot.insert(e);
                        queue.push_back(e.to);
                    }
                }
            }
            let mut hops = Vec::new();
            let mut v = start;
            loop {
                let e = prev[&v];
                hops.push(e);
                v = e.from;
                if v == start {
                    break;
                }
            }
            hops.reverse();
            let mut text: String = hops
                .iter()
                .map(|e| format!("{}:{} -> ", self.files[e.from], e.line))
                .collect();
            text.push_str(&self.files[start]);
            let mut names: Vec<String> = scc.iter().map(|&k| self.files[k].clone()).collect();
            names.sort();
            out.push((names, format!("{} files in a loop: {text}", scc.len())));
        }
        out
    }
}

/// `src/a/b.rs` -> `a::b`, `src/a/mod.rs` -> `a`, `src/lib.rs` -> the root, `src/main.rs`
/// -> `main` (the binary, a crate of its own that names the library as `wily`).
fn module_path(p: &str) -> Vec<String> {
    let rest = p.strip_prefix("src/").unwrap_or(p).trim_end_matches(".rs");
    let mut segs: Vec<String> = rest.split('/').map(str::to_string).collect();
    if segs.last().is_some_and(|s| s == "mod" || s == "lib") {
        segs.pop();
    }
    segs
}

/// `#[path = "target"] mod name;` pairs in a file.
fn path_attrs(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (k, _) in text.match_indices("#[path = \"") {
        let rest = &text[k + 10..];
        let Some(end) = rest.find('"') else { continue };
        let after = rest[end..].split_once("mod ").map(|(_, m)| m);
        if let Some(name) = after.and_then(|m| m.split(';').next()) {
            out.push((rest[..end].to_string(), name.trim().to_string()));
        }
    }
    out
}

fn normalize(p: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for s in p.split('/') {
        match s {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            s => parts.push(s),
        }
    }
    parts.join("/")
}

#[derive(Default)]
struct Reexports {
    named: HashMap<String, Vec<String>>,
    globs: Vec<Vec<String>>,
}

#[derive(Default)]
struct Resolver {
    module_file: BTreeMap<Vec<String>, usize>,
    items: HashMap<Vec<String>, BTreeSet<String>>,
    reexports: HashMap<Vec<String>, Reexports>,
}

impl Resolver {
    /// A path written in `context` as a path from the crate root, or None for paths into
    /// other crates (`std::`, `cozy_chess::`) and names that are not modules here.
    fn absolute(&self, p: &PathRef) -> Option<Vec<String>> {
        let mut segs = p.segs.iter().peekable();
        let mut base: Vec<String> = match segs.peek().map(|s| s.as_str()) {
            Some("crate") if p.context.first().is_some_and(|m| m == "main") => return None,
            Some("crate") | Some("wily") => {
                segs.next();
                Vec::new()
            }
            Some("self") => {
                segs.next();
                p.context.clone()
            }
            Some("super") => {
                let mut b = p.context.clone();
                while segs.peek().is_some_and(|s| *s == "super") {
                    segs.next();
                    b.pop();
                }
                b
            }
            Some(first) => {
                let mut child = p.context.clone();
                child.push(first.to_string());
                if !self.module_file.contains_key(&child) {
                    return None;
                }
                p.context.clone()
            }
            None => return None,
        };
        base.extend(segs.cloned());
        Some(base)
    }

    /// The module an absolute path lands in, and the item named in it if any, following
    /// re-exports so that `crate::ics::Event` lands in `ics::events`.
    fn resolve(&self, abs: &[String], depth: u32) -> Option<(Vec<String>, Option<String>)> {
        let mut cur: Vec<String> = Vec::new();
        let mut i = 0;
        while i < abs.len() {
            let mut next = cur.clone();
            next.push(abs[i].clone());
            if !self.module_file.contains_key(&next) {
                break;
            }
            cur = next;
            i += 1;
        }
        if i == abs.len() {
            return Some((cur, None));
        }
        if i == 0 && !self.module_file.contains_key(&cur) {
            return None;
        }
        let item = &abs[i];
        if depth < 8 && !self.items.get(&cur).is_some_and(|s| s.contains(item)) {
            if let Some(re) = self.reexports.get(&cur) {
                if let Some(target) = re.named.get(item) {
                    let mut t = target.clone();
                    t.extend(abs[i + 1..].iter().cloned());
                    return self
                        .resolve(&t, depth + 1)
                        .or(Some((cur, Some(item.clone()))));
                }
                for g in &re.globs {
                    let mut t = g.clone();
                    t.extend(abs[i..].iter().cloned());
                    if let Some(found @ (_, Some(_))) = self.resolve(&t, depth + 1) {
                        if self.items.get(&found.0).is_some_and(|s| s.contains(item)) {
                            return Some(found);
                        }
                    }
                }
            }
        }
        Some((cur, Some(item.clone())))
    }
}

/// Strongly connected components (Tarjan, iterative), each sorted.
fn sccs(n: usize, adj: &[Vec<&Edge>]) -> Vec<Vec<usize>> {
    let (mut index, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let (mut on, mut stack, mut out, mut next) = (vec![false; n], Vec::new(), Vec::new(), 0);
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if *k == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on[v] = true;
            }
            if let Some(e) = adj[v].get(*k) {
                *k += 1;
                if index[e.to] == usize::MAX {
                    work.push((e.to, 0));
                } else if on[e.to] {
                    low[v] = low[v].min(index[e.to]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                comp.sort();
                out.push(comp);
            }
        }
    }
    out
}
