//! What the companion costs: a `call_tool` through `mcp-assured serve` against the same call
//! made directly with `McpClient` (same server, same run), the binary's start-up time to a
//! ready MCP session, and its peak memory.
//!
//! ```sh
//! cargo bench -p mcp-assured-cli --bench companion_overhead [-- CALLS]
//! ```

use std::{
    error::Error,
    time::{Duration, Instant},
};

use mcp_assured::{McpAssured, McpClient};
use mcp_assured_examples::{HttpOptions, serve::serve_streamable_http};
use serde_json::json;
use tokio::net::TcpListener;

const COMPANION: &str = env!("CARGO_BIN_EXE_mcp-assured");
const WARM_UP: usize = 50;
const STARTS: u32 = 20;

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let calls: usize = std::env::args()
        .skip(1)
        .find(|arg| !arg.starts_with('-'))
        .map(|n| n.parse())
        .transpose()?
        .unwrap_or(1000);
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    tokio::spawn(serve_streamable_http(listener, HttpOptions::default()));

    let direct = McpAssured::client().base_uri(&url).build().await?;
    let companion = McpAssured::client()
        .command(COMPANION)
        .arg("serve")
        .build()
        .await?;
    let connected = companion
        .call_tool("connect_to_server", json!({"url": url}))
        .await?;
    assert_eq!(connected.is_error, Some(false), "{connected:?}");

    let direct_times = measure(calls, || async {
        direct
            .call_tool("echo", json!({"message": "hi"}))
            .await
            .map(drop)
    })
    .await?;
    let through = measure(calls, || async {
        let result = companion
            .call_tool(
                "call_tool",
                json!({"name": "echo", "arguments": {"message": "hi"}}),
            )
            .await?;
        assert_eq!(result.is_error, Some(false));
        Ok(())
    })
    .await?;
    let rss = peak_rss_kib(&companion);
    companion.close().await?;

    let starts = startup_times().await?;

    println!("mcp-assured companion, release build; {calls} calls after {WARM_UP} warm-up calls\n");
    println!("| figure | value |");
    println!("| --- | --- |");
    println!(
        "| `echo` direct (McpClient → example server, streamable HTTP) | {} mean, {} p50 |",
        us(mean(&direct_times)),
        us(p50(&direct_times))
    );
    println!(
        "| `call_tool echo` through `mcp-assured serve` (stdio) → same server | {} mean, {} p50 |",
        us(mean(&through)),
        us(p50(&through))
    );
    println!(
        "| ratio through / direct | {:.2} |",
        mean(&through).as_secs_f64() / mean(&direct_times).as_secs_f64()
    );
    println!(
        "| added latency per call | {} |",
        us(mean(&through).saturating_sub(mean(&direct_times)))
    );
    println!(
        "| start-up to ready session (spawn + initialize), mean of {STARTS} | {:.1} ms |",
        mean(&starts).as_secs_f64() * 1e3
    );
    match rss {
        Some(kib) => println!(
            "| peak RSS of the companion after the calls | {:.1} MiB |",
            kib as f64 / 1024.0
        ),
        None => println!("| peak RSS of the companion | (no /proc on this system) |"),
    }
    Ok(())
}

async fn measure<F, Fut>(calls: usize, mut call: F) -> mcp_assured::Result<Vec<Duration>>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = mcp_assured::Result<()>>,
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

async fn startup_times() -> mcp_assured::Result<Vec<Duration>> {
    let mut times = Vec::new();
    for _ in 0..STARTS {
        let start = Instant::now();
        let client = McpAssured::client()
            .command(COMPANION)
            .arg("serve")
            .build()
            .await?;
        times.push(start.elapsed());
        client.close().await?;
    }
    Ok(times)
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

fn us(duration: Duration) -> String {
    format!("{:.0} µs", duration.as_secs_f64() * 1e6)
}
