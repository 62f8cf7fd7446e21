//! Faults in the HTTP layer: a middleware that answers as the [`Fault`] says ([`inject`]),
//! around an axum app serving a [`FaultServer`] over streamable HTTP at `/mcp` ([`app`]) or
//! over HTTP+SSE at `/sse` and `/message` (`fault-server --transport sse`).

use std::{
    collections::VecDeque,
    io,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU32, Ordering},
    },
    time::{Duration, Instant},
};

use axum::{
    Router,
    body::{Body, Bytes},
    extract::{Request, State},
    http::{HeaderValue, Method, StatusCode, header},
    middleware::{self, Next},
    response::{IntoResponse as _, Response},
};
use futures::StreamExt as _;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::{Fault, FaultServer, RATE_LIMIT, STRAY_RESPONSE};

/// The `WWW-Authenticate` challenge of [`Fault::Unauthorized`].
pub const CHALLENGE: &str = r#"Bearer realm="fault-server", error="invalid_token""#;

/// The body of [`Fault::NonJson`]'s answers.
pub const NON_JSON_BODY: &str = "<html><body><h1>Welcome to nginx!</h1></body></html>";

/// The largest request body the middleware reads.
const BODY_LIMIT: usize = 16 * 1024 * 1024;

/// The app: `server` at `/mcp` (at `/other` for [`Fault::NotFound`]) behind `fault`.
pub fn app(server: FaultServer, fault: Fault) -> Router {
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default().with_allowed_origins([
            "http://localhost:*",
            "http://127.0.0.1:*",
            "http://[::1]:*",
        ]),
    );
    let path = if fault == Fault::NotFound {
        "/other"
    } else {
        "/mcp"
    };
    inject(Router::new().route_service(path, service), fault)
}

/// `app` behind a middleware that misbehaves as `fault` says.
pub fn inject(app: Router, fault: Fault) -> Router {
    let faults = Arc::new(Faults {
        fault,
        expired: AtomicBool::new(false),
        drop_streams: CancellationToken::new(),
        sessions: Mutex::new(Vec::new()),
        posting: AtomicBool::new(false),
        stream_open: AtomicBool::new(false),
        served_calls: Mutex::new(VecDeque::new()),
        calls: AtomicU32::new(0),
    });
    app.layer(middleware::from_fn_with_state(faults, misbehave))
}

/// Serves [`app`] on `listener` until accepting fails.
///
/// # Errors
///
/// If accepting connections fails.
pub async fn serve(listener: TcpListener, server: FaultServer, fault: Fault) -> io::Result<()> {
    axum::serve(listener, app(server, fault)).await
}

struct Faults {
    fault: Fault,
    /// For [`Fault::ExpireSession`]: a `tools/call` has gone through.
    expired: AtomicBool,
    /// For [`Fault::DropMidStream`] over HTTP+SSE: cancelled by the first `tools/call` of
    /// any session, which breaks every event stream for the rest of the process (one
    /// session per process is all the suite needs).
    drop_streams: CancellationToken,
    /// For [`Fault::SessionOptional`] and [`Fault::UnknownSessionServed`]: every
    /// `Mcp-Session-Id` the server issued, the last one last.
    sessions: Mutex<Vec<HeaderValue>>,
    /// For [`Fault::OneStreamAtATime`]: a POST is open.
    posting: AtomicBool,
    /// For [`Fault::StreamOpensLate`]: a standalone stream has been answered.
    stream_open: AtomicBool,
    /// For [`Fault::RateLimited`]: when each call of the last second was served.
    served_calls: Mutex<VecDeque<Instant>>,
    /// For [`Fault::RateLimited`]: the calls that came, served or not.
    calls: AtomicU32,
}

/// How long [`Fault::OneStreamAtATime`] holds each POST, and [`Fault::StreamOpensLate`]
/// the `GET` of a standalone stream.
const HELD: Duration = Duration::from_millis(300);

