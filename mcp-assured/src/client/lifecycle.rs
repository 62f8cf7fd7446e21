//! Which protocol revision a connection speaks, and how it starts: `server/discover` and
//! per-request metadata (2026-07-28, SEP-2567), or the `initialize` handshake of every older
//! revision.
//!
//! rmcp can probe with `server/discover` and fall back (`ClientLifecycleMode::Auto`), but
//! waits 10 s for a server that ignores the probe and trips over a late answer to it; so the
//! probe is run here, on the bare transport, and the connection is then handed to rmcp
//! already in its era (`serve_directly` with the discovered server), or to rmcp's
//! `initialize`.
//!
//! The wait for the probe's answer is the server's boot: a server may take most of the
//! start-up timeout to answer its first request. A `ping` sent when the probe has gone
//! unanswered for a while tells a server that is up and drops unknown methods (it answers the
//! ping: `initialize` follows at once) from one still booting (nothing yet: keep waiting).
//! `initialize` is never sent on a connection where the probe may still be answered, since
//! a server that serves both eras (the Python SDK 2.3) takes the first request it reads as
//! the era of the connection.

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use rmcp::{
    RoleClient,
    model::{
        ClientCapabilities, ClientJsonRpcMessage, ClientRequest, DiscoverRequest,
        DiscoverRequestParams, DiscoverResult, ErrorCode, Implementation, JsonRpcMessage,
        ProtocolVersion, RequestId, RequestMetaObject, RequestNoParam, ServerResult,
    },
    service::RxJsonRpcMessage,
    transport::Transport,
};

/// How long a server that has shown it is up (it answered something) may leave
/// `server/discover` unanswered before it is taken to be an older one that drops unknown
/// methods. Older servers answer the probe at once with an error, so this only costs time on
/// those that never answer it.
pub const DEFAULT_DISCOVER_TIMEOUT: Duration = Duration::from_secs(3);

/// How [`Probed::Legacy`] begins when the server did not answer in time.
pub(crate) const PROBE_UNANSWERED: &str = "no answer to `server/discover`";

/// The id of the probe, apart from rmcp's numeric ids.
const PROBE_ID: &str = "mcp-assured/server-discover";

/// The id of the `ping` that asks a server which left the probe unanswered whether it is up
/// at all (a server booting) or reads and drops unknown methods (an older revision's).
const LIVENESS_ID: &str = "mcp-assured/liveness";

/// How long the probe waits, and how.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ProbeTiming {
    /// How long a server that is up may leave `server/discover` unanswered.
    pub(crate) quiet: Duration,
    /// How long to wait for the server's first answer of any kind: its boot.
    pub(crate) patience: Duration,
    /// Whether the transport can carry a `ping` while the probe is unanswered (stdio, in
    /// process), to tell a booting server from one that drops the probe. Over HTTP sending
    /// is the POST, and the server is up: it took the connection.
    pub(crate) liveness: bool,
}

/// Which revision to speak.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Protocol {
    /// Offer `initialize` at this version and take what the server answers: what the
    /// harness did before it knew 2026-07-28.
    Offer(ProtocolVersion),
    /// Exactly this version, or `build()` fails naming what the server offered.
    Pin(ProtocolVersion),
    /// The newest revision both sides speak: 2026-07-28 if the server answers
    /// `server/discover` with it, else `initialize`.
    Newest,
}

impl Protocol {
    /// Whether the connection starts by probing with `server/discover`.
    pub(crate) fn probes(&self) -> bool {
        match self {
            Protocol::Offer(_) => false,
            Protocol::Pin(version) => !version.has_initialize(),
            Protocol::Newest => true,
        }
    }

    /// The version `initialize` offers, when it is used.
    pub(crate) fn handshake_version(&self) -> ProtocolVersion {
        match self {
            Protocol::Offer(version) | Protocol::Pin(version) if version.has_initialize() => {
                version.clone()
            }
            _ => ProtocolVersion::LATEST_WITH_INITIALIZE,
        }
    }

