//! The layering rules (README, "Layering"), kept as a test: what each
//! crate may depend on and import, and the engine's modules in one order,
//! each importing only modules before it (so no cycle, no backward
//! import).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The engine's modules, lowest first: a module may use only modules
/// before it.
const ENGINE_ORDER: &[&str] = &[
    "error", "input", "cancel", "kept", "dist", "dice", "keywords", "unit", "attack", "policy",
    "report", "files", "scenario", "plan", "battle", "params", "table", "sample", "verify",
    "words", "request",
];

/// The engine's dependencies: numeric crates and serde, nothing else
/// (itoa is serde_json's own integer formatting).
const ENGINE_DEPENDENCIES: &[&str] = &[
    "itoa",
    "ndarray",
    "num-bigint",
    "num-integer",
    "num-rational",
    "num-traits",
    "serde",
    "serde_json",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A source file without its comments (line comments and doc comments:
/// doc examples may name other crates).
fn code(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names under `[dependencies]` of a manifest.
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let text = std::fs::read_to_string(format!("{ROOT}/{manifest}")).unwrap();
    let mut out = BTreeSet::new();
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside && let Some((name, _)) = line.split_once('=') {
            out.insert(name.trim().to_string());
        }
    }
    out
}

#[test]
fn each_crate_depends_only_on_what_its_layer_may() {
    let engine = dependencies("crates/swtcg-engine/Cargo.toml");
    let allowed: BTreeSet<String> = ENGINE_DEPENDENCIES.iter().map(|s| s.to_string()).collect();
    assert!(
        engine.is_subset(&allowed),
        "the engine depends on {:?}",
        engine.difference(&allowed).collect::<Vec<_>>()
    );
    let cards = dependencies("crates/swtcg-cards/Cargo.toml");
    assert!(cards.contains("swtcg-engine"));
    assert!(
        !cards.contains("swtcg-odds"),
        "the cards crate depends on the front-ends"
    );
    // Sources: the engine names no other crate of ours; the cards crate
    // names no front-end.
    for (dir, banned) in [
        (
            "crates/swtcg-engine/src",
            &["swtcg_cards", "swtcg_odds", "swtcg_py"][..],
        ),
        ("crates/swtcg-cards/src", &["swtcg_odds", "swtcg_py"][..]),
    ] {
        let mut files = Vec::new();
        rust_files(&Path::new(ROOT).join(dir), &mut files);
        assert!(!files.is_empty());
        for f in files {
            let text = code(&f);
            for b in banned {
                assert!(!text.contains(b), "{} names {b}", f.display());
            }
        }
    }
}

/// A crate imports another crate of ours by that crate's name and never
/// re-exports it as its own (`pub use swtcg_engine::…`, or a crate-wide
/// alias such as `pub(crate) use swtcg_engine::{attack, dist}`): each item
/// has one path.
#[test]
fn no_crate_reexports_another_of_ours() {
    let mut files = Vec::new();
    for dir in ["crates/swtcg-cards/src", "src", "python/src"] {
        rust_files(&Path::new(ROOT).join(dir), &mut files);
    }
    assert!(files.len() > 10);
    let mut found = Vec::new();
    for f in &files {
        let text = code(f);
        // A `use` statement, joined over its lines.
        for stmt in text.split(';') {
            let s = stmt.split_whitespace().collect::<Vec<_>>().join(" ");
            let Some(at) = s.find("use swtcg_") else {
                continue;
            };
            let head = s[..at].trim_end();
            if head.ends_with("pub") || head.ends_with("pub(crate)") {
                found.push(format!("{}: {}", f.display(), &s[at..]));
            }
        }
    }
    assert!(found.is_empty(), "re-exports: {found:#?}");
}

#[test]
fn the_engines_modules_import_only_lower_ones() {
    let src = Path::new(ROOT).join("crates/swtcg-engine/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let rank = |m: &str| ENGINE_ORDER.iter().position(|x| *x == m);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let module = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if module == "lib" {
            continue;
        }
        assert!(
            rank(&module).is_some(),
            "module {module} is not in ENGINE_ORDER"
        );
        let text = code(f);
        let mut rest = text.as_str();
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name != module && rank(&name).is_some() {
                edges.entry(module.clone()).or_default().insert(name);
            }
        }
        // `use crate::{a, b::C}` groups.
        if let Some(at) = text.find("use crate::{") {
            let group = &text[at + "use crate::{".len()..];
            let group = &group[..group.find("};").unwrap_or(0)];
            for part in group.split(',') {
                let name = part.trim().split("::").next().unwrap_or("").trim();
                if name != module && rank(name).is_some() {
                    edges
                        .entry(module.clone())
                        .or_default()
                        .insert(name.to_string());
                }
            }
        }
    }
    assert!(edges.len() > 10, "{edges:?}");
    for (from, to) in &edges {
        for t in to {
            assert!(
                rank(t) < rank(from),
                "engine module {from} imports {t}, which comes after it (a backward import or a cycle)"
            );
        }
    }
}

