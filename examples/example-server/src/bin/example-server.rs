//! `example-server`: the example MCP server as a process, over stdio, Streamable HTTP or
//! HTTP+SSE.
//!
//! In the HTTP modes it binds `127.0.0.1:<port>` and writes exactly one line to stderr,
//! `listening on http://127.0.0.1:<port>`, which tells a test the port when it asked for 0.
//! Logs (`RUST_LOG`, default `warn`) go to stderr in every mode, since stdout carries the
//! protocol in stdio mode.

use std::{
    error::Error,
    io::Write,
    net::{Ipv4Addr, SocketAddr},
};

use clap::{Parser, ValueEnum};
use mcp_assured_examples::{
    ExampleServer, HttpOptions,
    serve::{serve_sse, serve_streamable_http},
};
use rmcp::ServiceExt;
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

/// The example MCP server of mcp-assured.
#[derive(Debug, Parser)]
#[command(version)]
struct Cli {
    /// How clients reach the server.
    #[arg(long, value_enum, default_value_t = Transport::Stdio)]
    transport: Transport,
    /// Port on 127.0.0.1 for the HTTP transports; 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Require `Authorization: Bearer <TOKEN>` on every HTTP request.
    #[arg(long, env = "EXAMPLE_SERVER_TOKEN", hide_env_values = true)]
    bearer_token: Option<String>,
    /// Answer 401 without a `WWW-Authenticate` header.
    #[arg(long)]
    no_challenge: bool,
    /// Name this protected resource metadata URL (RFC 9728) in the 401's challenge, for
    /// OAuth clients to find the authorization server that issues the token.
    #[arg(long, value_name = "URL", requires = "bearer_token")]
    resource_metadata: Option<String>,
    /// Print a non-JSON line to stdout before serving over stdio, like a stray debug print.
    #[arg(long)]
    junk_stdout: bool,
    /// Split tools/list into pages of this many tools.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    page_size: Option<u16>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Transport {
    Stdio,
    StreamableHttp,
    Sse,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();
    let cli = Cli::parse();
    match cli.transport {
        Transport::Stdio => serve_stdio(cli).await,
        Transport::StreamableHttp | Transport::Sse => serve_http(cli).await,
    }
}

async fn serve_stdio(cli: Cli) -> Result<(), Box<dyn Error>> {
    if cli.bearer_token.is_some() {
        tracing::warn!("--bearer-token applies to the HTTP transports only; ignored over stdio");
    }
    if cli.junk_stdout {
        let mut stdout = std::io::stdout();
        writeln!(stdout, "Server starting... (debug build)")?;
        stdout.flush()?;
    }
    let server = match cli.page_size {
        Some(page_size) => ExampleServer::new().with_page_size(page_size.into()),
        None => ExampleServer::new(),
    };
    // Ends when the client closes stdin.
    server
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}

async fn serve_http(cli: Cli) -> Result<(), Box<dyn Error>> {
    let options = HttpOptions {
        bearer_token: cli.bearer_token,
        challenge: !cli.no_challenge,
        resource_metadata: cli.resource_metadata,
        page_size: cli.page_size.map(usize::from),
    };
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, cli.port))).await?;
    eprintln!("listening on http://{}", listener.local_addr()?);
    if matches!(cli.transport, Transport::Sse) {
        serve_sse(listener, options).await?;
    } else {
        serve_streamable_http(listener, options).await?;
    }
    Ok(())
}
