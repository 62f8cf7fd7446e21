//! Opens the transport for a target and starts the session, within the start-up timeout:
//! `server/discover` for 2026-07-28, or the `initialize` handshake (see [`lifecycle`]),
//! turning every failure into an [`Error`] that names it.
//!
//! [`lifecycle`]: super::lifecycle

use std::{sync::Arc, time::Duration};

use rmcp::{
    ClientCacheConfig, RoleClient, ServiceExt,
    model::{DiscoverResult, ProtocolVersion, ServerPeerInfo},
    service::{RunningService, serve_directly},
    transport::Transport,
};

use super::{
    covering::Covering,
    failure,
    handler::Harness,
    lifecycle::{
        LateAnswer, PROBE_UNANSWERED, ProbeFailure, ProbeTiming, Probed, Protocol,
        WithoutProbeAnswers, probe,
    },
    recording::Recording,
    taping::{Tape, Taping},
};
use crate::{
    coverage::{record::ServerId, recorder::CoverageSink},
    error::{Error, Result},
    transport::{
        Owned, Reopenable, Target,
        diagnostics::{Diagnostics, Stream},
        stdio,
    },
};

/// A live, initialized session and what it owns.
#[derive(Debug)]
pub(crate) struct Connection {
    pub(crate) running: RunningService<RoleClient, Harness>,
    pub(crate) owned: Owned,
    pub(crate) diagnostics: Arc<Diagnostics>,
    pub(crate) target: String,
    /// What the server answered to `server/discover`, on 2026-07-28.
    pub(crate) discovered: Option<DiscoverResult>,
    /// The cassette the session is recorded into, if any.
    pub(crate) tape: Option<Tape>,
    /// The coverage file the session is recorded into, if any.
    pub(crate) coverage: Option<CoverageSink>,
}

/// What opening the same server again takes: a stdio server is started again, an HTTP one
/// connected to again (an in-process server runs once, and has none).
#[derive(Debug)]
pub(crate) struct Reconnect {
    pub(crate) target: Reopenable,
    /// Configured as the first session's, with nothing recorded.
    pub(crate) harness: Harness,
    pub(crate) startup_timeout: Duration,
    pub(crate) lifecycle: Lifecycle,
}

impl Reconnect {
    /// Opens a new session, leaving `self` ready to open another.
    pub(crate) async fn open(&self) -> Result<(Connection, Harness, Reconnect)> {
        let harness = self.harness.fresh();
        let connection = connect(
            self.target.target(),
            harness.clone(),
            self.startup_timeout,
            self.lifecycle.clone(),
        )
        .await?;
        let next = Reconnect {
            target: self.target.clone(),
            harness: self.harness.fresh(),
            startup_timeout: self.startup_timeout,
            lifecycle: self.lifecycle.clone(),
        };
        Ok((connection, harness, next))
    }
}

/// How the session starts, and where it is recorded.
#[derive(Debug, Clone)]
pub(crate) struct Lifecycle {
    pub(crate) protocol: Protocol,
    /// How long `server/discover` may go unanswered by a server that is up.
    pub(crate) discover_timeout: Duration,
    /// The cassette of `record_to`, which every session of the client records into.
    pub(crate) tape: Option<Tape>,
    /// The coverage file of `coverage_to` (or `MCP_ASSURED_COVERAGE`), likewise.
    pub(crate) coverage: Option<CoverageSink>,
}

impl Lifecycle {
    /// How the probe waits within `startup_timeout`: half of it for the server's first
    /// answer (its boot), the other half kept for `initialize` when the probe gets none.
    fn timing(&self, startup_timeout: Duration, liveness: bool) -> ProbeTiming {
        let patience = startup_timeout / 2;
        ProbeTiming {
            quiet: self.discover_timeout.min(patience),
            patience,
            liveness,
        }
    }
}

/// Opens `target` and starts the session, all within `startup_timeout`.
pub(crate) async fn connect(
    target: Target,
    harness: Harness,
    startup_timeout: Duration,
    lifecycle: Lifecycle,
) -> Result<Connection> {
    let timeout = startup_timeout;
    let diagnostics = Diagnostics::new();
    let description = target.describe();
    let attempt = open(
        target,
        harness,
        &description,
        timeout,
        &lifecycle,
        &diagnostics,
    );
    match tokio::time::timeout(timeout, attempt).await {
        Ok(result) => result,
        // Dropping the attempt dropped the transport and killed any child.
        Err(_) => Err(Error::Timeout {
            method: "initialize".to_owned(),
            timeout,
            stderr_tail: diagnostics.stderr_tail(),
        }),
    }
}