async fn misbehave(State(faults): State<Arc<Faults>>, request: Request, next: Next) -> Response {
    match faults.fault {
        Fault::Unauthorized => (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, CHALLENGE)],
            "the token expired",
        )
            .into_response(),
        Fault::UnauthorizedBare => (StatusCode::UNAUTHORIZED, "no credentials").into_response(),
        Fault::Forbidden => (
            StatusCode::FORBIDDEN,
            "forbidden: the token lacks scope mcp:tools",
        )
            .into_response(),
        Fault::InternalError => (
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error: database unavailable",
        )
            .into_response(),
        Fault::NonJson => {
            ([(header::CONTENT_TYPE, "application/json")], NON_JSON_BODY).into_response()
        }
        Fault::DropMidStream | Fault::ExpireSession | Fault::UnknownId => {
            let (parts, body) = request.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
                return (StatusCode::PAYLOAD_TOO_LARGE, "body too large").into_response();
            };
            let is_call = serde_json::from_slice::<Value>(&bytes)
                .is_ok_and(|message| message["method"] == "tools/call");
            // HTTP+SSE posts to `/message` and answers on the session's event stream.
            let sse_post = parts.uri.path() == "/message";
            if faults.fault == Fault::DropMidStream && is_call {
                if sse_post {
                    faults.drop_streams.cancel();
                    return StatusCode::ACCEPTED.into_response();
                }
                return dropped_stream();
            }
            if faults.fault == Fault::DropMidStream && parts.method == Method::GET {
                // An event stream: it never ends by itself, so it may end broken (at once,
                // after a call).
                let response = next
                    .run(Request::from_parts(parts, Body::from(bytes)))
                    .await;
                return broken_on(response, faults.drop_streams.clone());
            }
            if faults.fault == Fault::UnknownId && is_call && !sse_post {
                let response = next
                    .run(Request::from_parts(parts, Body::from(bytes)))
                    .await;
                return with_stray_response(response);
            }
            if faults.fault == Fault::ExpireSession {
                let has_session = parts.headers.contains_key("mcp-session-id")
                    || parts
                        .uri
                        .query()
                        .is_some_and(|query| query.contains("sessionId="));
                if has_session && faults.expired.load(Ordering::SeqCst) {
                    return (StatusCode::NOT_FOUND, "session not found").into_response();
                }
                if is_call {
                    faults.expired.store(true, Ordering::SeqCst);
                }
            }
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Fault::RateLimited if request.method() == Method::POST => {
            let (parts, body) = request.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
                return (StatusCode::PAYLOAD_TOO_LARGE, "body too large").into_response();
            };
            let is_call = serde_json::from_slice::<Value>(&bytes)
                .is_ok_and(|message| message["method"] == "tools/call");
            if is_call && let Some(refusal) = rate_limit(&faults) {
                return refusal;
            }
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Fault::MethodHeaderIgnored if request.method() == Method::POST => {
            let (mut parts, body) = request.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
                return (StatusCode::PAYLOAD_TOO_LARGE, "body too large").into_response();
            };
            let method = serde_json::from_slice::<Value>(&bytes)
                .ok()
                .and_then(|message| message["method"].as_str().map(str::to_owned));
            if let Some(value) = method.and_then(|m| HeaderValue::from_str(&m).ok()) {
                parts.headers.insert("mcp-method", value);
            }
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Fault::AnyHost => {
            let (mut parts, body) = request.into_parts();
            parts
                .headers
                .insert(header::HOST, HeaderValue::from_static("127.0.0.1"));
            next.run(Request::from_parts(parts, body)).await
        }
        Fault::AnyOrigin => {
            let (mut parts, body) = request.into_parts();
            parts.headers.remove(header::ORIGIN);
            next.run(Request::from_parts(parts, body)).await
        }
        Fault::SessionOptional | Fault::UnknownSessionServed => {
            serve_any_session(&faults, request, next).await
        }
        Fault::DeleteIgnored if request.method() == Method::DELETE => {
            (StatusCode::OK, "deleted (not really)").into_response()
        }
        Fault::AnyProtocolHeader => {
            let (mut parts, body) = request.into_parts();
            let known = parts
                .headers
                .get("mcp-protocol-version")
                .and_then(|v| v.to_str().ok())
                .is_none_or(|version| {
                    rmcp::model::ProtocolVersion::KNOWN_VERSIONS
                        .iter()
                        .any(|known| known.as_str() == version)
                });
            // Sessions are 2025's; 2026-07-28 checks the header against each request's _meta.
            if !known && parts.headers.contains_key("mcp-session-id") {
                parts.headers.remove("mcp-protocol-version");
            }
            next.run(Request::from_parts(parts, body)).await
        }
        Fault::NotificationAnswered if request.method() == Method::POST => {
            let (parts, body) = request.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
                return (StatusCode::PAYLOAD_TOO_LARGE, "body too large").into_response();
            };
            let is_request = serde_json::from_slice::<Value>(&bytes).is_ok_and(|message| {
                message.get("method").is_some() && message.get("id").is_some()
            });
            let response = next
                .run(Request::from_parts(parts, Body::from(bytes)))
                .await;
            if is_request || !response.status().is_success() {
                return response;
            }
            (
                StatusCode::OK,
                [(header::CONTENT_TYPE, "application/json")],
                r#"{"jsonrpc":"2.0","result":{}}"#,
            )
                .into_response()
        }
        Fault::IgnoresAccept if request.method() == Method::POST => {
            let (mut parts, body) = request.into_parts();
            parts.headers.insert(
                header::ACCEPT,
                HeaderValue::from_static("application/json, text/event-stream"),
            );
            next.run(Request::from_parts(parts, body)).await
        }
        Fault::GetNotSse
            if request.method() == Method::GET
                && !request.headers().contains_key("last-event-id") =>
        {
            (
                StatusCode::OK,
                [(header::CONTENT_TYPE, "application/json")],
                "{}",
            )
                .into_response()
        }
        Fault::ResumeRefused
            if request.method() == Method::GET
                && request.headers().contains_key("last-event-id") =>
        {
            (StatusCode::BAD_REQUEST, "resumption is not supported").into_response()
        }
        Fault::OneStreamAtATime if request.method() == Method::POST => {
            if faults.posting.swap(true, Ordering::SeqCst) {
                return (StatusCode::CONFLICT, "another request is in progress").into_response();
            }
            tokio::time::sleep(HELD).await;
            let response = next.run(request).await;
            // The answer is read in full before the next POST may start.
            let (parts, body) = response.into_parts();
            let bytes = axum::body::to_bytes(body, BODY_LIMIT)
                .await
                .unwrap_or_default();
            faults.posting.store(false, Ordering::SeqCst);
            Response::from_parts(parts, Body::from(bytes))
        }
        Fault::StreamOpensLate
            if request.method() == Method::GET
                && !request.headers().contains_key("last-event-id") =>
        {
            tokio::time::sleep(HELD).await;
            let response = next.run(request).await;
            faults.stream_open.store(true, Ordering::SeqCst);
            response
        }
        Fault::StreamOpensLate
            if request.method() == Method::POST
                && request.headers().contains_key("mcp-session-id")
                && !faults.stream_open.load(Ordering::SeqCst) =>
        {
            refuse_requests_before_the_stream(request, next).await
        }
        _ => next.run(request).await,
    }
}

