//! The wall time of a suite of 500 generated in-process `#[mcp_test]` tests under
//! `cargo test`, against 500 hand-written `#[tokio::test]` tests doing the same with raw rmcp
//! (an rmcp client and the example server on a duplex pipe), measured in the same run.
//!
//! ```sh
//! cargo bench -p mcp-assured-examples --bench generated_suite [-- ROUNDS]   # default 5
//! ```
//!
//! It writes a throwaway crate into `target/generated-suite/` (a workspace of its own, with
//! our `Cargo.lock`, building into our target directory so nothing is rebuilt twice), builds
//! its two test targets in the debug profile (what `cargo test` runs), then alternates runs of
//! each: `cargo test --test <suite>` from start to exit, and the test binary alone. Every run
//! must report 500 passed.

use std::{
    error::Error,
    fmt::Write as _,
    path::{Path, PathBuf},
    process::Command,
    time::{Duration, Instant},
};

const TESTS: usize = 500;

type Result<T> = std::result::Result<T, Box<dyn Error>>;

fn main() -> Result<()> {
    let rounds: usize = std::env::args()
        .skip(1)
        .find(|arg| !arg.starts_with('-'))
        .map(|n| n.parse())
        .transpose()?
        .unwrap_or(5);
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()?;
    let target = workspace.join("target");
    let suite = target.join("generated-suite");
    write_crate(&workspace, &suite)?;

    let mut binaries = Vec::new();
    for name in ["mcp_test_suite", "rmcp_suite"] {
        let started = Instant::now();
        let binary = build(&suite, &target, name)?;
        println!(
            "built `{name}` ({TESTS} tests) in {:.1} s (first build includes its dependencies)",
            started.elapsed().as_secs_f64()
        );
        binaries.push((name, binary, Vec::new(), Vec::new()));
    }
    for _ in 0..rounds {
        for (name, binary, cargo_runs, binary_runs) in &mut binaries {
            cargo_runs.push(timed(
                Command::new(cargo())
                    .args(["test", "--test", name])
                    .current_dir(&suite)
                    .env("CARGO_TARGET_DIR", &target),
            )?);
            binary_runs.push(timed(&mut Command::new(&binary))?);
        }
    }

    println!("\n{TESTS} tests per suite, {rounds} alternating rounds, debug build\n");
    println!("| suite | `cargo test` median | min | test binary alone, median | per test |");
    println!("| --- | --- | --- | --- | --- |");
    let mut medians = Vec::new();
    for (name, _, cargo_runs, binary_runs) in &mut binaries {
        let (cargo_median, binary_median) = (median(cargo_runs), median(binary_runs));
        println!(
            "| `{name}` | {:.2} s | {:.2} s | {:.2} s | {:.2} ms |",
            cargo_median.as_secs_f64(),
            cargo_runs
                .iter()
                .min()
                .copied()
                .unwrap_or_default()
                .as_secs_f64(),
            binary_median.as_secs_f64(),
            binary_median.as_secs_f64() * 1e3 / TESTS as f64,
        );
        medians.push((cargo_median, binary_median));
    }
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    println!(
        "\nratio `#[mcp_test]` / raw rmcp: {:.2} under `cargo test`, {:.2} for the binary alone",
        ratio(medians[0].0, medians[1].0),
        ratio(medians[0].1, medians[1].1)
    );
    Ok(())
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// The throwaway crate: its manifest, our lock file, and the two generated suites.
fn write_crate(workspace: &Path, suite: &Path) -> Result<()> {
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
            "default-features = false, features = [\"client\"]"
        ),
        serde_json = version_of("serde_json")?,
    );
    std::fs::write(suite.join("Cargo.toml"), manifest)?;
    std::fs::copy(workspace.join("Cargo.lock"), suite.join("Cargo.lock"))?;
    std::fs::create_dir_all(suite.join("src"))?;
    std::fs::write(suite.join("src/lib.rs"), "")?;

    let mut mcp_test = String::from(
        "use mcp_assured::{McpClient, mcp_test};\nuse mcp_assured_examples::ExampleServer;\n\n",
    );
    let mut rmcp = String::from(RMCP_HELPER);
    for n in 0..TESTS {
        write!(
            mcp_test,
            "#[mcp_test(server = service(ExampleServer::new()))]\n\
             async fn echo_{n}(client: McpClient) {{\n    \
             let result = client.call_tool(\"echo\", serde_json::json!({{\"message\": \"{n}\"}})).await.unwrap();\n    \
             assert_eq!(result.text(), \"{n}\");\n}}\n\n"
        )?;
        write!(
            rmcp,
            "#[tokio::test]\nasync fn echo_{n}() {{\n    echo(\"{n}\").await;\n}}\n\n"
        )?;
    }
    std::fs::write(suite.join("tests/mcp_test_suite.rs"), mcp_test)?;
    std::fs::write(suite.join("tests/rmcp_suite.rs"), rmcp)?;
    Ok(())
}

/// What each raw test does by hand: server on a task, rmcp client on a pipe, one call.
const RMCP_HELPER: &str = r#"use mcp_assured_examples::ExampleServer;
use rmcp::{ServiceExt, model::CallToolRequestParams};

async fn echo(text: &str) {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let server = tokio::spawn(async move {
        let running = ExampleServer::new().serve(server_io).await.unwrap();
        let _ = running.waiting().await;
    });
    let client = ().serve(client_io).await.unwrap();
    let mut params = CallToolRequestParams::new("echo");
    params.arguments = serde_json::json!({"message": text}).as_object().cloned();
    let result = client.peer().call_tool(params).await.unwrap();
    assert_eq!(result.content[0].as_text().expect("text").text, text);
    client.cancel().await.unwrap();
    server.await.unwrap();
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

/// Runs `command` to its end; an error unless it passed all the tests.
fn timed(command: &mut Command) -> Result<Duration> {
    let started = Instant::now();
    let output = command.output()?;
    let took = started.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() || !stdout.contains(&format!("{TESTS} passed; 0 failed")) {
        return Err(format!(
            "{command:?} did not pass:\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    Ok(took)
}

fn median(runs: &mut [Duration]) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}
