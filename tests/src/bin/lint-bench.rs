//! The lint benchmark: `mcp-assured lint` (the library, in this process) and Cisco's MCP
//! scanner 4.8.7 (`cisco-ai-mcp-scanner`, its offline YARA analyzer; pinned in
//! `tests/peers/lint-peers/`), in the same run, on the same servers:
//!
//! - every twin pair of `tests/peers/lint_twins_server.py` (a vulnerable server and its safe
//!   twin per rule family): which vulnerable ones each flags, which safe ones, and so how many
//!   pairs each tells apart (a cross-server twin beside the server it speaks of, in a config
//!   file: the scanner's `config` command, our `Lint::run_servers`);
//! - time on a large surface: server-everything (npm, over stdio) and the twins server's
//!   `--many 1000` (1,000 tools). Ours is timed twice: the whole command as a user runs it
//!   (start the server, list, lint), and the lint alone of the listed surface; the scanner's
//!   is its process's wall time (start the server, list, scan).
//!
//! ```sh
//! cargo run --release -p mcp-assured-tests --bin lint-bench
//! ```

use std::{
    collections::BTreeMap,
    ffi::OsString,
    process::Command,
    time::{Duration, Instant},
};

use mcp_assured::{
    McpAssured,
    diff::Surface,
    lint::{Lint, Profile, Severity},
};
use mcp_assured_tests::{
    lint_twins::{script as twins_script, twins},
    peers,
};
use serde_json::Value;

/// Whether ours flags the server (a failing finding of the twin's category), and the time.
async fn ours(
    command: &[OsString],
    lint: &Lint,
    category: Option<&str>,
) -> (bool, Duration, Duration) {
    let started = Instant::now();
    let client = McpAssured::client()
        .command(&command[0])
        .args(&command[1..])
        .timeout(Duration::from_secs(60))
        .build()
        .await
        .expect("the server starts");
    let surface = Surface::from_client(&client).await.expect("it lists");
    let linting = Instant::now();
    let report = lint.run(&surface);
    let lint_alone = linting.elapsed();
    client.close().await.unwrap();
    let flagged = report.findings.iter().any(|finding| {
        finding.severity == Severity::Fail
            && category.is_none_or(|category| finding.category.as_str() == category)
    });
    (flagged, started.elapsed(), lint_alone)
}

