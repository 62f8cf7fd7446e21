//! MCP doubles: an MCP server a test scripts, for testing servers that call MCP servers
//! (routers, gateways, proxies, aggregators), as wiremock is for HTTP backends.
//!
//! A [`MockServer`] starts in the test's process and serves MCP over streamable HTTP (its
//! [`uri`](MockServer::uri)), over HTTP+SSE ([`sse_uri`](MockServer::sse_uri)), and over
//! stdio, through a relay process the server under test
//! starts as it would any upstream server ([`stdio_command`](MockServer::stdio_command):
//! `mcp-assured relay ADDRESS`, which joins its stdin and stdout to the double). It answers
//! what its [`Mock`]s say, records every request, and checks each mock's expectations when
//! it is dropped.
//!
//! ```no_run
//! use mcp_assured::double::{Mock, MockServer, Reply, matchers::{tool, arguments_include}};
//! use mcp_assured::McpAssured;
//! use serde_json::json;
//!
//! # async fn demo() -> mcp_assured::Result<()> {
//! let upstream = MockServer::start().await;
//! Mock::given(tool("search"))
//!     .and(arguments_include(json!({"query": "rust"})))
//!     .respond_with(Reply::structured(json!({"hits": 3})))
//!     .expect(1)
//!     .mount(&upstream)
//!     .await;
//!
//! // The double lists `search` (with an object schema) because a mock names it.
//! let client = McpAssured::client().base_uri(upstream.uri()).build().await?;
//! let result = client.call_tool("search", json!({"query": "rust"})).await?;
//! assert_eq!(result.structured_content, Some(json!({"hits": 3})));
//! # Ok(()) }
//! ```
//!
//! What a mock can answer is a [`Reply`]: a tool result (text, structured, `isError`), a
//! resource, a prompt, any result as JSON, a JSON-RPC error, a delay, a hang, a dropped
//! connection, a crash, with progress, log and any other notifications sent before, and
//! server→client requests (sampling, elicitation, roots) whose answers are kept in
//! [`MockServer::client_answers`]. What it matches is in [`matchers`]: the method, the
//! tool, prompt or resource, the arguments (exactly, in part, at a JSON pointer, by
//! predicate), the headers and the credentials.
//!
//! The advertised surface is what [`MockServerBuilder`] declares (tools with their schemas,
//! prompts, resources, templates) plus every tool, prompt and resource a mounted mock names;
//! mounting a mock that names a new one tells the open sessions with
//! `notifications/*/list_changed`.
//!
//! The names follow wiremock's, which this crate re-exports as [`crate::wiremock`]: a test
//! that mocks both an HTTP backend and an upstream MCP server names the double's through
//! its module (`use mcp_assured::double as mcp;` then `mcp::MockServer`, `mcp::Mock`).
//!
//! Over streamable HTTP, rmcp carries progress notifications on the request's own stream
//! and every other notification (logs, `list_changed`, [`Reply::notify`]) on the session's
//! stream, which a client may not have open: there they are not ordered with the answer.
//!
//! In [`#[mcp_test]`](crate::mcp_test), a parameter `upstream: MockServer` is started before
//! the server under test, and `{upstream}` is its URI in `env(..)` and `args(..)`
//! (`{upstream.command}`: the stdio relay's command line).

mod handler;
pub mod matchers;
mod mock;
mod replay;
mod reply;
mod request;
mod serve;
mod sse;
mod state;

use std::{fmt, net::SocketAddr, path::PathBuf, sync::Arc};

use serde_json::Value;

use crate::error::{Error, Result};

use self::{
    matchers::Named,
    state::{Declared, Identity, Replay, State},
};
pub use self::{
    mock::{Mock, MockBuilder, MockGuard, Times},
    reply::{Reply, Respond},
    request::McpRequest,
    state::ClientAnswer,
};
use crate::cassette::{Cassette, CassetteError, Matching};

/// The variable naming the `mcp-assured` binary that relays a stdio double; without it,
/// `mcp-assured` on `PATH`.
pub const RELAY_BINARY_VARIABLE: &str = "MCP_ASSURED_BIN";

