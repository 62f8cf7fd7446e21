//! The fuzzer benchmark: mcp-assured's fuzzer and mcp-toolproof 0.3.1 on the same server
//! with planted bugs (`tests/peers/planted_bugs_server.py`, Python SDK 2.3, over stdio), in
//! the same run, with the same per-call timeout (toolproof's default, 2 s) and the same
//! number of inputs per tool (toolproof's default, 50 valid and 50 invalid): bugs found,
//! false positives (findings on the correct tools, or on the server run `--correct`), wall
//! time and peak memory.
//!
//! ```sh
//! cargo run --release -p mcp-assured-tests --bin fuzz-bench [-- RUNS]
//! ```
//!
//! RUNS (default 3) runs of each on the buggy server, then one of each on the correct one,
//! alternating. toolproof runs with its working directory under `target/fuzz-bench/`
//! (Hypothesis writes its cache there). Peak memory: ours is this process's high-water mark
//! (`VmHWM`) after our runs, which are all in it; toolproof's is the largest
//! `ru_maxrss` of the processes it ran (its server included), over all its runs.

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
    process::Command,
    time::{Duration, Instant},
};

use mcp_assured::{McpAssured, fuzz};
use mcp_assured_tests::{
    peers,
    planted_bugs::{BUGGY_TOOLS, CORRECT_TOOLS},
};
use nix::sys::resource::{UsageWho, getrusage};
use serde_json::Value;

const CALL_TIMEOUT: Duration = Duration::from_secs(2);
const CASES: u32 = 50;

/// What one run found, and what it cost.
#[derive(Debug)]
struct Run {
    found: BTreeSet<String>,
    false_positives: Vec<String>,
    wall: Duration,
}

fn score(
    tools: impl IntoIterator<Item = String>,
    correct_server: bool,
) -> (BTreeSet<String>, Vec<String>) {
    let mut found = BTreeSet::new();
    let mut false_positives = Vec::new();
    for tool in tools {
        if !correct_server && BUGGY_TOOLS.contains(&tool.as_str()) {
            found.insert(tool);
        } else {
            false_positives.push(tool);
        }
    }
    (found, false_positives)
}

async fn ours(python: &Path, script: &Path, correct: bool, seed: u64) -> Run {
    let mut builder = McpAssured::client().command(python).arg(script);
    if correct {
        builder = builder.arg("--correct");
    }
    let started = Instant::now();
    let client = builder
        .build()
        .await
        .expect("the planted-bugs server starts");
    let report = client
        .fuzz()
        .seed(seed)
        .cases(CASES)
        .call_timeout(CALL_TIMEOUT)
        .run()
        .await;
    let _ = client.close().await;
    let wall = started.elapsed();
    if let Some(run) = report.entry("fuzz.run") {
        eprintln!("mcp-assured: {}", run.message);
    }
    for finding in fuzz::findings(&report) {
        eprintln!(
            "  {} {}: {} shrink steps",
            finding.name, finding.kind, finding.shrink_steps
        );
    }
    let (found, false_positives) = score(
        fuzz::findings(&report)
            .into_iter()
            .map(|finding| finding.name),
        correct,
    );
    Run {
        found,
        false_positives,
        wall,
    }
}

fn toolproof(
    peers_python: &Path,
    python: &Path,
    script: &Path,
    correct: bool,
    seed: u64,
    dir: &Path,
) -> Run {
    let toolproof = peers_python.with_file_name("toolproof");
    let report = dir.join(format!("toolproof-{seed}-{correct}.json"));
    let mut command = Command::new(&toolproof);
    command
        .current_dir(dir)
        .args(["fuzz", "--seed", &seed.to_string(), "--timeout-ms", "2000"])
        .args(["--examples", &CASES.to_string(), "--json"])
        .arg(&report)
        .arg("--")
        .arg(python)
        .arg(script);
    if correct {
        command.arg("--correct");
    }
    let started = Instant::now();
    let output = command.output().expect("toolproof runs");
    let wall = started.elapsed();
    let json: Value = std::fs::read(&report)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_else(|| {
            panic!(
                "toolproof wrote no report ({}):\n{}\n{}",
                output.status,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )
        });
    let tools = json
        .pointer("/fuzz/tools")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .flat_map(|tool| {
            let name = tool["tool"].as_str().unwrap_or_default().to_owned();
            let findings = tool["findings"].as_array().map_or(0, Vec::len);
            std::iter::repeat_n(name, findings.min(1))
        });
    let (found, false_positives) = score(tools, correct);
    Run {
        found,
        false_positives,
        wall,
    }
}

