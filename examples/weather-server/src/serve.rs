//! The server over streamable HTTP: rmcp's `StreamableHttpService` at `/mcp`.

use std::{io, sync::Arc};

use axum::Router;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::WeatherServer;

/// Serves `server` at `/mcp` on `listener` until the future is dropped.
///
/// # Errors
///
/// If accepting connections fails.
pub async fn serve_streamable_http(listener: TcpListener, server: WeatherServer) -> io::Result<()> {
    let shutdown = CancellationToken::new();
    let _end_sessions = shutdown.clone().drop_guard();
    let config = StreamableHttpServerConfig::default().with_cancellation_token(shutdown);
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    axum::serve(listener, Router::new().route_service("/mcp", service)).await
}
