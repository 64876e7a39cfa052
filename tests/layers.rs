//! The library's layers, read from its imports: no module uses one above it (the order drawn
//! in `src/lib.rs`), and a circle of imports stays inside one folder.
//!
//! Every `crate::…` and `super::…` path in `src/` (the binary in `src/app/` and the test
//! modules aside) is resolved to the module it names; a module is a file, or a folder's
//! `mod.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The layers, bottom first: a module may use its own layer and those before it.
const LAYERS: &[&[&str]] = &[
    &["limits"],
    &["error"],
    &["grid", "position"],
    &["symmetry"],
    &["engines::solver"],
    &["engines::canonical", "engines::rater"],
    &["stats", "distribution"],
    &["io"],
    &["pipeline"],
    &["jobs::records"],
    &[
        "jobs::solve",
        "jobs::rate",
        "jobs::hint",
        "jobs::explain",
        "jobs::verify",
        "jobs::canon",
        "jobs::shuffle",
        "jobs::generate",
        "jobs::bench",
    ],
    &["jobs::plot"],
];

type Module = Vec<String>;

/// The library's modules (path from the crate root) with their source, test modules cut.
fn modules() -> BTreeMap<Module, String> {
    let mut out = BTreeMap::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if rel == "app" {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let name = rel.strip_suffix(".rs").unwrap_or(&rel);
            if !rel.ends_with(".rs") || name.ends_with("tests") {
                continue;
            }
            let mut module: Module = name.split('/').map(String::from).collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                module.pop();
            }
            out.insert(module, code_of(&fs::read_to_string(&path).unwrap()));
        }
    }
    out
}

/// Source without comments and without its inline `#[cfg(test)] mod tests { ... }` (kept
/// at the bottom; a `mod tests;` line only names a file, which is left out by its name).
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let next = lines.peek().map_or("", |l| l.trim());
        if line.trim() == "#[cfg(test)]" && next.starts_with("mod tests {") {
            break;
        }
        out.push_str(line.split("//").next().unwrap());
        out.push('\n');
    }
    out
}

/// The modules `code` of `module` names through paths (`crate::…`, `super::…`, `self::…`,
/// and `child::…` into its own children), each taken to the longest known module it starts
/// with.
fn uses(module: &Module, code: &str, known: &BTreeSet<Module>) -> BTreeSet<Module> {
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = code.as_bytes();
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts_path =
            is_ident(bytes[i]) && (i == 0 || !is_ident(bytes[i - 1]) && bytes[i - 1] != b':');
        if !starts_path {
            i += 1;
            continue;
        }
        let segments = path_at(&code[i..]);
        i += segments.iter().map(|s| s.len() + 2).sum::<usize>().max(1);
        let ups = segments.iter().take_while(|s| *s == "super").count();
        let (mut base, skip) = match segments.first().map(String::as_str) {
            Some("crate") => (Vec::new(), 1),
            Some("self") => (module.clone(), 1),
            Some("super") => (module[..module.len().saturating_sub(ups)].to_vec(), ups),
            _ => (module.clone(), 0),
        };
        for name in segments.iter().skip(skip) {
            base.push(name.clone());
            if !known.contains(&base) {
                base.pop();
                break;
            }
        }
        if &base != module && !base.is_empty() {
            out.insert(base);
        }
    }
    out
}

/// The lowercase segments of the path that starts `text` and goes on with `::` (`a::b::C`
/// gives `a`, `b`); empty when no `::` follows the first name.
fn path_at(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let len = rest
            .bytes()
            .take_while(|&b| b.is_ascii_alphanumeric() || b == b'_')
            .count();
        let name = &rest[..len];
        let Some(after) = rest[len..].strip_prefix("::") else {
            break;
        };
        if len == 0 || !name.starts_with(|c: char| c.is_ascii_lowercase()) {
            break;
        }
        out.push(name.to_string());
        rest = after;
    }
    out
}

/// The layer of a module: the first entry of [`LAYERS`] naming it or a module it is in.
fn layer(module: &Module) -> Option<usize> {
    let path = module.join("::");
    LAYERS.iter().position(|names| {
        names
            .iter()
            .any(|n| path == *n || path.starts_with(&format!("{n}::")))
    })
}

