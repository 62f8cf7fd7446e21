//! The MCP double's benchmark: a double answering `tools/call echo` (a mounted
//! `Reply::text`) against raw rmcp serving the same answer, in process and over streamable
//! HTTP, and a double replaying a 1,000-exchange cassette against a double with one mock.
//!
//! ```sh
//! cargo run --release -p mcp-assured-tests --bin double-bench [-- CALLS]
//! ```
//!
//! Every comparison uses the same client on both sides, a plain rmcp client
//! (`().serve(transport)`), and runs in alternating rounds (A then B, then B then A, ...), so
//! that drift on a shared machine hits both sides alike.
//!
//! 1. In process: the double's `serve_io` on one end of a tokio duplex pipe, against a
//!    minimal rmcp `ServerHandler` whose `call_tool` returns the same text, served on the
//!    same kind of pipe (split into halves on the server's side, as `serve_io` takes it).
//!    CALLS calls each (default 2000) after 100 warm-ups, in 20 rounds.
//! 2. Streamable HTTP: the double's `uri()` against rmcp's `StreamableHttpService` with the
//!    same handler, served on a loopback port the way the double serves (hyper, HTTP/1, one
//!    task per connection, the same `StreamableHttpServerConfig`).
//! 3. Replay: a cassette of 1,000 `tools/call echo` with distinct arguments (plus one
//!    `tools/list`), built in code and saved under `target/double-bench/`; then (a)
//!    `Cassette::load` against reading the file and parsing it as a `serde_json::Value`,
//!    (b) `MockServer::from_cassette` against `MockServer::start` and mounting one mock,
//!    each 20 times (a pause of 20 ms after each, untimed, while the dropped double's tasks
//!    end and free its cassette), and (c) the 1,000 calls through a client on a duplex pipe
//!    to the replaying double, against the same calls answered by a double with one mock
//!    that echoes the argument back (the same answers), in 6 alternating passes.

use std::{
    error::Error,
    future::Future,
    path::PathBuf,
    sync::Arc,
    time::{Duration, Instant},
};

use hyper_util::{rt::TokioIo, service::TowerToHyperService};
use mcp_assured::{
    cassette::{Cassette, Interaction, RecordedServer},
    double::{McpRequest, Mock, MockServer, Reply, matchers::tool},
};
use rmcp::{
    ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ServerCapabilities,
        ServerConfig,
    },
    service::{Peer, RequestContext, RunningService},
    transport::{
        StreamableHttpClientTransport,
        streamable_http_server::{
            StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
        },
    },
};
use serde_json::{Value, json};
use tokio::net::TcpListener;

type Result<T, E = Box<dyn Error>> = std::result::Result<T, E>;

/// What every echo answers.
const TEXT: &str = "hi";
const WARM_UP: usize = 100;
const ROUNDS: usize = 20;
/// The cassette's `tools/call` interactions.
const RECORDED: usize = 1000;
/// Passes over the 1,000 replayed calls, each side.
const REPLAY_PASSES: usize = 6;
/// Loads and start-ups timed, each side.
const STARTS: usize = 20;
/// The pause after a double is dropped, before the next one is timed.
const SETTLE: Duration = Duration::from_millis(20);

/// The baseline: the least an rmcp server does to answer `echo` with [`TEXT`].
#[derive(Debug, Clone, Copy)]
struct RawEcho;

impl ServerHandler for RawEcho {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(CallToolResult::success(vec![ContentBlock::text(TEXT)]).into())
    }
}

