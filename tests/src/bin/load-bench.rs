//! The load runner's ceiling and a side-by-side with mcp-toolproof's `bench`, in one run.
//!
//! ```sh
//! cargo build --release -p mcp-assured-cli --bin mcp-assured -p mcp-assured-examples --bin example-server
//! cargo run --release -p mcp-assured-tests --bin load-bench [-- ROUNDS]
//! ```
//!
//! The side-by-side runs the release `mcp-assured` and `example-server` beside this binary
//! (`target/release/`), built by the first command: building them from here would be a second
//! release build of the whole tree in a target directory of its own.
//!
//! 1. **Ceiling**: calls per second `client.load()` drives against the example server's `echo`
//!    in this process (rmcp's server on the in-process transport), against a plain rmcp client
//!    doing the same calls at the same concurrency on a duplex pipe to the same server (the
//!    baseline: N tasks each looping on `peer.call_tool`), both on protocol 2025-11-25, on a
//!    two-thread runtime. ROUNDS (default 5) alternating rounds of CALLS calls each per
//!    concurrency; the table gives the median throughput of each and the ratio ours/raw.
//! 2. **Side by side**: `mcp-assured bench` and mcp-toolproof 0.3.1's `toolproof bench` on the
//!    example server's binary over stdio (release build), `echo` with the same arguments, the
//!    same number of calls and the same concurrency, no warm-up, alternating, 3 rounds each:
//!    throughput, p50 and p99 as each reports them, wall time and CPU time (user + system of
//!    the tool and the server it started, from `getrusage(RUSAGE_CHILDREN)`).

use std::{
    path::{Path, PathBuf},
    process::Command,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Instant,
};

use mcp_assured::McpAssured;
use mcp_assured_examples::ExampleServer;
use mcp_assured_tests::peers;
use nix::sys::resource::{UsageWho, getrusage};
use rmcp::{ServiceExt, model::CallToolRequestParams};
use serde_json::{Value, json};

const CALLS: u64 = 10_000;
const WARM_UP: u64 = 500;
const CONCURRENCY: [usize; 3] = [1, 8, 32];
const SIDE_BY_SIDE_CALLS: u64 = 3000;
const SIDE_BY_SIDE_CONCURRENCY: [usize; 2] = [1, 8];
const SIDE_BY_SIDE_ROUNDS: usize = 3;

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn arguments() -> serde_json::Map<String, Value> {
    json!({"message": "hi"})
        .as_object()
        .cloned()
        .unwrap_or_default()
}

/// `calls` echo calls through rmcp's own client, `concurrency` tasks at once: calls/s, and
/// the p50 and p99 of their latencies in ms.
async fn raw_round(
    peer: &rmcp::Peer<rmcp::RoleClient>,
    concurrency: usize,
    calls: u64,
) -> (f64, f64, f64) {
    let claimed = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let tasks: Vec<_> = (0..concurrency)
        .map(|_| {
            let peer = peer.clone();
            let claimed = Arc::clone(&claimed);
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity((calls as usize) / concurrency + 1);
                while claimed.fetch_add(1, Ordering::Relaxed) < calls {
                    let began = Instant::now();
                    let request = CallToolRequestParams::new("echo").with_arguments(arguments());
                    peer.call_tool(request).await.expect("rmcp's echo answers");
                    latencies.push(began.elapsed());
                }
                latencies
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.expect("a raw task ends"));
    }
    let window = started.elapsed();
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e3;
    (
        latencies.len() as f64 / window.as_secs_f64(),
        at(0.5),
        at(0.99),
    )
}

async fn ceiling(rounds: usize) {
    let ours = McpAssured::client()
        .service(ExampleServer::new())
        .protocol_version("2025-11-25")
        .build()
        .await
        .expect("the example server runs in process");
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = ExampleServer::new().serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let raw = ().serve(client_io).await.expect("rmcp's client connects");
    assert_eq!(ours.protocol_version(), "2025-11-25");
    // Warm both up once, unmeasured.
    raw_round(raw.peer(), 8, WARM_UP).await;
    ours.load()
        .call("echo", json!({"message": "hi"}))
        .concurrency(8)
        .calls(WARM_UP)
        .run()
        .await
        .expect("a warm-up run");

    println!(
        "\n### Ceiling: echo in process, {CALLS} calls a round, {rounds} alternating rounds\n"
    );
    println!(
        "| in flight | `client.load()` calls/s | p50 | p99 | rmcp loop calls/s | p50 | p99 | ratio ours/raw (median of rounds) | per-round ratios |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for concurrency in CONCURRENCY {
        let (mut ours_rates, mut raw_rates, mut ratios) = (vec![], vec![], vec![]);
        let (mut ours_p50, mut ours_p99, mut raw_p50, mut raw_p99) =
            (vec![], vec![], vec![], vec![]);
        for round in 0..rounds {
            let run_ours = || async {
                let report = ours
                    .load()
                    .call("echo", json!({"message": "hi"}))
                    .concurrency(concurrency)
                    .calls(CALLS)
                    .run()
                    .await
                    .expect("a load run");
                assert_eq!(report.errors, 0, "{report}");
                (
                    report.throughput,
                    report.latency.p50.as_secs_f64() * 1e3,
                    report.latency.p99.as_secs_f64() * 1e3,
                )
            };
            let (o, r) = if round % 2 == 0 {
                let o = run_ours().await;
                (o, raw_round(raw.peer(), concurrency, CALLS).await)
            } else {
                let r = raw_round(raw.peer(), concurrency, CALLS).await;
                (run_ours().await, r)
            };
            ratios.push(o.0 / r.0);
            ours_rates.push(o.0);
            raw_rates.push(r.0);
            ours_p50.push(o.1);
            ours_p99.push(o.2);
            raw_p50.push(r.1);
            raw_p99.push(r.2);
        }
        let per_round: Vec<String> = ratios.iter().map(|r| format!("{r:.2}")).collect();
        println!(
            "| {concurrency} | {:.0} | {:.3} ms | {:.3} ms | {:.0} | {:.3} ms | {:.3} ms | {:.2} | {} |",
            median(&mut ours_rates),
            median(&mut ours_p50),
            median(&mut ours_p99),
            median(&mut raw_rates),
            median(&mut raw_p50),
            median(&mut raw_p99),
            median(&mut ratios),
            per_round.join(", ")
        );
    }
    let _ = ours.close().await;
}