/// An MCP server scripted by the test: see the [module docs](self).
///
/// Cloning shares it; when the last clone is dropped it stops, and the expectations of
/// its mocks are checked (a panic listing what it received, unless the thread is already
/// panicking).
#[derive(Clone)]
pub struct MockServer {
    inner: Arc<Running>,
}

struct Running {
    state: Arc<State>,
    http: SocketAddr,
    relay: SocketAddr,
}

impl MockServer {
    /// Starts a double with nothing mounted, on every revision rmcp serves.
    ///
    /// # Panics
    ///
    /// When no loopback port can be bound ([`MockServerBuilder::try_start`] returns it).
    pub async fn start() -> MockServer {
        MockServer::builder().start().await
    }

    /// A double with a declared surface, identity or revisions.
    pub fn builder() -> MockServerBuilder {
        MockServerBuilder {
            identity: Identity {
                name: "mcp-assured-double".to_owned(),
                version: env!("CARGO_PKG_VERSION").to_owned(),
                instructions: None,
                capabilities: None,
                versions: None,
            },
            declared: Declared::default(),
            replay: None,
            matching: Matching::default(),
            http_port: 0,
        }
    }

    /// A double that answers as a recorded session did (a cassette written by
    /// [`ClientBuilder::record_to`](crate::ClientBuilder::record_to) or `mcp-assured record`):
    /// with the server's identity and capabilities, and each request with the recorded
    /// interaction that matches it (method, name or URI and arguments; ids and `_meta`
    /// ignored), its notifications sent again first. A request nothing recorded answers is
    /// refused with -32602 naming the closest recorded request. Mocks mounted on it answer
    /// before the cassette. [`MockServerBuilder::replay`] takes other [`Matching`] rules.
    ///
    /// # Errors
    ///
    /// When the file cannot be read or is not a cassette, or the double cannot serve what
    /// it recorded (capabilities that are not MCP's, say): the error names the file and
    /// why.
    pub async fn from_cassette(
        path: impl AsRef<std::path::Path>,
    ) -> Result<MockServer, CassetteError> {
        let path = path.as_ref();
        let cassette = Cassette::load(path)?;
        MockServer::builder()
            .replay(cassette)
            .try_start()
            .await
            .map_err(|error| CassetteError {
                path: path.to_owned(),
                problem: format!("a double cannot replay it: {error}"),
            })
    }

    /// Its streamable HTTP endpoint: `http://127.0.0.1:PORT/mcp`.
    pub fn uri(&self) -> String {
        format!("http://{}/mcp", self.inner.http)
    }

    /// Its HTTP+SSE endpoint (the transport of protocol 2024-11-05), on the same port:
    /// `http://127.0.0.1:PORT/sse`, whose `endpoint` event names `/message?sessionId=..`.
    pub fn sse_uri(&self) -> String {
        format!("http://{}/sse", self.inner.http)
    }

    /// The loopback address the stdio relay connects to.
    pub fn relay_address(&self) -> SocketAddr {
        self.inner.relay
    }

    /// The command a server under test starts to reach this double over stdio:
    /// `mcp-assured relay 127.0.0.1:PORT`. The binary is [`RELAY_BINARY_VARIABLE`]'s, or
    /// the one in the test binary's target directory (a workspace that builds
    /// `mcp-assured-cli`), or `mcp-assured` on `PATH`.
    ///
    /// # Errors
    ///
    /// When neither names a binary that exists, saying how to install it.
    pub fn stdio_command(&self) -> Result<StdioCommand> {
        let program = relay_binary()?;
        Ok(StdioCommand {
            program,
            args: vec!["relay".to_owned(), self.inner.relay.to_string()],
        })
    }

    /// Every request received so far, in order.
    pub fn received_requests(&self) -> Vec<McpRequest> {
        self.inner
            .state
            .received()
            .into_iter()
            .map(|received| received.request)
            .collect()
    }

    /// The requests no mock matched (answered from the surface, or refused).
    pub fn unmatched_requests(&self) -> Vec<McpRequest> {
        self.inner
            .state
            .received()
            .into_iter()
            .filter(|received| received.answered_by.is_none())
            .map(|received| received.request)
            .collect()
    }

