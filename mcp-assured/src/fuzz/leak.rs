//! Internals a server should not show its caller: stack traces of Python, Node.js, Java,
//! .NET, Go and Rust, and absolute paths of source files (any under the folders the server
//! was started from, and under the usual system and home folders), but for the paths the
//! caller named itself (in the arguments, or as the client's roots) and what lies under
//! them: a file tool answers those.

use std::sync::LazyLock;

use regex::Regex;

/// What [`LEAKS`] calls a source path.
const SOURCE_PATH: &str = "an absolute source path";

/// What a source path under a folder the server was started from is.
const OWN_SOURCE_PATH: &str = "the server's own source path";

/// The extensions of source files, for [`OWN_SOURCE_PATH`] (as [`LEAKS`] has them).
const SOURCE_EXTENSIONS: [&str; 12] = [
    "py", "js", "mjs", "cjs", "ts", "java", "kt", "go", "rs", "rb", "php", "cs",
];

/// Each pattern and the words that name what it found.
static LEAKS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        (r"Traceback \(most recent call last\)", "a Python traceback"),
        (r#"File "[^"\n]+", line \d+, in "#, "a Python stack frame"),
        (
            r"(?m)^\s*at .*\(?(?:file://)?(?:/|[A-Za-z]:\\|node:)[^()\s]*:\d+:\d+\)?\s*$",
            "a Node.js stack frame",
        ),
        (
            r"(?m)^\s*at [\w$.<>]+\([\w$]+\.(?:java|kt|scala):\d+\)",
            "a JVM stack frame",
        ),
        (r#"Exception in thread ""#, "a JVM stack trace"),
        (r"(?m)^\s*at [\w.`<>]+\(.*\) in .+:line \d+", "a .NET stack frame"),
        (r"goroutine \d+ \[[a-z ]+\]:", "a Go goroutine dump"),
        (r"panicked at [^\n]+:\d+:\d+", "a Rust panic"),
        (r"stack backtrace:\n\s+0:", "a Rust backtrace"),
        (
            r#"(?:^|[\s"'(=])(?:/(?:home|Users|usr|opt|var|srv|app|root|tmp|workspace|src)/|[A-Za-z]:\\)[^\s"'<>()]*\.(?:py|js|mjs|cjs|ts|java|kt|go|rs|rb|php|cs)\b"#,
            SOURCE_PATH,
        ),
    ]
    .into_iter()
    .map(|(pattern, what)| (Regex::new(pattern).expect("leak patterns compile"), what))
    .collect()
});

/// What the leak oracle knows of a call besides its answer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Known<'a> {
    /// Every string the input carried: an answer may echo them.
    pub(crate) sent: &'a str,
    /// The absolute paths the caller gave (arguments, roots): what lies under them is what
    /// a file tool answers.
    pub(crate) named: &'a [String],
    /// The folders the server was started from: a source file under one is its own.
    pub(crate) own: &'a OwnFolders,
}

/// The folders a server runs from (its program's, its script's), each as the pattern of a
/// source file under it.
#[derive(Debug, Default)]
pub(crate) struct OwnFolders(Vec<Regex>);

impl OwnFolders {
    /// The folders of a server started as `command` (its program, then its arguments): that
    /// of each part that is a file, made absolute.
    pub(crate) fn of_command(command: &[String]) -> OwnFolders {
        let mut folders: Vec<String> = command
            .iter()
            .filter_map(|part| {
                let path = std::fs::canonicalize(part).ok()?;
                path.is_file()
                    .then(|| path.parent().map(|dir| dir.display().to_string()))
                    .flatten()
            })
            .collect();
        folders.sort();
        folders.dedup();
        OwnFolders::new(folders)
    }

    fn new(folders: impl IntoIterator<Item = String>) -> OwnFolders {
        let patterns = folders
            .into_iter()
            .map(|dir| dir.trim_end_matches(['/', '\\']).to_owned())
            .filter(|dir| !dir.is_empty())
            .map(|dir| {
                Regex::new(&format!(
                    r#"{}[/\\][^\s"'<>()]*\.(?:{})\b"#,
                    regex::escape(&dir),
                    SOURCE_EXTENSIONS.join("|")
                ))
                .expect("an escaped folder makes a pattern")
            })
            .collect();
        OwnFolders(patterns)
    }
}

/// What `text` leaks and the line it is on, unless the same text was in `known.sent` (a
/// tool that echoes its input leaks nothing of its own), or, for a source path, it is one of
/// `known.named` or under one.
pub(crate) fn find(text: &str, known: Known<'_>) -> Option<(&'static str, String)> {
    let excused = |matched: &str, path: &str| {
        known.sent.contains(matched) || known.named.iter().any(|named| is_under(path, named))
    };
    let patterns = LEAKS.iter().find_map(|(pattern, what)| {
        pattern.find_iter(text).find_map(|found| {
            let matched = found.as_str().trim();
            let path = matched.trim_start_matches(['"', '\'', '(', '=']);
            let excused = if *what == SOURCE_PATH {
                excused(matched, path)
            } else {
                known.sent.contains(matched)
            };
            (!excused).then(|| (*what, line_of(text, &found)))
        })
    });
    patterns.or_else(|| {
        known.own.0.iter().find_map(|pattern| {
            pattern
                .find_iter(text)
                .find(|found| !excused(found.as_str(), found.as_str()))
                .map(|found| (OWN_SOURCE_PATH, line_of(text, &found)))
        })
    })
}

/// Whether `path` is `dir` or lies under it.
fn is_under(path: &str, dir: &str) -> bool {
    let dir = dir.trim_end_matches(['/', '\\']);
    !dir.is_empty()
        && path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '\\']))
}

