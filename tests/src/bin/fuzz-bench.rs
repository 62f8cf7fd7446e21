//! The fuzzer benchmark: mcp-assured's fuzzer, mcp-toolproof 0.3.1 and, when it is installed,
//! mcp-wallfacer 0.8.1, on the same server with planted bugs
//! (`tests/peers/planted_bugs_server.py`, Python SDK 2.3, over stdio), in the same run, with
//! the same per-call timeout (toolproof's default, 2 s) and the same number of inputs per tool
//! (toolproof's default, 50 valid and 50 invalid; wallfacer 100 of its own mix): bugs found,
//! false positives (findings on the correct tools, or on the server run `--correct`), wall
//! time and peak memory.
//!
//! ```sh
//! cargo run --release -p mcp-assured-tests --bin fuzz-bench [-- RUNS]
//! ```
//!
//! RUNS (default 3) runs of each on the buggy server (seeds 1..=RUNS), then one of each on the
//! correct one (seed 1): toolproof's, then wallfacer's, then ours. wallfacer is built from
//! source only, so the bench does not install it: it runs `WALLFACER`, else
//! `target/fuzz-peers/wallfacer/bin/wallfacer`, and without either says how to install it and
//! goes on without it. toolproof and wallfacer run with their working directories under
//! `target/fuzz-bench/` (Hypothesis writes its cache there; wallfacer its config and corpus).
//! Peak memory: ours is this process's high-water mark (`VmHWM`) after our runs, which are all
//! in it; toolproof's and wallfacer's the largest `ru_maxrss` of the processes each ran (its
//! servers included), over all its runs, or "at most" that when it cannot be told from an
//! earlier reading (after a `cargo run` that built the bench first, the compiler's).

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
use serde::Deserialize;
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

/// The command that installs mcp-wallfacer where the bench looks for it (a few minutes: it
/// builds from source; its pip and npm wrappers download a binary from outside the package
/// registries instead).
const WALLFACER_INSTALL: &str = "cargo install --locked mcp-wallfacer --version 0.8.1 --root";

/// An installed `wallfacer` binary, and what it says it is (`mcp-wallfacer 0.8.1`).
#[derive(Debug)]
struct Wallfacer {
    binary: PathBuf,
    name: String,
}

/// `WALLFACER`, else `<target>/fuzz-peers/wallfacer/bin/wallfacer`, if it runs; if not, one
/// line on how to install it, and `None`: the bench goes on without it.
fn find_wallfacer() -> Option<Wallfacer> {
    let root = peers::peers_dir()
        .with_file_name("fuzz-peers")
        .join("wallfacer");
    let binary =
        std::env::var_os("WALLFACER").map_or_else(|| root.join("bin/wallfacer"), PathBuf::from);
    let version = Command::new(&binary)
        .arg("--version")
        .output()
        .ok()
        .filter(|output| output.status.success());
    match version {
        Some(output) => Some(Wallfacer {
            name: String::from_utf8_lossy(&output.stdout).trim().to_owned(),
            binary,
        }),
        None => {
            eprintln!(
                "mcp-wallfacer skipped: no {} (install it with `{WALLFACER_INSTALL} {}`, or set WALLFACER)",
                binary.display(),
                root.display()
            );
            None
        }
    }
}

/// wallfacer's `wallfacer.toml` for the planted-bugs server: wallfacer takes its target, and
/// its per-call timeout, only from there.
fn wallfacer_config(python: &Path, script: &Path, correct: bool) -> String {
    let mut args = vec![script.display().to_string()];
    if correct {
        args.push("--correct".to_owned());
    }
    // A JSON string or array of strings is TOML too (the same quotes and escapes).
    format!(
        "[target]\nkind = \"stdio\"\ncommand = {}\nargs = {}\ntimeout_ms = {}\n",
        Value::from(python.display().to_string()),
        Value::from(args),
        CALL_TIMEOUT.as_millis()
    )
}

