//! Finding the bugs nobody wrote a test for: every tool's arguments generated from its
//! `inputSchema` on [proptest](https://docs.rs/proptest), sent many at a time, each answer
//! judged, and each bug shrunk to the smallest input that still shows it.
//!
//! [`McpClient::fuzz`](crate::McpClient::fuzz) starts a run; [`Fuzz`]'s setters say what
//! and how hard; `run().await` returns the [`Report`](crate::report::Report), whose
//! `.assert().no_findings()` fails a test with each finding and its reproduction.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> mcp_assured::Result<()> {
//! use mcp_assured::{McpAssured, fuzz, prelude::*};
//! use mcp_assured_examples::ExampleServer;
//!
//! let client = McpAssured::client().service(ExampleServer::new()).build().await?;
//! let report = client.fuzz().tool("add").cases(50).seed(42).run().await;
//! report.assert().no_findings();
//! assert!(fuzz::findings(&report).is_empty());
//! # Ok(()) }
//! ```
//!
//! # What is generated
//! For each tool, valid inputs (boundaries weighted: minimum, maximum, empty, exact
//! lengths) and invalid ones, each a minimal mutation of a valid input: a required property
//! dropped, a wrong type, one past a bound, a string one too long, a value outside an
//! `enum`, an extra property where `additionalProperties` is false ([`generate`]). A
//! resource template's variables and a prompt's arguments are strings; a prompt's invalid
//! inputs drop a required argument. A schema no input can be generated from is reported (a
//! warning), never skipped silently. Tools annotated `destructiveHint` are skipped unless
//! [`Fuzz::include_destructive`].
//!
//! # What is a bug
//! | kind | valid input | invalid input |
//! | --- | --- | --- |
//! | `crash` | the process exits or the connection drops | the same |
//! | `hang` | no answer within the per-call timeout | the same |
//! | `jsonrpc_error` | any JSON-RPC error (-32603, 0, even -32602) | |
//! | `internal_error` | | an error other than -32602 or an `isError` result |
//! | `accepted_invalid` | | served as if valid |
//! | `leaked_internals` | a stack trace or source path in the answer | the same |
//! | `output_schema` | `structuredContent` missing or breaking the `outputSchema` | |
//! | `broken_answer` | not a JSON-RPC answer of the method | the same |
//! | `property` | a property of yours does not hold | |
//! | `crash_as_tool_error` | an `isError` result that is an SDK's answer to a crash (below) | |
//! | `wire_schema` | the result breaks the official JSON schema of the revision spoken | the same |
//! | `slow` (a warning) | progress kept coming, but no answer within six per-call timeouts; or a hang excused (below) | the same |
//!
//! Findings fail their entry, except where the specification only says SHOULD (a prompt
//! serving a missing required argument) and an extra property accepted (zod and pydantic
//! drop unknown properties by default): those warn, unless [`Fuzz::strict`].
//!
//! A resource template answering -32002 (not found) or -32602 is no bug: a generated value
//! may name nothing. Nor is a prompt answering -32602: its arguments are strings with no
//! schema, and a value it does not take (one of a set named only in a description) is
//! refused.
//!
//! # A crash answered as a tool error
//! The high-level SDKs catch an exception in a tool and answer it as a tool error, so a
//! server written on them never drops the connection when a tool crashes. On valid input, an
//! `isError` result is a `crash_as_tool_error` when its text is one of these forms, or when
//! the server wrote a stack trace to its stderr while the call ran (Python `MCPServer` logs
//! the traceback, FastMCP too); a deliberate error (a plain message, Python's `ToolError`:
//! `Error executing tool <name>: <text>`) is not:
//!
//! | form (the whole text, or a line of it) | SDK, version seen in |
//! | --- | --- |
//! | `Error executing tool <name>`, nothing after the name | Python `mcp` 2.3 `MCPServer` |
//! | `Error calling tool '<name>'`, alone or then `: <exception>` | FastMCP 4.2 |
//! | a JavaScript runtime error: `TypeError: …`, `Cannot read properties of undefined (reading 'x')`, `… is not a function`, `Maximum call stack size exceeded` | TypeScript SDK 1.32 `McpServer` (the exception's message) |
//! | a Python runtime error's words: `list index out of range`, `'NoneType' object has no attribute …`, `KeyError: …` | Python `mcp` 1.x `FastMCP` (`Error executing tool <name>: <message>` for every exception) |
//! | `java.lang.…Exception`, `NullPointerException`, `…IndexOutOfBoundsException` | Java servers that pass the exception on |
//! | `System.NullReferenceException`, `Object reference not set to an instance of an object` | .NET servers that pass the exception on |
//! | `runtime error: …`, `invalid memory address or nil pointer dereference` | Go servers that recover a panic |
//! | `panicked at …`, ``called `Option::unwrap()` on a `None` value`` | Rust servers that catch a panic |
//!
//! Words the input itself carried are no crash (a tool may repeat what it is given).
//!
//! # A leak, and a file tool's answer
//! `leaked_internals` is a stack trace (Python, Node.js, JVM, .NET, Go, Rust) or the path of
//! a source file: one under a folder the server was started from (its program's, its
//! script's), or under the usual system and home folders. A path the caller named is no leak,
//! nor any under it: an absolute path in the arguments, or one of the client's roots
//! ([`ClientBuilder::roots`](crate::ClientBuilder::roots)). Nor is text the input carried.
//!
//! # A server that asks for time
//! An HTTP `429 Too Many Requests`, or `503 Service Unavailable` with `Retry-After`, is no
//! answer of the tool's: every call is held back for as long as `Retry-After` asks (a second
//! for a `429` without one, ten at most), then the call is sent again, up to five times.
//! `fuzz.run` says how many refusals there were and how long the run waited; a call still
//! refused after five tries is not judged, and makes `fuzz.run` a warning.
//!
//! # Crashes, hangs and speed
//! Every call carries a progress token. Each progress notification about a call starts its
//! per-call timeout again, up to six of them in all: a tool slow by design that says it is
//! getting on (server-everything's `trigger-long-running-operation`) is answered in time or,
//! at the cap, cancelled and reported `slow`, a warning with the progress seen, never a hang.
//! One that stops sending progress and then stays silent a whole timeout hung.
//!
//! Two hangs on a server that answers a `ping` right after are excused as `slow`, saying why,
//! once every subject has sent the rest: one of a subject that reported progress on other
//! calls of the run (slow by design, and it tells so, only not within one timeout on this
//! input: a long `duration` of `trigger-long-running-operation`); and one of a tool annotated
//! `openWorldHint: true` that, sent again alone up to twice, is answered (its answer waits on
//! outside systems, which were slow or unreachable: a DNS lookup that took the whole timeout).
//! An open-world tool that hangs every time alone, or a subject that never reported progress,
//! hung.
//!
//! Calls go out [`DEFAULT_CONCURRENCY`] at a time. A crash takes every call in flight with
//! it, so each of those is sent again alone to tell the input that killed the server; a
//! stdio server is started again ([`McpClient::reconnect`](crate::McpClient::reconnect))
//! and the run goes on. For a server the run started from a command, "alone" is on a second
//! process of it, started when the first dies: the calls in flight on the first (a hang's,
//! waiting out its timeout) go on meanwhile, and only a crash there is believed (whatever
//! else it answers is sent again on the first). A server that cannot run twice (it holds a
//! lock or a port: the second process does not start, or, started first, it is stopped
//! for good so the first can start again) gets its calls alone on the one process, as one
//! reached over HTTP or in this process does. Once the input that killed
//! a server is found, the other calls that died with it are sent again together, not alone
//! each. The summary says how often the second process was started
//! (`details.second_process_starts`). A hang is the input's when the server answers a `ping`
//! right after it. The first hang or crash of a subject ends that subject's phase (each more
//! would cost a timeout or a restart), and a subject that hung on a valid input is sent no
//! invalid ones. A hang is shrunk with many candidates in flight together, beside the bound
//! on calls in flight, each judged hung after ten times the slowest answers seen (at least
//! 100 ms, at most a quarter of the per-call timeout), for two per-call timeouts at most;
//! each smaller input is confirmed with the full timeout as soon as it is found, while the
//! shrinking and the other subjects go on, and the smallest confirmed is reported. The
//! shrinking begins before the hang is certain: a call unanswered that long (and at least
//! twice the subject's slowest answers) is a suspect, gives up its place among the calls in
//! flight, ends its subject's round, and has its input shrunk while it waits; what that
//! found is kept only if the call then hangs on a server that answers a `ping`. So one
//! hanging tool costs about two per-call timeouts: one to see the hang (its shrinking
//! meanwhile), one to confirm its smallest input. The failures of valid inputs
//! shrink while the invalid ones are sent. Each finding's shrunk input is sent again alone
//! (no other call in flight) once every subject has sent all the rest, so the call alone
//! waits for no hang.
//!
//! # Seeds and regression files
//! Every input follows from the run's seed (printed in `fuzz.run`; [`Fuzz::seed`], `--seed`,
//! or `MCP_ASSURED_FUZZ_SEED`). [`Fuzz::regressions`] names a file to which every finding's
//! shrunk input is added, and from which past ones are sent first.

mod builder;
mod cases;
mod crash_forms;
pub mod generate;
mod leak;
mod oracle;
mod polish;
mod progress;
mod property;
mod regressions;
mod report;
mod reproduce;
mod run;
mod session;
mod subject;
mod uri_template;

pub use self::{
    builder::{DEFAULT_CALL_TIMEOUT, DEFAULT_CASES, DEFAULT_CONCURRENCY, Fuzz, SEED_VARIABLE},
    progress::{FuzzProgress, PROGRESS_EVERY},
    property::{Property, PropertyOutcome},
};

pub use crate::report::{Finding, FindingKind, Reproduction, finding_of, findings};

/// The suite of a fuzz run's entries (a JUnit test suite).
pub const SUITE: &str = "fuzz";
