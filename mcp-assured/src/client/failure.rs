//! Turns rmcp's errors into [`Error`]s that say what happened, using what the transport
//! recorded (an undecodable line, the child's exit, an HTTP status).

use std::{error::Error as StdError, time::Duration};

#[cfg(feature = "http")]
use rmcp::transport::streamable_http_client::StreamableHttpError;
use rmcp::{ServiceError, model::RequestId, service::ClientInitializeError};

use crate::{
    error::{Error, RETRY_AFTER, TlsProblem},
    transport::{
        diagnostics::{Diagnostics, Fault},
        http::CONNECTION_REFUSED,
        oauth,
    },
};
#[cfg(feature = "http")]
use crate::{
    tls::{connection_refused, tls_failure},
    transport::{
        http::{describe_request_error, status_in_message},
        sse::PostError,
        streamable_http::unparsable_body,
    },
};

/// How long to wait for a child's exit status after its stdout closed.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// What a 404 to a request carrying a session id (streamable HTTP's `Mcp-Session-Id`, or
/// the `sessionId` of an HTTP+SSE message endpoint) means, and what to do.
#[cfg(feature = "http")]
const SESSION_EXPIRED: &str = "the server no longer knows this session (it answered 404 to \
     the session id): the session expired or the server restarted. Connect a new client to \
     start a new session";

/// An HTTP-level cause found in an error's source chain.
#[derive(Debug, Default)]
struct HttpFailure {
    status: Option<u16>,
    /// The `Retry-After` of a 429 or 5xx.
    retry_after: Option<String>,
    www_authenticate: Option<String>,
    connect_failed: bool,
    /// The connection failure was a refused connection (nothing listens).
    refused: bool,
    /// The connection failure was a failed TLS handshake.
    tls: Option<(TlsProblem, String)>,
    reason: Option<String>,
    /// A body that is not JSON-RPC, and why.
    unparsable: Option<(String, String)>,
}

#[cfg(feature = "http")]
fn http_failure(error: &(dyn StdError + 'static)) -> HttpFailure {
    let mut found = HttpFailure::default();
    let mut current = Some(error);
    while let Some(error) = current {
        if let Some(e) = error.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
            match e {
                StreamableHttpError::AuthRequired(auth) => {
                    found.status = Some(401);
                    found.www_authenticate = Some(auth.www_authenticate_header.clone());
                }
                StreamableHttpError::InsufficientScope(scope) => {
                    found.status = Some(403);
                    found.www_authenticate = Some(scope.www_authenticate_header.clone());
                }
                StreamableHttpError::HttpStatus(status) => {
                    found.status = Some(status.status);
                    found.retry_after = status.retry_after.clone();
                }
                StreamableHttpError::UnexpectedServerResponse(message) => {
                    found.status = found.status.or_else(|| status_in_message(message));
                    found.unparsable = found.unparsable.take().or_else(|| unparsable_body(message));
                }
                StreamableHttpError::SessionExpired => {
                    found.status = Some(404);
                    found.reason = Some(SESSION_EXPIRED.to_owned());
                }
                StreamableHttpError::Client(client) => {
                    found.status = found.status.or(client.status().map(|s| s.as_u16()));
                    found.note_connect(client);
                    found.reason = Some(describe_request_error(client));
                }
                _ => {}
            }
            found.reason.get_or_insert_with(|| e.to_string());
        } else if let Some(e) = error.downcast_ref::<PostError>() {
            if let PostError::Status {
                status,
                www_authenticate,
                retry_after,
                ..
            } = e
            {
                found.status = Some(*status);
                found.retry_after = retry_after.clone();
                found.www_authenticate = www_authenticate.clone();
                if *status == 404 {
                    found.reason = Some(format!("{SESSION_EXPIRED} ({e})"));
                }
            }
            if let PostError::Request(request) = e {
                found.note_connect(request);
            }
            found.reason.get_or_insert_with(|| e.to_string());
        } else if let Some(e) = error.downcast_ref::<reqwest::Error>() {
            found.note_connect(e);
            found
                .reason
                .get_or_insert_with(|| describe_request_error(e));
        }
        current = error.source();
    }
    found
}