/// What the bench reads of wallfacer's JSON report: not the inputs, which may nest arrays
/// 1000 deep, past `serde_json`'s limit of 128 for a [`Value`] (skipped fields are not
/// counted); they are in the corpus.
#[derive(Debug, Deserialize)]
struct WallfacerReport {
    findings: Vec<WallfacerFinding>,
}

#[derive(Debug, Deserialize)]
struct WallfacerFinding {
    tool: String,
    kind: WallfacerKind,
    details: String,
}

#[derive(Debug, Deserialize)]
struct WallfacerKind {
    #[serde(rename = "type")]
    kind: String,
}

/// One `wallfacer fuzz` run, in a directory of its own under `dir` (its config; the corpus it
/// writes each finding to, `.wallfacer/corpus/<tool>/<id>.json`, left there to look at).
///
/// Inputs: 100 per tool (`--iterations`), as many calls as toolproof's and ours 50 valid and
/// 50 invalid, in wallfacer's default `--mode mixed` (each value in an input is adversarial one
/// time in five: a boundary number, a long or tricky string, a wrong type, a dropped required
/// or an extra property); it has no option for a number of valid and of invalid inputs. It
/// stops fuzzing a tool at its first finding, and judges only how a call ends (a crash, a hang
/// past `timeout_ms`, a JSON-RPC error), not what a result says.
fn wallfacer(
    wallfacer: &Wallfacer,
    python: &Path,
    script: &Path,
    correct: bool,
    seed: u64,
    dir: &Path,
) -> Run {
    let run_dir = dir.join(format!("wallfacer-{seed}-{correct}"));
    let _ = std::fs::remove_dir_all(&run_dir);
    std::fs::create_dir_all(&run_dir).unwrap();
    std::fs::write(
        run_dir.join("wallfacer.toml"),
        wallfacer_config(python, script, correct),
    )
    .unwrap();
    let mut command = Command::new(&wallfacer.binary);
    command
        .current_dir(&run_dir)
        .args(["fuzz", "--config", "wallfacer.toml", "--format", "json"])
        .args(["--seed", &seed.to_string()])
        .args(["--iterations", &(2 * CASES).to_string()]);
    let started = Instant::now();
    let output = command.output().expect("wallfacer runs");
    let wall = started.elapsed();
    // It exits 1 on findings and on errors alike: only a report on stdout tells them apart.
    let report: WallfacerReport = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "wallfacer wrote no report ({}; {error}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let mut tools = BTreeSet::new();
    for finding in report.findings {
        eprintln!(
            "  {} {}: {}",
            finding.tool, finding.kind.kind, finding.details
        );
        tools.insert(finding.tool);
    }
    let (found, false_positives) = score(tools, correct);
    Run {
        found,
        false_positives,
        wall,
    }
}

/// The largest `ru_maxrss` (KiB) among the children this process has waited for so far,
/// and that as printed: "at most" first when it is no larger than `before`, the reading
/// before the fuzzer at hand ran, whose largest process it then cannot be told from. (That
/// may be the compiler's: `cargo run` execs the bench in its own process, after building it.)
fn peak_rss_of_children(before: u64) -> (u64, String) {
    let rss = getrusage(UsageWho::RUSAGE_CHILDREN)
        .map(|usage| u64::try_from(usage.max_rss()).unwrap_or_default())
        .unwrap_or(0);
    let bound = if rss > before { "" } else { "at most " };
    (
        rss,
        format!("{bound}{}, the largest process it ran", megabytes(rss)),
    )
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
        mean(runs),
        if server == "correct" {
            "—".to_owned()
        } else {
            missed.into_iter().collect::<Vec<_>>().join(", ")
        }
    )
}

/// One fuzzer's runs: RUNS on the planted bugs, one on the correct server.
#[derive(Debug)]
struct Fuzzer {
    name: String,
    buggy: Vec<Run>,
    correct: Vec<Run>,
    /// As printed after the name: "N MB, " and of what; "at most " first when the reading
    /// cannot be told from another fuzzer's.
    peak_rss: String,
}

