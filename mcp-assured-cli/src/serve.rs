//! `mcp-assured serve`: the companion over stdio or streamable HTTP.

use std::{io, net::SocketAddr, sync::Arc};

use axum::Router;
use rmcp::{
    ServiceExt,
    transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    },
};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::CompanionServer;

/// Serves one companion over this process's stdin and stdout until the client goes away.
///
/// A line that is not UTF-8 JSON gets a JSON-RPC error answer instead of silence (see
/// `line_guard`).
///
/// # Errors
///
/// If the MCP handshake or the transport fails.
pub async fn serve_stdio(server: CompanionServer) -> Result<(), Box<dyn std::error::Error>> {
    let (input, output) = crate::stdio::streams();
    server
        .serve(crate::line_guard::guard(input, output))
        .await?
        .waiting()
        .await?;
    Ok(())
}

/// Serves the companion at `/mcp` on `listener`, every session sharing its connections.
///
/// # Errors
///
/// If accepting connections fails.
pub async fn serve_http(listener: TcpListener, server: CompanionServer) -> io::Result<()> {
    let shutdown = CancellationToken::new();
    let _end_sessions = shutdown.clone().drop_guard();
    // Loopback hosts only (rmcp's default), and browser pages from loopback origins only:
    // no web page elsewhere reaches the server through DNS rebinding.
    let config = StreamableHttpServerConfig::default()
        .with_allowed_origins(["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"])
        .with_cancellation_token(shutdown);
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    axum::serve(listener, Router::new().route_service("/mcp", service)).await
}

/// Binds `address` for [`serve_http`].
///
/// # Errors
///
/// If the address cannot be bound.
pub async fn bind(address: SocketAddr) -> io::Result<TcpListener> {
    TcpListener::bind(address).await
}