    /// The versions the probe may settle on, newest first.
    fn discoverable(&self) -> Vec<ProtocolVersion> {
        match self {
            Protocol::Pin(version) => vec![version.clone()],
            _ => ProtocolVersion::KNOWN_VERSIONS
                .iter()
                .rev()
                .filter(|version| !version.has_initialize())
                .cloned()
                .collect(),
        }
    }
}

/// What the server answered to `server/discover`.
#[derive(Debug)]
pub(crate) enum Probed {
    /// It speaks `version`, and said so in `result`.
    Modern {
        version: ProtocolVersion,
        result: Box<DiscoverResult>,
    },
    /// It speaks the new lifecycle, but none of the versions asked for: it supports these.
    Unsupported { supported: Vec<String> },
    /// It does not know `server/discover` (it answered `why`, or answered a `ping` sent after
    /// it and left it unanswered): an older revision's server, reached with `initialize` on
    /// the same connection.
    Legacy { why: String },
    /// It answered nothing at all within the probe's patience: a server that never answers
    /// before `initialize`, or one still booting. Reached with `initialize` on a fresh
    /// connection where there can be one (a child started again), since on this one it may
    /// still answer the probe and take the connection for 2026-07-28.
    Silent { why: String },
    /// It refused the probe with an error of the new lifecycle (-32020 header mismatch,
    /// -32021 missing capability): a new server that something in the request displeased;
    /// no fallback.
    Rejected { why: String },
}

/// Why the probe could not be made.
#[derive(Debug)]
pub(crate) enum ProbeFailure {
    /// The transport failed (a refused connection, TLS, a 401 the caller maps).
    Transport(Box<rmcp::service::ClientInitializeError>),
    /// The server closed the connection, or it took the whole `wait` to accept the request.
    Gone(String),
}

/// Sends `server/discover` on `transport` and reads the answer.
///
/// The wait for the first answer is the server's boot, up to `timing.patience`: where the
/// transport allows, a `ping` sent after `timing.quiet` tells a server that is up and drops
/// the probe (it answers the ping) from one still booting (it answers nothing yet).
///
/// # Errors
///
/// The transport failed, or closed before answering.
pub(crate) async fn probe<T: Transport<RoleClient> + 'static>(
    transport: &mut T,
    protocol: &Protocol,
    client_info: &Implementation,
    capabilities: &ClientCapabilities,
    timing: ProbeTiming,
) -> Result<Probed, ProbeFailure> {
    let started = tokio::time::Instant::now();
    let offered = protocol.discoverable();
    // Every version sent, in order, once per attempt.
    let mut tried: Vec<ProtocolVersion> = Vec::new();
    let mut next = offered.first().cloned();
    let mut up = false;
    while let Some(version) = next.take() {
        tried.push(version.clone());
        let meta = RequestMetaObject::with_client_context(
            version.clone(),
            client_info.clone(),
            capabilities.clone(),
        );
        let mut discover = DiscoverRequest::new(DiscoverRequestParams {});
        discover.extensions.insert(meta);
        let id = RequestId::String(format!("{PROBE_ID}-{}", tried.len()).into());
        let message =
            ClientJsonRpcMessage::request(ClientRequest::DiscoverRequest(discover), id.clone());
        let answer = match exchange(transport, message, &id, timing, started, &mut up).await? {
            Exchanged::Answered(answer) => *answer,
            Exchanged::Dropped { after } => {
                return Ok(Probed::Legacy {
                    why: format!(
                        "{PROBE_UNANSWERED} within {after:?}, while a `ping` sent after it was \
                         answered"
                    ),
                });
            }
            Exchanged::Nothing { within } => {
                return Ok(Probed::Silent {
                    why: format!("{PROBE_UNANSWERED}, nor anything else, within {within:?}"),
                });
            }
        };
        match answer {
            Ok(ServerResult::DiscoverResult(result)) => return Ok(discovered(&offered, result)),
            Ok(other) if let Some(result) = discovered_leniently(&other) => {
                // A discover result but for a field the schema requires and rmcp reads
                // strictly: the session goes on, and `wire.schema` names what is missing.
                return Ok(discovered(&offered, result));
            }
            Ok(other) => {
                // A success, but not a discover result (rmcp could not read one): a server
                // that answers every method it does not know with a result, say. Not one of
                // the new lifecycle; the checks report what it does wrong.
                return Ok(Probed::Legacy {
                    why: format!(
                        "`server/discover` was answered with a result that is not a \
                         DiscoverResult (supportedVersions, capabilities, resultType, ttlMs, \
                         cacheScope): {}",
                        serde_json::to_string(&other).unwrap_or_default()
                    ),
                });
            }
            Err(error) if error.code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION => {
                let supported: Vec<String> = error
                    .data
                    .as_ref()
                    .and_then(|data| data.get("supported"))
                    .and_then(|list| serde_json::from_value(list.clone()).ok())
                    .unwrap_or_default();
                next = retry_version(&offered, &tried, &supported);
                if next.is_none() {
                    return Ok(Probed::Unsupported { supported });
                }
            }
            Err(error) => {
                let why = format!(
                    "`server/discover` → {} {}",
                    error.code.0,
                    error.message.trim()
                );
                // The spec's modern errors mean a new server: never fall back on them.
                let modern = [
                    ErrorCode::HEADER_MISMATCH,
                    ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
                ];
                return Ok(if modern.contains(&error.code) {
                    Probed::Rejected { why }
                } else {
                    Probed::Legacy { why }
                });
            }
        }
    }
    Ok(Probed::Unsupported {
        supported: Vec::new(),
    })
}