/// [`Fault::RateLimited`]: the refusal of a call, or `None` to serve it.
fn rate_limit(faults: &Faults) -> Option<Response> {
    let nth = faults.calls.fetch_add(1, Ordering::SeqCst) + 1;
    if nth == 3 {
        return Some(
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, "1")],
                "down for maintenance",
            )
                .into_response(),
        );
    }
    let mut served = faults.served_calls.lock().expect("never poisoned");
    let now = Instant::now();
    while served
        .front()
        .is_some_and(|at| now.duration_since(*at) >= Duration::from_secs(1))
    {
        served.pop_front();
    }
    if served.len() >= RATE_LIMIT {
        return Some(
            (
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, "1")],
                "rate limit exceeded",
            )
                .into_response(),
        );
    }
    served.push_back(now);
    None
}

/// [`Fault::StreamOpensLate`]: a request is answered with an error, anything else served.
async fn refuse_requests_before_the_stream(request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
        return (StatusCode::PAYLOAD_TOO_LARGE, "body too large").into_response();
    };
    let message = serde_json::from_slice::<Value>(&bytes).unwrap_or_default();
    match (message.get("id"), message.get("method")) {
        (Some(id), Some(_)) => {
            let error = serde_json::json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": {
                    "code": -32603,
                    "message": "the request came before the session's standalone stream \
                                was open: what the server asks the client would be lost",
                },
            });
            (
                StatusCode::OK,
                [(header::CONTENT_TYPE, "application/json")],
                error.to_string(),
            )
                .into_response()
        }
        _ => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
    }
}