async fn open(
    target: Target,
    harness: Harness,
    description: &str,
    startup_timeout: Duration,
    lifecycle: &Lifecycle,
    diagnostics: &Arc<Diagnostics>,
) -> Result<Connection> {
    let start = Start {
        harness,
        description,
        lifecycle,
        diagnostics,
        // Over HTTP sending is the POST, and the server took the connection: no `ping` can
        // go beside the probe, and none is needed to tell it is up.
        timing: lifecycle.timing(startup_timeout, !target.is_streamable_http()),
    };
    match target {
        #[cfg(feature = "http")]
        Target::StreamableHttp(http) => {
            let transport =
                crate::transport::streamable_http::transport(&http, startup_timeout, diagnostics)
                    .await?;
            start.run(transport, Owned::Nothing, None).await
        }
        #[cfg(feature = "http")]
        Target::Sse(http) => {
            if http.credentials.oauth_settings().is_some() {
                return Err(Error::invalid(
                    "credentials",
                    "OAuth is for streamable HTTP; the HTTP+SSE transport (protocol \
                     2024-11-05) predates MCP authorization. Give its bearer token with \
                     `.bearer_token(..)`",
                ));
            }
            if let Protocol::Pin(version) = &lifecycle.protocol
                && !version.has_initialize()
            {
                return Err(Error::invalid(
                    "protocol version",
                    format!(
                        "HTTP+SSE is a 2024-11-05 transport; protocol {version} is spoken over \
                         streamable HTTP or stdio"
                    ),
                ));
            }
            let transport = crate::transport::sse::connect(&http, diagnostics).await?;
            start.handshake(transport, Owned::Nothing).await
        }
        Target::Stdio(command) => {
            let (transport, child) = stdio::spawn(&command, diagnostics)?;
            let again = || {
                stdio::spawn(&command, diagnostics)
                    .map(|(transport, child)| (transport, Owned::Child(child)))
            };
            start
                .run(transport, Owned::Child(child), Some(Box::new(again)))
                .await
        }
        Target::InProcess(server) => {
            let (transport, task) = server.start(diagnostics);
            start.run(transport, Owned::Server(task), None).await
        }
    }
}

/// What starting a session needs, whatever the transport.
#[derive(Clone)]
struct Start<'a> {
    harness: Harness,
    description: &'a str,
    lifecycle: &'a Lifecycle,
    diagnostics: &'a Arc<Diagnostics>,
    timing: ProbeTiming,
}

/// Opens the same server afresh (a child started again), for `initialize` on a connection
/// no probe was sent on.
type Reopen<'a, T> = Box<dyn FnOnce() -> Result<(T, Owned)> + Send + 'a>;