#[tokio::main]
async fn main() -> Result<()> {
    let calls: usize = std::env::args()
        .nth(1)
        .map(|n| n.parse())
        .transpose()?
        .unwrap_or(2000);

    println!(
        "MCP double vs raw rmcp: `tools/call echo`, {calls} sequential calls each after \
         {WARM_UP} warm-ups, in {ROUNDS} alternating rounds; the same rmcp client on both \
         sides\n"
    );
    println!(
        "| transport | double p50 | p95 | p99 | raw rmcp p50 | p95 | p99 | ratio of p50s | \
         ratio of means | per-round p50 ratios |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");

    // 1. In process, each server on one end of a duplex pipe, the client on the other.
    let double = echo_double().await;
    let ours = over_duplex_to_double(&double).await?;
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        // Split as `serve_io` takes it, so that both servers read and write the same way.
        if let Ok(running) = RawEcho.serve(tokio::io::split(server_io)).await {
            let _ = running.waiting().await;
        }
    });
    let raw = ().serve(client_io).await?;
    check_echo(ours.peer()).await?;
    check_echo(raw.peer()).await?;
    compare("in process (duplex)", ours.peer(), raw.peer(), calls).await?;
    drop((ours, raw));

    // 2. Streamable HTTP on loopback.
    let ours = ().serve(StreamableHttpClientTransport::from_uri(double.uri())).await?;
    let raw_uri = serve_raw_http().await?;
    let raw = ().serve(StreamableHttpClientTransport::from_uri(raw_uri)).await?;
    check_echo(ours.peer()).await?;
    check_echo(raw.peer()).await?;
    compare("streamable HTTP", ours.peer(), raw.peer(), calls).await?;
    drop((ours, raw, double));

    // 3. Replay of a 1,000-exchange cassette.
    replay().await
}

/// A double with one mock: `echo` answers [`TEXT`].
async fn echo_double() -> MockServer {
    let double = MockServer::start().await;
    Mock::given(tool("echo"))
        .respond_with(Reply::text(TEXT))
        .mount(&double)
        .await;
    double
}

/// A client on a duplex pipe whose other end `double` serves (`serve_io`).
async fn over_duplex_to_double(double: &MockServer) -> Result<RunningService<RoleClient, ()>> {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let double = double.clone();
    tokio::spawn(async move {
        let (reader, writer) = tokio::io::split(server_io);
        let _ = double.serve_io(reader, writer).await;
    });
    Ok(().serve(client_io).await?)
}

/// Serves [`RawEcho`] over streamable HTTP as the double serves itself (rmcp's service, hyper
/// HTTP/1, a task per connection); its URI.
async fn serve_raw_http() -> Result<String> {
    let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
    let uri = format!("http://{}/mcp", listener.local_addr()?);
    let config = StreamableHttpServerConfig::default().with_allowed_origins([
        "http://localhost:*",
        "http://127.0.0.1:*",
        "http://[::1]:*",
    ]);
    let service = TowerToHyperService::new(StreamableHttpService::new(
        || Ok(RawEcho),
        Arc::new(LocalSessionManager::default()),
        config,
    ));
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let service = service.clone();
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    Ok(uri)
}

fn echo_params(message: &str) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new("echo");
    params.arguments = json!({ "message": message }).as_object().cloned();
    params
}

async fn echo(peer: &Peer<RoleClient>) -> Result<()> {
    peer.call_tool(echo_params(TEXT)).await?;
    Ok(())
}

/// The text of a tool result's first block.
fn text_of(result: &CallToolResult) -> Result<String> {
    let json = serde_json::to_value(result)?;
    Ok(json["content"][0]["text"]
        .as_str()
        .ok_or_else(|| format!("not a text result: {json}"))?
        .to_owned())
}

async fn check_echo(peer: &Peer<RoleClient>) -> Result<()> {
    let text = text_of(&peer.call_tool(echo_params(TEXT)).await?)?;
    if text != TEXT {
        return Err(format!("echo answered {text:?}, not {TEXT:?}").into());
    }
    Ok(())
}

