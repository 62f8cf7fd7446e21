//! The wall time of suites of 2,000 generated `#[mcp_test]` tests, against 2,000 hand-written
//! `#[tokio::test]` tests doing the same with raw rmcp, measured in the same run: the example
//! server in the test's process (an rmcp client on a duplex pipe, by hand) and as a child over
//! stdio (an rmcp client on the child's pipes, by hand), under `cargo test` and under
//! `cargo nextest run` (one process per test).
//!
//! ```sh
//! cargo bench -p mcp-assured-examples --bench generated_suite [-- ROUNDS [TESTS]]   # default 3, 2000
//! ```
//!
//! It writes a throwaway crate into `target/generated-suite/` (a workspace of its own, with
//! our `Cargo.lock`, building into our target directory so nothing is rebuilt twice), builds
//! its four test targets in the debug profile (what `cargo test` runs), then alternates runs of
//! each: `cargo test --test <suite>` from start to exit, the test binary alone, and
//! `cargo nextest run --test <suite>` when `cargo-nextest` is on the `PATH` or in
//! `target/tools/nextest/bin` (where `.ci/run` installs it). Every run must pass every test.

use std::{
    error::Error,
    fmt::Write as _,
    path::{Path, PathBuf},
    process::Command,
    time::{Duration, Instant},
};

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// The suites, as `(ours, raw rmcp)` pairs of test targets.
const PAIRS: [(&str, &str); 2] = [
    ("mcp_test_in_process", "rmcp_in_process"),
    ("mcp_test_stdio", "rmcp_stdio"),
];

/// How a suite is run.
#[derive(Clone, Copy, PartialEq)]
enum Runner {
    CargoTest,
    Binary,
    Nextest,
}

impl Runner {
    fn name(self) -> &'static str {
        match self {
            Runner::CargoTest => "`cargo test`",
            Runner::Binary => "test binary alone",
            Runner::Nextest => "`cargo nextest run`",
        }
    }
}

fn main() -> Result<()> {
    let numbers: Vec<usize> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with('-'))
        .map(|n| n.parse())
        .collect::<std::result::Result<_, _>>()?;
    let rounds = numbers.first().copied().unwrap_or(3);
    let tests = numbers.get(1).copied().unwrap_or(2000);
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()?;
    let target = workspace.join("target");
    let suite = target.join("generated-suite");
    let server = build_example_server(&workspace)?;
    write_crate(&workspace, &suite, &server, tests)?;
    let nextest = nextest(&target);
    let mut runners = vec![Runner::CargoTest, Runner::Binary];
    match &nextest {
        Some(path) => {
            println!("cargo-nextest: {}", path.display());
            runners.push(Runner::Nextest);
        }
        None => println!("cargo-nextest not found: its runs are left out"),
    }

    let names: Vec<&str> = PAIRS.iter().flat_map(|(ours, raw)| [*ours, *raw]).collect();
    let mut binaries = Vec::new();
    for name in &names {
        let started = Instant::now();
        binaries.push(build(&suite, &target, name)?);
        println!(
            "built `{name}` ({tests} tests) in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
    // runs[suite][runner]
    let mut runs = vec![vec![Vec::new(); runners.len()]; names.len()];
    for round in 0..rounds {
        for (index, name) in names.iter().enumerate() {
            for (r, runner) in runners.iter().enumerate() {
                let mut command = match runner {
                    Runner::CargoTest => {
                        let mut command = Command::new(cargo());
                        command.args(["test", "--test", name]);
                        command
                    }
                    Runner::Binary => Command::new(&binaries[index]),
                    Runner::Nextest => {
                        let mut command = Command::new(cargo());
                        command.args(["nextest", "run", "--no-fail-fast", "--test", name]);
                        if let Some(path) = &nextest {
                            command.env("PATH", with_path(path));
                        }
                        command
                    }
                };
                command.current_dir(&suite).env("CARGO_TARGET_DIR", &target);
                let took = timed(&mut command, *runner, tests)?;
                runs[index][r].push(took);
                println!(
                    "round {}: {name} under {}: {:.2} s",
                    round + 1,
                    runner.name(),
                    took.as_secs_f64()
                );
            }
        }
    }

    println!(
        "
{tests} tests per suite, {rounds} alternating rounds, debug build, medians
"
    );
    print!("| suite |");
    for runner in &runners {
        print!(" {} |", runner.name());
    }
    println!(
        "
| --- |{}",
        " --- |".repeat(runners.len())
    );
    if rounds == 0 {
        return Ok(());
    }
    for (name, suite_runs) in names.iter().zip(&mut runs) {
        print!("| `{name}` |");
        for runner_runs in suite_runs.iter_mut() {
            let median = median(runner_runs);
            print!(
                " {:.2} s ({:.2} ms a test) |",
                median.as_secs_f64(),
                median.as_secs_f64() * 1e3 / tests as f64
            );
        }
        println!();
    }
    for ((ours, raw), pair) in PAIRS.iter().zip(runs.chunks_mut(2)) {
        print!("| ratio `{ours}` / `{raw}` |");
        let [ours_runs, raw_runs] = pair else {
            continue;
        };
        for (ours, raw) in ours_runs.iter_mut().zip(raw_runs.iter_mut()) {
            let ratio = median(ours).as_secs_f64() / median(raw).as_secs_f64();
            print!(" {ratio:.2} |");
        }
        println!();
    }
    Ok(())
}

/// `cargo-nextest` on the `PATH`, or where `.ci/run` installs it.
fn nextest(target: &Path) -> Option<PathBuf> {
    let installed = target.join("tools/nextest/bin/cargo-nextest");
    if installed.exists() {
        return Some(installed);
    }
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("cargo-nextest"))
            .find(|candidate| candidate.exists())
    })
}