/// The absolute paths among `strings` (a `file://` URI as its path): what a caller names
/// when it points a tool at files.
pub(crate) fn absolute_paths<'a>(strings: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    strings
        .into_iter()
        .filter_map(|text| {
            let text = text.trim();
            let path = match text.strip_prefix("file://") {
                Some(rest) => percent_encoding::percent_decode_str(rest)
                    .decode_utf8()
                    .ok()?
                    .into_owned(),
                None => text.to_owned(),
            };
            let windows = path.len() > 2 && path.as_bytes()[1] == b':';
            (path.starts_with('/') || windows).then_some(path)
        })
        .collect()
}

/// The line of `text` that `found` is on, trimmed, at most 200 characters.
pub(super) fn line_of(text: &str, found: &regex::Match<'_>) -> String {
    let line_start = text[..found.start()].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[found.end()..]
        .find('\n')
        .map_or(text.len(), |i| found.end() + i);
    text[line_start..line_end]
        .trim()
        .chars()
        .take(200)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_stack_traces_of_each_runtime() {
        let cases = [
            (
                "Traceback (most recent call last):\n  File \"/srv/app.py\", line 3, in f",
                "a Python traceback",
            ),
            (
                "TypeError: x is undefined\n    at convert (/home/me/server/index.js:12:7)",
                "a Node.js stack frame",
            ),
            (
                "    at node:internal/main/run_main_module:28:49",
                "a Node.js stack frame",
            ),
            (
                "java.lang.NullPointerException\n\tat com.acme.Tools.run(Tools.java:42)",
                "a JVM stack frame",
            ),
            (
                "   at Acme.Tools.Run() in C:\\src\\Tools.cs:line 42",
                "a .NET stack frame",
            ),
            (
                "panic: boom\n\ngoroutine 1 [running]:\nmain.main()",
                "a Go goroutine dump",
            ),
            (
                "thread 'main' panicked at src/main.rs:3:5:\nboom",
                "a Rust panic",
            ),
            (
                "failed to open /home/ci/app/handlers.py",
                "an absolute source path",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(
                find(text, nothing()).map(|(what, _)| what),
                Some(expected),
                "{text}"
            );
        }
    }

    #[test]
    fn plain_answers_and_echoed_input_leak_nothing() {
        for text in [
            "Hello, world",
            "division by zero",
            "at 10:30 the file /tmp/notes.txt was saved",
            "https://example.com/app.js",
            "Error: unit must be one of celsius, fahrenheit",
        ] {
            assert_eq!(find(text, nothing()), None, "{text}");
        }
        let echoed = "Traceback (most recent call last)";
        let sent = format!("{{\"message\":\"{echoed}\"}}");
        let known = Known {
            sent: &sent,
            ..nothing()
        };
        assert_eq!(find(echoed, known), None);
    }

    static NO_FOLDERS: OwnFolders = OwnFolders(Vec::new());

    fn nothing() -> Known<'static> {
        Known {
            sent: "",
            named: &[],
            own: &NO_FOLDERS,
        }
    }

    #[test]
    fn a_source_file_beside_the_servers_script_is_its_own_wherever_it_lives() {
        let own = OwnFolders::new(["/work/build/server/".to_owned()]);
        let known = Known {
            own: &own,
            ..nothing()
        };
        assert_eq!(
            find(
                "cannot load settings from /work/build/server/settings.py",
                known
            ),
            Some((
                OWN_SOURCE_PATH,
                "cannot load settings from /work/build/server/settings.py".to_owned()
            ))
        );
        assert_eq!(find("wrote /work/build/server/out.txt", known), None);
        assert_eq!(find("see /work/build/serverless/x.py", known), None);
        let named = ["/work/build/server/fixtures".to_owned()];
        let asked = Known {
            named: &named,
            ..known
        };
        assert_eq!(find("/work/build/server/fixtures/a.py", asked), None);
    }

    #[test]
    fn the_folders_of_a_command_are_those_of_its_files() {
        let script = std::env::temp_dir().join("mcp-assured-leak-folders.py");
        std::fs::write(&script, "").unwrap();
        let folders = OwnFolders::of_command(&[
            "no-such-program".to_owned(),
            script.display().to_string(),
            "--flag".to_owned(),
        ]);
        let beside = std::fs::canonicalize(std::env::temp_dir())
            .unwrap()
            .join("config.py");
        let known = Known {
            own: &folders,
            ..nothing()
        };
        assert_eq!(folders.0.len(), 1);
        assert!(find(&format!("failed in {}", beside.display()), known).is_some());
    }

    #[test]
    fn paths_the_caller_named_and_what_lies_under_them_are_no_leak() {
        let named = absolute_paths([
            "/srv/project",
            "file:///home/me/code",
            "file:///home/me/My%20Code",
            "notes",
        ]);
        assert_eq!(named, ["/srv/project", "/home/me/code", "/home/me/My Code"]);
        let known = Known {
            named: &named,
            ..nothing()
        };
        for answer in [
            "found /srv/project/src/app.py",
            "/srv/project/lib/util.js: 3 matches",
            "see \"/home/me/code/main.rs\"",
        ] {
            assert_eq!(find(answer, known), None, "{answer}");
        }
        // A sibling that only shares the prefix, and the server's own file beside it, are.
        for answer in [
            "failed in /srv/project-server/handlers.py",
            "found /srv/project/app.py, but /usr/lib/server/main.py failed",
        ] {
            assert_eq!(
                find(answer, known).map(|(what, _)| what),
                Some(SOURCE_PATH),
                "{answer}"
            );
        }
        // A traceback is a leak wherever its frames point.
        let traceback =
            "Traceback (most recent call last):\n  File \"/srv/project/a.py\", line 1, in f";
        assert!(find(traceback, known).is_some());
    }
}