/// What a discover result says of the session: the newest of the `offered` versions the
/// server supports, or none.
fn discovered(offered: &[ProtocolVersion], result: DiscoverResult) -> Probed {
    let chosen = offered
        .iter()
        .find(|version| result.supported_versions.contains(version));
    match chosen {
        Some(version) => Probed::Modern {
            version: version.clone(),
            result: Box::new(result),
        },
        None => Probed::Unsupported {
            supported: names(&result.supported_versions),
        },
    }
}

/// A result rmcp did not read as a `DiscoverResult` that is one but for what the schema
/// requires and a client can take as the revision's defaults: `resultType` (`complete`, as
/// the schema tells clients to read it when absent), `ttlMs` (0) and `cacheScope`
/// (`private`), the choices that cache nothing. It must name `supportedVersions` and
/// `capabilities`, which nothing can stand in for.
fn discovered_leniently(result: &ServerResult) -> Option<DiscoverResult> {
    let mut result = serde_json::to_value(result).ok()?;
    let object = result.as_object_mut()?;
    if !object.get("supportedVersions")?.is_array() || !object.get("capabilities")?.is_object() {
        return None;
    }
    for (key, default) in [
        ("resultType", serde_json::json!("complete")),
        ("ttlMs", serde_json::json!(0)),
        ("cacheScope", serde_json::json!("private")),
    ] {
        object.entry(key).or_insert(default);
    }
    serde_json::from_value(result).ok()
}

/// How many times the probe sends one version: once, and once more if the server refuses it
/// with -32022 while listing it as supported (a server may refuse a first request whatever
/// it carries, as the conformance suite's `request-metadata` does).
const ATTEMPTS_PER_VERSION: usize = 2;

/// The version to probe with after a -32022 that lists `supported`: of the `offered` versions
/// the server supports, the newest not yet `tried`, else the newest tried only once. `None`
/// when there is none: the probe never sends a version more than
/// [`ATTEMPTS_PER_VERSION`] times.
fn retry_version(
    offered: &[ProtocolVersion],
    tried: &[ProtocolVersion],
    supported: &[String],
) -> Option<ProtocolVersion> {
    let attempts = |version: &ProtocolVersion| tried.iter().filter(|t| *t == version).count();
    let candidates = offered
        .iter()
        .filter(|version| supported.iter().any(|s| s == version.as_str()));
    (0..ATTEMPTS_PER_VERSION).find_map(|times| {
        candidates
            .clone()
            .find(|version| attempts(version) == times)
            .cloned()
    })
}

