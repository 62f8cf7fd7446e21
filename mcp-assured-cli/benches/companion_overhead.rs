//! What the companion costs, each figure against a baseline measured in the same run:
//! a `call_tool` through `mcp-assured serve` against the same call made directly with
//! `McpClient` (same server), and the binary's start-up time to a ready MCP session and its
//! peak memory against the example server's (a plain rmcp server over stdio, doing the
//! same number of calls).
//!
//! A third leg splits the added latency: the same `echo` through a bare relay, an rmcp
//! server in a process of its own that answers `tools/call` with whatever the server
//! answered (this binary, re-run with `--relay URL`: the companion's stdio transport and
//! runtime, an `McpClient` to the server, no envelope, no checks). What the relay adds is the
//! second process hop, which every relay pays; what the companion adds on top of it is its
//! own work.
//!
//! ```sh
//! cargo build --release -p mcp-assured-examples --bin example-server   # the baseline, fresh
//! cargo bench -p mcp-assured-cli --bench companion_overhead [-- CALLS]
//! ```
//!
//! The baseline is `target/release/example-server` as it is (the bench cannot build into
//! the target directory `cargo bench` holds), hence the first command.
//!
//! `MCP_ASSURED_BIN=<path>` measures another build of the companion (an older commit's, to
//! compare two builds in the same conditions) instead of the one cargo built beside the bench;
//! `RELAY_BIN=<path>` starts the relay as `<path> --relay URL` instead of this binary (a
//! wrapper that runs it under a profiler: `companion-callgrind.sh`).

use std::{
    error::Error,
    path::Path,
    pin::Pin,
    time::{Duration, Instant},
};

use mcp_assured::{McpAssured, McpClient};
use mcp_assured_examples::{HttpOptions, serve::serve_streamable_http};
use serde_json::json;
use tokio::net::TcpListener;

const COMPANION: &str = env!("CARGO_BIN_EXE_mcp-assured");
const WARM_UP: usize = 50;
const STARTS: usize = 20;
const ROUNDS: usize = 20;
/// The first argument that makes this binary the relay (`--relay URL`).
const RELAY: &str = "--relay";

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    if args.next().as_deref() == Some(RELAY) {
        let url = args.next().ok_or("--relay needs the server's URL")?;
        // The companion's runtime: one thread (see `main.rs` of `mcp-assured`).
        return tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(relay::serve(url));
    }
    tokio::runtime::Runtime::new()?.block_on(bench())
}

