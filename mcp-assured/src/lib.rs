//! # mcp-assured
//!
//! A test harness for [Model Context Protocol](https://modelcontextprotocol.io) servers: a
//! fluent async client that speaks every MCP transport, built on the official Rust SDK
//! ([rmcp](https://docs.rs/rmcp)).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> mcp_assured::Result<()> {
//! use mcp_assured::McpAssured;
//! use mcp_assured_examples::ExampleServer;
//! use serde_json::json;
//!
//! // An rmcp server in this process; `.base_uri(..)` or `.command(..)` reach any other.
//! let client = McpAssured::client().service(ExampleServer::new()).build().await?;
//! let result = client.call_tool("weather", json!({"city": "London"})).await?;
//! assert_eq!(result.is_error, Some(false));
//! assert_eq!(
//!     result.structured_content,
//!     Some(json!({"city": "London", "temperature": 15, "conditions": "cloudy"}))
//! );
//! client.close().await?;
//! # Ok(()) }
//! ```
//!
//! Over HTTP (the `http` feature):
//!
//! ```no_run
//! # async fn demo() -> mcp_assured::Result<()> {
//! use mcp_assured::McpAssured;
//! use serde_json::json;
//!
//! // streamable HTTP (the path defaults to /mcp)
//! let client = McpAssured::client()
//!     .base_uri("http://127.0.0.1:3001")
//!     .bearer_token("secret")
//!     .build()
//!     .await?;
//! let result = client.call_tool("echo", json!({"message": "hi"})).await?;
//! assert_eq!(result.is_error, Some(false));
//! client.close().await?;
//! # Ok(()) }
//! ```
//!
//! The same client reaches a stdio server with `.command("node").arg("server.js")`, the
//! older HTTP+SSE transport with a base URI ending in `/sse` (or `.sse()`), and an rmcp
//! server in the test's own process with `.service(MyServer::new())`.
//!
//! # The `#[mcp_test]` attribute
//!
//! One attribute starts everything a test of a server needs, hands it over by parameter,
//! and tears it all down afterwards, even when the test panics or times out:
//!
//! ```
//! use mcp_assured::{McpClient, assert_tool_snapshot, mcp_test, prelude::*};
//! use mcp_assured_examples::ExampleServer;
//! use serde_json::json;
//!
//! #[mcp_test(server = service(ExampleServer::new()))]
//! async fn reports_the_weather(client: McpClient) {
//!     let result = client.call_tool("weather", json!({"city": "London"})).await.unwrap();
//!     result.assert().is_success().json_at("/temperature", 15);
//!     assert_tool_snapshot!(result);
//! }
//! ```
//!
//! A server whose tools call an HTTP API gets a [wiremock](https://docs.rs/wiremock) backend
//! by parameter (the `wiremock` feature); its URI fills `{backend}` (the parameter's name) in
//! `env(..)`:
//!
#![cfg_attr(feature = "wiremock", doc = "```")]
#![cfg_attr(not(feature = "wiremock"), doc = "```ignore")]
//! use mcp_assured::{McpClient, mcp_test, prelude::*};
//! use mcp_assured::wiremock::{Mock, MockServer, ResponseTemplate, matchers::{method, path}};
//! use serde_json::json;
//!
//! #[mcp_test(server = command("weather-server"), env(WEATHER_API_URL = "{backend}"))]
//! async fn reports_london(client: McpClient, backend: &MockServer) {
//!     Mock::given(method("GET")).and(path("/weather"))
//!         .respond_with(ResponseTemplate::new(200).set_body_json(json!({"temperature": 15})))
//!         .expect(1)
//!         .mount(backend)
//!         .await;
//!     let result = client.call_tool("current_weather", json!({"city": "London"})).await.unwrap();
//!     result.assert().is_success().json_at("/temperature", 15);
//! }
//! # fn main() {}
//! ```
//!
//! | option | meaning |
//! |---|---|
//! | `server = service(expr)` | an rmcp server (any `ServerHandler`) in the test's process: the fast default for Rust servers; `expr` may use fixtures by parameter name, e.g. `service(MyServer::new(backend.uri()))` |
//! | `server = bin("name")` | a binary of the package under test (`CARGO_BIN_EXE_name`, built by cargo for integration tests) |
//! | `server = command("program", "arg", ..)` | any program, e.g. `command("python3", "server.py")`; the arguments are expressions |
//! | `server = url("http://..")` | a server already running; `/sse` or `transport = sse` for HTTP+SSE |
//! | `server = [a, b, ..]` | one test per server (and transport), in a module named after the function |
//! | `transport = stdio \| http \| sse` | how a `bin`/`command` child is reached (default `stdio`); a list makes one test each. `http(args(..), env(..), path = "/mcp")` adds what only that transport needs |
//! | `env(NAME = "value", ..)`, `args("a", ..)` | for `bin`/`command` children; `{port}` and `{fixture}` placeholders are filled in, `{{` is a brace |
//! | `cwd = "dir"` | the child's working directory |
//! | `timeout = "10s"` | for the whole test, set-up included (default 60 s); requests time out at ¾ of it (at most 30 s) unless `request_timeout = ".."`, and so does start-up (spawn or connect, and `initialize`; at most 60 s) unless `startup_timeout = ".."` |
//! | `protocol = "2025-11-25"` | the protocol revision to speak, pinned (`build()` fails if the server does not speak it), or `"newest"` to negotiate; a list, `protocol = ["2025-06-18", "2025-11-25", "2026-07-28"]`, makes one test per revision and transport, named after both (`stdio_v2026_07_28`), which is also its snapshots' suffix |
//! | `bearer_token = expr`, `headers("Name" = expr, ..)` | client credentials for HTTP servers; never printed |
//! | `client = \|builder\| ..` | anything else for the [`ClientBuilder`], e.g. `client = \|b\| b.on_sampling(..)`; may use fixtures by name |
//! | `worker_threads = 2` | a multi-threaded runtime (default: current-thread) |
//! | `crate = "path"` | where `mcp_assured` is, when re-exported |
//!
//! On an inline module, `#[mcp_test(..)]` sets the defaults of every `#[mcp_test]` function
//! inside it, which may add options or override them:
//!
//! ```
//! use mcp_assured::{McpClient, mcp_test};
//! use mcp_assured_examples::ExampleServer;
//!
//! #[mcp_test(server = service(ExampleServer::new()), timeout = "10s")]
//! mod weather {
//!     use super::*;
//!
//!     #[mcp_test]
//!     async fn pings(client: McpClient) {
//!         client.ping().await.unwrap();
//!     }
//!
//!     #[mcp_test(timeout = "2s")]
//!     async fn lists_tools(client: McpClient) {
//!         assert!(!client.list_tools().await.unwrap().is_empty());
//!     }
//! }
//! # fn main() {}
//! ```
//!
//! An HTTP child gets a free loopback port (`{port}`, or the `PORT` variable when no
//! argument mentions `{port}`), and the test starts once it accepts connections: polled,
//! not slept for; if it exits first, the test fails with its output. The body runs inside
//! insta settings bound to the test: snapshots are named after the function (suffixed with
//! the variant, `@stdio`, `@http`, when there are several), maps are sorted, and the default
//! [redactions](snapshot::redact) apply to insta's own macros too. After the body, cleanups
//! registered by fixtures run, the client is closed, and the server's whole process group
//! is stopped and reaped; wiremock verifies its expectations. A failed test prints the
//! server's last stderr lines; a timeout says what the test was doing. Parameters are
//! described in [`fixture`], which also shows how to add your own.
//!
//! Checks read as sentences: `use mcp_assured::prelude::*;` and call `.assert()` on what the
//! client returned (see [`mod@assert`]); pin whole answers with insta through
//! [`assert_mcp_snapshot!`] (see [`snapshot`]). Both read what the server sent, not rmcp's
//! re-encoding of it: every result, listed item, notification and server request keeps its
//! JSON as it arrived (see [`Wire`] and [`Listed`]).
//!
//! Health checks of a whole server (the `checks` feature): [`McpClient::check`][check] runs
//! 23 protocol checks (see [`checks`][checks]) and
//! [`McpClient::run_server_tests`][run_server_tests] the server's own `mcp.test.*` test tools
//! (see [`server_tests`][server_tests]), each into a [`report::Report`] that writes itself as text, JSON,
//! JUnit XML, SARIF for code scanning (`Report::to_sarif`, the `sarif` feature) or one
//! self-contained HTML page ([`html`]); `mcp-assured check` runs both from the shell.
//!
//! Which of a server's tools, arguments, values and outcomes a suite exercised, for a server
//! in any language: `MCP_ASSURED_COVERAGE=DIR cargo test` records it, `mcp-assured coverage
//! DIR` reports it (see [`coverage`]).
//!
//! Failures are one [`Error`] type whose messages say what happened: the HTTP status and
//! `WWW-Authenticate` challenge of a refused connection, the JSON-RPC code of a rejected
//! request, the request that timed out, the exit status and stderr of a server that died,
//! the exact line of a server that printed junk on stdout.