/// How one probe request ended.
enum Exchanged {
    /// The server answered it.
    Answered(Box<Result<ServerResult, rmcp::model::ErrorData>>),
    /// The server is up (it answered the liveness `ping`) and left it unanswered `after` so
    /// long.
    Dropped { after: Duration },
    /// Nothing came back `within` the patience.
    Nothing { within: Duration },
}

/// Sends `message` (request `id`) and waits for its answer: until `timing.patience` from
/// `started` while the server may be booting, and `timing.quiet` once it is known to be `up`.
async fn exchange<T: Transport<RoleClient> + 'static>(
    transport: &mut T,
    message: ClientJsonRpcMessage,
    id: &RequestId,
    timing: ProbeTiming,
    started: tokio::time::Instant,
    up: &mut bool,
) -> Result<Exchanged, ProbeFailure> {
    let sent = tokio::time::Instant::now();
    let boot_ends = started + timing.patience;
    // Over HTTP, sending is the POST: it is bounded by the wait too.
    let sending = tokio::time::timeout_at(boot_ends, transport.send(message));
    match sending.await {
        Err(_) => {
            return Ok(Exchanged::Nothing {
                within: timing.patience,
            });
        }
        Ok(Err(error)) => {
            return Err(ProbeFailure::Transport(Box::new(
                rmcp::service::ClientInitializeError::transport::<T>(error, "send server/discover"),
            )));
        }
        Ok(Ok(())) => {}
    }
    let liveness = RequestId::String(LIVENESS_ID.into());
    let mut ping_sent = false;
    // When the server is up: how long it may still leave the probe unanswered.
    let mut give_up = (*up).then(|| sent + timing.quiet);
    loop {
        let deadline = match give_up {
            Some(give_up) => give_up,
            None if timing.liveness && !ping_sent => (sent + timing.quiet).min(boot_ends),
            None => boot_ends,
        };
        let received = tokio::time::timeout_at(deadline, transport.receive()).await;
        match received {
            Ok(None) => {
                return Err(ProbeFailure::Gone(
                    "the server closed the connection instead of answering `server/discover`"
                        .to_owned(),
                ));
            }
            Ok(Some(JsonRpcMessage::Response(response))) if &response.id == id => {
                *up = true;
                return Ok(Exchanged::Answered(Box::new(Ok(response.result))));
            }
            Ok(Some(JsonRpcMessage::Error(error))) if error.id.as_ref() == Some(id) => {
                *up = true;
                return Ok(Exchanged::Answered(Box::new(Err(error.error))));
            }
            Ok(Some(JsonRpcMessage::Response(response))) if response.id == liveness => {
                *up = true;
                give_up.get_or_insert(tokio::time::Instant::now() + timing.quiet);
            }
            Ok(Some(JsonRpcMessage::Error(error))) if error.id.as_ref() == Some(&liveness) => {
                *up = true;
                give_up.get_or_insert(tokio::time::Instant::now() + timing.quiet);
            }
            // Notifications before the lifecycle starts: none matters.
            Ok(Some(_)) => {}
            Err(_) if give_up.is_some() => {
                return Ok(Exchanged::Dropped {
                    after: sent.elapsed(),
                });
            }
            Err(_) if deadline >= boot_ends => {
                return Ok(Exchanged::Nothing {
                    within: timing.patience,
                });
            }
            Err(_) => {
                // Quiet so far: ask whether it is up at all. A `ping` is the one request
                // every revision with `initialize` allows before it.
                let ping = ClientJsonRpcMessage::request(
                    ClientRequest::PingRequest(RequestNoParam {
                        method: Default::default(),
                        extensions: Default::default(),
                    }),
                    liveness.clone(),
                );
                ping_sent = true;
                if let Err(error) = transport.send(ping).await {
                    return Err(ProbeFailure::Transport(Box::new(
                        rmcp::service::ClientInitializeError::transport::<T>(error, "send ping"),
                    )));
                }
            }
        }
    }
}

fn names(versions: &[ProtocolVersion]) -> Vec<String> {
    versions.iter().map(|v| v.as_str().to_owned()).collect()
}

