//! Faults in the HTTP layer: an axum app serving a [`FaultServer`] over streamable HTTP at
//! `/mcp`, behind a middleware that answers as the [`Fault`] says.

use std::{
    io,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
};

use axum::{
    Router,
    body::{Body, Bytes},
    extract::{Request, State},
    http::{HeaderValue, StatusCode, header},
    middleware::{self, Next},
    response::{IntoResponse as _, Response},
};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use serde_json::Value;
use tokio::net::TcpListener;

use super::{Fault, FaultServer};

/// The `WWW-Authenticate` challenge of [`Fault::Unauthorized`].
pub const CHALLENGE: &str = r#"Bearer realm="fault-server", error="invalid_token""#;

/// The largest request body the middleware reads.
const BODY_LIMIT: usize = 16 * 1024 * 1024;

/// The app: `server` at `/mcp` (at `/other` for [`Fault::NotFound`]) behind `fault`.
pub fn app(server: FaultServer, fault: Fault) -> Router {
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let path = if fault == Fault::NotFound {
        "/other"
    } else {
        "/mcp"
    };
    let faults = Arc::new(Faults {
        fault,
        expired: AtomicBool::new(false),
    });
    Router::new()
        .route_service(path, service)
        .layer(middleware::from_fn_with_state(faults, inject))
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
}

async fn inject(State(faults): State<Arc<Faults>>, request: Request, next: Next) -> Response {
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
        Fault::NonJson => (
            [(header::CONTENT_TYPE, "application/json")],
            "<html><body><h1>Welcome to nginx!</h1></body></html>",
        )
            .into_response(),
        Fault::DropMidStream | Fault::ExpireSession => {
            let (parts, body) = request.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
                return (StatusCode::PAYLOAD_TOO_LARGE, "body too large").into_response();
            };
            let is_call = serde_json::from_slice::<Value>(&bytes)
                .is_ok_and(|message| message["method"] == "tools/call");
            if faults.fault == Fault::DropMidStream && is_call {
                return dropped_stream();
            }
            if faults.fault == Fault::ExpireSession {
                let has_session = parts.headers.contains_key("mcp-session-id");
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
        _ => next.run(request).await,
    }
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