async fn bench() -> Result<(), Box<dyn Error>> {
    let calls: usize = std::env::args()
        .skip(1)
        .find(|arg| !arg.starts_with('-'))
        .map(|n| n.parse())
        .transpose()?
        .unwrap_or(1000);
    let companion_binary = std::env::var_os("MCP_ASSURED_BIN").unwrap_or_else(|| COMPANION.into());
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    tokio::spawn(serve_streamable_http(listener, HttpOptions::default()));

    let direct = McpAssured::client().base_uri(&url).build().await?;
    let companion = McpAssured::client()
        .command(&companion_binary)
        .arg("serve")
        .build()
        .await?;
    let connected = companion
        .call_tool("connect_to_server", json!({"url": url}))
        .await?;
    assert_eq!(connected.is_error, Some(false), "{connected:?}");

    let relay_binary = match std::env::var_os("RELAY_BIN") {
        Some(path) => path.into(),
        None => std::env::current_exe()?,
    };
    let relay = McpAssured::client()
        .command(&relay_binary)
        .args([RELAY, url.as_str()])
        .build()
        .await?;

    let through_call = || {
        timed(async {
            let result = companion
                .call_tool(
                    "call_tool",
                    json!({"name": "echo", "arguments": {"message": "hi"}}),
                )
                .await?;
            assert_eq!(result.is_error, Some(false));
            Ok(())
        })
    };
    let [through, relayed, direct_times] = alternate(
        calls,
        [
            Box::new(move || Box::pin(through_call()) as Timed<'_>),
            Box::new(|| Box::pin(echo(&relay)) as Timed<'_>),
            Box::new(|| Box::pin(echo(&direct)) as Timed<'_>),
        ],
    )
    .await?;
    let companion_rss = peak_rss_kib(&companion);
    companion.close().await?;
    relay.close().await?;

    // The baseline for start-up and memory: an rmcp server over stdio, the example server.
    let example = mcp_assured_tests::example_server_binary();
    let [companion_starts, example_starts] = alternate(
        STARTS,
        [
            Box::new(|| Box::pin(start(Path::new(&companion_binary), &["serve"])) as Timed<'_>),
            Box::new(|| Box::pin(start(&example, &[])) as Timed<'_>),
        ],
    )
    .await?;
    let example_rss = example_rss_after(&example, through.len()).await?;

    println!(
        "mcp-assured companion, {} build; {} calls each after {WARM_UP} warm-ups, \
         {} starts each, in {ROUNDS} rounds, the leg that goes first turning\n",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
        through.len(),
        companion_starts.len()
    );
    println!("| figure | companion | baseline | ratio |");
    println!("| --- | --- | --- | --- |");
    println!(
        "| `call_tool echo` through `mcp-assured serve` (stdio) vs `echo` direct (McpClient → \
         example server, streamable HTTP): mean | {} | {} | {:.2} |",
        us(mean(&through)),
        us(mean(&direct_times)),
        ratio(mean(&through), mean(&direct_times))
    );
    println!(
        "| the same, p50 | {} | {} | {:.2} |",
        us(p50(&through)),
        us(p50(&direct_times)),
        ratio(p50(&through), p50(&direct_times))
    );
    println!(
        "| added latency per call (means) | {} | | |",
        us(mean(&through).saturating_sub(mean(&direct_times)))
    );
    println!(
        "| `echo` through a bare relay (rmcp server, stdio, same transport and runtime, \
         no envelope) vs direct: mean | {} | {} | {:.2} |",
        us(mean(&relayed)),
        us(mean(&direct_times)),
        ratio(mean(&relayed), mean(&direct_times))
    );
    println!(
        "| of the added latency: the second process hop (relay − direct), the companion's \
         own (through − relay) | {} | {} | |",
        us(mean(&relayed).saturating_sub(mean(&direct_times))),
        us(mean(&through).saturating_sub(mean(&relayed)))
    );
    println!(
        "| start-up to a ready session (spawn + initialize) vs the example server's, mean | \
         {:.1} ms | {:.1} ms | {:.2} |",
        ms(mean(&companion_starts)),
        ms(mean(&example_starts)),
        ratio(mean(&companion_starts), mean(&example_starts))
    );
    match (companion_rss, example_rss) {
        (Some(companion), Some(example)) => println!(
            "| peak RSS after the calls vs the example server's after as many `echo`s \
             over stdio | {:.1} MiB | {:.1} MiB | {:.2} |",
            companion as f64 / 1024.0,
            example as f64 / 1024.0,
            companion as f64 / example as f64
        ),
        _ => println!("| peak RSS | (no /proc on this system) | | |"),
    }
    Ok(())
}

/// One timed operation of a leg: how long it took.
type Timed<'a> = Pin<Box<dyn Future<Output = mcp_assured::Result<Duration>> + 'a>>;
/// A leg of the comparison: starts one timed operation each call.
type Leg<'a> = Box<dyn FnMut() -> Timed<'a> + 'a>;

/// Runs every leg after warm-ups, in `ROUNDS` rounds of `count / ROUNDS` (rounded up) each,
/// the leg that goes first turning each round, so that drift on a busy machine hits all of
/// them alike; returns each leg's times, sorted.
async fn alternate<'a, const N: usize>(
    count: usize,
    mut legs: [Leg<'a>; N],
) -> mcp_assured::Result<[Vec<Duration>; N]> {
    for _ in 0..WARM_UP.min(count) {
        for leg in &mut legs {
            leg().await?;
        }
    }
    let per_round = count.div_ceil(ROUNDS);
    let mut times: [Vec<Duration>; N] = std::array::from_fn(|_| Vec::new());
    for round in 0..ROUNDS {
        for turn in 0..N {
            let leg = (round + turn) % N;
            time(per_round, &mut legs[leg], &mut times[leg]).await?;
        }
    }
    for leg_times in &mut times {
        leg_times.sort();
    }
    Ok(times)
}

async fn time(
    count: usize,
    call: &mut Leg<'_>,
    times: &mut Vec<Duration>,
) -> mcp_assured::Result<()> {
    for _ in 0..count {
        times.push(call().await?);
    }
    Ok(())
}

/// How long `echo` takes on `client`.
async fn echo(client: &McpClient) -> mcp_assured::Result<Duration> {
    timed(async {
        client
            .call_tool("echo", json!({"message": "hi"}))
            .await
            .map(drop)
    })
    .await
}

/// How long `call` takes.
async fn timed(
    call: impl Future<Output = mcp_assured::Result<()>>,
) -> mcp_assured::Result<Duration> {
    let start = Instant::now();
    call.await?;
    Ok(start.elapsed())
}

/// How long spawning `program` as a stdio MCP server and completing `initialize` takes (the
/// client is closed after the clock stops).
async fn start(program: &Path, args: &[&str]) -> mcp_assured::Result<Duration> {
    let started = Instant::now();
    let client = McpAssured::client()
        .command(program)
        .args(args)
        .build()
        .await?;
    let took = started.elapsed();
    client.close().await?;
    Ok(took)
}

/// The example server's peak RSS after `calls` `echo` calls over stdio.
async fn example_rss_after(example: &Path, calls: usize) -> mcp_assured::Result<Option<u64>> {
    let client = McpAssured::client().command(example).build().await?;
    for _ in 0..calls + WARM_UP {
        client.call_tool("echo", json!({"message": "hi"})).await?;
    }
    let rss = peak_rss_kib(&client);
    client.close().await?;
    Ok(rss)
}

/// The companion's peak resident set (`VmHWM`), in KiB.
fn peak_rss_kib(client: &McpClient) -> Option<u64> {
    let pid = client.process_id()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
}

fn mean(times: &[Duration]) -> Duration {
    times.iter().sum::<Duration>() / u32::try_from(times.len()).unwrap_or(u32::MAX)
}

fn p50(times: &[Duration]) -> Duration {
    times[times.len() / 2]
}

fn ratio(ours: Duration, baseline: Duration) -> f64 {
    ours.as_secs_f64() / baseline.as_secs_f64()
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

fn us(duration: Duration) -> String {
    format!("{:.0} µs", duration.as_secs_f64() * 1e6)
}

/// The relay: an rmcp server on this process's stdin and stdout (the companion's own line
/// transport) whose `tools/call` is the server's answer to the same call, as it came.
mod relay {
    use mcp_assured::{McpAssured, McpClient};
    use rmcp::{
        ErrorData, RoleServer, ServerHandler, ServiceExt,
        model::{
            CallToolRequestParams, CallToolResponse, ListToolsResult, PaginatedRequestParams,
            ServerCapabilities, ServerConfig,
        },
        service::RequestContext,
    };
    use serde_json::Value;

    struct Relay {
        server: McpClient,
    }

    pub(super) async fn serve(url: String) -> Result<(), Box<dyn std::error::Error>> {
        let server = McpAssured::client().base_uri(&url).build().await?;
        Relay { server }
            .serve(mcp_assured_cli::serve::stdio_transport())
            .await?
            .waiting()
            .await?;
        Ok(())
    }

    impl ServerHandler for Relay {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }

        async fn list_tools(
            &self,
            _request: Option<PaginatedRequestParams>,
            _context: RequestContext<RoleServer>,
        ) -> Result<ListToolsResult, ErrorData> {
            let tools = Box::pin(self.server.list_tools()).await.map_err(failed)?;
            Ok(ListToolsResult::with_all_items(tools.into_iter().collect()))
        }

        async fn call_tool(
            &self,
            request: CallToolRequestParams,
            _context: RequestContext<RoleServer>,
        ) -> Result<CallToolResponse, ErrorData> {
            let arguments = Value::Object(request.arguments.unwrap_or_default());
            // Boxed, as the companion boxes its tools' futures (and `list_tools` above):
            // rmcp's future for each request is as large as the largest handler's, and it
            // is moved into a task of its own, a copy of all of it.
            let result = Box::pin(self.server.call_tool(&request.name, arguments)).await;
            Ok(result.map_err(failed)?.into_inner().into())
        }
    }

    fn failed(error: mcp_assured::Error) -> ErrorData {
        ErrorData::internal_error(error.to_string(), None)
    }
}
