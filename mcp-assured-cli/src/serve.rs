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
    server.serve(stdio_transport()).await?.waiting().await?;
    Ok(())
}

/// This process's stdin and stdout as async streams: non-blocking pipes read by the
/// runtime's driver where they are pipes (a blocked read of `tokio::io::stdin()` would hold
/// the process open after the work is done), tokio's own streams otherwise.
pub fn stdio_streams() -> (crate::stdio::Input, crate::stdio::Output) {
    crate::stdio::streams()
}

/// The transport of an MCP server on this process's stdin and stdout, facing the client
/// that started it: where the server's messages go, one line each, and the client's
/// messages, read until stdin closes. A line that is not UTF-8 JSON gets a JSON-RPC error
/// answer instead of silence (see `line_guard`).
pub fn stdio_transport() -> (crate::line_guard::Answers, crate::line_guard::Messages) {
    let (input, output) = crate::stdio::streams();
    crate::line_guard::guard(input, output)
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
