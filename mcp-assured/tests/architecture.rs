//! The import rule of ARCHITECTURE.md, checked on the source: every module of the crate
//! imports only from modules on a lower floor, by the module that defines what it uses, never
//! through the crate root's re-exports. A change that sends an arrow back up fails here, with
//! the file, the line and the rule it breaks.

use std::{
    fs,
    path::{Path, PathBuf},
};

/// The floors of ARCHITECTURE.md's module table: a module may use those below it.
const FLOORS: &[(&str, u8)] = &[
    ("error", 1),
    ("secret", 1),
    ("schema", 1),
    ("wire_schema", 1),
    ("report", 1),
    ("results", 2),
    ("cassette", 2),
    ("coverage", 2),
    ("credentials", 2),
    ("tls", 2),
    ("decode", 2),
    ("rules", 2),
    ("assert", 3),
    ("transport", 3),
    ("double", 3),
    ("client", 4),
    ("rest", 5),
    ("snapshot", 5),
    ("server_tests", 5),
    ("feature_off", 5),
    ("checks", 6),
    ("diff", 6),
    ("fixture", 6),
    ("fuzz", 7),
    ("lint", 7),
    ("load", 8),
    ("sarif", 8),
    ("html", 9),
];

fn floor(module: &str) -> Option<u8> {
    FLOORS
        .iter()
        .find(|(name, _)| *name == module)
        .map(|(_, floor)| *floor)
}

/// The top module a source file belongs to: `src/client/mod.rs` is `client`.
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap();
    let first = relative.components().next().unwrap().as_os_str();
    first.to_string_lossy().trim_end_matches(".rs").to_owned()
}

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

/// The code of a file, line by line, with comments (doc links included) blanked out.
fn code_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => line[..at].to_owned(),
            None => line.to_owned(),
        })
        .collect()
}

/// Every path the code names after `crate::` (not `$crate::`, which exported macros need),
/// with its line: `crate::{a::B, c}` gives `a::B` and `c`.
fn crate_paths(lines: &[String]) -> Vec<(usize, String)> {
    let code: String = lines.join("\n");
    let mut found = Vec::new();
    let mut rest = code.as_str();
    let mut offset = 0;
    while let Some(at) = rest.find("crate::") {
        let start = offset + at;
        let before = code[..start].chars().next_back();
        offset = start + "crate::".len();
        rest = &code[offset..];
        if before == Some('$') {
            continue;
        }
        let line = code[..start].matches('\n').count() + 1;
        for path in top_items(rest) {
            found.push((line, path));
        }
    }
    found
}

/// The top-level items of what follows `crate::`: one path, or each item of a `{..}` group.
fn top_items(text: &str) -> Vec<String> {
    if let Some(group) = text.strip_prefix('{') {
        let mut items = Vec::new();
        let (mut depth, mut item) = (0, String::new());
        for ch in group.chars() {
            match ch {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(std::mem::take(&mut item));
                    continue;
                }
                _ => {}
            }
            item.push(ch);
        }
        items.push(item);
        items
            .into_iter()
            .map(|item| item.split_whitespace().collect())
            .filter(|item: &String| !item.is_empty())
            .collect()
    } else {
        let end = text
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(text.len());
        vec![text[..end].to_owned()]
    }
}

#[test]
fn every_import_goes_down_a_floor_by_its_defining_module() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = manifest.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut broken = Vec::new();
    for file in &files {
        let module = module_of(&src, file);
        let shown = file.strip_prefix(manifest).unwrap().display();
        if module == "lib" {
            continue; // the facade: it declares and re-exports, it is imported by nobody
        }
        let Some(own) = floor(&module) else {
            broken.push(format!(
                "{shown}: module `{module}` is on no floor of ARCHITECTURE.md (add it there and here)"
            ));
            continue;
        };
        let text = fs::read_to_string(file).unwrap();
        for (line, path) in crate_paths(&code_lines(&text)) {
            let target = path.split("::").next().unwrap_or_default().to_owned();
            let at = format!("{shown}:{line}: `crate::{path}`");
            match floor(&target) {
                _ if target == module => {}
                Some(theirs) if theirs < own => {}
                Some(theirs) => broken.push(format!(
                    "{at}: `{module}` (floor {own}) may not use `{target}` (floor {theirs})"
                )),
                None => broken.push(format!(
                    "{at}: names the crate root's re-export; import it from its module"
                )),
            }
        }
    }
    assert!(broken.is_empty(), "\n{}\n", broken.join("\n"));
}

#[test]
fn the_check_reads_groups_and_skips_macros_and_comments() {
    let lines = code_lines(
        "use crate::{\n    error::{Error, Result},\n    McpClient,\n};\n\
         /// [`x`](crate::Doc)\n$crate::__private::run();\nlet t = crate::client::DEFAULT_TIMEOUT;",
    );
    let paths: Vec<String> = crate_paths(&lines).into_iter().map(|(_, p)| p).collect();
    assert_eq!(
        paths,
        [
            "error::{Error,Result}",
            "McpClient",
            "client::DEFAULT_TIMEOUT"
        ]
    );
}
