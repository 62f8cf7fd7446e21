//! `fault-server`: [`FaultServer`](mcp_assured_tests::faults::FaultServer) as a process that
//! misbehaves as told, for the fault-injection suite.
//!
//! ```text
//! fault-server [--transport stdio|http|sse] [--port N] [--fault NAME] [--tag TAG]
//! ```
//!
//! Over HTTP it binds `127.0.0.1:<port>` (0 = any free port) and writes
//! `listening on http://127.0.0.1:<port>` to stderr.

use std::{
    error::Error,
    net::{Ipv4Addr, SocketAddr},
    time::Duration,
};

use clap::Parser;
use mcp_assured_examples::{HttpOptions, serve::serve_sse_with};
use mcp_assured_tests::faults::{Fault, FaultServer, http, wire};
use tokio::net::TcpListener;

/// An MCP server that misbehaves on purpose.
#[derive(Debug, Parser)]
struct Cli {
    /// `stdio`, `http` (streamable HTTP at /mcp) or `sse` (HTTP+SSE at /sse; only the tools
    /// misbehave there).
    #[arg(long, default_value = "stdio", value_parser = ["stdio", "http", "sse"])]
    transport: String,
    /// Port on 127.0.0.1 for `http`; 0 picks a free one. `PORT` if unset.
    #[arg(long, env = "PORT", default_value_t = 0)]
    port: u16,
    /// How to misbehave below the tools (see `Fault`).
    #[arg(long, default_value = "none")]
    fault: Fault,
    /// Ignored: lets a test find this process in /proc.
    #[arg(long)]
    tag: Option<String>,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let cli = Cli::parse();
    let server = match cli.fault {
        Fault::ExitAtStart => std::process::exit(0),
        Fault::CrashBetweenCalls => FaultServer::crashing_after_first_call(),
        _ => FaultServer::new(),
    };
    if cli.transport == "stdio" {
        wire::serve_stdio(server, cli.fault).await?;
        return Ok(());
    }
    if cli.fault == Fault::SlowStart {
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, cli.port))).await?;
    eprintln!("listening on http://{}", listener.local_addr()?);
    if cli.transport == "sse" {
        serve_sse_with(listener, HttpOptions::default(), move || server.clone()).await?;
    } else {
        http::serve(listener, server, cli.fault).await?;
    }
    Ok(())
}