/// [`Fault::SessionOptional`] and [`Fault::UnknownSessionServed`]: a request without a
/// session id, or under one never issued, is given the last one issued.
async fn serve_any_session(faults: &Faults, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
        return (StatusCode::PAYLOAD_TOO_LARGE, "body too large").into_response();
    };
    let body = Body::from(bytes.clone());
    // `initialize` opens a session, and 2026-07-28 has none: both go through as they are.
    let opens = serde_json::from_slice::<Value>(&bytes)
        .is_ok_and(|message| message["method"] == "initialize");
    let stateless = parts
        .headers
        .get("mcp-protocol-version")
        .is_some_and(|version| version.as_bytes() >= b"2026-07-28".as_slice());
    let sessions = || {
        faults
            .sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    let held = parts.headers.get("mcp-session-id").cloned();
    let replace = match (&held, faults.fault) {
        _ if opens || stateless => false,
        (None, Fault::SessionOptional) => parts.method == Method::POST,
        (Some(held), Fault::UnknownSessionServed) => !sessions().contains(held),
        _ => false,
    };
    let last = sessions().last().cloned();
    if let (true, Some(last)) = (replace, last) {
        parts.headers.insert("mcp-session-id", last);
    }
    let response = next.run(Request::from_parts(parts, body)).await;
    if let Some(issued) = response.headers().get("mcp-session-id")
        && !sessions().contains(issued)
    {
        sessions().push(issued.clone());
    }
    response
}

/// `response`, whose body breaks the connection once `cut` is cancelled.
fn broken_on(response: Response, cut: CancellationToken) -> Response {
    let (parts, body) = response.into_parts();
    let broken = futures::stream::once(async {
        Err::<Bytes, _>(io::Error::other("fault-server dropped the event stream"))
    });
    let body = body
        .into_data_stream()
        .map(|chunk| chunk.map_err(io::Error::other))
        .take_until(cut.cancelled_owned())
        .chain(broken);
    Response::from_parts(parts, Body::from_stream(body))
}

/// `response`, an SSE stream, with an event carrying [`STRAY_RESPONSE`] first.
fn with_stray_response(response: Response) -> Response {
    let (parts, body) = response.into_parts();
    let stray = Bytes::from(format!("data: {STRAY_RESPONSE}\n\n"));
    let body = futures::stream::once(async { Ok(stray) }).chain(
        body.into_data_stream()
            .map(|chunk| chunk.map_err(io::Error::other)),
    );
    Response::from_parts(parts, Body::from_stream(body))
}

/// An SSE response that sends a comment and then breaks the connection.
fn dropped_stream() -> Response {
    let chunks: [io::Result<Bytes>; 2] = [
        Ok(Bytes::from_static(b": working on it\n\n")),
        Err(io::Error::other("fault-server dropped the connection")),
    ];
    let mut response = Response::new(Body::from_stream(futures::stream::iter(chunks)));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    response
}