fn mean(runs: &[Run]) -> f64 {
    runs.iter().map(|r| r.wall.as_secs_f64()).sum::<f64>() / runs.len() as f64
}

fn megabytes(kib: u64) -> String {
    format!("{} MB", kib / 1024)
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

    // The subprocesses' runs first, for getrusage(RUSAGE_CHILDREN) is the largest child so far
    // (ours start servers as children too); toolproof's before wallfacer's, whose reading is
    // then the larger of the two: its own only if larger than toolproof's (it is: the server
    // grows to 290 MB on the 10 MB strings wallfacer sends).
    let (before, _) = peak_rss_of_children(0);
    let mut buggy = Vec::new();
    for seed in 1..=runs {
        buggy.push(toolproof(
            &peers_python,
            &python,
            &script,
            false,
            seed,
            &dir,
        ));
        eprintln!("toolproof run {seed}: {:?}", buggy.last().unwrap());
    }
    let correct = vec![toolproof(&peers_python, &python, &script, true, 1, &dir)];
    let (their_rss, peak_rss) = peak_rss_of_children(before);
    let mut theirs = vec![Fuzzer {
        name: "mcp-toolproof 0.3.1".to_owned(),
        buggy,
        correct,
        peak_rss,
    }];
    if let Some(installed) = find_wallfacer() {
        theirs.push(wallfacer_runs(
            &installed, &python, &script, runs, &dir, their_rss,
        ));
    }

    let mut buggy = Vec::new();
    for seed in 1..=runs {
        buggy.push(ours(&python, &script, false, seed).await);
        eprintln!("mcp-assured run {seed}: {:?}", buggy.last().unwrap());
    }
    let correct = vec![ours(&python, &script, true, 1).await];
    let ours = Fuzzer {
        name: "mcp-assured".to_owned(),
        buggy,
        correct,
        peak_rss: format!("{}, this process", megabytes(peak_rss_of_this_process())),
    };
    report(&ours, &theirs);
}

/// wallfacer's runs, after toolproof's, whose peak memory was `before` (KiB).
fn wallfacer_runs(
    installed: &Wallfacer,
    python: &Path,
    script: &Path,
    runs: u64,
    dir: &Path,
    before: u64,
) -> Fuzzer {
    let mut buggy = Vec::new();
    for seed in 1..=runs {
        buggy.push(wallfacer(installed, python, script, false, seed, dir));
        eprintln!("{} run {seed}: {:?}", installed.name, buggy.last().unwrap());
    }
    let correct = vec![wallfacer(installed, python, script, true, 1, dir)];
    eprintln!("{} on the correct server: {:?}", installed.name, correct[0]);
    Fuzzer {
        name: installed.name.clone(),
        buggy,
        correct,
        peak_rss: peak_rss_of_children(before).1,
    }
}

/// The table, then the wall-time ratios and the peak memory.
fn report(ours: &Fuzzer, theirs: &[Fuzzer]) {
    let all = || std::iter::once(ours).chain(theirs);
    println!(
        "| fuzzer | server | bugs found (of 9), per run | false positives, per run | wall time per run (s) | mean | missed in some run |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for fuzzer in all() {
        println!("{}", row(&fuzzer.name, "planted bugs", &fuzzer.buggy));
    }
    for fuzzer in all() {
        println!("{}", row(&fuzzer.name, "correct", &fuzzer.correct));
    }
    println!();
    for fuzzer in theirs {
        println!(
            "wall time, {} / mcp-assured on the planted bugs: {:.1}x",
            fuzzer.name,
            mean(&fuzzer.buggy) / mean(&ours.buggy)
        );
    }
    let peaks: Vec<String> = all()
        .map(|fuzzer| format!("{} {}", fuzzer.name, fuzzer.peak_rss))
        .collect();
    println!("peak RSS: {}", peaks.join("; "));
}
