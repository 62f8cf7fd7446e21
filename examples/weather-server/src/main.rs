//! `weather-server`: the weather MCP server as a process, over stdio (the default) or
//! streamable HTTP (`--port N`, on 127.0.0.1; writes `listening on http://127.0.0.1:N` to
//! stderr once bound). Logs go to stderr (`RUST_LOG`, default `warn`).

use std::{error::Error, net::Ipv4Addr};

use clap::{Parser, ValueEnum};
use rmcp::ServiceExt;
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;
use weather_server::{WeatherServer, serve::serve_streamable_http};

/// An MCP server whose tools call a weather API.
#[derive(Debug, Parser)]
#[command(version)]
struct Cli {
    /// The weather API's base URL.
    #[arg(long, env = "WEATHER_API_URL")]
    api_url: String,
    /// How clients reach the server; `--port` alone implies `http`.
    #[arg(long, value_enum)]
    transport: Option<Transport>,
    /// Port on 127.0.0.1 for HTTP; 0 picks a free one.
    #[arg(long)]
    port: Option<u16>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Transport {
    Stdio,
    Http,
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
    let server = WeatherServer::new(cli.api_url);
    let transport = cli.transport.unwrap_or(if cli.port.is_some() {
        Transport::Http
    } else {
        Transport::Stdio
    });
    match transport {
        Transport::Stdio => {
            server
                .serve(rmcp::transport::stdio())
                .await?
                .waiting()
                .await?;
        }
        Transport::Http => {
            let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, cli.port.unwrap_or(0))).await?;
            eprintln!("listening on http://{}", listener.local_addr()?);
            serve_streamable_http(listener, server).await?;
        }
    }
    Ok(())
}
