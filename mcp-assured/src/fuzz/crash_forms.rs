//! A crash answered as a tool error: how the high-level SDKs turn an exception in a tool
//! into an `isError` result, so that a server written on them never drops the connection or
//! answers with a JSON-RPC error when it crashes. On valid input such an answer is a
//! finding ([`FindingKind::CrashAsToolError`](crate::report::FindingKind)); a deliberate
//! tool error (a plain message, Python's `ToolError`) is not.
//!
//! The text of an `isError` result is a crash when it is one of these forms, seen in the
//! SDKs named:
//!
//! | form (the whole text, or a line of it) | SDK, version seen in |
//! | --- | --- |
//! | `Error executing tool <name>` and nothing after the name (or only the same of a nested tool) | Python `mcp` 2.3 `MCPServer` (a deliberate `ToolError` is `Error executing tool <name>: <text>`) |
//! | `Error calling tool '<name>'`, alone or followed by `: <exception>` | FastMCP 4.2 (`fastmcp`; a deliberate `ToolError` keeps its own text) |
//! | a JavaScript runtime error: `TypeError: …`, `ReferenceError: …`, `RangeError: …`, `Cannot read properties of undefined (reading 'x')`, `… is not a function`, `… is not iterable`, `Maximum call stack size exceeded` | TypeScript SDK 1.32 `McpServer` (the exception's message, nothing on stderr) |
//! | a Python runtime error's message: `list index out of range`, `'NoneType' object has no attribute …`, `unsupported operand type(s) …`, `KeyError: …`, `maximum recursion depth exceeded` | Python `mcp` 1.x `FastMCP` (`Error executing tool <name>: <message>` for any exception) and servers that pass the message on |
//! | a JVM exception: `java.lang.…Exception`, `NullPointerException`, `…IndexOutOfBoundsException`, `ClassCastException`, `ArithmeticException` | Java SDK servers that pass the exception on |
//! | a .NET exception: `System.NullReferenceException`, `Object reference not set to an instance of an object`, `Index was outside the bounds of the array` | C# SDK servers that pass the exception on |
//! | a Go runtime error: `runtime error: …`, `invalid memory address or nil pointer dereference`, `panic: …` | Go SDK servers that recover and pass the panic on |
//! | a Rust panic: `panicked at …`, ``called `Option::unwrap()` on a `None` value`` | rmcp servers that catch the panic and pass it on |
//!
//! And whatever its text, the call is a crash when the server wrote a stack trace to its
//! stderr while it ran (a Python traceback, Node.js, JVM or .NET stack frames, a Go goroutine
//! dump, a Rust panic): Python `MCPServer` logs "Tool 'x' raised an unexpected exception"
//! with the traceback, FastMCP "Error calling tool 'x'" with it.

use std::sync::LazyLock;

use regex::Regex;

/// The forms of a crash's text, each with the SDK it comes from.
static TEXT_FORMS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        (
            r"^Error executing tool \S+(?:: Error executing tool \S+)*$",
            "the Python SDK's answer to a crash in a tool (MCPServer: `Error executing tool <name>`)",
        ),
        (
            r"^Error calling tool '[^'\n]+'(?::|$)",
            "FastMCP's answer to a crash in a tool (`Error calling tool '<name>'`)",
        ),
        (
            r"(?m)^(?:Uncaught )?(?:TypeError|ReferenceError|RangeError|SyntaxError|EvalError|URIError|InternalError): ",
            "a JavaScript runtime error",
        ),
        (
            r"Cannot (?:read|set) propert(?:y|ies) .*of (?:undefined|null)|\bis not a function\b|\bis not iterable\b|Maximum call stack size exceeded|\bis not a constructor\b",
            "a JavaScript runtime error",
        ),
        (
            r"(?m)^(?:KeyError|IndexError|AttributeError|TypeError|NameError|UnboundLocalError|RecursionError|AssertionError|ZeroDivisionError)\b|\b(?:list|string|tuple) index out of range\b|'NoneType' object (?:has no attribute|is not subscriptable|is not iterable|is not callable)|unsupported operand type\(s\)|object of type '\w+' has no len\(\)|can only concatenate \w+ \(not|maximum recursion depth exceeded|local variable '\w+' referenced before assignment",
            "a Python runtime error",
        ),
        (
            r"\bjava\.lang\.\w+(?:Exception|Error)\b|\b(?:NullPointer|ArrayIndexOutOfBounds|StringIndexOutOfBounds|IndexOutOfBounds|ClassCast|Arithmetic|ConcurrentModification)Exception\b",
            "a JVM exception",
        ),
        (
            r"\bSystem\.(?:NullReference|IndexOutOfRange|InvalidCast|DivideByZero|ArgumentOutOfRange|KeyNotFound|InvalidOperation)Exception\b|Object reference not set to an instance of an object|Index was outside the bounds of the array",
            "a .NET exception",
        ),
        (
            r"\bruntime error: |invalid memory address or nil pointer dereference|(?m)^panic: ",
            "a Go runtime error",
        ),
        (
            r"\bpanicked at\b|called `(?:Option|Result)::(?:unwrap|expect)\(\)` on (?:a|an) `(?:None|Err)",
            "a Rust panic",
        ),
    ]
    .into_iter()
    .map(|(pattern, what)| (Regex::new(pattern).expect("crash forms compile"), what))
    .collect()
});

