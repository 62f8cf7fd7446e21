//! Which protocol revision a connection speaks, and how it starts: `server/discover` and
//! per-request metadata (2026-07-28, SEP-2567), or the `initialize` handshake of every older
//! revision.
//!
//! rmcp can probe with `server/discover` and fall back (`ClientLifecycleMode::Auto`), but
//! waits 10 s for a server that ignores the probe and trips over a late answer to it; so the
//! probe is run here, on the bare transport, with a short wait, and the connection is then
//! handed to rmcp already in its era (`serve_directly` with the discovered server), or to
//! rmcp's `initialize`.

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use rmcp::{
    RoleClient,
    model::{
        ClientCapabilities, ClientJsonRpcMessage, ClientRequest, DiscoverRequest,
        DiscoverRequestParams, DiscoverResult, ErrorCode, Implementation, JsonRpcMessage,
        ProtocolVersion, RequestId, RequestMetaObject, ServerResult,
    },
    service::RxJsonRpcMessage,
    transport::Transport,
};

/// How long a server may take to answer `server/discover` before it is taken to be one
/// that ignores it (an older revision's server that drops unknown methods). Older servers
/// answer at once with an error, so this only costs time on those that never answer.
pub const DEFAULT_DISCOVER_TIMEOUT: Duration = Duration::from_secs(3);

/// How [`Probed::Legacy`] begins when the server did not answer in time.
pub(crate) const PROBE_UNANSWERED: &str = "no answer to `server/discover`";

/// The id of the probe, apart from rmcp's numeric ids.
const PROBE_ID: &str = "mcp-assured/server-discover";

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
    /// It does not know `server/discover` (it answered `why`): an older revision's server.
    Legacy { why: String },
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

/// Sends `server/discover` on `transport` and reads the answer, within `wait`.
///
/// # Errors
///
/// The transport failed, or closed before answering.
pub(crate) async fn probe<T: Transport<RoleClient> + 'static>(
    transport: &mut T,
    protocol: &Protocol,
    client_info: &Implementation,
    capabilities: &ClientCapabilities,
    wait: Duration,
) -> Result<Probed, ProbeFailure> {
    let mut offered = protocol.discoverable();
    let mut tried = Vec::new();
    while let Some(version) = offered.first().cloned() {
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
        // Over HTTP, sending is the POST: it is bounded by the wait too.
        let exchange = async {
            transport.send(message).await.map_err(|error| {
                ProbeFailure::Transport(Box::new(
                    rmcp::service::ClientInitializeError::transport::<T>(
                        error,
                        "send server/discover",
                    ),
                ))
            })?;
            answer_to(transport, &id).await.map_err(ProbeFailure::Gone)
        };
        let answer = match tokio::time::timeout(wait, exchange).await {
            Ok(answer) => answer?,
            Err(_) => {
                return Ok(Probed::Legacy {
                    why: format!("{PROBE_UNANSWERED} within {wait:?}"),
                });
            }
        };
        match answer {
            Ok(ServerResult::DiscoverResult(result)) => {
                let chosen = offered
                    .iter()
                    .find(|version| result.supported_versions.contains(version));
                return Ok(match chosen {
                    Some(version) => Probed::Modern {
                        version: version.clone(),
                        result: Box::new(result),
                    },
                    None => Probed::Unsupported {
                        supported: names(&result.supported_versions),
                    },
                });
            }
            Ok(other) => {
                // A success, but not a discover result (rmcp could not read one): the spec
                // allows a fallback only on an error or no answer.
                return Ok(Probed::Rejected {
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
                offered.retain(|version| {
                    !tried.contains(version) && supported.iter().any(|s| s == version.as_str())
                });
                if offered.is_empty() {
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

/// The answer to request `id`: notifications before it are dropped (none matter before
/// the lifecycle starts), and so is anything else.
async fn answer_to<T: Transport<RoleClient>>(
    transport: &mut T,
    id: &RequestId,
) -> Result<Result<ServerResult, rmcp::model::ErrorData>, String> {
    loop {
        let Some(message) = transport.receive().await else {
            return Err(
                "the server closed the connection instead of answering `server/discover`"
                    .to_owned(),
            );
        };
        match message {
            JsonRpcMessage::Response(response) if &response.id == id => {
                return Ok(Ok(response.result));
            }
            JsonRpcMessage::Error(error) if error.id.as_ref() == Some(id) => {
                return Ok(Err(error.error));
            }
            _ => {}
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

/// Whether a request id, as JSON text (`"mcp-assured/server-discover-0"`), is a probe's.
pub(crate) fn is_probe_id_text(id: &str) -> bool {
    id.strip_prefix('"')
        .is_some_and(|id| id.starts_with(PROBE_ID))
}

fn is_probe(id: &RequestId) -> bool {
    matches!(id, RequestId::String(text) if text.starts_with(PROBE_ID))
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
            let probe_answer = match &message {
                JsonRpcMessage::Response(response) => is_probe(&response.id),
                JsonRpcMessage::Error(error) => error.id.as_ref().is_some_and(is_probe),
                _ => false,
            };
            if !probe_answer {
                return Some(message);
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
}