/// CPU time (user + system, s) of the children waited for so far.
fn children_cpu() -> f64 {
    getrusage(UsageWho::RUSAGE_CHILDREN)
        .map(|usage| {
            let time = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 + t.tv_usec() as f64 / 1e6;
            time(usage.user_time()) + time(usage.system_time())
        })
        .unwrap_or_default()
}

/// One run of a command that writes a JSON report: (calls/s, p50 ms, p99 ms, wall s, CPU s).
fn timed(mut command: Command, report: &Path, read: fn(&Value) -> (f64, f64, f64)) -> [f64; 5] {
    let _ = std::fs::remove_file(report);
    let cpu = children_cpu();
    let started = Instant::now();
    let output = command.output().expect("the bench command runs");
    let wall = started.elapsed().as_secs_f64();
    let cpu = children_cpu() - cpu;
    let json: Value = std::fs::read(report)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_else(|| {
            panic!(
                "{command:?} wrote no report ({}):\n{}\n{}",
                output.status,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )
        });
    let (rate, p50, p99) = read(&json);
    [rate, p50, p99, wall, cpu]
}

fn read_ours(json: &Value) -> (f64, f64, f64) {
    let load = &json["load"];
    assert_eq!(load["errors"], 0, "{json}");
    let ms = |key: &str| load["latency"][key].as_f64().unwrap_or(f64::NAN) / 1e3;
    (
        load["throughput"].as_f64().unwrap_or(f64::NAN),
        ms("p50_us"),
        ms("p99_us"),
    )
}

fn read_toolproof(json: &Value) -> (f64, f64, f64) {
    let bench = &json["bench"][0];
    assert_eq!(bench["errors"], 0, "{json}");
    let number = |key: &str| bench[key].as_f64().unwrap_or(f64::NAN);
    (number("throughput"), number("p50_ms"), number("p99_ms"))
}

/// The release binary `name` beside this one, built by `cargo build --release`.
fn beside_me(name: &str) -> PathBuf {
    let me = std::env::current_exe().expect("the bench's own path");
    let path = me.with_file_name(name);
    assert!(
        path.exists(),
        "{} is missing: run `cargo build --release -p mcp-assured-cli --bin mcp-assured -p \
         mcp-assured-examples --bin example-server` first",
        path.display()
    );
    path
}

fn side_by_side() {
    let toolproof = peers::fuzz_peers().with_file_name("toolproof");
    let ours = beside_me("mcp-assured");
    let server = beside_me("example-server");
    let dir = peers::peers_dir().with_file_name("load-bench");
    std::fs::create_dir_all(&dir).expect("a directory for the reports");
    let (our_report, their_report) = (dir.join("mcp-assured.json"), dir.join("toolproof.json"));
    let calls = SIDE_BY_SIDE_CALLS.to_string();

    println!(
        "\n### Side by side: `echo` on the example server's binary over stdio, {SIDE_BY_SIDE_CALLS} \
         calls, no warm-up, {SIDE_BY_SIDE_ROUNDS} alternating rounds (medians)\n"
    );
    println!("| in flight | tool | calls/s | p50 | p99 | wall time | CPU (tool + server) |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for concurrency in SIDE_BY_SIDE_CONCURRENCY {
        let in_flight = concurrency.to_string();
        let run_ours = || {
            let mut command = Command::new(&ours);
            command
                .args([
                    "bench",
                    "--call",
                    r#"echo={"message":"hi"}"#,
                    "--calls",
                    &calls,
                ])
                .args(["--concurrency", &in_flight, "--json-file"])
                .arg(&our_report)
                .arg("--")
                .arg(&server);
            timed(command, &our_report, read_ours)
        };
        let run_theirs = || {
            let mut command = Command::new(&toolproof);
            command
                .current_dir(&dir)
                .args(["bench", "--tool", "echo", "--args", r#"{"message": "hi"}"#])
                .args(["--calls", &calls, "--concurrency", &in_flight, "--json"])
                .arg(&their_report)
                .arg("--")
                .arg(&server);
            timed(command, &their_report, read_toolproof)
        };
        let (mut mine, mut theirs) = (Vec::new(), Vec::new());
        for round in 0..SIDE_BY_SIDE_ROUNDS {
            if round % 2 == 0 {
                mine.push(run_ours());
                theirs.push(run_theirs());
            } else {
                theirs.push(run_theirs());
                mine.push(run_ours());
            }
        }
        for (who, runs) in [
            ("mcp-assured bench", &mine),
            ("toolproof bench 0.3.1", &theirs),
        ] {
            let column = |i: usize| median(&mut runs.iter().map(|r| r[i]).collect::<Vec<_>>());
            println!(
                "| {concurrency} | {who} | {:.0} | {:.2} ms | {:.2} ms | {:.2} s | {:.2} s |",
                column(0),
                column(1),
                column(2),
                column(3),
                column(4)
            );
        }
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(5);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average before: {}", load.trim());
    ceiling(rounds).await;
    tokio::task::spawn_blocking(side_by_side)
        .await
        .expect("the side-by-side runs");
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("\nload average after: {}", load.trim());
}
