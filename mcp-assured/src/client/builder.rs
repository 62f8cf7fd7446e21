//! `McpAssured::client()`: where the server is, how to authenticate, how long to wait, and
//! how to answer the server's own requests. `build()` connects and initializes.

use std::{
    ffi::OsString,
    path::PathBuf,
    sync::{Arc, Mutex},
    time::Duration,
};

use rmcp::{
    RoleServer, Service,
    model::{
        ClientCapabilities, ClientConfig, CreateMessageRequestParams, CreateMessageResult,
        ElicitRequestParams, ElicitResult, Implementation, ProtocolVersion, Root,
    },
};
use serde_json::json;

use super::{
    McpClient,
    connect::{self, Lifecycle, Reconnect},
    handler::Harness,
    lifecycle::{DEFAULT_DISCOVER_TIMEOUT, Protocol},
    proxy,
    server_requests::{self, Answers, IntoAnswer, answer},
    taping::Tape,
};
#[cfg(feature = "http")]
use crate::transport::http::HttpTarget;
use crate::{
    coverage::recorder::CoverageSink,
    credentials::{Credentials, OAuth},
    error::{Error, Result},
    secret::Secret,
    tls::Tls,
    transport::{Target, in_process::InProcessServer, stdio::StdioCommand},
};

/// What [`ClientBuilder::protocol_version`] takes to mean: negotiate the newest revision.
const NEWEST: &str = "newest";

/// The default time a request may take.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The default time start-up may take: spawning the server or connecting to it, and the
/// `initialize` handshake. Generous, since interpreters and containers boot slowly.
pub const DEFAULT_STARTUP_TIMEOUT: Duration = Duration::from_secs(60);

/// The streamable HTTP path used when a base URI has none.
#[cfg(feature = "http")]
const DEFAULT_MCP_PATH: &str = "/mcp";
/// The HTTP+SSE path used with `.sse()` when a base URI has none.
#[cfg(feature = "http")]
const DEFAULT_SSE_PATH: &str = "/sse";

/// The entry point of the harness.
///
/// ```no_run
/// # async fn demo() -> mcp_assured::Result<()> {
/// use mcp_assured::McpAssured;
/// let client = McpAssured::client()
///     .base_uri("http://127.0.0.1:3001")
///     .bearer_token("secret")
///     .build()
///     .await?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct McpAssured;

impl McpAssured {
    /// Starts configuring a client.
    pub fn client() -> ClientBuilder {
        ClientBuilder::default()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HttpKind {
    StreamableHttp,
    Sse,
}

/// Configures a [`McpClient`]; [`build`](ClientBuilder::build) connects.
///
/// Choose one server: [`base_uri`](Self::base_uri) (HTTP), [`command`](Self::command)
/// (a child process on stdio) or [`service`](Self::service) (an rmcp server in this
/// process).
#[must_use = "a ClientBuilder does nothing until `.build().await`"]
#[derive(Debug)]
pub struct ClientBuilder {
    base_uri: Option<String>,
    http_kind: Option<HttpKind>,
    credentials: Credentials,
    tls: Tls,
    command: Option<StdioCommand>,
    service: Option<InProcessServer>,
    /// `None` until set: [`DEFAULT_TIMEOUT`], or what `#[mcp_test]` derives from the test's
    /// own timeout.
    timeout: Option<Duration>,
    /// `None` until set: [`DEFAULT_STARTUP_TIMEOUT`], or what `#[mcp_test]` derives.
    startup_timeout: Option<Duration>,
    protocol: Protocol,
    discover_timeout: Option<Duration>,
    client_info: Implementation,
    answers: Answers,
    /// Where to record the session, as a cassette.
    record_to: Option<PathBuf>,
    /// Where to record surface coverage: `None` for `MCP_ASSURED_COVERAGE`'s directory,
    /// `Some(None)` for nowhere.
    coverage_to: Option<Option<PathBuf>>,
    /// Misuse found by the setters, reported by `build()` so chains stay fluent.
    problems: Vec<String>,
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder {
            base_uri: None,
            http_kind: None,
            credentials: Credentials::new(),
            tls: Tls::new(),
            command: None,
            service: None,
            timeout: None,
            startup_timeout: None,
            // The newest revision both sides speak: `server/discover`, falling back to
            // `initialize` at once for servers that refuse it.
            protocol: Protocol::Newest,
            discover_timeout: None,
            client_info: Implementation::new("mcp-assured", env!("CARGO_PKG_VERSION")),
            answers: Answers::default(),
            record_to: None,
            coverage_to: None,
            problems: Vec::new(),
        }
    }
}

impl ClientBuilder {
    /// The server's HTTP address. A URI without a path gets `/mcp` (streamable HTTP); a path
    /// ending in `/sse` selects the older HTTP+SSE transport.
    pub fn base_uri(mut self, uri: impl Into<String>) -> Self {
        self.base_uri = Some(uri.into());
        self
    }