#![cfg_attr(docsrs, feature(doc_cfg))]
// A link's target depends on the features: the item here, or its page on docs.rs.
#![doc = ""]
#![cfg_attr(feature = "checks", doc = "[check]: McpClient::check")]
#![cfg_attr(
    not(feature = "checks"),
    doc = "[check]: https://docs.rs/mcp-assured/latest/mcp_assured/struct.McpClient.html#method.check"
)]
#![cfg_attr(feature = "checks", doc = "[checks]: mod@checks")]
#![cfg_attr(
    not(feature = "checks"),
    doc = "[checks]: https://docs.rs/mcp-assured/latest/mcp_assured/checks/index.html"
)]
#![cfg_attr(
    feature = "checks",
    doc = "[run_server_tests]: McpClient::run_server_tests"
)]
#![cfg_attr(
    not(feature = "checks"),
    doc = "[run_server_tests]: https://docs.rs/mcp-assured/latest/mcp_assured/struct.McpClient.html#method.run_server_tests"
)]
#![cfg_attr(feature = "checks", doc = "[server_tests]: mod@server_tests")]
#![cfg_attr(
    not(feature = "checks"),
    doc = "[server_tests]: https://docs.rs/mcp-assured/latest/mcp_assured/server_tests/index.html"
)]

pub mod assert;
pub mod cassette;
#[cfg(feature = "checks")]
pub mod checks;
mod client;
pub mod coverage;
mod credentials;
mod decode;
#[cfg(feature = "diff")]
pub mod diff;
#[cfg(feature = "double")]
pub mod double;
mod error;
mod feature_off;
pub mod fixture;
#[cfg(feature = "fuzz")]
pub mod fuzz;
pub mod html;
#[cfg(feature = "lint")]
pub mod lint;
pub mod load;
pub mod report;
#[cfg(feature = "http")]
pub mod rest;
mod results;
pub mod rules;
#[cfg(feature = "sarif")]
pub mod sarif;
pub mod schema;
mod secret;
#[cfg(feature = "checks")]
pub mod server_tests;
pub mod snapshot;
mod tls;
mod transport;
pub mod wire_schema;

