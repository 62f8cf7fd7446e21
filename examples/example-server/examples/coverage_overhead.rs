//! Measures what recording surface coverage costs a call: `tools/call echo` through two
//! clients of the same in-process example server in the same process, one recording coverage
//! (`.coverage_to(dir)`) and one not (`.without_coverage()`), CALLS calls each after a
//! warm-up, in alternating rounds so drift on a shared machine hits both alike.
//!
//! ```sh
//! cargo run --release -p mcp-assured-examples --example coverage_overhead [-- CALLS]
//! ```

use std::{
    error::Error,
    time::{Duration, Instant},
};

use mcp_assured::{McpAssured, McpClient};
use mcp_assured_examples::ExampleServer;
use serde_json::json;

const WARM_UP: usize = 200;
const ROUNDS: usize = 20;

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let calls: usize = std::env::args()
        .nth(1)
        .map(|n| n.parse())
        .transpose()?
        .unwrap_or(4000);
    let dir =
        std::env::temp_dir().join(format!("mcp-assured-coverage-bench-{}", std::process::id()));
    let recording = McpAssured::client()
        .service(ExampleServer::new())
        .coverage_to(&dir)
        .build()
        .await?;
    let plain = McpAssured::client()
        .service(ExampleServer::new())
        .without_coverage()
        .build()
        .await?;
    // As a suite would have it: the tools listed, so outputs are checked too.
    recording.list_tools().await?;
    plain.list_tools().await?;
    for _ in 0..WARM_UP {
        call(&recording).await?;
        call(&plain).await?;
    }
    let (mut on, mut off) = (Vec::with_capacity(calls), Vec::with_capacity(calls));
    let per_round = calls.div_ceil(ROUNDS);
    for round in 0..ROUNDS {
        let order: [(&McpClient, &mut Vec<Duration>); 2] = if round % 2 == 0 {
            [(&recording, &mut on), (&plain, &mut off)]
        } else {
            [(&plain, &mut off), (&recording, &mut on)]
        };
        for (client, times) in order {
            for _ in 0..per_round {
                let started = Instant::now();
                call(client).await?;
                times.push(started.elapsed());
            }
        }
    }
    recording.close().await?;
    plain.close().await?;
    let records = std::fs::read_dir(&dir)?.count();
    std::fs::remove_dir_all(&dir)?;
    let (on_p50, on_mean) = summary(&mut on);
    let (off_p50, off_mean) = summary(&mut off);
    println!(
        "tools/call echo in process, {} calls each after {WARM_UP} warm-ups, {ROUNDS} alternating rounds",
        on.len()
    );
    println!("| coverage | p50 | mean |\n|---|---|---|");
    println!("| on ({records} record) | {on_p50:.1?} | {on_mean:.1?} |");
    println!("| off | {off_p50:.1?} | {off_mean:.1?} |");
    println!(
        "ratio on/off: p50 {:.3}, mean {:.3}",
        on_p50.as_secs_f64() / off_p50.as_secs_f64(),
        on_mean.as_secs_f64() / off_mean.as_secs_f64()
    );
    Ok(())
}

async fn call(client: &McpClient) -> mcp_assured::Result<()> {
    client
        .call_tool("echo", json!({"message": "hello"}))
        .await
        .map(drop)
}

fn summary(times: &mut [Duration]) -> (Duration, Duration) {
    times.sort();
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    (times[times.len() / 2], mean)
}