    /// The requests a replayed cassette had no answer for, which were refused naming the
    /// closest recorded one.
    pub fn replay_misses(&self) -> Vec<McpRequest> {
        self.inner
            .state
            .received()
            .into_iter()
            .filter(|received| received.replay_miss)
            .map(|received| received.request)
            .collect()
    }

    /// The client's answers to the requests the double asked it ([`Reply::ask`],
    /// [`Reply::after_asking`]).
    pub fn client_answers(&self) -> Vec<ClientAnswer> {
        self.inner.state.answers()
    }

    /// Checks every mock's expectations now.
    ///
    /// # Panics
    ///
    /// When one is not met, listing what came.
    #[track_caller]
    pub fn verify(&self) {
        if let Some(unmet) = self.inner.state.verify() {
            panic!("{unmet}");
        }
    }

    /// Removes every mock and forgets what was received (declared items stay).
    pub async fn reset(&self) {
        self.inner.state.remove_all();
        self.inner.state.forget_received();
    }

    /// Declares a tool (its `name`, `inputSchema`, ... as `tools/list` gives them) and tells
    /// the open sessions the list changed.
    pub async fn declare_tool(&self, tool: Value) {
        self.inner
            .state
            .declare(|declared| declared.tools.push(tool));
        self.list_changed("notifications/tools/list_changed").await;
    }

    /// Removes a declared tool and tells the open sessions.
    pub async fn remove_tool(&self, name: &str) {
        self.inner
            .state
            .declare(|declared| declared.tools.retain(|tool| tool["name"] != name));
        self.list_changed("notifications/tools/list_changed").await;
    }

    /// Serves one MCP session on a reader and a writer (stdin and stdout, say) until the
    /// client closes it: how `mcp-assured replay` serves over stdio.
    ///
    /// # Errors
    ///
    /// When the session does not start (no `initialize` came, or the pipe closed).
    pub async fn serve_io<R, W>(&self, reader: R, writer: W) -> Result<()>
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        use rmcp::ServiceExt as _;
        let handler = handler::DoubleHandler {
            state: Arc::clone(&self.inner.state),
        };
        let running =
            handler
                .serve((reader, writer))
                .await
                .map_err(|error| Error::InvalidInput {
                    what: "MCP session".to_owned(),
                    reason: format!("the double's session did not start: {error}"),
                })?;
        let _ = running.waiting().await;
        Ok(())
    }

    /// Stops the double now, as [`Reply::crash`] does.
    pub fn stop(&self) {
        self.inner.state.switch.stop();
    }

    /// Mounts `mock`, telling the open sessions of the tools, prompts and resources it
    /// names that were not listed before.
    pub(crate) async fn register(&self, mock: mock::Mock) -> u64 {
        let names = mock.matchers.names();
        let new: Vec<Named> = names
            .iter()
            .filter(|named| !self.lists(named))
            .cloned()
            .collect();
        let id = self.inner.state.mount(mock);
        for named in new {
            self.list_changed(changed_of(&named)).await;
        }
        id
    }

    pub(crate) fn unmount(&self, id: u64) -> Option<String> {
        self.inner.state.unmount(id)
    }

    pub(crate) fn answered_by(&self, id: u64) -> Vec<McpRequest> {
        self.inner
            .state
            .received()
            .into_iter()
            .filter(|received| received.answered_by == Some(id))
            .map(|received| received.request)
            .collect()
    }

    fn lists(&self, named: &Named) -> bool {
        let state = &self.inner.state;
        match named {
            Named::Tool(name) => state
                .tools()
                .iter()
                .any(|tool| tool["name"] == name.as_str()),
            Named::Prompt(name) => state.prompts().iter().any(|p| p["name"] == name.as_str()),
            Named::Resource(uri) => state.resources().iter().any(|r| r["uri"] == uri.as_str()),
        }
    }

    async fn list_changed(&self, method: &str) {
        let Ok(notification) = serde_json::from_value::<rmcp::model::ServerNotification>(
            serde_json::json!({"method": method}),
        ) else {
            return;
        };
        for peer in self.inner.state.sessions() {
            let _ = peer.send_notification(notification.clone()).await;
        }
    }
}

