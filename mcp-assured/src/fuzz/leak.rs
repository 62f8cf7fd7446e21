//! Internals a server should not show its caller: stack traces of Python, Node.js, Java,
//! .NET, Go and Rust, and absolute paths of source files.

use std::sync::LazyLock;

use regex::Regex;

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
            "an absolute source path",
        ),
    ]
    .into_iter()
    .map(|(pattern, what)| (Regex::new(pattern).expect("leak patterns compile"), what))
    .collect()
});

/// What `text` leaks and the line it is on, unless the same text was in `sent` (a tool
/// that echoes its input leaks nothing of its own).
pub(crate) fn find(text: &str, sent: &str) -> Option<(&'static str, String)> {
    LEAKS.iter().find_map(|(pattern, what)| {
        let found = pattern.find(text)?;
        let matched = found.as_str().trim();
        if sent.contains(matched) {
            return None;
        }
        Some((*what, line_of(text, &found)))
    })
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
                find(text, "").map(|(what, _)| what),
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
            assert_eq!(find(text, ""), None, "{text}");
        }
        let echoed = "Traceback (most recent call last)";
        assert_eq!(find(echoed, &format!("{{\"message\":\"{echoed}\"}}")), None);
    }
}