/// An answer to the probe that came after the wait, if one did.
pub(crate) type LateAnswer = Arc<Mutex<Option<RxJsonRpcMessage<RoleClient>>>>;

/// A transport that drops answers to the probe: a server that answered `server/discover`
/// after the wait would otherwise answer into rmcp's `initialize`.
pub(crate) struct WithoutProbeAnswers<T> {
    inner: T,
    /// Set when a late answer came: the server did speak the new lifecycle.
    late: LateAnswer,
}

impl<T> WithoutProbeAnswers<T> {
    pub(crate) fn new(inner: T) -> Self {
        Self::keeping_late(inner, Arc::default())
    }

    /// Keeps a late answer in `late`, for the caller to see.
    pub(crate) fn keeping_late(inner: T, late: LateAnswer) -> Self {
        WithoutProbeAnswers { inner, late }
    }
}

/// Whether a request id, as JSON text (`"mcp-assured/server-discover-0"`), is a probe's
/// `server/discover`.
pub(crate) fn is_probe_id_text(id: &str) -> bool {
    id.strip_prefix('"')
        .is_some_and(|id| id.starts_with(PROBE_ID))
}

/// The method of a probe's request, by its id as JSON text: `server/discover` or `ping`.
#[cfg(feature = "schema")]
pub(crate) fn probe_method(id: &str) -> Option<&'static str> {
    if is_probe_id_text(id) {
        Some("server/discover")
    } else if id.strip_prefix('"')?.strip_suffix('"')? == LIVENESS_ID {
        Some("ping")
    } else {
        None
    }
}

/// Whether `id` is the probe's: its `server/discover` or its liveness `ping`.
fn is_probe(id: &RequestId) -> bool {
    matches!(id, RequestId::String(text)
        if text.starts_with(PROBE_ID) || text.as_ref() == LIVENESS_ID)
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for WithoutProbeAnswers<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: rmcp::service::TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            let message = self.inner.receive().await?;
            let answered = match &message {
                JsonRpcMessage::Response(response) => Some(&response.id),
                JsonRpcMessage::Error(error) => error.id.as_ref(),
                _ => None,
            };
            let Some(answered) = answered.filter(|id| is_probe(id)) else {
                return Some(message);
            };
            // A late answer to the liveness `ping` says nothing of the lifecycle.
            let to_discover =
                matches!(answered, RequestId::String(text) if text.starts_with(PROBE_ID));
            if !to_discover {
                continue;
            }
            if let Ok(mut late) = self.late.lock() {
                late.get_or_insert(message);
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.inner.close().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_new_lifecycle_versions_are_discovered_and_a_pin_only_itself() {
        let newest = Protocol::Newest.discoverable();
        assert!(!newest.is_empty());
        assert!(newest.iter().all(|version| !version.has_initialize()));
        assert_eq!(
            Protocol::Pin(ProtocolVersion::LATEST).discoverable(),
            [ProtocolVersion::LATEST]
        );
        assert!(!Protocol::Pin(ProtocolVersion::V_2025_06_18).probes());
        assert!(Protocol::Pin(ProtocolVersion::LATEST).probes());
        assert!(!Protocol::Offer(ProtocolVersion::LATEST_WITH_INITIALIZE).probes());
        assert_eq!(
            Protocol::Newest.handshake_version(),
            ProtocolVersion::LATEST_WITH_INITIALIZE
        );
    }

    #[test]
    fn a_refused_version_the_server_lists_is_retried_once() {
        let latest = ProtocolVersion::LATEST;
        let offered = [latest.clone()];
        let supported = [latest.as_str().to_owned()];
        assert_eq!(
            retry_version(&offered, std::slice::from_ref(&latest), &supported),
            Some(latest.clone())
        );
        assert_eq!(
            retry_version(&offered, &[latest.clone(), latest.clone()], &supported),
            None
        );
        // A version the server does not list is never sent again.
        assert_eq!(
            retry_version(&offered, &[latest], &["1999-01-01".to_owned()]),
            None
        );
    }
}