fn changed_of(named: &Named) -> &'static str {
    match named {
        Named::Tool(_) => "notifications/tools/list_changed",
        Named::Prompt(_) => "notifications/prompts/list_changed",
        Named::Resource(_) => "notifications/resources/list_changed",
    }
}

impl fmt::Debug for MockServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MockServer")
            .field("uri", &self.uri())
            .field("relay", &self.inner.relay)
            .finish_non_exhaustive()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.state.switch.stop();
        // A second panic while unwinding would abort the test binary.
        if std::thread::panicking() {
            return;
        }
        if let Some(unmet) = self.state.verify() {
            panic!("{unmet}");
        }
    }
}

/// A double's surface, identity and revisions, before it starts.
#[must_use]
#[derive(Debug, Clone)]
pub struct MockServerBuilder {
    identity: Identity,
    declared: Declared,
    replay: Option<Arc<Cassette>>,
    matching: Matching,
    http_port: u16,
}

impl MockServerBuilder {
    /// The `serverInfo` name (`mcp-assured-double` by default).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.identity.name = name.into();
        self
    }

    /// The `serverInfo` version.
    pub fn version(mut self, version: impl Into<String>) -> Self {
        self.identity.version = version.into();
        self
    }

    /// The `instructions` of `initialize`.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.identity.instructions = Some(instructions.into());
        self
    }

    /// The capabilities, as JSON (default: tools, prompts and resources with `listChanged`,
    /// resource subscriptions, logging and completions).
    pub fn capabilities(mut self, capabilities: Value) -> Self {
        self.identity.capabilities = Some(capabilities);
        self
    }

    /// Serves only these protocol revisions (`"2025-11-25"`, `"2026-07-28"`, ...).
    pub fn revisions<S: Into<String>>(mut self, revisions: impl IntoIterator<Item = S>) -> Self {
        self.identity.versions = Some(revisions.into_iter().map(Into::into).collect());
        self
    }

    /// A tool as `tools/list` gives it: `{"name": .., "inputSchema": .., ...}`.
    pub fn tool(mut self, tool: Value) -> Self {
        self.declared.tools.push(tool);
        self
    }

    /// A prompt as `prompts/list` gives it.
    pub fn prompt(mut self, prompt: Value) -> Self {
        self.declared.prompts.push(prompt);
        self
    }

    /// A resource as `resources/list` gives it.
    pub fn resource(mut self, resource: Value) -> Self {
        self.declared.resources.push(resource);
        self
    }

    /// A resource template as `resources/templates/list` gives it.
    pub fn resource_template(mut self, template: Value) -> Self {
        self.declared.templates.push(template);
        self
    }

    /// Answers from a recorded session, with its server's identity and capabilities (see
    /// [`MockServer::from_cassette`]).
    pub fn replay(mut self, cassette: Cassette) -> Self {
        let server = &cassette.server;
        if let Some(name) = server.server_info["name"].as_str() {
            self.identity.name = name.to_owned();
        }
        if let Some(version) = server.server_info["version"].as_str() {
            self.identity.version = version.to_owned();
        }
        if server.capabilities.is_object() {
            self.identity.capabilities = Some(server.capabilities.clone());
        }
        if server.instructions.is_some() {
            self.identity.instructions = server.instructions.clone();
        }
        replay::declare_used(&cassette, &mut self.declared);
        self.replay = Some(Arc::new(cassette));
        self
    }

    /// How requests are matched to the cassette's interactions ([`Matching::new`] by
    /// default: method, name or URI and arguments).
    pub fn matching(mut self, matching: Matching) -> Self {
        self.matching = matching;
        self
    }

    /// Serves streamable HTTP on this loopback port instead of a free one.
    pub fn http_port(mut self, port: u16) -> Self {
        self.http_port = port;
        self
    }

    /// Starts it.
    ///
    /// # Panics
    ///
    /// When [`try_start`](Self::try_start) fails: capabilities that are not an MCP
    /// `capabilities` object, a revision rmcp does not know, or no loopback port.
    pub async fn start(self) -> MockServer {
        match self.try_start().await {
            Ok(server) => server,
            Err(error) => panic!("the MCP double did not start: {error}"),
        }
    }

    /// Starts it, or says why it cannot.
    ///
    /// # Errors
    ///
    /// Capabilities that are not an MCP `capabilities` object, a revision rmcp does not
    /// know, or a port that cannot be bound (taken, say).
    pub async fn try_start(self) -> Result<MockServer> {
        if let Some(capabilities) = &self.identity.capabilities
            && let Err(error) =
                serde_json::from_value::<rmcp::model::ServerCapabilities>(capabilities.clone())
        {
            return Err(Error::InvalidInput {
                what: "MCP double capabilities".to_owned(),
                reason: format!(
                    "{error}: give an MCP `capabilities` object, e.g. {{\"tools\": {{}}}}"
                ),
            });
        }
        if let Some(versions) = &self.identity.versions {
            let known = rmcp::model::ProtocolVersion::KNOWN_VERSIONS;
            if let Some(unknown) = versions
                .iter()
                .find(|version| !known.iter().any(|known| known.as_str() == version.as_str()))
            {
                let known: Vec<&str> = known.iter().map(|known| known.as_str()).collect();
                return Err(Error::InvalidInput {
                    what: "MCP double revisions".to_owned(),
                    reason: format!("{unknown:?} is not one of {}", known.join(", ")),
                });
            }
        }
        let replay = self.replay.map(|cassette| Replay {
            cassette,
            matching: self.matching,
        });
        let state = State::new(self.identity, self.declared, replay);
        let bind_failed = |what: &str, error: std::io::Error| Error::InvalidInput {
            what: "MCP double".to_owned(),
            reason: format!("it could not listen on {what}: {error}"),
        };
        let http = serve::http(&state, self.http_port)
            .await
            .map_err(|error| bind_failed(&format!("127.0.0.1:{}", self.http_port), error))?;
        let relay = serve::relay(&state)
            .await
            .map_err(|error| bind_failed("a loopback port for its relay", error))?;
        Ok(MockServer {
            inner: Arc::new(Running { state, http, relay }),
        })
    }
}

