//! The server over streamable HTTP: rmcp's `StreamableHttpService` at `/mcp`.

use std::{io, sync::Arc};

use axum::Router;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::{
    WeatherServer,
    rest::{self, RestOptions},
};

/// Serves `server` at `/mcp` on `listener` until the future is dropped.
///
/// # Errors
///
/// If accepting connections fails.
pub async fn serve_streamable_http(listener: TcpListener, server: WeatherServer) -> io::Result<()> {
    let shutdown = CancellationToken::new();
    let _end_sessions = shutdown.clone().drop_guard();
    axum::serve(listener, mcp_router(server, shutdown)).await
}

/// Serves `server` as a hybrid server: MCP at `/mcp` and the same tools over REST at
/// `/mcp/tools` (see [`rest`](mod@crate::rest)), both behind the bearer token of `options` if
/// it has one (except unknown paths, answered 404 without a token, and what
/// [`Drift::Auth`](crate::rest::Drift::Auth) opens: the execute endpoint, and MCP to any
/// bearer token), until the future is dropped.
///
/// # Errors
///
/// If accepting connections fails.
pub async fn serve_hybrid(
    listener: TcpListener,
    server: WeatherServer,
    options: RestOptions,
) -> io::Result<()> {
    let shutdown = CancellationToken::new();
    let _end_sessions = shutdown.clone().drop_guard();
    axum::serve(listener, hybrid_app(server, options, shutdown)).await
}

/// The app [`serve_hybrid`] serves: `server` with the tokens of `options`, MCP at `/mcp` and
/// the REST routes; its MCP sessions end when `shutdown` is cancelled.
pub fn hybrid_app(
    server: WeatherServer,
    options: RestOptions,
    shutdown: CancellationToken,
) -> Router {
    let server = server.with_grants(options.grants());
    let mcp = mcp_router(server.clone(), shutdown);
    rest::hybrid_router(&server, mcp, options)
}

/// rmcp's streamable HTTP service at `/mcp`; its sessions end when `shutdown` is cancelled.
fn mcp_router(server: WeatherServer, shutdown: CancellationToken) -> Router {
    // Loopback hosts only (rmcp's default), and browser pages from loopback origins only:
    // no web page elsewhere reaches the server through DNS rebinding.
    let config = StreamableHttpServerConfig::default()
        .with_allowed_origins(["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"])
        .with_cancellation_token(shutdown)
        // Room for every tool's maxPayloadSize (plus the JSON-RPC around it), so that an
        // oversize call is refused by the tool's own check, in the protocol's words (a
        // tool error `VALIDATION_ERROR`), not by the transport's 413.
        .with_max_request_body_bytes(server.largest_payload_bytes().saturating_add(64 * 1024));
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    Router::new().route_service("/mcp", service)
}