/// Who uses whom. A module's use of a module it is inside (`super::Item`, an item its
/// parent defines or re-exports) is left out: that is how Rust reaches a sibling's item
/// through a folder's `mod.rs`, not a circle of layers.
fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let modules = modules();
    let known: BTreeSet<Module> = modules.keys().cloned().collect();
    modules
        .iter()
        .map(|(m, code)| {
            let mut targets = uses(m, code, &known);
            targets.retain(|t| !m.starts_with(t));
            (m.clone(), targets)
        })
        .collect()
}

#[test]
fn no_module_uses_one_above_it() {
    let mut wrong = Vec::new();
    for (module, targets) in graph() {
        let Some(from) = layer(&module) else {
            if !module.is_empty()
                && !matches!(module.as_slice(), [m] if m == "engines" || m == "jobs")
            {
                wrong.push(format!("{} is in no layer of LAYERS", module.join("::")));
            }
            continue;
        };
        for target in targets {
            let to = layer(&target);
            if to.is_none_or(|to| to > from) {
                wrong.push(format!("{} uses {}", module.join("::"), target.join("::")));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

/// Strongly connected components of more than one module (Tarjan).
fn circles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'g Module, (usize, usize)>,
        stack: Vec<&'g Module>,
        on_stack: BTreeSet<&'g Module>,
        out: Vec<Vec<Module>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, v: &'g Module) {
            let n = self.index.len();
            self.index.insert(v, (n, n));
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                let Some((w, _)) = self.graph.get_key_value(w) else {
                    continue;
                };
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.index[w].1.min(self.index[v].1);
                    self.index.get_mut(v).unwrap().1 = low;
                } else if self.on_stack.contains(w) {
                    let low = self.index[w].0.min(self.index[v].1);
                    self.index.get_mut(v).unwrap().1 = low;
                }
            }
            if self.index[v].0 == self.index[v].1 {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.out.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.out
}

#[test]
fn import_circles_stay_inside_one_folder() {
    let mut wrong = Vec::new();
    for circle in circles(&graph()) {
        // The folder every module of the circle is in: a layer's own folder at least.
        let common = circle
            .iter()
            .map(|m| m.len())
            .min()
            .map(|len| {
                (0..len)
                    .take_while(|&i| circle.iter().all(|m| m[i] == circle[0][i]))
                    .count()
            })
            .unwrap_or(0);
        let deep_enough = match circle[0].first().map(String::as_str) {
            Some("engines" | "jobs") => common >= 2,
            _ => common >= 1,
        };
        if !deep_enough {
            let names: Vec<String> = circle.iter().map(|m| m.join("::")).collect();
            wrong.push(names.join(" ↔ "));
        }
    }
    assert!(
        wrong.is_empty(),
        "import circles across folders:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_chains_one_circle_is_dynamic_and_nested() {
    // SE's nested forcing chains of levels 4 and 5 nest dynamic forcing chains, which nest
    // the level below: that recursion is the engine's one import circle.
    let chains = ["engines", "rater", "chains"].map(String::from);
    let inside: Vec<Vec<Module>> = circles(&graph())
        .into_iter()
        .filter(|c| c.iter().any(|m| m.starts_with(&chains)))
        .collect();
    assert_eq!(inside.len(), 1, "circles in the chains: {inside:?}");
    for m in &inside[0] {
        let part = m.get(3).map(String::as_str);
        assert!(
            matches!(part, Some("dynamic" | "nested")),
            "{} is in the chains' circle",
            m.join("::")
        );
    }
}

#[test]
fn the_reader_sees_imports() {
    // The checks above can fail: a made-up module that reaches up is caught.
    let known: BTreeSet<Module> = [
        vec!["io".to_string()],
        vec!["jobs".into()],
        vec!["jobs".into(), "rate".into()],
        vec!["jobs".into(), "rate".into(), "writer".into()],
    ]
    .into_iter()
    .collect();
    let found = uses(&vec!["io".into()], "use crate::jobs::rate::Thing;", &known);
    let target = found.iter().next().expect("an import");
    assert!(layer(target) > layer(&vec!["io".into()]));
    let sup = uses(
        &vec!["jobs".into(), "rate".into(), "writer".into()],
        "use super::super::rate::X;",
        &known,
    );
    assert_eq!(
        sup.into_iter().collect::<Vec<_>>(),
        vec![vec!["jobs".to_string(), "rate".to_string()]]
    );
}
