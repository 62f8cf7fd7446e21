//! The regression file: each input that once found a bug, replayed before anything new is
//! generated, so a bug fixed once stays fixed. One line per finding, readable and diffable:
//!
//! ```text
//! # mcp-assured fuzz regressions ...
//! tool "greet" crash {"name":""}
//! ```
//!
//! `<subject> <name as a JSON string> <kind> <arguments as JSON>`. Commit the file with the
//! tests.

use std::{
    fs,
    io::{self, Write},
    path::Path,
};

use serde_json::Value;

use super::subject::SubjectKind;
use crate::report::{Finding, FindingKind, finding::compact};

const HEADER: &str = "\
# mcp-assured fuzz regressions: inputs that once found a bug, replayed before new cases.
# One per line: <tool|template|prompt> <name as a JSON string> <kind> <arguments as JSON>.
# Commit this file with your tests; delete a line once its bug is fixed and stays fixed.
";

/// One past finding to replay.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Regression {
    pub(crate) subject: SubjectKind,
    pub(crate) name: String,
    pub(crate) kind: FindingKind,
    pub(crate) arguments: Value,
}

impl Regression {
    fn line(&self) -> String {
        format!(
            "{} {} {} {}",
            self.subject.as_str(),
            compact(&Value::String(self.name.clone())),
            self.kind,
            compact(&self.arguments)
        )
    }

    pub(crate) fn of(finding: &Finding) -> Option<Regression> {
        Some(Regression {
            subject: SubjectKind::parse(&finding.subject)?,
            name: finding.name.clone(),
            kind: finding.kind,
            arguments: finding.arguments.clone(),
        })
    }
}

/// The regressions in the file at `path`; none when it does not exist. A line that cannot be
/// read is an error naming it.
pub(crate) fn load(path: &Path) -> Result<Vec<Regression>, String> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(format!("could not read {}: {error}", path.display())),
    };
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(index, line)| {
            parse(line).ok_or_else(|| {
                format!(
                    "{}:{}: expected `<tool|template|prompt> <\"name\"> <kind> <JSON>`, got: {line}",
                    path.display(),
                    index + 1
                )
            })
        })
        .collect()
}

fn parse(line: &str) -> Option<Regression> {
    let (subject, rest) = line.split_once(' ')?;
    let subject = SubjectKind::parse(subject)?;
    // The name is a JSON string, so it may hold spaces.
    let mut values = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
    let name = values.next()?.ok()?.as_str()?.to_owned();
    let rest = rest[values.byte_offset()..].trim_start();
    let (kind, arguments) = rest.split_once(' ')?;
    let kind = FindingKind::parse(kind)?;
    let arguments = serde_json::from_str(arguments).ok()?;
    Some(Regression {
        subject,
        name,
        kind,
        arguments,
    })
}

/// Appends the regressions not already in the file at `path`, creating it (and its
/// folder) with a header when needed.
pub(crate) fn save(path: &Path, new: &[Regression]) -> Result<(), String> {
    let known = load(path)?;
    let fresh: Vec<&Regression> = new
        .iter()
        .filter(|regression| {
            !known.iter().any(|old| {
                old.subject == regression.subject
                    && old.name == regression.name
                    && old.kind == regression.kind
                    && old.arguments == regression.arguments
            })
        })
        .collect();
    if fresh.is_empty() {
        return Ok(());
    }
    let failed = |error: io::Error| format!("could not write {}: {error}", path.display());
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(failed)?;
    }
    let exists = path.exists();
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(failed)?;
    let mut text = String::new();
    if !exists {
        text.push_str(HEADER);
    }
    for regression in fresh {
        text.push_str(&regression.line());
        text.push('\n');
    }
    file.write_all(text.as_bytes()).map_err(failed)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn saved_regressions_load_back_once_each() {
        let dir =
            std::env::temp_dir().join(format!("mcp-assured-regressions-{}", std::process::id()));
        let path = dir.join("nested/server.txt");
        let crash = Regression {
            subject: SubjectKind::Tool,
            name: "greet".into(),
            kind: FindingKind::Crash,
            arguments: json!({"name": ""}),
        };
        let accepted = Regression {
            subject: SubjectKind::Prompt,
            name: "a summary".into(),
            kind: FindingKind::AcceptedInvalid,
            arguments: json!({"text": "a b"}),
        };
        save(&path, std::slice::from_ref(&crash)).unwrap();
        save(&path, &[crash.clone(), accepted.clone()]).unwrap();
        assert_eq!(load(&path).unwrap(), [crash, accepted]);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# mcp-assured fuzz regressions"));
        assert!(text.contains("tool \"greet\" crash {\"name\":\"\"}\n"));
        assert!(text.contains("prompt \"a summary\" accepted_invalid {"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_file_has_none_and_a_bad_line_is_named() {
        assert!(
            load(Path::new("/nonexistent/regressions.txt"))
                .unwrap()
                .is_empty()
        );
        let path = std::env::temp_dir().join(format!("mcp-assured-bad-{}.txt", std::process::id()));
        fs::write(&path, "# header\ntool \"greet\" crash not-json\n").unwrap();
        let error = load(&path).unwrap_err();
        assert!(error.contains(":2: expected"), "{error}");
        fs::remove_file(&path).unwrap();
    }
}
