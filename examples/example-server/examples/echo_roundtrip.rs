//! Measures the round-trip time of an `echo` tool call over each transport, through
//! mcp-assured and through a plain rmcp client in the same process (the baseline).
//!
//! ```sh
//! cargo run --release -p mcp-assured-examples --example echo_roundtrip [-- CALLS]
//! ```
//!
//! The stdio server is this very program, re-run with `--serve-stdio`.

use std::{
    error::Error,
    time::{Duration, Instant},
};

use mcp_assured::McpAssured;
use mcp_assured_examples::{
    ExampleServer, HttpOptions,
    serve::{serve_sse, serve_streamable_http},
};
use rmcp::{
    ServiceExt,
    model::CallToolRequestParams,
    transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess},
};
use serde_json::json;
use tokio::net::TcpListener;

const WARM_UP: usize = 100;

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    if std::env::args().any(|a| a == "--serve-stdio") {
        let running = ExampleServer::new().serve(rmcp::transport::stdio()).await?;
        running.waiting().await?;
        return Ok(());
    }
    let calls: usize = std::env::args()
        .nth(1)
        .map(|n| n.parse())
        .transpose()?
        .unwrap_or(2000);
    let me = std::env::current_exe()?;

    let http = TcpListener::bind("127.0.0.1:0").await?;
    let http_url = format!("http://{}/mcp", http.local_addr()?);
    tokio::spawn(serve_streamable_http(http, HttpOptions::default()));
    let sse = TcpListener::bind("127.0.0.1:0").await?;
    let sse_url = format!("http://{}/sse", sse.local_addr()?);
    tokio::spawn(serve_sse(sse, HttpOptions::default()));

    println!("echo round trip, {calls} calls after {WARM_UP} warm-up calls, release build\n");
    println!("| transport | mcp-assured mean | p50 | p99 | rmcp mean | ratio |");
    println!("| --- | --- | --- | --- | --- | --- |");

    let ours = McpAssured::client()
        .service(ExampleServer::new())
        .build()
        .await?;
    let assured = measure_echo(&ours, calls).await?;
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = ExampleServer::new().serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let raw = ().serve(client_io).await?;
    let baseline = measure(calls, || raw_echo(raw.peer())).await?;
    row("in-process", &assured, Some(&baseline));

    let ours = McpAssured::client()
        .command(&me)
        .arg("--serve-stdio")
        .build()
        .await?;
    let assured = measure_echo(&ours, calls).await?;
    let child = TokioChildProcess::new(tokio::process::Command::new(&me).configure(|c| {
        c.arg("--serve-stdio");
    }))?;
    let raw = ().serve(child).await?;
    let baseline = measure(calls, || raw_echo(raw.peer())).await?;
    row("stdio", &assured, Some(&baseline));

    let ours = McpAssured::client().base_uri(&http_url).build().await?;
    let assured = measure_echo(&ours, calls).await?;
    let raw = ().serve(StreamableHttpClientTransport::from_uri(http_url.as_str())).await?;
    let baseline = measure(calls, || raw_echo(raw.peer())).await?;
    row("streamable HTTP", &assured, Some(&baseline));

    let ours = McpAssured::client().base_uri(&sse_url).build().await?;
    let assured = measure_echo(&ours, calls).await?;
    row("HTTP+SSE", &assured, None);
    println!("\nrmcp 3.9 has no HTTP+SSE client, so that row has no baseline.");
    Ok(())
}

async fn measure_echo(
    client: &mcp_assured::McpClient,
    calls: usize,
) -> mcp_assured::Result<Vec<Duration>> {
    measure(calls, || async {
        client
            .call_tool("echo", json!({"message": "hi"}))
            .await
            .map(drop)
    })
    .await
}

async fn raw_echo(peer: &rmcp::Peer<rmcp::RoleClient>) -> Result<(), rmcp::ServiceError> {
    let mut params = CallToolRequestParams::new("echo");
    params.arguments = json!({"message": "hi"}).as_object().cloned();
    peer.call_tool(params).await.map(drop)
}

async fn measure<F, Fut, E>(calls: usize, mut call: F) -> Result<Vec<Duration>, E>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<(), E>>,
{
    for _ in 0..WARM_UP {
        call().await?;
    }
    let mut times = Vec::with_capacity(calls);
    for _ in 0..calls {
        let start = Instant::now();
        call().await?;
        times.push(start.elapsed());
    }
    times.sort();
    Ok(times)
}

fn mean(times: &[Duration]) -> Duration {
    times.iter().sum::<Duration>() / u32::try_from(times.len()).unwrap_or(u32::MAX)
}

fn row(transport: &str, ours: &[Duration], baseline: Option<&[Duration]>) {
    let us = |d: Duration| format!("{:.0} µs", d.as_secs_f64() * 1e6);
    let p = |q: f64| ours[((ours.len() - 1) as f64 * q) as usize];
    let (base, ratio) = match baseline {
        Some(b) => (
            us(mean(b)),
            format!("{:.2}", mean(ours).as_secs_f64() / mean(b).as_secs_f64()),
        ),
        None => ("—".into(), "—".into()),
    };
    println!(
        "| {transport} | {} | {} | {} | {base} | {ratio} |",
        us(mean(ours)),
        us(p(0.5)),
        us(p(0.99)),
    );
}