pub use client::{
    ClientBuilder, DEFAULT_DISCOVER_TIMEOUT, DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT,
    FromServerResult, IntoAnswer, McpAssured, McpClient, PendingRequest, ServerInfo, ServerRequest,
    Subscription, Subscriptions, elicitation_defaults,
};
pub use credentials::{
    AuthorizationResult, Credentials, DEFAULT_MAX_AUTHORIZATIONS, DEFAULT_REDIRECT_URI, OAuth,
};
pub use error::{AuthorizationStep, Error, Result, TlsProblem, code};
pub use results::{
    listed::{Listed, ListedItem},
    mcp::{PromptResult, ResourceResult, ToolResult},
    notification::{LogMessage, Notification, Progress},
    sent::Sent,
    task::{Task, TaskStatus},
    wire::Wire,
};
pub use secret::Secret;
pub use tls::Tls;
pub use transport::raw::RawAnswer;

/// Turns an async function into a test of an MCP server: starts the server (in process, as
/// a child over stdio or HTTP, or reached at a URL), the wiremock backends it calls and the
/// connected client, passes them in by parameter, and tears everything down afterwards, even
/// when the test panics or times out.
///
/// See the [crate docs](crate#the-mcp_test-attribute) for the options and
/// [`fixture`] for the parameters it can provide.
///
/// ```
/// use mcp_assured::{McpClient, mcp_test};
/// use mcp_assured_examples::ExampleServer;
///
/// #[mcp_test(server = service(ExampleServer::new()), timeout = "10s")]
/// async fn pings(client: McpClient) {
///     client.ping().await.unwrap();
/// }
/// ```
pub use mcp_assured_macros::mcp_test;

#[cfg(feature = "wiremock")]
/// The wiremock crate, whose `MockServer` is an [`#[mcp_test]`](mcp_test) fixture.
pub use wiremock;

/// The assertion extension traits: `use mcp_assured::prelude::*;` and call `.assert()`.
pub mod prelude {
    pub use crate::assert::{
        AssertError, AssertNotifications, AssertPromptResult, AssertPrompts, AssertReport,
        AssertResourceResult, AssertResources, AssertResult, AssertTask, AssertTool,
        AssertToolResult, AssertTools,
    };
    #[cfg(feature = "http")]
    pub use crate::assert::{AssertExecution, AssertRestTools};
}

/// The rmcp crate this harness is built on, for writing in-process servers.
pub use rmcp;

/// Macro plumbing: what `#[mcp_test]` and the snapshot macros expand to calls into. Not
/// public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::fixture::{Stage, runtime::*};
    pub use insta;

    /// A client's message decoded as rmcp decodes it, `tools/call` in one pass (the
    /// companion's stdio reads with it).
    pub use crate::decode::client_message;

    /// The snapshot macros' plumbing.
    pub mod snapshot {
        pub use crate::snapshot::macro_support::*;
    }
}

/// The README's examples, compiled as doctests so they never drift (they use every feature).
#[cfg(all(doctest, feature = "full"))]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
/// The MCP data types (tools, resources, prompts, results, ...), from rmcp.
pub use rmcp::model;
