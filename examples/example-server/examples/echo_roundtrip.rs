//! Measures the round-trip time of an `echo` tool call over each transport, through
//! mcp-assured and through a plain rmcp client in the same process (the baseline), both on
//! protocol 2025-11-25 (`initialize`) and both on 2026-07-28 (`server/discover`, per-request
//! `_meta`).
//!
//! ```sh
//! cargo run --release -p mcp-assured-examples --example echo_roundtrip [-- CALLS]
//! ```
//!
//! The stdio server is this very program, re-run with `--serve-stdio`.
//!
//! Wall-clock times on a busy machine are noisy; instruction counts are not. `--one-side`
//! runs one side alone (no HTTP servers, a single-threaded runtime), to run under callgrind
//! at two call counts; the difference of the two totals over the difference of the counts is
//! the instructions of one call (the stdio server, a child, is not counted):
//!
//! ```sh
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/echo_roundtrip --one-side ours in-process 2000
//! ```
//!
//! (`ours` or `raw`; `in-process` or `stdio`; on the default revision, 2026-07-28.)

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
    ClientLifecycleMode, ClientServiceExt, ServiceExt,
    model::{CallToolRequestParams, ProtocolVersion},
    transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess},
};
use serde_json::json;
use tokio::net::TcpListener;

const WARM_UP: usize = 100;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--one-side") {
        return tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(one_side(&args[at + 1..]));
    }
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(both_sides())
}

async fn both_sides() -> Result<(), Box<dyn Error>> {
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

    println!(
        "echo round trip, {calls} calls each after {WARM_UP} warm-up calls, in {ROUNDS} \
         alternating rounds, release build\n"
    );
    println!(
        "| transport | revision | mcp-assured p50 | mean | p99 | rmcp p50 | mean | ratio of p50s \
         | ratio of means | per-round ratios (p50) |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");

    for revision in [Revision::Pinned, Revision::Default] {
        // In-process: ours drives the server through its in-process transport; the baseline
        // is rmcp's own client and server on a duplex pipe, the server on a task of its own.
        let ours = revision
            .ours(McpAssured::client().service(ExampleServer::new()))
            .build()
            .await?;
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            if let Ok(running) = ExampleServer::new().serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let raw = revision.raw(client_io).await?;
        compare("in-process", revision, &ours, raw.peer(), calls).await?;

        let ours = revision
            .ours(McpAssured::client().command(&me).arg("--serve-stdio"))
            .build()
            .await?;
        let child = TokioChildProcess::new(tokio::process::Command::new(&me).configure(|c| {
            c.arg("--serve-stdio");
        }))?;
        let raw = revision.raw(child).await?;
        compare("stdio", revision, &ours, raw.peer(), calls).await?;

        let ours = revision
            .ours(McpAssured::client().base_uri(&http_url))
            .build()
            .await?;
        let raw = revision
            .raw(StreamableHttpClientTransport::from_uri(http_url.as_str()))
            .await?;
        compare("streamable HTTP", revision, &ours, raw.peer(), calls).await?;
    }

    let ours = McpAssured::client().base_uri(&sse_url).build().await?;
    let mut times = Timings::default();
    for _ in 0..WARM_UP {
        echo(&ours).await?;
    }
    for _ in 0..calls {
        times.time(echo(&ours)).await?;
    }
    let p50 = times.quantile(0.5);
    println!(
        "| HTTP+SSE | {} | {} | {} | {} | — | — | — | — | — |",
        ours.protocol_version(),
        us(p50),
        us(times.mean()),
        us(times.quantile(0.99))
    );
    println!("\nrmcp 3.11 has no HTTP+SSE client, so that row has no baseline.");
    Ok(())
}

const ROUNDS: usize = 20;

/// `ours|raw in-process|stdio CALLS`: that side alone, on the default revision, for
/// instruction counts; after the same warm-up as the table's.
async fn one_side(args: &[String]) -> Result<(), Box<dyn Error>> {
    let [side, transport, calls] = args else {
        return Err("usage: --one-side ours|raw in-process|stdio CALLS".into());
    };
    let calls: usize = calls.parse()?;
    let me = std::env::current_exe()?;
    let revision = Revision::Default;
    match (side.as_str(), transport.as_str()) {
        ("ours", "in-process") => {
            let ours = McpAssured::client().service(ExampleServer::new());
            let ours = revision.ours(ours).build().await?;
            repeat(calls, || echo(&ours)).await?;
            ours.close().await?;
        }
        ("ours", "stdio") => {
            let ours = McpAssured::client().command(&me).arg("--serve-stdio");
            let ours = revision.ours(ours).build().await?;
            repeat(calls, || echo(&ours)).await?;
            ours.close().await?;
        }
        ("raw", "in-process") => {
            let (server_io, client_io) = tokio::io::duplex(1 << 20);
            tokio::spawn(async move {
                if let Ok(running) = ExampleServer::new().serve(server_io).await {
                    let _ = running.waiting().await;
                }
            });
            let raw = revision.raw(client_io).await?;
            repeat(calls, || raw_echo(raw.peer())).await?;
            raw.cancel().await?;
        }
        ("raw", "stdio") => {
            let child = TokioChildProcess::new(tokio::process::Command::new(&me).configure(|c| {
                c.arg("--serve-stdio");
            }))?;
            let raw = revision.raw(child).await?;
            repeat(calls, || raw_echo(raw.peer())).await?;
            raw.cancel().await?;
        }
        _ => return Err(format!("unknown side or transport: {side} {transport}").into()),
    }
    Ok(())
}

async fn repeat<Fut>(calls: usize, mut call: impl FnMut() -> Fut) -> Result<(), Box<dyn Error>>
where
    Fut: Future<Output = Result<(), Box<dyn Error>>>,
{
    for _ in 0..WARM_UP + calls {
        call().await?;
    }
    Ok(())
}