    /// Forces the older HTTP+SSE transport (protocol 2024-11-05), whatever the path; a
    /// URI without a path gets `/sse`.
    pub fn sse(mut self) -> Self {
        self.http_kind = Some(HttpKind::Sse);
        self
    }

    /// Forces streamable HTTP, even for a path ending in `/sse`.
    pub fn streamable_http(mut self) -> Self {
        self.http_kind = Some(HttpKind::StreamableHttp);
        self
    }

    /// Sends `Authorization: Bearer <token>` with every HTTP request. The token never
    /// appears in `Debug` output or errors.
    pub fn bearer_token(mut self, token: impl Into<Secret>) -> Self {
        self.credentials = self.credentials.bearer_token(token);
        self
    }

    /// Alias of [`bearer_token`](Self::bearer_token), as in RestAssured's `accessToken`.
    pub fn access_token(self, token: impl Into<Secret>) -> Self {
        self.bearer_token(token)
    }

    /// Sends HTTP basic authentication with every request.
    pub fn basic_auth(mut self, user: impl Into<String>, password: impl Into<Secret>) -> Self {
        self.credentials = self.credentials.basic_auth(user, password);
        self
    }

    /// Adds a header to every HTTP request. Values are treated as secrets.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<Secret>) -> Self {
        self.credentials = self.credentials.header(name, value);
        self
    }