/// The command that reaches a double over stdio: a program and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StdioCommand {
    /// The `mcp-assured` binary.
    pub program: PathBuf,
    /// `relay 127.0.0.1:PORT`.
    pub args: Vec<String>,
}

/// `/path/to/mcp-assured relay 127.0.0.1:PORT`, quoted for a POSIX shell where need be.
impl fmt::Display for StdioCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let program = self.program.display().to_string();
        let words: Vec<String> = std::iter::once(&program)
            .chain(&self.args)
            .map(|word| shell_quoted(word))
            .collect();
        f.write_str(&words.join(" "))
    }
}

fn shell_quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

fn relay_binary() -> Result<PathBuf> {
    if let Some(named) = std::env::var_os(RELAY_BINARY_VARIABLE) {
        let path = PathBuf::from(named);
        if path.is_file() {
            return Ok(path);
        }
        return Err(Error::InvalidInput {
            what: RELAY_BINARY_VARIABLE.to_owned(),
            reason: format!(
                "it names {}, which is not a file; it must name the `mcp-assured` binary \
                 that relays a stdio MCP double",
                path.display()
            ),
        });
    }
    // A test binary is `<target>/<profile>/deps/<name>-<hash>`: in a workspace that builds
    // the CLI, `<target>/<profile>/mcp-assured`, which is this checkout's, so it comes before
    // one installed on PATH (which may be older, without `relay`).
    let beside_the_tests = || {
        let exe = std::env::current_exe().ok()?;
        let candidate = exe.parent()?.parent()?.join("mcp-assured");
        candidate.is_file().then_some(candidate)
    };
    let on_path = || {
        std::env::var_os("PATH")
            .iter()
            .flat_map(std::env::split_paths)
            .map(|dir| dir.join("mcp-assured"))
            .find(|candidate| candidate.is_file())
    };
    beside_the_tests()
        .or_else(on_path)
        .ok_or_else(|| Error::InvalidInput {
            what: "stdio MCP double".to_owned(),
            reason: format!(
                "it is reached through the `mcp-assured` binary, which is neither built in \
                 this target directory nor on PATH: install it with `cargo install \
                 mcp-assured-cli` (or build the workspace's `mcp-assured-cli`), or set \
                 {RELAY_BINARY_VARIABLE} to its path"
            ),
        })
}