/// The `PATH` with the directory of `binary` first.
fn with_path(binary: &Path) -> std::ffi::OsString {
    let dir = binary.parent().map(Path::to_path_buf).unwrap_or_default();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(dir).chain(std::env::split_paths(&rest))).unwrap_or(rest)
}

/// Builds the example server's binary (debug, as the suites' own) and returns its path.
fn build_example_server(workspace: &Path) -> Result<PathBuf> {
    let status = Command::new(cargo())
        .args([
            "build",
            "-p",
            "mcp-assured-examples",
            "--bin",
            "example-server",
        ])
        .current_dir(workspace)
        .status()?;
    if !status.success() {
        return Err("building example-server failed".into());
    }
    Ok(workspace.join("target/debug/example-server"))
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// The throwaway crate: its manifest, our lock file, and the two generated suites.
fn write_crate(workspace: &Path, suite: &Path, server: &Path, tests: usize) -> Result<()> {
    std::fs::create_dir_all(suite.join("tests"))?;
    let root = std::fs::read_to_string(workspace.join("Cargo.toml"))?;
    let version_of = |name: &str| -> Result<String> {
        root.lines()
            .find(|line| line.starts_with(&format!("{name} = ")))
            .map(|line| line[name.len() + 3..].to_owned())
            .ok_or_else(|| format!("no `{name}` in the workspace dependencies").into())
    };
    let manifest = format!(
        r#"[package]
name = "generated-suite"
version = "0.0.0"
edition = "2024"
publish = false

# Not a member of the mcp-assured workspace.
[workspace]

[dev-dependencies]
mcp-assured = {{ path = "{root}/mcp-assured" }}
mcp-assured-examples = {{ path = "{root}/examples/example-server" }}
tokio = {tokio}
rmcp = {rmcp}
serde_json = {serde_json}
"#,
        root = workspace.display(),
        tokio = version_of("tokio")?.replace("features = [", "features = [\"full\", "),
        rmcp = version_of("rmcp")?.replace(
            "default-features = false",
            "default-features = false, features = [\"client\", \"transport-async-rw\"]"
        ),
        serde_json = version_of("serde_json")?,
    );
    std::fs::write(suite.join("Cargo.toml"), manifest)?;
    std::fs::copy(workspace.join("Cargo.lock"), suite.join("Cargo.lock"))?;
    std::fs::create_dir_all(suite.join("src"))?;
    std::fs::write(suite.join("src/lib.rs"), "")?;

    let server = server.display().to_string();
    let header =
        "use mcp_assured::{McpClient, mcp_test};\nuse mcp_assured_examples::ExampleServer;\n\n";
    let mut in_process = String::from(header);
    let mut stdio = format!("{header}const SERVER: &str = {server:?};\n\n");
    let mut raw_in_process = String::from(RMCP_HELPER);
    let mut raw_stdio = format!("{RMCP_HELPER}const SERVER: &str = {server:?};\n\n");
    for n in 0..tests {
        for (file, source) in [
            (&mut in_process, "service(ExampleServer::new())"),
            (&mut stdio, "command(SERVER)"),
        ] {
            write!(
                file,
                "#[mcp_test(server = {source})]\n\
                 async fn echo_{n}(client: McpClient) {{\n    \
                 let result = client.call_tool(\"echo\", serde_json::json!({{\"message\": \"{n}\"}})).await.unwrap();\n    \
                 assert_eq!(result.text(), \"{n}\");\n}}\n\n"
            )?;
        }
        // The call and its check inline, as in the `#[mcp_test]` tests; the wiring in helpers.
        for (file, start, stop) in [
            (&mut raw_in_process, "start_in_process()", "stop_in_process"),
            (&mut raw_stdio, "start_stdio(SERVER)", "stop_stdio"),
        ] {
            write!(
                file,
                "#[tokio::test]\nasync fn echo_{n}() {{\n    \
                 let (client, server) = {start}.await;\n    \
                 let mut params = CallToolRequestParams::new(\"echo\");\n    \
                 params.arguments = serde_json::json!({{\"message\": \"{n}\"}}).as_object().cloned();\n    \
                 let result = client.peer().call_tool(params).await.unwrap();\n    \
                 assert_eq!(result.content[0].as_text().expect(\"text\").text, \"{n}\");\n    \
                 {stop}(client, server).await;\n}}\n\n"
            )?;
        }
    }
    // Only the ones that changed, so that a rerun with as many tests rebuilds nothing.
    for (name, source) in [
        ("mcp_test_in_process", in_process),
        ("mcp_test_stdio", stdio),
        ("rmcp_in_process", raw_in_process),
        ("rmcp_stdio", raw_stdio),
    ] {
        let path = suite.join(format!("tests/{name}.rs"));
        if std::fs::read_to_string(&path).ok().as_deref() != Some(source.as_str()) {
            std::fs::write(path, source)?;
        }
    }
    Ok(())
}

/// What each raw test does by hand, in helpers: the server on a task or as a child, an rmcp
/// client on its pipes; after the test's call, the client cancelled, the server awaited.
const RMCP_HELPER: &str = r#"#![allow(dead_code)]
use mcp_assured_examples::ExampleServer;
use rmcp::{ServiceExt, model::CallToolRequestParams, service::RunningService, RoleClient};

type Client = RunningService<RoleClient, ()>;

async fn start_in_process() -> (Client, tokio::task::JoinHandle<()>) {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let server = tokio::spawn(async move {
        let running = ExampleServer::new().serve(server_io).await.unwrap();
        let _ = running.waiting().await;
    });
    (().serve(client_io).await.unwrap(), server)
}

async fn stop_in_process(client: Client, server: tokio::task::JoinHandle<()>) {
    client.cancel().await.unwrap();
    server.await.unwrap();
}

async fn start_stdio(server: &str) -> (Client, tokio::process::Child) {
    let mut child = tokio::process::Command::new(server)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let stdin = child.stdin.take().unwrap();
    (().serve((stdout, stdin)).await.unwrap(), child)
}

async fn stop_stdio(client: Client, mut child: tokio::process::Child) {
    // Closing its stdin ends the server.
    client.cancel().await.unwrap();
    child.wait().await.unwrap();
}

"#;

/// Builds the test target `name` and returns its binary.
fn build(suite: &Path, target: &Path, name: &str) -> Result<PathBuf> {
    let output = Command::new(cargo())
        .args(["test", "--no-run", "--message-format=json", "--test", name])
        .current_dir(suite)
        .env("CARGO_TARGET_DIR", target)
        .output()?;
    let messages: Vec<serde_json::Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    if !output.status.success() {
        let rendered: String = messages
            .iter()
            .filter_map(|message| message["message"]["rendered"].as_str())
            .collect();
        return Err(format!(
            "building `{name}` failed:\n{rendered}{}",
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    messages
        .into_iter()
        .filter(|message| message["target"]["name"] == name)
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| format!("no test binary for `{name}`").into())
}

/// Runs `command` to its end; an error unless it passed all `tests` tests.
fn timed(command: &mut Command, runner: Runner, tests: usize) -> Result<Duration> {
    let started = Instant::now();
    let output = command.output()?;
    let took = started.elapsed();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let passed = match runner {
        Runner::Nextest => format!("{tests} tests run: {tests} passed"),
        Runner::CargoTest | Runner::Binary => format!("{tests} passed; 0 failed"),
    };
    if !output.status.success() || !printed.contains(&passed) {
        return Err(format!("{command:?} did not pass:\n{printed}").into());
    }
    Ok(took)
}

fn median(runs: &mut [Duration]) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}
