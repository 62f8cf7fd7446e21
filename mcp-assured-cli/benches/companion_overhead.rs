//! What the companion costs, each figure against a baseline measured in the same run:
//! a `call_tool` through `mcp-assured serve` against the same call made directly with
//! `McpClient` (same server), and the binary's start-up time to a ready MCP session and its
//! peak memory against the example server's (a plain rmcp server over stdio, doing the
//! same number of calls).
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
//! compare two builds in the same conditions) instead of the one cargo built beside the bench.

use std::{
    error::Error,
    path::Path,
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

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
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

    let direct_call = || {
        timed(async {
            direct
                .call_tool("echo", json!({"message": "hi"}))
                .await
                .map(drop)
        })
    };
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
    let (through, direct_times) = alternate(calls, through_call, direct_call).await?;
    let companion_rss = peak_rss_kib(&companion);
    companion.close().await?;

    // The baseline for start-up and memory: an rmcp server over stdio, the example server.
    let example = mcp_assured_tests::example_server_binary();
    let (companion_starts, example_starts) = alternate(
        STARTS,
        || start(Path::new(&companion_binary), &["serve"]),
        || start(&example, &[]),
    )
    .await?;
    let example_rss = example_rss_after(&example, through.len()).await?;

    println!(
        "mcp-assured companion, release build; {} calls each after {WARM_UP} warm-ups, \
         {} starts each, in {ROUNDS} alternating rounds\n",
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

/// Runs `ours` and `baseline` (each returning how long it took) after warm-ups, in
/// `ROUNDS` alternating rounds of `count / ROUNDS` (rounded up) each, alternating which goes
/// first too, so that drift on a busy machine hits both alike; returns both sets of times,
/// sorted.
async fn alternate<A, B, FutA, FutB>(
    count: usize,
    mut ours: A,
    mut baseline: B,
) -> mcp_assured::Result<(Vec<Duration>, Vec<Duration>)>
where
    A: FnMut() -> FutA,
    B: FnMut() -> FutB,
    FutA: Future<Output = mcp_assured::Result<Duration>>,
    FutB: Future<Output = mcp_assured::Result<Duration>>,
{
    for _ in 0..WARM_UP.min(count) {
        ours().await?;
        baseline().await?;
    }
    let per_round = count.div_ceil(ROUNDS);
    let (mut ours_times, mut baseline_times) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        if round % 2 == 0 {
            time(per_round, &mut ours, &mut ours_times).await?;
            time(per_round, &mut baseline, &mut baseline_times).await?;
        } else {
            time(per_round, &mut baseline, &mut baseline_times).await?;
            time(per_round, &mut ours, &mut ours_times).await?;
        }
    }
    ours_times.sort();
    baseline_times.sort();
    Ok((ours_times, baseline_times))
}

async fn time<F, Fut>(
    count: usize,
    call: &mut F,
    times: &mut Vec<Duration>,
) -> mcp_assured::Result<()>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = mcp_assured::Result<Duration>>,
{
    for _ in 0..count {
        times.push(call().await?);
    }
    Ok(())
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