/// Which protocol revision both sides of a row speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Revision {
    /// 2025-11-25, the newest with `initialize`: ours pinned to it, rmcp's `serve`.
    Pinned,
    /// `McpClient`'s default, 2026-07-28 against this server (`server/discover`, per-request
    /// `_meta`); rmcp's client in its discover lifecycle, which sends the same `_meta`.
    Default,
}

impl Revision {
    fn ours(self, builder: mcp_assured::ClientBuilder) -> mcp_assured::ClientBuilder {
        match self {
            Revision::Pinned => builder.protocol_version("2025-11-25"),
            Revision::Default => builder,
        }
    }

    async fn raw<T, E, A>(
        self,
        transport: T,
    ) -> Result<rmcp::service::RunningService<rmcp::RoleClient, ()>, Box<dyn Error>>
    where
        T: rmcp::transport::IntoTransport<rmcp::RoleClient, E, A>,
        E: Error + Send + Sync + 'static,
    {
        Ok(match self {
            Revision::Pinned => ().serve(transport).await?,
            Revision::Default => {
                let lifecycle = ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                };
                ().serve_with_lifecycle(transport, lifecycle).await?
            }
        })
    }

    /// The revision both sides agreed on, or an error if they differ.
    fn checked(
        self,
        ours: &mcp_assured::McpClient,
        raw: &rmcp::Peer<rmcp::RoleClient>,
    ) -> Result<String, Box<dyn Error>> {
        let theirs = raw
            .peer_info()
            .map(|info| info.protocol_version.to_string())
            .unwrap_or_default();
        if ours.protocol_version() != theirs {
            return Err(format!(
                "{self:?}: mcp-assured speaks {} and rmcp {theirs}; the row would compare \
                 unlike calls",
                ours.protocol_version()
            )
            .into());
        }
        Ok(theirs)
    }
}

/// Alternates rounds of calls through `ours` and through rmcp's `raw` peer (and which of the
/// two goes first), so drift on a busy machine hits both alike, and prints one row.
async fn compare(
    transport: &str,
    revision: Revision,
    ours: &mcp_assured::McpClient,
    raw: &rmcp::Peer<rmcp::RoleClient>,
    calls: usize,
) -> Result<(), Box<dyn Error>> {
    for _ in 0..WARM_UP {
        echo(ours).await?;
        raw_echo(raw).await?;
    }
    let per_round = calls.div_ceil(ROUNDS);
    let (mut all_ours, mut all_raw) = (Timings::default(), Timings::default());
    let mut ratios = Vec::with_capacity(ROUNDS);
    for round in 0..ROUNDS {
        let (mut round_ours, mut round_raw) = (Timings::default(), Timings::default());
        // Who goes first alternates too, so neither side always follows the other's wake-ups.
        if round % 2 == 0 {
            round_ours.time_many(per_round, || echo(ours)).await?;
            round_raw.time_many(per_round, || raw_echo(raw)).await?;
        } else {
            round_raw.time_many(per_round, || raw_echo(raw)).await?;
            round_ours.time_many(per_round, || echo(ours)).await?;
        }
        ratios.push(ratio(round_ours.quantile(0.5), round_raw.quantile(0.5)));
        all_ours.extend(round_ours);
        all_raw.extend(round_raw);
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "| {transport} | {} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.2}–{:.2} |",
        revision.checked(ours, raw)?,
        us(all_ours.quantile(0.5)),
        us(all_ours.mean()),
        us(all_ours.quantile(0.99)),
        us(all_raw.quantile(0.5)),
        us(all_raw.mean()),
        ratio(all_ours.quantile(0.5), all_raw.quantile(0.5)),
        ratio(all_ours.mean(), all_raw.mean()),
        ratios[0],
        ratios[ratios.len() - 1],
    );
    Ok(())
}

async fn echo(client: &mcp_assured::McpClient) -> Result<(), Box<dyn Error>> {
    client.call_tool("echo", json!({"message": "hi"})).await?;
    Ok(())
}

async fn raw_echo(peer: &rmcp::Peer<rmcp::RoleClient>) -> Result<(), Box<dyn Error>> {
    let mut params = CallToolRequestParams::new("echo");
    params.arguments = json!({"message": "hi"}).as_object().cloned();
    peer.call_tool(params).await?;
    Ok(())
}

/// Round-trip times of one series of calls.
#[derive(Default)]
struct Timings(Vec<Duration>);

impl Timings {
    async fn time<E>(&mut self, call: impl Future<Output = Result<(), E>>) -> Result<(), E> {
        let start = Instant::now();
        call.await?;
        self.0.push(start.elapsed());
        Ok(())
    }

    async fn time_many<E, Fut>(
        &mut self,
        calls: usize,
        mut call: impl FnMut() -> Fut,
    ) -> Result<(), E>
    where
        Fut: Future<Output = Result<(), E>>,
    {
        for _ in 0..calls {
            self.time(call()).await?;
        }
        Ok(())
    }

    fn extend(&mut self, other: Timings) {
        self.0.extend(other.0);
    }

    fn quantile(&self, q: f64) -> Duration {
        let mut sorted = self.0.clone();
        sorted.sort();
        sorted[((sorted.len() - 1) as f64 * q) as usize]
    }

    fn mean(&self) -> Duration {
        self.0.iter().sum::<Duration>() / u32::try_from(self.0.len()).unwrap_or(u32::MAX)
    }
}

fn ratio(ours: Duration, baseline: Duration) -> f64 {
    ours.as_secs_f64() / baseline.as_secs_f64()
}

fn us(d: Duration) -> String {
    format!("{:.0} µs", d.as_secs_f64() * 1e6)
}
