//! The folders of `src/` are the stages of the data path, and arrows only run down it: a
//! folder's code (tests aside) names only the folders before it in [`LAYERS`]. So the tree
//! shows the architecture, and an import circle between folders cannot come back.

use std::path::Path;

/// From the bottom up; ARCHITECTURE.md draws the same order.
const LAYERS: [&str; 13] = [
    "model", "text", "records", "sample", "render", "events", "modules", "config", "sensors",
    "sinks", "app", "ui", "cli",
];

/// The folders of `crate::NAME` paths in `code`.
fn named_folders(code: &str) -> impl Iterator<Item = &str> {
    code.match_indices("crate::").filter_map(|(at, _)| {
        let rest = &code[at + "crate::".len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c == '_'))
            .unwrap_or(rest.len());
        Some(&rest[..end]).filter(|name| LAYERS.contains(name))
    })
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source tree") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Test code may reach up (a module's test parses a config); what ships may not.
fn is_test_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name == "tests.rs"
        || name.ends_with("_tests.rs")
        || name == "fixtures.rs"
        || name == "machines.rs"
        || path.components().any(|c| c.as_os_str() == "tests")
}

#[test]
fn arrows_run_only_down_the_data_path() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut upward = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        let Some(folder) = relative.iter().next().and_then(|f| f.to_str()) else {
            continue;
        };
        let Some(rank) = LAYERS.iter().position(|l| *l == folder) else {
            continue;
        };
        if is_test_file(file) {
            continue;
        }
        let code = std::fs::read_to_string(file).expect("UTF-8 source");
        // The unit tests at the end of a file.
        let shipped = code.split("#[cfg(test)]").next().unwrap_or("");
        for named in named_folders(shipped) {
            let named_rank = LAYERS.iter().position(|l| *l == named).expect("a layer");
            if named_rank > rank {
                upward.push(format!("{} names crate::{named}", relative.display()));
            }
        }
    }
    assert!(
        files.len() > 100,
        "the source tree was found ({} files)",
        files.len()
    );
    assert_eq!(upward, Vec::<String>::new(), "arrows up the data path");
    for layer in LAYERS {
        assert!(src.join(layer).is_dir(), "src/{layer} is a folder");
    }
}

/// The sibling modules `code` names through `super::` (`super::report::write`, the `b`
/// of `use super::{a, b::c}`), by the names in `siblings`.
fn sibling_references<'a>(code: &str, siblings: &'a [String]) -> Vec<&'a str> {
    let mut named = Vec::new();
    for (at, _) in code.match_indices("super::") {
        let rest = &code[at + "super::".len()..];
        let paths: Vec<&str> = match rest.strip_prefix('{') {
            Some(list) => {
                let end = list.find('}').unwrap_or(list.len());
                list[..end].split(',').collect()
            }
            None => vec![rest],
        };
        for path in paths {
            let path = path.trim_start();
            let end = path
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(path.len());
            let name = &path[..end];
            // A module, not an item of the parent: followed by `::` or alone in a list.
            if let Some(sibling) = siblings.iter().find(|s| *s == name) {
                named.push(sibling.as_str());
            }
        }
    }
    named
}

#[test]
fn no_two_files_of_a_folder_name_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut circles = Vec::new();
    let mut dirs: Vec<&Path> = files.iter().filter_map(|f| f.parent()).collect();
    dirs.sort();
    dirs.dedup();
    for dir in dirs {
        // The folder's modules other than its root: files, and folders with a mod.rs.
        let mut siblings: Vec<String> = Vec::new();
        for entry in std::fs::read_dir(dir).expect("a folder").flatten() {
            let path = entry.path();
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let module =
                path.extension().is_some_and(|e| e == "rs") || path.join("mod.rs").is_file();
            if module && stem != "mod" && stem != "lib" && stem != "main" {
                siblings.push(stem.to_owned());
            }
        }
        let mut edges: Vec<(String, String)> = Vec::new();
        for name in &siblings {
            let file = dir.join(format!("{name}.rs"));
            if !file.is_file() || is_test_file(&file) {
                continue;
            }
            let code = std::fs::read_to_string(&file).expect("UTF-8 source");
            let shipped = code.split("#[cfg(test)]").next().unwrap_or("");
            // Comments name modules too (doc links), without importing them.
            let code: String = shipped
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            for named in sibling_references(&code, &siblings) {
                if named != name {
                    edges.push((name.clone(), named.to_owned()));
                }
            }
        }
        for (a, b) in &edges {
            if a < b && edges.contains(&(b.clone(), a.clone())) {
                let folder = dir.strip_prefix(&src).unwrap_or(dir).display();
                circles.push(format!("{folder}: {a}.rs <-> {b}.rs"));
            }
        }
    }
    assert_eq!(
        circles,
        Vec::<String>::new(),
        "files that import each other"
    );
}