/// Without the `http` feature no HTTP failure can be in the chain.
#[cfg(not(feature = "http"))]
fn http_failure(_error: &(dyn StdError + 'static)) -> HttpFailure {
    HttpFailure::default()
}

#[cfg(feature = "http")]
impl HttpFailure {
    /// Notes what kind of connection failure `error` is, if it is one.
    fn note_connect(&mut self, error: &reqwest::Error) {
        if error.is_connect() {
            self.connect_failed = true;
            self.refused |= connection_refused(error);
            self.tls = self.tls.take().or_else(|| tls_failure(error));
        }
    }
}

/// The connection is gone: say why, from the most specific cause recorded.
async fn closed(
    method: Option<&str>,
    diagnostics: &Diagnostics,
    send_failure: Option<HttpFailure>,
) -> Error {
    let method = method.map(str::to_owned);
    let stderr_tail = diagnostics.stderr_tail();
    if let Some(Fault::Undecodable { line, reason }) = diagnostics.fault() {
        return Error::Undecodable {
            line,
            reason,
            method,
            stderr_tail,
        };
    }
    if let Some(status) = diagnostics.exit_status(EXIT_GRACE).await {
        return Error::ServerExited {
            method,
            status,
            stderr_tail: diagnostics.stderr_tail(),
        };
    }
    if let Some(Fault::Broken { status, reason }) = diagnostics.fault() {
        return Error::Transport {
            method,
            status,
            reason,
        };
    }
    match send_failure {
        Some(HttpFailure {
            unparsable: Some((line, reason)),
            ..
        }) => Error::Undecodable {
            line,
            reason,
            method,
            stderr_tail,
        },
        Some(failure) => Error::Transport {
            method,
            status: failure.status,
            reason: with_retry_after(
                failure
                    .reason
                    .unwrap_or_else(|| "sending the request failed".to_owned()),
                failure.retry_after.as_deref(),
            ),
        },
        None => Error::Transport {
            method,
            status: None,
            reason: "the server closed the connection".to_owned(),
        },
    }
}

/// `reason`, ending in the `Retry-After` the server sent, if any (what
/// [`Error::retry_after`] reads).
fn with_retry_after(reason: String, retry_after: Option<&str>) -> String {
    match retry_after {
        Some(value) => format!("{reason}; {RETRY_AFTER}{value}"),
        None => reason,
    }
}

/// The server ended a session no request was waiting on: why, as far as the transport saw.
pub(crate) async fn session_ended(diagnostics: &Diagnostics) -> Error {
    closed(None, diagnostics, None).await
}

/// A failed request.
pub(crate) async fn request_failed(
    error: ServiceError,
    method: &str,
    diagnostics: &Diagnostics,
) -> Error {
    match error {
        ServiceError::McpError(error) => Error::JsonRpc {
            method: method.to_owned(),
            code: error.code.0,
            message: error.message.into_owned(),
            data: error.data,
        },
        ServiceError::Timeout { timeout } => Error::Timeout {
            method: method.to_owned(),
            timeout,
            stderr_tail: diagnostics.stderr_tail(),
        },
        ServiceError::TransportClosed => closed(Some(method), diagnostics, None).await,
        ServiceError::TransportSend(error) => {
            if let Some(refused) = oauth::failure_of(error.error.as_ref(), diagnostics) {
                return refused;
            }
            let failure = http_failure(error.error.as_ref());
            closed(Some(method), diagnostics, Some(failure)).await
        }
        ServiceError::UnexpectedResponse => Error::UnexpectedResponse {
            method: method.to_owned(),
            detail: "the result does not have the fields this method returns".to_owned(),
        },
        other => Error::Transport {
            method: Some(method.to_owned()),
            status: None,
            reason: other.to_string(),
        },
    }
}

/// A request sent as `id` that failed waiting for its answer.
pub(crate) async fn answer_failed(
    error: ServiceError,
    method: &str,
    id: &RequestId,
    diagnostics: &Diagnostics,
) -> Error {
    // Streamable HTTP: a response under another id ended the request's stream; rmcp then
    // reports the stream closed, but the server closed nothing.
    if let ServiceError::TransportClosed = error
        && let Some(answered) = diagnostics.take_misdirected(id)
    {
        let id = serde_json::to_string(id).unwrap_or_default();
        return Error::UnexpectedResponse {
            method: method.to_owned(),
            detail: format!(
                "the server answered under id {answered}, not this request's id {id}; rmcp \
                 ends a request's stream at its first response, so the answer never came"
            ),
        };
    }
    request_failed(error, method, diagnostics).await
}

/// The connection ended before the server answered the `server/discover` probe: what ended
/// it, when the transport saw (junk on stdout, an exit), else `reason`.
pub(crate) async fn probe_gone(reason: String, target: &str, diagnostics: &Diagnostics) -> Error {
    if diagnostics.fault().is_some() || diagnostics.exit_status(EXIT_GRACE).await.is_some() {
        return closed(Some("server/discover"), diagnostics, None).await;
    }
    Error::Initialize {
        target: target.to_owned(),
        reason,
        stderr_tail: diagnostics.stderr_tail(),
    }
}

/// A failed `initialize` handshake (or the connection under it).
pub(crate) async fn initialize_failed(
    error: ClientInitializeError,
    target: &str,
    diagnostics: &Diagnostics,
) -> Error {
    const METHOD: &str = "initialize";
    match error {
        ClientInitializeError::TransportError { error, .. } => {
            if let Some(refused) = oauth::failure_of(error.error.as_ref(), diagnostics) {
                return refused;
            }
            let failure = http_failure(error.error.as_ref());
            if let Some((problem, reason)) = failure.tls {
                return Error::Tls {
                    target: target.to_owned(),
                    problem,
                    reason,
                };
            }
            if failure.connect_failed || failure.status.is_some() {
                let reason = if failure.refused {
                    CONNECTION_REFUSED.to_owned()
                } else {
                    failure
                        .reason
                        .unwrap_or_else(|| "the server refused the request".to_owned())
                };
                return Error::Connect {
                    target: target.to_owned(),
                    status: failure.status,
                    www_authenticate: failure.www_authenticate,
                    reason,
                };
            }
            closed(Some(METHOD), diagnostics, Some(failure)).await
        }
        ClientInitializeError::ConnectionClosed(_) => closed(Some(METHOD), diagnostics, None).await,
        ClientInitializeError::JsonRpcError(error) => Error::JsonRpc {
            method: METHOD.to_owned(),
            code: error.code.0,
            message: error.message.into_owned(),
            data: error.data,
        },
        other => Error::Initialize {
            target: target.to_owned(),
            reason: other.to_string(),
            stderr_tail: diagnostics.stderr_tail(),
        },
    }
}