/// Alternates rounds of calls to the double and to raw rmcp (and which goes first), and
/// prints one row.
async fn compare(
    transport: &str,
    ours: &Peer<RoleClient>,
    raw: &Peer<RoleClient>,
    calls: usize,
) -> Result<()> {
    for _ in 0..WARM_UP {
        echo(ours).await?;
        echo(raw).await?;
    }
    let per_round = calls.div_ceil(ROUNDS);
    let (mut all_ours, mut all_raw) = (Timings::default(), Timings::default());
    let mut ratios = Vec::with_capacity(ROUNDS);
    for round in 0..ROUNDS {
        let (mut round_ours, mut round_raw) = (Timings::default(), Timings::default());
        if round % 2 == 0 {
            round_ours.time_many(per_round, || echo(ours)).await?;
            round_raw.time_many(per_round, || echo(raw)).await?;
        } else {
            round_raw.time_many(per_round, || echo(raw)).await?;
            round_ours.time_many(per_round, || echo(ours)).await?;
        }
        ratios.push(ratio(round_ours.quantile(0.5), round_raw.quantile(0.5)));
        all_ours.extend(round_ours);
        all_raw.extend(round_raw);
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "| {transport} | {} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.2}–{:.2} |",
        us(all_ours.quantile(0.5)),
        us(all_ours.quantile(0.95)),
        us(all_ours.quantile(0.99)),
        us(all_raw.quantile(0.5)),
        us(all_raw.quantile(0.95)),
        us(all_raw.quantile(0.99)),
        ratio(all_ours.quantile(0.5), all_raw.quantile(0.5)),
        ratio(all_ours.mean(), all_raw.mean()),
        ratios[0],
        ratios[ratios.len() - 1],
    );
    Ok(())
}

/// The message of the `index`th recorded call.
fn message(index: usize) -> String {
    format!("message {index}")
}

/// A session as a recording of `echo` would hold it: a `tools/list`, then [`RECORDED`] calls
/// with distinct arguments, each answered with its argument.
fn cassette() -> Cassette {
    let mut cassette = Cassette::new(RecordedServer {
        server_info: json!({"name": "echo-server", "version": "1.0.0"}),
        protocol_version: "2025-11-25".to_owned(),
        capabilities: json!({"tools": {"listChanged": true}}),
        instructions: None,
    });
    let mut list = Interaction::new("tools/list", Value::Null);
    list.result = Some(json!({"tools": [{
        "name": "echo",
        "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}},
    }]}));
    list.elapsed_ms = Some(0.2);
    cassette.interactions.push(list);
    for index in 0..RECORDED {
        let mut call = Interaction::new(
            "tools/call",
            json!({"name": "echo", "arguments": {"message": message(index)}}),
        );
        call.result = Some(json!({
            "content": [{"type": "text", "text": message(index)}],
            "isError": false,
        }));
        call.elapsed_ms = Some(0.1);
        cassette.interactions.push(call);
    }
    cassette
}

