//! `fault-server`: [`FaultServer`](mcp_assured_tests::faults::FaultServer) as a process that
//! misbehaves as told, for the fault-injection suite.
//!
//! ```text
//! fault-server [--transport stdio|http|sse] [--port N] [--fault NAME] [--pid-file PATH]
//! ```
//!
//! With `--pid-file` it first writes its pid there. Over HTTP it binds `127.0.0.1:<port>` (0 = any free port) and writes
//! `listening on http://127.0.0.1:<port>` to stderr.

use std::{
    error::Error,
    net::{Ipv4Addr, SocketAddr},
    path::PathBuf,
    time::Duration,
};

use clap::Parser;
use mcp_assured_examples::{HttpOptions, serve::serve_sse_wrapped};
use mcp_assured_tests::faults::{Fault, FaultServer, http, wire};
use tokio::net::TcpListener;

/// An MCP server that misbehaves on purpose.
#[derive(Debug, Parser)]
struct Cli {
    /// `stdio`, `http` (streamable HTTP at /mcp) or `sse` (HTTP+SSE at /sse).
    #[arg(long, default_value = "stdio", value_parser = ["stdio", "http", "sse"])]
    transport: String,
    /// Port on 127.0.0.1 for `http`; 0 picks a free one. `PORT` if unset.
    #[arg(long, env = "PORT", default_value_t = 0)]
    port: u16,
    /// How to misbehave below the tools (see `Fault`).
    #[arg(long, default_value = "none")]
    fault: Fault,
    /// Where to write this process's pid before anything else, so a test can prove the
    /// process was reaped.
    #[arg(long)]
    pid_file: Option<PathBuf>,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let cli = Cli::parse();
    if let Some(file) = &cli.pid_file {
        std::fs::write(file, std::process::id().to_string())?;
    }
    if cli.fault == Fault::ExitAtStart {
        std::process::exit(0);
    }
    let server = FaultServer::with_fault(cli.fault);
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
        let fault = cli.fault;
        serve_sse_wrapped(
            listener,
            HttpOptions::default(),
            move || server.clone(),
            move |app| http::inject(app, fault),
        )
        .await?;
    } else {
        http::serve(listener, server, cli.fault).await?;
    }
    Ok(())
}