/// Whether the scanner calls any item unsafe, and its wall time.
fn scanner(command: &[OsString]) -> (bool, Duration) {
    let started = Instant::now();
    let mut scan = Command::new(peers::lint_peers().with_file_name("mcp-scanner"));
    scan.args([
        "--analyzers",
        "yara",
        "--format",
        "raw",
        "stdio",
        "--stdio-command",
    ])
    .arg(&command[0]);
    for arg in &command[1..] {
        // `--stdio-arg=X`: argparse would read `--stdio-arg --many` as two options.
        let mut joined = OsString::from("--stdio-arg=");
        joined.push(arg);
        scan.arg(joined);
    }
    let output = scan.output().expect("mcp-scanner runs");
    let wall = started.elapsed();
    let text = String::from_utf8_lossy(&output.stdout);
    if !text.contains('{') {
        panic!(
            "mcp-scanner printed no JSON: {text}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    (unsafe_in(&text), wall)
}

/// A twin that needs another server beside it, linted with a config file of both, as
/// `mcp-assured lint --config` does: ours with `Lint::run_servers`, the scanner's `config`.
async fn ours_beside_mail(twin: &str, side: &str) -> bool {
    let mut surfaces = Vec::new();
    for args in [vec!["--mail"], vec![twin, side]] {
        let client = McpAssured::client()
            .command(peers::python())
            .arg(twins_script())
            .args(args)
            .build()
            .await
            .expect("the server starts");
        surfaces.push(Surface::from_client(&client).await.expect("it lists"));
        client.close().await.unwrap();
    }
    let report = Lint::new().run_servers(&[("mail", &surfaces[0]), ("twin", &surfaces[1])]);
    report.findings.iter().any(|finding| {
        finding.severity == Severity::Fail && finding.category.as_str() == "cross-server-shadowing"
    })
}

fn scanner_beside_mail(twin: &str, side: &str) -> bool {
    let python = peers::python();
    let script = twins_script();
    let config = serde_json::json!({"mcpServers": {
        "mail": {"command": python, "args": [script.to_str(), "--mail"]},
        "twin": {"command": python, "args": [script.to_str(), twin, side]},
    }});
    let path = std::env::temp_dir().join(format!(
        "lint-bench-{}-{twin}-{side}.json",
        std::process::id()
    ));
    std::fs::write(&path, config.to_string()).unwrap();
    let output = Command::new(peers::lint_peers().with_file_name("mcp-scanner"))
        .args([
            "--analyzers",
            "yara",
            "--format",
            "raw",
            "config",
            "--config-path",
        ])
        .arg(&path)
        .output()
        .expect("mcp-scanner runs");
    let _ = std::fs::remove_file(path);
    unsafe_in(&String::from_utf8_lossy(&output.stdout))
}

/// Whether the scanner's raw JSON (after its log lines) calls any item unsafe.
fn unsafe_in(text: &str) -> bool {
    let Some(json_start) = text.find('{') else {
        panic!("mcp-scanner printed no JSON: {text}");
    };
    let report: Value = serde_json::from_str(&text[json_start..]).expect("its raw JSON");
    let results = |report: &Value| -> bool {
        report["scan_results"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|item| item["is_safe"] == false)
    };
    // One server's report, or a config's: a list of them, or one per server.
    results(&report)
        || report
            .as_object()
            .into_iter()
            .flatten()
            .any(|(_, value)| results(value) || value.as_array().into_iter().flatten().any(results))
}

fn twin_command(twin: &str, side: &str) -> Vec<OsString> {
    vec![
        peers::python().into_os_string(),
        twins_script(),
        twin.into(),
        side.into(),
    ]
}

/// What one tool did on one corpus of twins.
#[derive(Debug, Default)]
struct Tally {
    pairs: usize,
    apart: usize,
    safe_flagged: usize,
}

impl Tally {
    fn add(&mut self, vulnerable: bool, safe: bool) {
        self.pairs += 1;
        self.apart += usize::from(vulnerable && !safe);
        self.safe_flagged += usize::from(safe);
    }
}

#[tokio::main]
async fn main() {
    println!(
        "| twin | corpus | category | subject | ours: vulnerable / safe flagged | scanner: vulnerable / safe flagged |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    // By corpus (`rules`: written with the rules; `families`, `holdout`: written apart
    // from them), ours over every pair, the scanner's over the security pairs whose attack
    // is in a tool (its `stdio` command lists tools only).
    let mut ours_by: BTreeMap<String, Tally> = BTreeMap::new();
    let mut scanner_by: BTreeMap<String, Tally> = BTreeMap::new();
    for twin in twins() {
        let name = twin["twin"].as_str().unwrap();
        let category = twin["category"].as_str().unwrap();
        let corpus = twin["corpus"].as_str().unwrap_or("rules").to_owned();
        let subject = twin["subject"].as_str().unwrap_or("tool");
        let mut lint = Lint::new();
        if let Some(profile) = twin["profile"].as_str() {
            lint = lint.profile(profile.parse::<Profile>().unwrap());
        }
        let in_a_tool = subject.starts_with("tool");
        let scanned = twin["profile"].is_null() && in_a_tool;
        let ((ours_vulnerable, ours_safe), (scanner_vulnerable, scanner_safe)) = if twin["needs"]
            .is_null()
        {
            let ours_vulnerable = ours(&twin_command(name, "vulnerable"), &lint, Some(category))
                .await
                .0;
            let ours_safe = ours(&twin_command(name, "safe"), &lint, Some(category))
                .await
                .0;
            let scanner = if scanned {
                (
                    scanner(&twin_command(name, "vulnerable")).0,
                    scanner(&twin_command(name, "safe")).0,
                )
            } else {
                (false, false)
            };
            ((ours_vulnerable, ours_safe), scanner)
        } else {
            (
                (
                    ours_beside_mail(name, "vulnerable").await,
                    ours_beside_mail(name, "safe").await,
                ),
                (
                    scanner_beside_mail(name, "vulnerable"),
                    scanner_beside_mail(name, "safe"),
                ),
            )
        };
        ours_by
            .entry(corpus.clone())
            .or_default()
            .add(ours_vulnerable, ours_safe);
        if scanned {
            scanner_by
                .entry(corpus.clone())
                .or_default()
                .add(scanner_vulnerable, scanner_safe);
        }
        let yes = |flag: bool| if flag { "yes" } else { "no" };
        let scanner_cell = match (twin["profile"].is_null(), in_a_tool) {
            (false, _) => "(no such rule)".to_owned(),
            (true, false) => "(not a tool: not scanned over stdio)".to_owned(),
            (true, true) => format!("{} / {}", yes(scanner_vulnerable), yes(scanner_safe)),
        };
        println!(
            "| {name} | {corpus} | {category} | {subject} | {} / {} | {scanner_cell} |",
            yes(ours_vulnerable),
            yes(ours_safe)
        );
    }
    println!();
    println!(
        "| corpus | ours: pairs told apart | ours: safe flagged | scanner: pairs told apart (tool pairs) | scanner: safe flagged |"
    );
    println!("| --- | --- | --- | --- | --- |");
    for (corpus, ours) in &ours_by {
        let scanner = scanner_by.get(corpus);
        println!(
            "| {corpus} | {} of {} | {} | {} | {} |",
            ours.apart,
            ours.pairs,
            ours.safe_flagged,
            scanner.map_or("-".to_owned(), |s| format!("{} of {}", s.apart, s.pairs)),
            scanner.map_or("-".to_owned(), |s| s.safe_flagged.to_string()),
        );
    }
    println!();
    println!(
        "| server | tools | ours, the command (s) | ours, the lint alone (ms) | scanner (s) | scanner / ours |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    let everything = vec![
        peers::node().into_os_string(),
        peers::server_everything().into_os_string(),
        "stdio".into(),
    ];
    let thousand = vec![
        peers::python().into_os_string(),
        twins_script(),
        "--many".into(),
        "1000".into(),
    ];
    for (name, tools, command) in [
        ("server-everything", 13, everything),
        ("--many 1000", 1000, thousand),
    ] {
        let (_, ours_wall, lint_alone) = ours(&command, &Lint::new(), None).await;
        let (_, scanner_wall) = scanner(&command);
        println!(
            "| {name} | {tools} | {:.2} | {:.1} | {:.2} | {:.1}x |",
            ours_wall.as_secs_f64(),
            lint_alone.as_secs_f64() * 1000.0,
            scanner_wall.as_secs_f64(),
            scanner_wall.as_secs_f64() / ours_wall.as_secs_f64()
        );
    }
}