async fn replay() -> Result<()> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/double-bench");
    let path = dir.join("echo-1000.json");
    cassette().save(&path)?;
    let size = std::fs::metadata(&path)?.len();

    println!(
        "\nReplay: a cassette of {RECORDED} `tools/call echo` with distinct arguments and one \
         `tools/list` ({} KiB); load and start-up {STARTS} times each, the calls in \
         {REPLAY_PASSES} alternating passes of {RECORDED} each side, in process (duplex)\n",
        size / 1024
    );
    println!("| step | replaying double | baseline | baseline is | ratio |");
    println!("| --- | --- | --- | --- | --- |");

    // (a) Loading the file.
    let (mut load, mut parse) = (Timings::default(), Timings::default());
    for round in 0..STARTS {
        let load_it = || {
            let started = Instant::now();
            let cassette = Cassette::load(&path);
            (started.elapsed(), cassette.map(|c| c.interactions.len()))
        };
        let parse_it = || -> Result<(Duration, usize)> {
            let started = Instant::now();
            let json: Value = serde_json::from_str(&std::fs::read_to_string(&path)?)?;
            Ok((
                started.elapsed(),
                json["interactions"].as_array().map_or(0, Vec::len),
            ))
        };
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for side in order {
            if side == 0 {
                let (took, interactions) = load_it();
                assert_eq!(interactions?, RECORDED + 1);
                load.0.push(took);
            } else {
                let (took, interactions) = parse_it()?;
                assert_eq!(interactions, RECORDED + 1);
                parse.0.push(took);
            }
        }
    }
    println!(
        "| `Cassette::load` (median of {STARTS}) | {} | {} | the file read and parsed as a `serde_json::Value` | {:.2} |",
        ms(load.quantile(0.5)),
        ms(parse.quantile(0.5)),
        ratio(load.quantile(0.5), parse.quantile(0.5)),
    );

    // (b) Starting the double.
    let (mut from_cassette, mut start_and_mount) = (Timings::default(), Timings::default());
    for round in 0..STARTS {
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for side in order {
            let started = Instant::now();
            let double = if side == 0 {
                MockServer::from_cassette(&path).await?
            } else {
                echo_double().await
            };
            let took = started.elapsed();
            // Its listeners end, and free its cassette, on the runtime's workers: let them
            // finish before the next start is timed.
            drop(double);
            tokio::time::sleep(SETTLE).await;
            if side == 0 {
                from_cassette.0.push(took);
            } else {
                start_and_mount.0.push(took);
            }
        }
    }
    println!(
        "| `MockServer::from_cassette` start-up, load included (median of {STARTS}) | {} | {} | `MockServer::start` and one mock mounted | {:.2} |",
        ms(from_cassette.quantile(0.5)),
        ms(start_and_mount.quantile(0.5)),
        ratio(from_cassette.quantile(0.5), start_and_mount.quantile(0.5)),
    );

    // (c) The 1,000 calls: replayed, and answered by one mock echoing the argument back.
    let replaying = MockServer::from_cassette(&path).await?;
    let mocked = MockServer::start().await;
    Mock::given(tool("echo"))
        .respond_with(|request: &McpRequest| {
            Reply::text(request.arguments()["message"].as_str().unwrap_or_default())
        })
        .mount(&mocked)
        .await;
    let ours = over_duplex_to_double(&replaying).await?;
    let baseline = over_duplex_to_double(&mocked).await?;
    for index in 0..WARM_UP {
        for peer in [ours.peer(), baseline.peer()] {
            let text = text_of(&peer.call_tool(echo_params(&message(index))).await?)?;
            assert_eq!(text, message(index));
        }
    }
    let (mut replayed, mut one_mock) = (Timings::default(), Timings::default());
    let (mut replayed_passes, mut one_mock_passes) = (Timings::default(), Timings::default());
    for pass in 0..REPLAY_PASSES {
        let order = if pass % 2 == 0 { [0, 1] } else { [1, 0] };
        for side in order {
            let (peer, calls, passes) = if side == 0 {
                (ours.peer(), &mut replayed, &mut replayed_passes)
            } else {
                (baseline.peer(), &mut one_mock, &mut one_mock_passes)
            };
            let mut total = Duration::ZERO;
            for index in 0..RECORDED {
                let params = echo_params(&message(index));
                let started = Instant::now();
                let result = peer.call_tool(params).await?;
                let took = started.elapsed();
                total += took;
                calls.0.push(took);
                let text = text_of(&result)?;
                if text != message(index) {
                    return Err(format!("call {index} answered {text:?}").into());
                }
            }
            passes.0.push(total);
        }
    }
    println!(
        "| {RECORDED} calls replayed, total per pass (median of {REPLAY_PASSES}) | {} | {} | a double with one mock echoing the argument | {:.2} |",
        ms(replayed_passes.quantile(0.5)),
        ms(one_mock_passes.quantile(0.5)),
        ratio(replayed_passes.quantile(0.5), one_mock_passes.quantile(0.5)),
    );
    for (label, q) in [("p50", 0.5), ("p95", 0.95), ("p99", 0.99)] {
        println!(
            "| per call, {label} | {} | {} | the same | {:.2} |",
            us(replayed.quantile(q)),
            us(one_mock.quantile(q)),
            ratio(replayed.quantile(q), one_mock.quantile(q)),
        );
    }
    println!(
        "| per call, mean | {} | {} | the same | {:.2} |",
        us(replayed.mean()),
        us(one_mock.mean()),
        ratio(replayed.mean(), one_mock.mean()),
    );
    Ok(())
}

/// Round-trip times of one series of calls.
#[derive(Debug, Default)]
struct Timings(Vec<Duration>);

impl Timings {
    async fn time_many<Fut>(&mut self, calls: usize, mut call: impl FnMut() -> Fut) -> Result<()>
    where
        Fut: Future<Output = Result<()>>,
    {
        for _ in 0..calls {
            let started = Instant::now();
            call().await?;
            self.0.push(started.elapsed());
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

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}