/// The engine's public face, drawn: every public item (functions, types,
/// constants, modules, methods of public impls), listed by module in
/// `tests/snapshots/engine-public.txt`, so that a change of the face is a
/// reviewed diff (`UPDATE_EXPECT=1 cargo test --test it layering`). The
/// README gives the count.
#[test]
fn the_engines_public_face_is_drawn() {
    let src = Path::new(ROOT).join("crates/swtcg-engine/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let kinds = [
        "fn", "struct", "enum", "const", "type", "trait", "mod", "static",
    ];
    let mut items = Vec::new();
    let mut fields = 0;
    // Whether a file's module is public all the way up: each parent
    // declares it `pub mod name;`.
    let public = |f: &Path| -> bool {
        let rel = f.strip_prefix(&src).unwrap().with_extension("");
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .filter(|c| c != "mod")
            .collect();
        (0..parts.len()).all(|i| {
            let parent = if i == 0 {
                src.join("lib.rs")
            } else {
                let dir = src.join(parts[..i].join("/"));
                let as_mod = dir.join("mod.rs");
                if as_mod.exists() {
                    as_mod
                } else {
                    dir.with_extension("rs")
                }
            };
            parts[i] == "lib"
                || code(&parent)
                    .lines()
                    .any(|l| l.trim() == format!("pub mod {};", parts[i]))
        })
    };
    // The names a private module's parent re-exports from it (`mod x;` and
    // `pub use x::{A, B};` in a public module): those items, and their
    // methods, are the parent's face.
    let reexported = |f: &Path| -> Option<(PathBuf, Vec<String>)> {
        let name = f.file_stem()?.to_string_lossy().into_owned();
        let dir = f.parent()?;
        let parent = [dir.join("mod.rs"), dir.with_extension("rs")]
            .into_iter()
            .find(|p| p.exists() && p != f)?;
        let text = code(&parent);
        // Every `pub use name::…;` of the parent, however many there are.
        let head = format!("pub use {name}::");
        let names: Vec<String> = text
            .match_indices(&head)
            .filter_map(|(start, _)| {
                let list = &text[start + head.len()..];
                Some(&list[..list.find(';')?])
            })
            .flat_map(|list| list.split(|c: char| !(c.is_alphanumeric() || c == '_')))
            .filter(|w| !w.is_empty())
            .map(String::from)
            .collect();
        (!names.is_empty()).then_some((parent, names))
    };
    let module_of = |f: &Path| -> String {
        f.strip_prefix(&src)
            .unwrap()
            .with_extension("")
            .to_string_lossy()
            .replace('/', "::")
            .trim_end_matches("::mod")
            .to_string()
    };
    // The names a public module re-exports by a path from the crate's root
    // (`pub use crate::dice::Roll;`, `pub use crate::a::{B, C};`): by the
    // file that declares them, with the re-exporting module's path.
    let mut from_root: Vec<(PathBuf, String, Vec<String>)> = Vec::new();
    for f in files.iter().filter(|f| public(f)) {
        let text = code(f);
        for (start, _) in text.match_indices("pub use crate::") {
            let rest = &text[start + "pub use crate::".len()..];
            let Some(end) = rest.find(';') else { continue };
            let stmt = rest[..end].split_whitespace().collect::<String>();
            let (path, names): (&str, Vec<String>) = match stmt.split_once("::{") {
                Some((path, list)) => (
                    path,
                    list.trim_end_matches('}')
                        .split(',')
                        .filter(|n| !n.is_empty())
                        .map(String::from)
                        .collect(),
                ),
                None => match stmt.rsplit_once("::") {
                    Some((path, name)) => (path, vec![name.to_string()]),
                    None => continue,
                },
            };
            let base = src.join(path.replace("::", "/"));
            let Some(file) = [base.with_extension("rs"), base.join("mod.rs")]
                .into_iter()
                .find(|p| p.exists())
            else {
                panic!("{}: `pub use crate::{stmt}` names no file", f.display());
            };
            from_root.push((file, module_of(f), names));
        }
    }
    for f in &files {
        let (only, module) = match reexported(f) {
            // A re-exported module's items are named by its parent's path.
            Some((parent, names)) if public(&parent) => {
                let module = module_of(f);
                let module = module
                    .rsplit_once("::")
                    .map_or(module.clone(), |(p, _)| p.to_string());
                (Some(names), module)
            }
            _ if public(f) => (None, module_of(f)),
            _ => match from_root.iter().find(|(file, _, _)| file == f) {
                Some((_, module, names)) => (Some(names.clone()), module.clone()),
                None => continue,
            },
        };
        let in_face = |name: &str, owner: &str| {
            only.as_ref()
                .is_none_or(|n| n.iter().any(|x| x == name || x == owner))
        };
        let mut owner = String::new();
        // The indentation of a macro's `impl` line, while in its block.
        let mut owner_indent: Option<usize> = None;
        let mut in_test = false;
        // An inline module: `Some(prefix)` when public, `None` when not
        // (its items are not the engine's face).
        let mut inline: Option<Option<String>> = None;
        // `#[cfg(test)]` on the line before: the item it marks is a test's.
        let mut test_attr = false;
        // A public struct whose fields are being read: its indentation.
        let mut open_struct: Option<usize> = None;
        for line in code(f).lines() {
            // A test module ends the file's face; a single test-only item
            // (a helper of the tests) is skipped, not the rest of the file.
            if line.starts_with("mod tests") || test_attr && line.starts_with("mod ") {
                in_test = true;
            }
            if in_test {
                continue;
            }
            let marked = std::mem::replace(&mut test_attr, line.starts_with("#[cfg(test)]"));
            if test_attr || marked && !line.starts_with(' ') {
                continue;
            }
            if line.starts_with('}') {
                inline = None;
            }
            if line.ends_with('{')
                && (line.starts_with("mod ") || line.starts_with("pub("))
                && line.contains(" mod ")
                || line.starts_with("mod ") && line.ends_with('{')
            {
                inline = Some(None);
                continue;
            }
            if let Some(name) = line
                .strip_prefix("pub mod ")
                .and_then(|r| r.strip_suffix(" {"))
            {
                items.push(format!("{module}::{name} (mod)"));
                inline = Some(Some(name.to_string()));
                continue;
            }
            if let Some(inner) = &inline {
                let Some(prefix) = inner else { continue };
                if let Some(rest) = line.trim_start().strip_prefix("pub ") {
                    let mut words = rest.split(|c: char| !(c.is_alphanumeric() || c == '_'));
                    if let (Some(kind), Some(name)) = (words.next(), words.find(|w| !w.is_empty()))
                        && kinds.contains(&kind)
                    {
                        items.push(format!("{module}::{prefix}::{name} ({kind})"));
                    }
                }
                continue;
            }
            // An `impl` inside a macro's body (indented) opens its type's
            // block as a top-level one does; its closing brace, at the same
            // indentation, ends it.
            let indent = line.len() - line.trim_start().len();
            if owner_indent.is_some_and(|i| i == indent && line.trim_start().starts_with('}')) {
                owner.clear();
                owner_indent = None;
                continue;
            }
            if let Some(rest) = line.trim_start().strip_prefix("impl")
                && (indent == 0 || rest.starts_with([' ', '<']))
            {
                owner_indent = (indent > 0).then_some(indent);
                // `impl<T: Bound> Name<T> {` / `impl Trait for Name {`: its
                // type, after the generic parameters (which may nest).
                let mut depth = 0;
                let skip = rest
                    .char_indices()
                    .find(|&(_, c)| {
                        match c {
                            '<' => depth += 1,
                            '>' => depth -= 1,
                            _ => {}
                        }
                        depth == 0 && c == ' '
                    })
                    .map_or(rest.len(), |(i, _)| i);
                let rest = rest[skip..].trim();
                let ty = rest.rsplit(" for ").next().unwrap_or(rest);
                owner = ty.split(['<', ' ', '{']).next().unwrap_or("").to_string();
            } else if !line.starts_with(' ') && !line.is_empty() && !line.starts_with('}') {
                owner.clear();
                owner_indent = None;
            }
            let t = line.trim_start();
            // A public struct's public fields (`pub name: Type,`), counted
            // beside the items: they are its face too.
            if let Some(at) = open_struct
                && indent == at
                && t.starts_with('}')
            {
                open_struct = None;
            }
            if let Some(name) = t
                .strip_prefix("pub struct ")
                .and_then(|r| r.strip_suffix(" {"))
            {
                let name = name.split('<').next().unwrap_or(name);
                open_struct = in_face(name, "").then_some(indent);
            } else if let Some(at) = open_struct
                && indent > at
                && t.strip_prefix("pub ").is_some_and(|r| {
                    r.split_once(':').is_some_and(|(n, _)| {
                        !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_')
                    })
                })
            {
                fields += 1;
                continue;
            }
            let Some(rest) = t.strip_prefix("pub ") else {
                continue;
            };
            let rest = rest
                .trim_start_matches("unsafe ")
                .trim_start_matches("const fn")
                .trim();
            let mut words = rest.split(|c: char| !(c.is_alphanumeric() || c == '_'));
            let (Some(kind), Some(name)) = (words.next(), words.find(|w| !w.is_empty())) else {
                continue;
            };
            let kind = if rest.starts_with("const fn") {
                "fn"
            } else {
                kind
            };
            if !kinds.contains(&kind) {
                continue;
            }
            let method = indent > owner_indent.unwrap_or(0) && !owner.is_empty();
            if !in_face(name, if method { &owner } else { "" }) {
                continue;
            }
            items.push(if method {
                format!("{module}::{owner}::{name} ({kind})")
            } else {
                format!("{module}::{name} ({kind})")
            });
        }
    }
    assert!(items.len() > 50, "{} items", items.len());
    // Methods (and associated items) are named by their type: `module::Type::name`.
    let methods = items
        .iter()
        .filter(|i| i.matches("::").count() == 2)
        .count();
    let text = format!(
        "{} public items: {} items and {methods} methods of them; \
         {fields} public fields of public structs\n{}\n",
        items.len(),
        items.len() - methods,
        items.join("\n")
    );
    crate::snapshots::assert_snapshot("engine-public.txt", &text);
}