    /// Authorizes with OAuth 2.1 when the server asks (streamable HTTP): discovery, client
    /// registration, a token, refresh and step-up, as [`OAuth`] describes; replaces a bearer
    /// token or basic authentication. Start-up includes the authorization, so
    /// [`startup_timeout`](Self::startup_timeout) bounds it.
    ///
    /// ```no_run
    /// # async fn demo() -> mcp_assured::Result<()> {
    /// use mcp_assured::{McpAssured, OAuth};
    ///
    /// let client = McpAssured::client()
    ///     .base_uri("https://mcp.example.com/mcp")
    ///     .oauth(OAuth::new().client_id("test-client").scopes(["mcp:tools"]))
    ///     .build()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn oauth(mut self, oauth: OAuth) -> Self {
        self.credentials = self.credentials.oauth(oauth);
        self
    }

    /// Sends these credentials with every HTTP request, replacing any set before: the same
    /// [`Credentials`] can go to the [REST client](crate::rest::RestClientBuilder::credentials)
    /// of a hybrid server.
    pub fn credentials(mut self, credentials: Credentials) -> Self {
        self.credentials = credentials;
        self
    }

    /// Over `https://`, also trusts the CA certificate(s) in this PEM text, besides the
    /// platform's (see [`Tls`]).
    pub fn ca_certificate_pem(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.tls = self.tls.ca_certificate_pem(pem);
        self
    }

    /// Over `https://`, also trusts the CA certificate(s) in this PEM file, read by
    /// `build()`; curl's `--cacert`.
    pub fn ca_certificate_file(mut self, path: impl AsRef<std::path::Path>) -> Self {
        self.tls = self.tls.ca_certificate_file(path);
        self
    }

    /// Over `https://`, accepts any certificate (self-signed, expired, for another host), as
    /// curl's `-k/--insecure`. For test servers only.
    pub fn accept_invalid_certificates(mut self, accept: bool) -> Self {
        self.tls = self.tls.accept_invalid_certificates(accept);
        self
    }

    /// Whom to trust over `https://`, replacing what was set before: the same [`Tls`] can
    /// go to the [REST client](crate::rest::RestClientBuilder::tls).
    pub fn tls(mut self, tls: Tls) -> Self {
        self.tls = tls;
        self
    }

    /// How long each request may take (default [`DEFAULT_TIMEOUT`], 30 s). Start-up has a
    /// limit of its own ([`startup_timeout`](Self::startup_timeout)), so a short one here,
    /// chosen to catch a hanging tool, does not fail a server that is slow to boot. Override
    /// it for single calls with [`McpClient::with_timeout`].
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The timeout for when none was set with [`timeout`](Self::timeout).
    pub(crate) fn default_timeout(mut self, timeout: Duration) -> Self {
        self.timeout.get_or_insert(timeout);
        self
    }

    /// How long start-up may take: spawning the server or connecting to it, and the
    /// `initialize` handshake (default [`DEFAULT_STARTUP_TIMEOUT`], 60 s). When it expires,
    /// `build()` fails with [`Error::Timeout`] for `initialize`, with the server's stderr
    /// tail, and a child is killed.
    ///
    /// ```no_run
    /// # async fn demo() -> mcp_assured::Result<()> {
    /// use std::time::Duration;
    /// use mcp_assured::McpAssured;
    ///
    /// // A Python server may take seconds to boot; its tools must answer within 800 ms.
    /// let client = McpAssured::client()
    ///     .command("python3")
    ///     .arg("server.py")
    ///     .startup_timeout(Duration::from_secs(20))
    ///     .timeout(Duration::from_millis(800))
    ///     .build()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn startup_timeout(mut self, timeout: Duration) -> Self {
        self.startup_timeout = Some(timeout);
        self
    }

    /// The start-up timeout for when none was set with
    /// [`startup_timeout`](Self::startup_timeout).
    pub(crate) fn default_startup_timeout(mut self, timeout: Duration) -> Self {
        self.startup_timeout.get_or_insert(timeout);
        self
    }

    /// Runs the server as a child process speaking MCP on stdin/stdout.
    pub fn command(mut self, program: impl Into<OsString>) -> Self {
        self.command = Some(StdioCommand {
            program: program.into(),
            ..self.command.take().unwrap_or_default()
        });
        self
    }

    /// Adds an argument to the [`command`](Self::command).
    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.stdio().args.push(arg.into());
        self
    }

    /// Adds arguments to the [`command`](Self::command).
    pub fn args<I, A>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = A>,
        A: Into<OsString>,
    {
        self.stdio().args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Sets an environment variable of the [`command`](Self::command). Values are never
    /// printed.
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.stdio().env.push((key.into(), value.into()));
        self
    }

    /// Removes an inherited environment variable from the [`command`](Self::command).
    pub fn env_remove(mut self, key: impl Into<OsString>) -> Self {
        self.stdio().env_remove.push(key.into());
        self
    }

    /// The working directory of the [`command`](Self::command).
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.stdio().current_dir = Some(dir.into());
        self
    }

    /// Runs the server from a whole command line, as [`command`](Self::command) and its
    /// companions would, after whatever [`arg`](Self::arg), [`env`](Self::env),
    /// [`env_remove`](Self::env_remove) and [`current_dir`](Self::current_dir) set before (an
    /// `#[mcp_test]`'s `client = |builder| ..` option may have): their arguments come first,
    /// their environment is kept, and the command's working directory wins.
    pub(crate) fn stdio_command(mut self, command: StdioCommand) -> Self {
        let earlier = self.command.take().unwrap_or_default();
        self.command = Some(StdioCommand {
            program: command.program,
            args: earlier.args.into_iter().chain(command.args).collect(),
            env: earlier.env.into_iter().chain(command.env).collect(),
            env_remove: earlier
                .env_remove
                .into_iter()
                .chain(command.env_remove)
                .collect(),
            current_dir: command.current_dir.or(earlier.current_dir),
        });
        self
    }

    /// Runs an rmcp server (any `ServerHandler`) in this process, joined to the client by
    /// an in-memory pipe: no port, no process.
    pub fn service<S: Service<RoleServer>>(mut self, server: S) -> Self {
        self.service = Some(InProcessServer::new(server));
        self
    }

    /// Pins the protocol revision: the connection speaks exactly this one, or `build()` fails
    /// with [`Error::ProtocolVersion`] naming what the server offered. A revision with the
    /// `initialize` handshake (`2025-11-25` and older) is offered there and must be echoed;
    /// `2026-07-28` is asked for with `server/discover` and then sent with every request.
    /// Without a pin the client negotiates the newest revision both sides speak (as
    /// `"newest"` and [`newest_protocol`](Self::newest_protocol) do);
    /// [`offer_protocol_version`](Self::offer_protocol_version) is the negotiation of
    /// `initialize` alone.
    pub fn protocol_version(mut self, version: impl AsRef<str>) -> Self {
        let version = version.as_ref();
        if version == NEWEST {
            return self.newest_protocol();
        }
        match ProtocolVersion::KNOWN_VERSIONS
            .iter()
            .find(|known| known.as_str() == version)
        {
            Some(known) => self.protocol = Protocol::Pin(known.clone()),
            None => self.problems.push(format!(
                "unknown protocol version `{version}`; known: {}, or `{NEWEST}`",
                ProtocolVersion::KNOWN_VERSIONS
                    .iter()
                    .map(|v| v.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
        self
    }

    /// Negotiates with `initialize` alone, as clients did before 2026-07-28: offers `version`
    /// (one with the handshake: `2025-11-25` or older) and takes whatever known version the
    /// server answers. No `server/discover` is sent.
    pub fn offer_protocol_version(mut self, version: impl AsRef<str>) -> Self {
        let version = version.as_ref();
        match ProtocolVersion::KNOWN_VERSIONS
            .iter()
            .find(|known| known.as_str() == version && known.has_initialize())
        {
            Some(known) => self.protocol = Protocol::Offer(known.clone()),
            None => self.problems.push(format!(
                "`{version}` cannot be offered in `initialize`; offer one of {}",
                ProtocolVersion::KNOWN_VERSIONS
                    .iter()
                    .filter(|v| v.has_initialize())
                    .map(|v| v.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
        self
    }

    /// Negotiates the newest revision both sides speak (the default): probes with
    /// `server/discover` and speaks `2026-07-28` if the server does, else falls back to
    /// `initialize`. Over HTTP+SSE (a 2024-11-05 transport) it is `initialize`.
    ///
    /// The wait for the probe's answer is the server's boot, bounded by the
    /// [start-up timeout](Self::startup_timeout): a server that takes seconds to answer its
    /// first request is waited for. A server that answers the probe with an error, or with
    /// something that is not a `DiscoverResult`, gets `initialize` at once on the same
    /// connection; one that is up (it answers a `ping`) but leaves the probe unanswered gets
    /// it after [`discover_timeout`](Self::discover_timeout); one that answers nothing at all
    /// within half the start-up timeout gets it on a fresh connection (a child process is
    /// started again), never on the one where it may still answer the probe.
    pub fn newest_protocol(mut self) -> Self {
        self.protocol = Protocol::Newest;
        self
    }

    /// How long a server that is up (it answered a `ping` sent after the probe) may leave
    /// `server/discover` unanswered before it is taken to be an older one that drops unknown
    /// methods (default [`DEFAULT_DISCOVER_TIMEOUT`], 3 s, and at most half the start-up
    /// timeout). A server still booting is waited for whatever this is: that wait is the
    /// [start-up timeout](Self::startup_timeout)'s.
    pub fn discover_timeout(mut self, timeout: Duration) -> Self {
        self.discover_timeout = Some(timeout);
        self
    }

    /// The `clientInfo` sent in `initialize` (default `mcp-assured` and its version).
    pub fn client_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.client_info = Implementation::new(name, version);
        self
    }

    /// Answers `sampling/createMessage` requests, and advertises the `sampling` capability.
    /// The closure returns a `CreateMessageResult`, or `Err(ErrorData)` to refuse.
    pub fn on_sampling<F, A>(mut self, answer_with: F) -> Self
    where
        F: Fn(&CreateMessageRequestParams) -> A + Send + Sync + 'static,
        A: IntoAnswer<CreateMessageResult>,
    {
        self.answers.sampling = Some(answer(answer_with));
        self
    }

    /// Answers `elicitation/create` requests, and advertises the `elicitation` capability
    /// (form and URL modes). The closure returns an `ElicitResult`, or `Err(ErrorData)`.
    pub fn on_elicitation<F, A>(mut self, answer_with: F) -> Self
    where
        F: Fn(&ElicitRequestParams) -> A + Send + Sync + 'static,
        A: IntoAnswer<ElicitResult>,
    {
        self.answers.elicitation = Some(answer(answer_with));
        self
    }

    /// Answers `elicitation/create` as a user who accepts every form unchanged: with the
    /// defaults its schema declares ([`elicitation_defaults`](crate::elicitation_defaults),
    /// SEP-1034), and a URL elicitation with no content. Advertises the `elicitation`
    /// capability.
    pub fn accept_elicitation_defaults(self) -> Self {
        self.on_elicitation(server_requests::accept_defaults)
    }

    /// Answers `roots/list` with these roots, and advertises the `roots` capability.
    /// Change them later with [`McpClient::set_roots`].
    pub fn roots<I: IntoIterator<Item = Root>>(mut self, roots: I) -> Self {
        self.answers.roots = Some(Arc::new(Mutex::new(roots.into_iter().collect())));
        self
    }

    /// Records every exchange of the session into a [cassette](crate::cassette) at `path`
    /// (pretty-printed JSON, its folder created): each request of the client's with what
    /// answered it, the notifications and requests the server sent meanwhile, the client's
    /// answers to those, and the time each took; values under keys that name secrets are
    /// written as `"<redacted>"` ([`is_secret_key`](crate::cassette::is_secret_key)), and the
    /// client's credentials, sent as HTTP headers, are never recorded.
    ///
    /// The file is written by `build()` (so a path that cannot be written fails there), after
    /// every exchange, by a thread of its own, so that a test that panics still leaves a
    /// readable cassette of what it did, and when the client closes, which reports a write
    /// that failed. A session opened by [`McpClient::reconnect`] goes on recording into the
    /// same cassette. Read it back with [`Cassette::load`](crate::cassette::Cassette::load).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> mcp_assured::Result<()> {
    /// use mcp_assured::{McpAssured, cassette::Cassette};
    /// use mcp_assured_examples::ExampleServer;
    /// use serde_json::json;
    ///
    /// let path = std::env::temp_dir().join("mcp-assured-doc-record_to.json");
    /// let client = McpAssured::client()
    ///     .service(ExampleServer::new())
    ///     .record_to(&path)
    ///     .build()
    ///     .await?;
    /// client.call_tool("echo", json!({"message": "hi"})).await?;
    /// client.close().await?;
    ///
    /// let cassette = Cassette::load(&path).unwrap();
    /// assert_eq!(cassette.interactions[0].method, "tools/call");
    /// assert_eq!(cassette.interactions[0].params["arguments"], json!({"message": "hi"}));
    /// # Ok(()) }
    /// ```
    pub fn record_to(mut self, path: impl Into<PathBuf>) -> Self {
        self.record_to = Some(path.into());
        self
    }

    /// Records the surface coverage of the client's sessions ([`mcp_assured::coverage`]):
    /// which tools were called with which arguments and values, how they answered, which
    /// prompts were got and resources read, into a new file in `dir` (created if missing),
    /// written when the client closes or is dropped. Before closing, the client lists what
    /// the session did not list to the last page, so the record holds the whole surface
    /// (unless it records a cassette with [`record_to`](Self::record_to), which holds only
    /// what the test sent: then the surface comes from the server's other records). A
    /// client dropped without [`close`](McpClient::close) writes what it saw, and lists
    /// nothing.
    ///
    /// Without it, a client records into the directory named by the `MCP_ASSURED_COVERAGE`
    /// environment variable, when it is set: `MCP_ASSURED_COVERAGE=target/coverage cargo
    /// test` records every test's clients. [`without_coverage`](Self::without_coverage)
    /// records nothing either way.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcp_assured::Result<()> {
    /// # use mcp_assured::McpAssured;
    /// # use mcp_assured_examples::ExampleServer;
    /// use mcp_assured::coverage::Coverage;
    /// use serde_json::json;
    ///
    /// let dir = std::env::temp_dir().join(format!("mcp-assured-doc-coverage-{}", std::process::id()));
    /// let client = McpAssured::client()
    ///     .service(ExampleServer::new())
    ///     .coverage_to(&dir)
    ///     .build()
    ///     .await?;
    /// client.call_tool("echo", json!({"message": "hi"})).await?;
    /// client.close().await?;
    ///
    /// let report = Coverage::load(&dir).unwrap().report();
    /// let server = &report.servers[0];
    /// assert!(server.tools.covered >= 1);
    /// assert!(server.uncovered.tools.iter().all(|tool| tool != "echo"));
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// # Ok(()) }
    /// ```
    ///
    /// [`mcp_assured::coverage`]: crate::coverage
    pub fn coverage_to(mut self, dir: impl Into<PathBuf>) -> Self {
        self.coverage_to = Some(Some(dir.into()));
        self
    }

    /// Records no surface coverage, even when `MCP_ASSURED_COVERAGE` is set.
    pub fn without_coverage(mut self) -> Self {
        self.coverage_to = Some(None);
        self
    }

    /// Proxies one whole session between another MCP client, whose end is `client` (any
    /// rmcp server-side transport: `(sink, stream)`, stdin and stdout, ...), and the
    /// server, message for message, until either closes or `stop` completes; then the
    /// server is stopped if it was started here. What `mcp-assured record` does: a proxy
    /// that, with [`record_to`](Self::record_to), records the session.
    ///
    /// The harness opens no session of its own: the client initializes, and every request,
    /// notification and answer, the server's requests and the client's answers included,
    /// goes through with its id as it came. What the server sends is handed on as it sent
    /// it; what the client sends, as rmcp reads it. The options of the session itself
    /// (protocol, timeouts but the start-up one, answers to server requests) do not apply.
    ///
    /// # Errors
    ///
    /// As [`build`](Self::build) fails when the server cannot be started or reached, and
    /// when the server ends the session first, or the cassette cannot be written.
    pub async fn proxy<C, E, A>(self, client: C, stop: impl Future<Output = ()>) -> Result<()>
    where
        C: rmcp::transport::IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let startup_timeout = self.startup_timeout.unwrap_or(DEFAULT_STARTUP_TIMEOUT);
        let tape = tape(self.record_to.as_deref())?;
        let (target, _) = self.into_parts()?;
        proxy::proxy(target, startup_timeout, tape, client.into_transport(), stop).await
    }

    /// Connects, performs the `initialize` handshake, and returns the ready client.
    ///
    /// Fails with [`Error::Connect`], [`Error::Spawn`], [`Error::ServerExited`],
    /// [`Error::Undecodable`], [`Error::Timeout`] and the like, each naming what happened.
    pub async fn build(self) -> Result<McpClient> {
        let timeout = self.timeout.unwrap_or(DEFAULT_TIMEOUT);
        let startup_timeout = self.startup_timeout.unwrap_or(DEFAULT_STARTUP_TIMEOUT);
        let lifecycle = Lifecycle {
            protocol: self.protocol.clone(),
            discover_timeout: self.discover_timeout.unwrap_or(DEFAULT_DISCOVER_TIMEOUT),
            tape: tape(self.record_to.as_deref())?,
            coverage: coverage(self.coverage_to.clone())?,
        };
        let (target, harness) = self.into_parts()?;
        let reconnect = target.reopenable().map(|target| Reconnect {
            target,
            harness: harness.fresh(),
            startup_timeout,
            lifecycle: lifecycle.clone(),
        });
        let connection =
            connect::connect(target, harness.clone(), startup_timeout, lifecycle).await?;
        Ok(McpClient::new(connection, harness, timeout, reconnect))
    }

    fn stdio(&mut self) -> &mut StdioCommand {
        self.command.get_or_insert_with(StdioCommand::default)
    }

    fn into_parts(mut self) -> Result<(Target, Harness)> {
        let chosen = [
            self.base_uri.is_some(),
            self.command.is_some(),
            self.service.is_some(),
        ]
        .iter()
        .filter(|set| **set)
        .count();
        match chosen {
            0 => self.problems.push(
                "no server given: call `.base_uri(..)`, `.command(..)` or `.service(..)`".into(),
            ),
            1 => {}
            _ => self.problems.push(
                "more than one server given: use only one of `.base_uri(..)`, `.command(..)` and `.service(..)`".into(),
            ),
        }
        if let Some(command) = &self.command
            && command.program.is_empty()
        {
            self.problems
                .push("`.arg(..)`/`.env(..)` were given without `.command(..)`".into());
        }
        if !self.problems.is_empty() {
            return Err(Error::invalid(
                "client configuration",
                self.problems.join("; "),
            ));
        }
        let capabilities = capabilities(&self.answers);
        let mut config = ClientConfig::new(capabilities, self.client_info);
        config.protocol_version = self.protocol.handshake_version();
        let harness = Harness::new(config, self.answers);
        let target = if let Some(uri) = self.base_uri {
            http_target(&uri, self.http_kind, self.credentials, self.tls)?
        } else if let Some(command) = self.command {
            Target::Stdio(command)
        } else {
            Target::InProcess(self.service.expect("one server is given"))
        };
        Ok((target, harness))
    }
}

/// The cassette `record_to` asked for, started.
fn tape(path: Option<&std::path::Path>) -> Result<Option<Tape>> {
    path.map(Tape::create)
        .transpose()
        .map_err(|error| Error::invalid("record_to", error.to_string()))
}

fn coverage(choice: Option<Option<PathBuf>>) -> Result<Option<CoverageSink>> {
    let from_env = choice.is_none();
    let Some(dir) = choice.unwrap_or_else(CoverageSink::dir_from_env) else {
        return Ok(None);
    };
    CoverageSink::in_dir(&dir).map(Some).map_err(|error| {
        let named_by = if from_env {
            format!(" (named by {})", crate::coverage::recorder::ENV)
        } else {
            String::new()
        };
        Error::invalid(
            "coverage_to",
            format!(
                "the coverage directory {}{named_by} cannot be created: {error}",
                dir.display()
            ),
        )
    })
}

fn capabilities(answers: &Answers) -> ClientCapabilities {
    let mut capabilities = serde_json::Map::new();
    if answers.sampling.is_some() {
        capabilities.insert("sampling".into(), json!({}));
    }
    if answers.elicitation.is_some() {
        capabilities.insert("elicitation".into(), json!({"form": {}, "url": {}}));
    }
    if answers.roots.is_some() {
        capabilities.insert("roots".into(), json!({"listChanged": true}));
    }
    serde_json::from_value(capabilities.into()).expect("client capabilities are well-formed")
}

/// What a client given an HTTP server says without the `http` feature.
#[cfg(not(feature = "http"))]
const NEEDS_HTTP: &str = "reaching a server over HTTP needs mcp-assured's `http` feature, a \
    default one that `default-features = false` left out: `mcp-assured = { version = \"0.1\", \
    features = [\"http\"] }` in Cargo.toml (or a stdio command, `.command(..)`, or an rmcp \
    server in process, `.service(..)`, which need no feature)";

#[cfg(not(feature = "http"))]
fn http_target(
    uri: &str,
    _kind: Option<HttpKind>,
    _credentials: Credentials,
    _tls: Tls,
) -> Result<Target> {
    Err(Error::invalid(
        "base URI",
        format!("`{uri}` is an HTTP server, and {NEEDS_HTTP}"),
    ))
}

#[cfg(feature = "http")]
fn http_target(
    uri: &str,
    kind: Option<HttpKind>,
    mut credentials: Credentials,
    tls: Tls,
) -> Result<Target> {
    let mut url = url::Url::parse(uri).map_err(|e| {
        Error::invalid(
            "base URI",
            format!("`{uri}` is not a URL ({e}); expected e.g. `http://127.0.0.1:3001`"),
        )
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(Error::invalid(
            "base URI",
            format!("`{uri}` is not an http(s) URL"),
        ));
    }
    crate::tls::require_for(&url, "base URI")?;
    credentials.take_userinfo(&mut url)?;
    let kind = kind.unwrap_or(if url.path().trim_end_matches('/').ends_with("/sse") {
        HttpKind::Sse
    } else {
        HttpKind::StreamableHttp
    });
    if url.path() == "/" || url.path().is_empty() {
        url.set_path(match kind {
            HttpKind::StreamableHttp => DEFAULT_MCP_PATH,
            HttpKind::Sse => DEFAULT_SSE_PATH,
        });
    }
    let http = HttpTarget {
        url: url.to_string(),
        credentials,
        tls,
    };
    Ok(match kind {
        HttpKind::StreamableHttp => Target::StreamableHttp(http),
        HttpKind::Sse => Target::Sse(http),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target_of(builder: ClientBuilder) -> Target {
        builder.into_parts().map(|(t, _)| t).unwrap()
    }

    #[test]
    #[cfg(feature = "http")]
    fn a_bare_base_uri_gets_the_mcp_path() {
        let target = target_of(McpAssured::client().base_uri("http://127.0.0.1:3001"));
        assert!(
            matches!(&target, Target::StreamableHttp(http) if http.url == "http://127.0.0.1:3001/mcp"),
            "{target:?}"
        );
    }

    #[test]
    #[cfg(feature = "http")]
    fn an_sse_path_selects_the_sse_transport() {
        let target = target_of(McpAssured::client().base_uri("http://127.0.0.1:8080/mcp/sse"));
        assert!(
            matches!(&target, Target::Sse(http) if http.url == "http://127.0.0.1:8080/mcp/sse"),
            "{target:?}"
        );
        let forced = target_of(McpAssured::client().base_uri("http://127.0.0.1:8080").sse());
        assert!(
            matches!(&forced, Target::Sse(http) if http.url == "http://127.0.0.1:8080/sse"),
            "{forced:?}"
        );
    }

    #[test]
    #[cfg(feature = "http")]
    fn credentials_in_the_url_become_basic_auth() {
        let target = target_of(McpAssured::client().base_uri("http://ada:p%40ss@127.0.0.1:1/mcp"));
        let Target::StreamableHttp(http) = &target else {
            panic!("{target:?}")
        };
        assert_eq!(http.url, "http://127.0.0.1:1/mcp");
        assert_eq!(
            http.credentials,
            Credentials::new().basic_auth("ada", "p@ss"),
            "{:?}",
            http.credentials
        );
        let both = McpAssured::client()
            .base_uri("http://ada:pass@127.0.0.1:1/mcp")
            .bearer_token("t")
            .into_parts()
            .unwrap_err()
            .to_string();
        assert!(both.contains("other credentials are set too"), "{both}");
        assert!(!both.contains("pass@"), "{both}");
    }

    #[test]
    fn a_whole_command_keeps_what_was_set_before_it() {
        let builder = McpAssured::client()
            .arg("--verbose")
            .env("MARKER", "set")
            .env_remove("HOME")
            .current_dir("/tmp")
            .stdio_command(StdioCommand {
                program: "server".into(),
                args: vec!["--port".into(), "0".into()],
                env: vec![("API".into(), "url".into())],
                ..StdioCommand::default()
            });
        let Target::Stdio(command) = target_of(builder) else {
            panic!("not a stdio target")
        };
        assert_eq!(command.program, "server");
        assert_eq!(command.args, ["--verbose", "--port", "0"]);
        assert_eq!(
            command.env,
            [
                ("MARKER".into(), "set".into()),
                ("API".into(), "url".into())
            ]
        );
        assert_eq!(command.env_remove, ["HOME"]);
        assert_eq!(
            command.current_dir.as_deref(),
            Some(std::path::Path::new("/tmp"))
        );
    }

    #[test]
    fn misuse_is_reported_by_build() {
        let none = McpAssured::client().into_parts().unwrap_err().to_string();
        assert!(none.contains("no server given"), "{none}");
        let two = McpAssured::client()
            .base_uri("http://127.0.0.1:1")
            .command("node")
            .into_parts()
            .unwrap_err()
            .to_string();
        assert!(two.contains("more than one server"), "{two}");
        let version = McpAssured::client()
            .command("x")
            .protocol_version("1999-01-01")
            .into_parts()
            .unwrap_err()
            .to_string();
        assert!(
            version.contains("unknown protocol version `1999-01-01`"),
            "{version}"
        );
        assert!(version.contains("or `newest`"), "{version}");
        let newest = McpAssured::client().protocol_version("newest");
        assert_eq!(newest.protocol, Protocol::Newest);
    }

    #[test]
    #[cfg(feature = "http")]
    fn a_base_uri_that_is_no_url_is_reported_by_build() {
        let url = McpAssured::client()
            .base_uri("127.0.0.1:3001")
            .into_parts()
            .unwrap_err()
            .to_string();
        assert!(url.contains("is not a URL"), "{url}");
    }

    #[test]
    #[cfg(not(feature = "http"))]
    fn without_the_feature_a_base_uri_names_http() {
        let error = McpAssured::client()
            .base_uri("http://127.0.0.1:3001/mcp")
            .into_parts()
            .unwrap_err()
            .to_string();
        assert!(error.contains("`http` feature"), "{error}");
        assert!(error.contains(r#"features = ["http"]"#), "{error}");
        assert!(error.contains("http://127.0.0.1:3001/mcp"), "{error}");
    }

    #[test]
    fn secrets_stay_out_of_debug_output() {
        let builder = McpAssured::client()
            .base_uri("http://127.0.0.1:1")
            .bearer_token("tok-123")
            .header("X-Api-Key", "key-456")
            .command("server")
            .env("DB_PASSWORD", "pw-789");
        let debug = format!("{builder:?}");
        for secret in ["tok-123", "key-456", "pw-789"] {
            assert!(!debug.contains(secret), "{secret} leaked: {debug}");
        }
    }

    #[test]
    fn answers_advertise_capabilities() {
        let (_, harness) = McpAssured::client()
            .command("x")
            .on_sampling(|_| Err(rmcp::model::ErrorData::internal_error("no", None)))
            .roots([Root::new("file:///tmp")])
            .into_parts()
            .unwrap();
        let caps = serde_json::to_value(&harness.state.config.capabilities).unwrap();
        assert_eq!(
            caps,
            json!({"sampling": {}, "roots": {"listChanged": true}})
        );
    }
}
