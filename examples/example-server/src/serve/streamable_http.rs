//! The Streamable HTTP transport (protocol 2025-03-26 and later): rmcp's
//! `StreamableHttpService` at `/mcp`.

use std::{io, sync::Arc};

use axum::Router;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::{HttpOptions, auth};

/// Serves the example server over Streamable HTTP at `/mcp` on `listener`.
///
/// rmcp keeps its default `Host` check, which accepts only loopback names (against DNS
/// rebinding).
///
/// # Errors
///
/// If accepting connections fails.
pub async fn serve_streamable_http(listener: TcpListener, options: HttpOptions) -> io::Result<()> {
    let server = options.server();
    let shutdown = CancellationToken::new();
    // Dropping this future (an aborted test task) ends the sessions too.
    let _end_sessions = shutdown.clone().drop_guard();
    // Loopback hosts only (rmcp's default), and browser pages from loopback origins only:
    // no web page elsewhere reaches the server through DNS rebinding.
    let config = StreamableHttpServerConfig::default()
        .with_allowed_origins(["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"])
        .with_cancellation_token(shutdown);
    // rmcp calls the factory for each new session (and to look up tool schemas).
    let service = StreamableHttpService::new(
        move || Ok(server.for_new_session()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let app = auth::protect(Router::new().route_service("/mcp", service), &options);
    axum::serve(listener, app).await
}
