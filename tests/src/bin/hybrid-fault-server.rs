//! `hybrid-fault-server`: the example hybrid server with one of
//! [`HybridFault`](mcp_assured_tests::hybrid_faults::HybridFault) in front, for the hybrid
//! checks' tests.
//!
//! ```text
//! hybrid-fault-server --api-url URL [--port N] [--fault NAME]
//! ```
//!
//! Binds `127.0.0.1:<port>` (0 = any free port) and writes `listening on
//! http://127.0.0.1:<port>` to stderr.

use std::{error::Error, net::Ipv4Addr};

use clap::Parser;
use mcp_assured_tests::hybrid_faults::{HybridFault, app};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// The weather server as a hybrid server that breaks what it declares.
#[derive(Debug, Parser)]
struct Cli {
    /// The weather API's base URL.
    #[arg(long, env = "WEATHER_API_URL")]
    api_url: String,
    /// Port on 127.0.0.1; 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// What to break.
    #[arg(long, value_enum, default_value = "none")]
    fault: HybridFault,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let cli = Cli::parse();
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, cli.port)).await?;
    eprintln!("listening on http://{}", listener.local_addr()?);
    let shutdown = CancellationToken::new();
    let _end_sessions = shutdown.clone().drop_guard();
    axum::serve(listener, app(&cli.api_url, cli.fault, shutdown)).await?;
    Ok(())
}