impl Start<'_> {
    /// Starts the session on `transport` in the era the lifecycle asks for; `reopen`, where
    /// there is one, gives a fresh connection for `initialize` when the probe was met with
    /// silence.
    async fn run<T>(
        self,
        mut transport: T,
        owned: Owned,
        reopen: Option<Reopen<'_, T>>,
    ) -> Result<Connection>
    where
        T: Transport<RoleClient> + 'static,
    {
        let protocol = &self.lifecycle.protocol;
        if !protocol.probes() {
            return self.handshake(transport, owned).await;
        }
        let config = &self.harness.state.config;
        let probed = probe(
            &mut transport,
            protocol,
            &config.client_info,
            &config.capabilities,
            self.timing,
        )
        .await;
        match probed {
            Ok(Probed::Modern { version, result }) => {
                self.serve_discovered(transport, owned, version, *result)
                    .await
            }
            // Only revisions of the handshake in common: negotiating the newest means
            // `initialize` (a server that answers the probe accepts it after).
            Ok(Probed::Unsupported { supported })
                if matches!(protocol, Protocol::Newest) && speaks_a_handshake(&supported) =>
            {
                self.handshake(transport, owned).await
            }
            Ok(Probed::Unsupported { supported }) => {
                drop(owned);
                Err(self.unspoken(supported, "`server/discover` names other versions".into()))
            }
            Ok(Probed::Rejected { why }) => {
                drop(owned);
                Err(self.unspoken(Vec::new(), why))
            }
            Ok(Probed::Silent { why }) if matches!(protocol, Protocol::Pin(_)) => {
                drop(owned);
                Err(self.unspoken(Vec::new(), why))
            }
            Ok(Probed::Silent { why }) => match reopen {
                // This connection may still answer the probe: `initialize` goes to a fresh
                // one.
                Some(reopen) => {
                    drop(transport);
                    drop(owned);
                    // The tail says where one process's output ends and the next one's begins.
                    self.diagnostics.push_line(
                        Stream::Stderr,
                        &format!(
                            "[mcp-assured] {why}: the server is started again for `initialize`"
                        ),
                    );
                    let (transport, owned) = reopen()?;
                    self.handshake(transport, owned).await
                }
                None => self.fall_back(transport, owned, why).await,
            },
            Ok(Probed::Legacy { why }) => self.fall_back(transport, owned, why).await,
            Err(ProbeFailure::Transport(error)) => {
                let error =
                    failure::initialize_failed(*error, self.description, self.diagnostics).await;
                drop(owned);
                Err(error)
            }
            Err(ProbeFailure::Gone(reason)) => {
                let error = failure::probe_gone(reason, self.description, self.diagnostics).await;
                drop(owned);
                Err(error)
            }
        }
    }

    /// `initialize` on the probed connection, after an answer (or none) that says the server
    /// is not of the new lifecycle.
    async fn fall_back<T>(self, transport: T, owned: Owned, why: String) -> Result<Connection>
    where
        T: Transport<RoleClient> + 'static,
    {
        let protocol = &self.lifecycle.protocol;
        let timed_out = why.starts_with(PROBE_UNANSWERED);
        let late = Arc::default();
        let fallback = self.clone().handshake_with(transport, owned, &late).await;
        let fallback = match fallback {
            // It answered the probe after all, and now takes the connection for the
            // new lifecycle.
            Err(Error::JsonRpc { code, data, .. })
                if timed_out && code == rmcp::model::ErrorCode::UNSUPPORTED_PROTOCOL_VERSION.0 =>
            {
                let offered: Vec<String> = data
                    .as_ref()
                    .and_then(|data| data.get("supported"))
                    .and_then(|list| serde_json::from_value(list.clone()).ok())
                    .unwrap_or_default();
                return Err(self.too_slow(
                    &why,
                    &format!("then refused `initialize` with -32022, offering {offered:?}"),
                ));
            }
            other => other,
        };
        let answered_late = late.lock().map(|late| late.is_some()).unwrap_or(false);
        match (protocol, fallback) {
            (_, Ok(connection)) if timed_out && answered_late => {
                let _ = connection.running.cancel().await;
                Err(self.too_slow(&why, "then answered it while `initialize` ran"))
            }
            (Protocol::Pin(_), Ok(connection)) => {
                // It speaks an older revision: say which.
                let offered = connection
                    .running
                    .peer()
                    .peer_info()
                    .map(|info| info.protocol_version.to_string());
                let _ = connection.running.cancel().await;
                Err(self.unspoken(offered.into_iter().collect(), why))
            }
            (Protocol::Pin(_), Err(_)) => Err(self.unspoken(Vec::new(), why)),
            (_, result) => result,
        }
    }

    /// A server of the new lifecycle that answered the probe too late.
    fn too_slow(&self, why: &str, then: &str) -> Error {
        Error::Initialize {
            target: self.description.to_owned(),
            reason: format!(
                "{why}, so `initialize` followed, and the server {then}: it speaks the new \
                 lifecycle but was slow to answer. Raise `.discover_timeout(..)` (now {:?}; \
                 at most half the start-up timeout)",
                self.lifecycle.discover_timeout
            ),
            stderr_tail: self.diagnostics.stderr_tail(),
        }
    }

    /// The server does not speak what was asked for.
    fn unspoken(&self, offered: Vec<String>, detail: String) -> Error {
        let requested = match &self.lifecycle.protocol {
            Protocol::Pin(version) | Protocol::Offer(version) => version.to_string(),
            Protocol::Newest => "newest".to_owned(),
        };
        Error::ProtocolVersion {
            target: self.description.to_owned(),
            requested,
            offered,
            detail,
        }
    }

    /// The session of a server that answered `server/discover` with `version`: rmcp sends
    /// the per-request metadata (and, over HTTP, the standard headers) from here on.
    async fn serve_discovered<T>(
        self,
        transport: T,
        owned: Owned,
        version: ProtocolVersion,
        result: DiscoverResult,
    ) -> Result<Connection>
    where
        T: Transport<RoleClient> + 'static,
    {
        let answered = self
            .diagnostics
            .wire
            .take_last_answer(super::lifecycle::is_probe_id_text);
        *self
            .harness
            .state
            .lifecycle_as_sent
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = answered.clone();
        let tape = self.lifecycle.tape.clone();
        if let Some(tape) = &tape {
            tape.discovered(version.as_str(), answered.as_deref(), &result);
        }
        let info = ServerPeerInfo::from_discover_result(version, result.clone());
        let coverage = self.lifecycle.coverage.as_ref().map(|sink| {
            let server = info.server_info.as_ref().map(|server| ServerId {
                name: server.name.clone(),
                version: server.version.clone(),
            });
            sink.session(Some(server.unwrap_or_default()))
        });
        let transport = Recording::new(
            Covering::beside(
                Taping::beside(
                    WithoutProbeAnswers::new(transport),
                    tape.clone(),
                    self.diagnostics,
                ),
                coverage,
            ),
            &self.harness,
            self.diagnostics,
        );
        let running = serve_directly(self.harness, transport, Some(info));
        running
            .peer()
            .set_response_cache_config(ClientCacheConfig::disabled())
            .await;
        Ok(Connection {
            running,
            owned,
            diagnostics: self.diagnostics.clone(),
            target: self.description.to_owned(),
            discovered: Some(result),
            tape,
            coverage: self.lifecycle.coverage.clone(),
        })
    }

    /// The `initialize` handshake; a pinned version must come back.
    async fn handshake<T>(self, transport: T, owned: Owned) -> Result<Connection>
    where
        T: Transport<RoleClient> + 'static,
    {
        self.handshake_with(transport, owned, &Arc::default()).await
    }

    /// [`handshake`](Self::handshake), keeping in `late` an answer to the probe that comes
    /// after it gave up.
    async fn handshake_with<T>(
        self,
        transport: T,
        owned: Owned,
        late: &LateAnswer,
    ) -> Result<Connection>
    where
        T: Transport<RoleClient> + 'static,
    {
        let coverage = self
            .lifecycle
            .coverage
            .as_ref()
            .map(|sink| sink.session(None));
        let transport = Recording::new(
            Covering::beside(
                Taping::beside(
                    WithoutProbeAnswers::keeping_late(transport, late.clone()),
                    self.lifecycle.tape.clone(),
                    self.diagnostics,
                ),
                coverage,
            ),
            &self.harness,
            self.diagnostics,
        );
        let harness = self.harness.clone();
        match harness.serve(transport).await {
            Ok(running) => {
                // A harness reports what the server says, never a cached answer.
                running
                    .peer()
                    .set_response_cache_config(ClientCacheConfig::disabled())
                    .await;
                let answered = running
                    .peer()
                    .peer_info()
                    .map(|info| info.protocol_version.clone());
                if let Protocol::Pin(pinned) = &self.lifecycle.protocol
                    && pinned.has_initialize()
                    && answered.as_ref() != Some(pinned)
                {
                    let offered: Vec<String> = answered.iter().map(ToString::to_string).collect();
                    let _ = running.cancel().await;
                    drop(owned);
                    return Err(self.unspoken(
                        offered.clone(),
                        format!(
                            "`initialize` offered {pinned} and the server answered {}",
                            offered.first().map_or("nothing", String::as_str)
                        ),
                    ));
                }
                Ok(Connection {
                    running,
                    owned,
                    diagnostics: self.diagnostics.clone(),
                    target: self.description.to_owned(),
                    discovered: None,
                    tape: self.lifecycle.tape.clone(),
                    coverage: self.lifecycle.coverage.clone(),
                })
            }
            Err(error) => {
                let error =
                    failure::initialize_failed(error, self.description, self.diagnostics).await;
                drop(owned);
                Err(error)
            }
        }
    }
}

/// Whether any of `versions` is a known revision with the `initialize` handshake.
fn speaks_a_handshake(versions: &[String]) -> bool {
    ProtocolVersion::KNOWN_VERSIONS
        .iter()
        .any(|known| known.has_initialize() && versions.iter().any(|v| v == known.as_str()))
}
