//! Every server this repository ships passes every check of `mcp-assured check`: the
//! companion over stdio and streamable HTTP, the example server over stdio, streamable HTTP
//! and HTTP+SSE, the weather server over stdio and streamable HTTP, the router, and the
//! record proxy in front of a server, each on the newest revision and on 2025-11-25 (which
//! has the checks of `ping` and logging), `wire.schema` among them: every message they sent
//! is valid on the revision, as the official SDKs' clients require. CI runs this, so a
//! failing check fails the build.

use std::{path::Path, process::Command};

use mcp_assured::fixture::{ServerCommand, ServerProcess};
use mcp_assured_tests::{example_server_binary, server, workspace_binary};

/// The weather API the weather server is pointed at: nothing listens there, and no check
/// calls a tool with arguments that reach it.
const NO_WEATHER_API: &str = "http://127.0.0.1:9";

const MCP_ASSURED: &str = env!("CARGO_BIN_EXE_mcp-assured");

/// Runs `mcp-assured check` on `target` (a URL, or `--` and a command) on both revisions;
/// asserts it exits 0 with no failed check.
fn passes_every_check(what: &str, target: &[&str]) {
    passes_every_check_with_env(what, target, &[]);
}

/// [`passes_every_check`], with `env` set for the server `check` starts.
fn passes_every_check_with_env(what: &str, target: &[&str], env: &[(&str, &str)]) {
    for protocol in ["newest", "2025-11-25"] {
        let output = Command::new(MCP_ASSURED)
            .args(["check", "--protocol", protocol])
            .args(target)
            .envs(env.iter().copied())
            .env("NO_COLOR", "1")
            .output()
            .expect("run mcp-assured");
        let text = String::from_utf8_lossy(&output.stdout);
        let failures: Vec<&str> = text.lines().filter(|l| l.starts_with("FAIL")).collect();
        assert!(
            output.status.success() && failures.is_empty(),
            "{what} on {protocol}: {failures:#?}\n{text}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            text.lines().last().is_some_and(|l| l.contains(" 0 failed")),
            "{text}"
        );
        assert!(
            text.lines().any(|l| l.starts_with("PASS wire.schema")),
            "{what} on {protocol}: wire.schema did not pass\n{text}"
        );
    }
}

async fn http(program: &Path, args: &[&str], path: &str) -> ServerProcess {
    server::start(&ServerCommand::new(program).args(args), path).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_companion_passes_every_check() {
    passes_every_check("the companion over stdio", &["--", MCP_ASSURED, "serve"]);
    let companion = http(
        Path::new(MCP_ASSURED),
        &["serve", "--transport", "http", "--port", "{port}"],
        "/mcp",
    )
    .await;
    passes_every_check("the companion over HTTP", &[companion.url().unwrap()]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_example_server_passes_every_check() {
    let example = example_server_binary();
    let program = example.to_str().unwrap();
    passes_every_check("the example server over stdio", &["--", program]);
    // Guarded by a pre-shared token: the checks of authorization run, and pass (with a
    // warning that OAuth clients cannot discover how to get one).
    let guarded = http(
        &example,
        &[
            "--transport",
            "streamable-http",
            "--port",
            "{port}",
            "--bearer-token",
            "dogfood-token",
        ],
        "/mcp",
    )
    .await;
    passes_every_check(
        "the example server guarded by a token",
        &["--bearer-token", "dogfood-token", guarded.url().unwrap()],
    );
    for (transport, path) in [("streamable-http", "/mcp"), ("sse", "/sse")] {
        let server = http(
            &example,
            &["--transport", transport, "--port", "{port}"],
            path,
        )
        .await;
        passes_every_check(
            &format!("the example server over {transport}"),
            &[server.url().unwrap()],
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_weather_server_passes_every_check() {
    let weather = workspace_binary("weather-server", "weather-server");
    let program = weather.to_str().unwrap();
    passes_every_check(
        "the weather server over stdio",
        &["--", program, "--api-url", NO_WEATHER_API],
    );
    let server = http(
        &weather,
        &[
            "--api-url",
            NO_WEATHER_API,
            "--transport",
            "http",
            "--port",
            "{port}",
        ],
        "/mcp",
    )
    .await;
    passes_every_check("the weather server over HTTP", &[server.url().unwrap()]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_router_passes_every_check() {
    // Before its fix, the router forwarded an upstream's result without the `resultType`
    // 2026-07-28 requires: wire.schema FAILed on the newest revision.
    let router = workspace_binary("router", "router");
    let example = example_server_binary();
    passes_every_check_with_env(
        "the router in front of the example server",
        &["--", router.to_str().unwrap()],
        &[("ROUTER_UPSTREAM_EXAMPLE_COMMAND", example.to_str().unwrap())],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_record_proxy_passes_every_check() {
    let example = example_server_binary();
    let cassette = std::env::temp_dir().join(format!(
        "mcp-assured-dogfood-{}-record.json",
        std::process::id()
    ));
    passes_every_check(
        "the record proxy in front of the example server",
        &[
            "--",
            MCP_ASSURED,
            "record",
            "--out",
            cassette.to_str().unwrap(),
            "--",
            example.to_str().unwrap(),
        ],
    );
    let _ = std::fs::remove_file(cassette);
}