fn peak_rss_of_this_process() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmHWM:"))
                .and_then(|line| line.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or_default()
}

fn row(who: &str, server: &str, runs: &[Run]) -> String {
    let found: Vec<String> = runs.iter().map(|r| r.found.len().to_string()).collect();
    let positives: Vec<String> = runs
        .iter()
        .map(|r| r.false_positives.len().to_string())
        .collect();
    let walls: Vec<String> = runs
        .iter()
        .map(|r| format!("{:.1}", r.wall.as_secs_f64()))
        .collect();
    let mean = runs.iter().map(|r| r.wall.as_secs_f64()).sum::<f64>() / runs.len() as f64;
    let missed: BTreeSet<&str> = BUGGY_TOOLS
        .iter()
        .copied()
        .filter(|tool| runs.iter().any(|r| !r.found.contains(*tool)))
        .collect();
    format!(
        "| {who} | {server} | {} | {} | {} | {:.1} s | {} |",
        found.join(", "),
        positives.join(", "),
        walls.join(", "),
        mean,
        if server == "correct" {
            "—".to_owned()
        } else {
            missed.into_iter().collect::<Vec<_>>().join(", ")
        }
    )
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let runs: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(3);
    let python = tokio::task::spawn_blocking(peers::python).await.unwrap();
    let peers_python = tokio::task::spawn_blocking(peers::fuzz_peers)
        .await
        .unwrap();
    let script = peers::planted_bugs_server_script();
    let dir: PathBuf = peers::peers_dir().with_file_name("fuzz-bench");
    std::fs::create_dir_all(&dir).unwrap();
    assert_eq!(CORRECT_TOOLS.len(), 4);

    // toolproof's runs first: getrusage(RUSAGE_CHILDREN) is the largest child so far, and
    // ours start servers as children too.
    let mut theirs_buggy = Vec::new();
    let mut theirs_correct = Vec::new();
    for seed in 1..=runs {
        theirs_buggy.push(toolproof(
            &peers_python,
            &python,
            &script,
            false,
            seed,
            &dir,
        ));
        eprintln!("toolproof run {seed}: {:?}", theirs_buggy.last().unwrap());
    }
    theirs_correct.push(toolproof(&peers_python, &python, &script, true, 1, &dir));
    let their_rss = getrusage(UsageWho::RUSAGE_CHILDREN)
        .map(|usage| usage.max_rss())
        .unwrap_or(0);

    let mut ours_buggy = Vec::new();
    let mut ours_correct = Vec::new();
    for seed in 1..=runs {
        ours_buggy.push(ours(&python, &script, false, seed).await);
        eprintln!("mcp-assured run {seed}: {:?}", ours_buggy.last().unwrap());
    }
    ours_correct.push(ours(&python, &script, true, 1).await);
    let our_rss = peak_rss_of_this_process();

    let mean =
        |runs: &[Run]| runs.iter().map(|r| r.wall.as_secs_f64()).sum::<f64>() / runs.len() as f64;
    println!(
        "| fuzzer | server | bugs found (of 9), per run | false positives, per run | wall time per run (s) | mean | missed in some run |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    println!("{}", row("mcp-assured", "planted bugs", &ours_buggy));
    println!(
        "{}",
        row("mcp-toolproof 0.3.1", "planted bugs", &theirs_buggy)
    );
    println!("{}", row("mcp-assured", "correct", &ours_correct));
    println!("{}", row("mcp-toolproof 0.3.1", "correct", &theirs_correct));
    println!();
    println!(
        "wall time, toolproof / mcp-assured on the planted bugs: {:.1}x",
        mean(&theirs_buggy) / mean(&ours_buggy)
    );
    println!(
        "peak RSS: mcp-assured (this process) {} MB; toolproof (largest process it ran) {} MB",
        our_rss / 1024,
        their_rss / 1024
    );
}