/// What a stack trace on stderr looks like, runtime by runtime.
static TRACES: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        (r"Traceback \(most recent call last\)", "a Python traceback"),
        (
            r"(?m)^\s*at .*\(?(?:file://)?(?:/|[A-Za-z]:\\|node:)[^()\s]*:\d+:\d+\)?\s*$",
            "a Node.js stack trace",
        ),
        (
            r"(?m)^\s*at [\w$.<>]+\([\w$]+\.(?:java|kt|scala):\d+\)",
            "a JVM stack trace",
        ),
        (
            r"(?m)^\s*at [\w.`<>]+\(.*\) in .+:line \d+",
            "a .NET stack trace",
        ),
        (r"goroutine \d+ \[[a-z ]+\]:", "a Go goroutine dump"),
        (r"panicked at [^\n]+:\d+:\d+", "a Rust panic"),
    ]
    .into_iter()
    .map(|(pattern, what)| (Regex::new(pattern).expect("trace patterns compile"), what))
    .collect()
});

/// Which crash form `text`, the text of an `isError` result, is (`None` for a deliberate
/// error), unless the input it answered (`sent`) carried the same words: a tool may
/// repeat what it was given.
pub(crate) fn crash_form(text: &str, sent: &str) -> Option<&'static str> {
    let text = text.trim();
    TEXT_FORMS.iter().find_map(|(pattern, what)| {
        let found = pattern.find(text)?;
        let matched = found.as_str().trim();
        (matched.is_empty() || !sent.contains(matched)).then_some(*what)
    })
}

/// The stack trace in `stderr` (what the server wrote while a call ran), and its first
/// line, if there is one.
pub(crate) fn trace_in(stderr: &str) -> Option<(&'static str, String)> {
    TRACES.iter().find_map(|(pattern, what)| {
        let found = pattern.find(stderr)?;
        Some((*what, super::leak::line_of(stderr, &found)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sdks_crash_forms_are_crashes() {
        let crashes = [
            ("Error executing tool first_word", "the Python SDK's"),
            (
                "Error executing tool outer: Error executing tool inner",
                "the Python SDK's",
            ),
            ("Error calling tool 'first_word'", "FastMCP's"),
            (
                "Error calling tool 'first_word': list index out of range",
                "FastMCP's",
            ),
            (
                "Cannot read properties of undefined (reading '0')",
                "a JavaScript runtime error",
            ),
            (
                "TypeError: items.map is not a function",
                "a JavaScript runtime error",
            ),
            (
                "text.split(...).at is not a function",
                "a JavaScript runtime error",
            ),
            (
                "Maximum call stack size exceeded",
                "a JavaScript runtime error",
            ),
            (
                "Error executing tool first_word: list index out of range",
                "a Python runtime error",
            ),
            (
                "'NoneType' object has no attribute 'strip'",
                "a Python runtime error",
            ),
            ("KeyError: 'city'", "a Python runtime error"),
            (
                "java.lang.NullPointerException: Cannot invoke \"String.length()\"",
                "a JVM exception",
            ),
            (
                "Object reference not set to an instance of an object.",
                "a .NET exception",
            ),
            (
                "runtime error: index out of range [0] with length 0",
                "a Go runtime error",
            ),
            (
                "called `Option::unwrap()` on a `None` value",
                "a Rust panic",
            ),
        ];
        for (text, from) in crashes {
            let found = crash_form(text, "").unwrap_or_else(|| panic!("{text}: not a crash"));
            assert!(found.starts_with(from), "{text}: {found}");
        }
    }

    #[test]
    fn deliberate_errors_are_not_crashes() {
        for text in [
            "Error executing tool divide: division by zero is not allowed",
            "Error executing tool weather: Unknown city: Atlantis",
            "Unknown city: Atlantis",
            "Connection refused: http://localhost:9999/weather",
            "The type must be one of: celsius, fahrenheit",
            "Rate limited by upstream API, please retry later",
            "MCP error -32602: Input validation error: Invalid arguments for tool echo",
            "Tool x not found",
            "Invalid index: must be between 0 and 9",
        ] {
            assert_eq!(crash_form(text, ""), None, "{text}");
        }
    }

    #[test]
    fn words_the_input_carried_are_no_crash() {
        let echoed = "TypeError: oops";
        assert_eq!(crash_form(echoed, r#"{"message":"TypeError: oops"}"#), None);
        assert!(crash_form(echoed, r#"{"message":"hi"}"#).is_some());
    }

    #[test]
    fn a_stack_trace_on_stderr_is_found() {
        let python = "ERROR:mcp.server:Tool 'first_word' raised an unexpected exception\n\
                      Traceback (most recent call last):\n  File \"/srv/server.py\", line 9, in first_word";
        assert_eq!(
            trace_in(python),
            Some((
                "a Python traceback",
                "Traceback (most recent call last):".to_owned()
            ))
        );
        assert_eq!(
            trace_in("    at first (file:///srv/server.mjs:12:7)").map(|(what, _)| what),
            Some("a Node.js stack trace")
        );
        assert_eq!(
            trace_in("INFO: serving on stdio\nprocessing request 4"),
            None
        );
    }
}
