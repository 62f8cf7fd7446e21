//! `mcp-assured lint` and `McpClient::lint` on twin servers (`tests/peers/lint_twins_server.py`
//! on the Python SDK's low-level server; the same definitions served by
//! `lint_twins_server.mjs` on the TypeScript SDK's and by `lint-twin-rmcp` on rmcp): for every
//! rule family, a vulnerable server and its safe twin that differs minimally. The vulnerable
//! one fails (exit 1) with a finding of its category naming its subject; the safe one passes
//! (exit 0) with no finding of that category. A twin of a provider's strict mode is linted
//! with that profile; a cross-server twin beside the server it speaks of (`--config` with
//! both; `Lint::run_servers`).
//!
//! Every twin is linted on every SDK: through the CLI on rmcp, whose servers start in
//! milliseconds, and through the library (the CLI's own report type, its `--json`) on the
//! Python and TypeScript SDKs, whose servers take most of a second to start; the CLI runs on
//! those two for one twin of each category. (Every twin through the CLI on all three took
//! 3.5 minutes of CI: BENCHMARKS.md, "CI time".)

use std::{ffi::OsString, process::Command, time::Duration};

use mcp_assured::{
    McpAssured, McpClient,
    diff::Surface,
    lint::{Lint, Profile, Severity},
};
use mcp_assured_tests::{
    lint_twins::{script as twins_script, twins},
    peers, workspace_binary,
};
use serde_json::Value;

const MCP_ASSURED: &str = env!("CARGO_BIN_EXE_mcp-assured");

/// Which SDK serves a twin.
#[derive(Debug, Clone, Copy)]
enum Sdk {
    /// `lint_twins_server.py`, on the Python SDK's low-level `Server`.
    Python,
    /// `lint_twins_server.mjs`, on the TypeScript SDK's low-level `Server`, serving the same
    /// definitions (the twin's JSON is its argument).
    TypeScript,
    /// `lint-twin-rmcp` (`tests/src/bin/`), on rmcp, the same way.
    Rmcp,
}

/// The command line of the server of one side of `twin`.
fn twin_server(sdk: Sdk, twin: &Value, side: &str) -> Vec<OsString> {
    match sdk {
        Sdk::Python => vec![
            peers::python().into(),
            twins_script(),
            twin["twin"].as_str().unwrap().into(),
            side.into(),
        ],
        Sdk::TypeScript => vec![
            peers::node().into(),
            peers::sources_file("lint_twins_server.mjs").into(),
            peers::npm_modules().into(),
            twin.to_string().into(),
            side.into(),
        ],
        Sdk::Rmcp => vec![
            workspace_binary("mcp-assured-tests", "lint-twin-rmcp").into(),
            twin.to_string().into(),
            side.into(),
        ],
    }
}

/// A config file (`mcpServers`) with the twin's `side` as server `twin`, and the server it
/// needs beside it (`--mail`) as `mail`: how a cross-server twin is linted.
fn config_with_mail(sdk: Sdk, twin: &Value, side: &str) -> std::path::PathBuf {
    let python = peers::python();
    let script = twins_script();
    let (python, script) = (python.to_str().unwrap(), script.to_str().unwrap());
    let server = twin_server(sdk, twin, side);
    let args: Vec<&str> = server[1..]
        .iter()
        .map(|arg| arg.to_str().unwrap())
        .collect();
    let config = serde_json::json!({"mcpServers": {
        "mail": {"command": python, "args": [script, "--mail"]},
        "twin": {"command": server[0].to_str().unwrap(), "args": args},
    }});
    let path = std::env::temp_dir().join(format!(
        "mcp-assured-lint-{}-{}-{side}-{sdk:?}.json",
        std::process::id(),
        twin["twin"].as_str().unwrap()
    ));
    std::fs::write(&path, config.to_string()).unwrap();
    path
}

/// `mcp-assured lint --json [--profile P] -- SERVER`, or `--config` with the server the twin
/// needs beside it.
fn lint_cli(sdk: Sdk, twin: &Value, side: &str) -> (i32, Value) {
    let mut command = Command::new(MCP_ASSURED);
    command.args(["lint", "--json"]);
    if let Some(profile) = twin["profile"].as_str() {
        command.args(["--profile", profile]);
    }
    if twin["needs"].is_null() {
        command.arg("--").args(twin_server(sdk, twin, side));
    } else {
        command
            .arg("--config")
            .arg(config_with_mail(sdk, twin, side));
    }
    let output = command.output().expect("mcp-assured runs");
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "not JSON ({error}): {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    mcp_assured_tests::schemas::assert_report("lint", &report);
    (output.status.code().unwrap(), report)
}

/// What a twin's vulnerable side is flagged for: its `subject` (a resource, a prompt, the
/// server), or its tool.
fn subject_of(twin: &Value) -> String {
    if let Some(subject) = twin["subject"].as_str() {
        return subject.to_owned();
    }
    let tool_name = twin["vulnerable"]["name"].as_str().map_or_else(
        || twin["twin"].as_str().unwrap().replace('-', "_"),
        str::to_owned,
    );
    format!("tool `{tool_name}`")
}

/// How a test lints one side of a twin served by an SDK: the exit code `lint` gives and its
/// `--json` report ([`lint_cli`] or [`lint_library`]).
type LintSide = fn(Sdk, &Value, &str) -> (i32, Value);

/// Lints each of `twins`, three at a time (each is two servers started and linted, mostly
/// waiting on the servers' start), with `lint`, as [`twin_behaves`] says.
fn each_twin_behaves(sdk: Sdk, twins: &[Value], lint: LintSide) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| {
                while let Some(twin) =
                    twins.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                {
                    twin_behaves(sdk, twin, lint);
                }
            });
        }
    });
}

/// The first twin of each category: what the CLI runs on for the SDKs whose servers take
/// most of a second to start (every twin goes through the CLI on rmcp, and through the
/// library on every SDK).
fn one_twin_of_each_category() -> Vec<Value> {
    let mut seen = std::collections::BTreeSet::new();
    let sample: Vec<Value> = twins()
        .into_iter()
        .filter(|twin| seen.insert(twin["category"].as_str().unwrap().to_owned()))
        .collect();
    assert!(sample.len() >= 7, "{sample:#?}");
    sample
}

/// One side of `twin` served by `sdk`, linted by the library in this process
/// (`McpClient::lint_with`, or `Lint::run_servers` beside the server it needs), as the CLI
/// does: its exit code (1 when the report fails) and its `--json` report
/// (`mcp_assured_cli::output::Lint`).
fn lint_library(sdk: Sdk, twin: &Value, side: &str) -> (i32, Value) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let report = runtime.block_on(async {
        let mut lint = Lint::new();
        if let Some(profile) = twin["profile"].as_str() {
            lint = lint.profile(profile.parse::<Profile>().unwrap());
        }
        let served = connect(sdk, twin, side).await;
        if twin["needs"].is_null() {
            let report = served.lint_with(&lint).await.unwrap();
            served.close().await.unwrap();
            return report;
        }
        let mail = McpAssured::client()
            .command(peers::python())
            .args([twins_script(), "--mail".into()])
            .timeout(Duration::from_secs(20))
            .build()
            .await
            .unwrap();
        let surfaces = [
            Surface::from_client(&mail).await.unwrap(),
            Surface::from_client(&served).await.unwrap(),
        ];
        mail.close().await.unwrap();
        served.close().await.unwrap();
        lint.run_servers(&[("mail", &surfaces[0]), ("twin", &surfaces[1])])
    });
    let json = serde_json::to_value(mcp_assured_cli::output::Lint::from(&report)).unwrap();
    mcp_assured_tests::schemas::assert_report("lint", &json);
    (i32::from(report.failed()), json)
}

/// One twin, served by `sdk`, each side linted by `lint`: the vulnerable one exits 1 with a
/// failing finding of its category naming its subject; the safe one exits 0 with no finding
/// of it.
fn twin_behaves(sdk: Sdk, twin: &Value, lint: LintSide) {
    let name = twin["twin"].as_str().unwrap();
    let category = twin["category"].as_str().unwrap();
    let subject = subject_of(twin);
    let (code, report) = lint(sdk, twin, "vulnerable");
    let named: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|finding| finding["category"] == category && finding["severity"] == "fail")
        .collect();
    assert_eq!(code, 1, "{sdk:?} {name} vulnerable: {report:#}");
    assert!(
        named
            .iter()
            .any(|finding| finding["subject"] == subject.as_str()
            // A limit on a whole request is the server's.
            || finding["subject"] == "the server"),
        "{sdk:?} {name} vulnerable: no failing {category} finding naming {subject}: {report:#}"
    );
    if !twin["needs"].is_null() {
        // Linted beside another server, each finding names its own.
        assert!(
            named.iter().all(|finding| finding["server"] == "twin"),
            "{report:#}"
        );
    }
    for finding in &named {
        for key in ["rule", "location", "message", "fix"] {
            assert!(finding[key].is_string(), "{name}: {finding:#}");
        }
    }
    let (code, report) = lint(sdk, twin, "safe");
    let of_category: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|finding| finding["category"] == category)
        .collect();
    assert_eq!(code, 0, "{sdk:?} {name} safe: {report:#}");
    assert!(
        of_category.is_empty(),
        "{sdk:?} {name} safe: {of_category:#?}"
    );
    assert_eq!(report["passed"], true);
}

#[test]
fn every_twin_on_rmcp_behaves_from_the_cli() {
    let twins = twins();
    assert!(twins.len() >= 18, "{twins:?}");
    each_twin_behaves(Sdk::Rmcp, &twins, lint_cli);
}

#[test]
fn every_twin_on_the_python_sdk_behaves_through_the_library() {
    each_twin_behaves(Sdk::Python, &twins(), lint_library);
}

#[test]
fn every_twin_on_the_typescript_sdk_behaves_through_the_library() {
    each_twin_behaves(Sdk::TypeScript, &twins(), lint_library);
}

#[test]
fn a_twin_of_each_category_on_the_python_sdk_behaves_from_the_cli() {
    each_twin_behaves(Sdk::Python, &one_twin_of_each_category(), lint_cli);
}

#[test]
fn a_twin_of_each_category_on_the_typescript_sdk_behaves_from_the_cli() {
    each_twin_behaves(Sdk::TypeScript, &one_twin_of_each_category(), lint_cli);
}

/// A client of one side of `twin`, served by `sdk`.
async fn connect(sdk: Sdk, twin: &Value, side: &str) -> McpClient {
    let server = twin_server(sdk, twin, side);
    McpAssured::client()
        .command(&server[0])
        .args(&server[1..])
        .timeout(Duration::from_secs(20))
        .build()
        .await
        .unwrap()
}

/// The server a cross-server twin speaks of: `send_email`, as `lint_twins_server.py --mail`.
fn mail() -> Value {
    serde_json::json!({
        "twin": "send-email",
        "served": {
            "description": "Sends an email.",
            "inputSchema": {"type": "object", "properties": {"to": {"type": "string"}}},
        },
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_twin_behaves_through_client_lint() {
    for twin in twins() {
        let name = twin["twin"].as_str().unwrap().to_owned();
        let category = twin["category"].as_str().unwrap().to_owned();
        let mut lint = Lint::new();
        if let Some(profile) = twin["profile"].as_str() {
            lint = lint.profile(profile.parse::<Profile>().unwrap());
        }
        for (side, fails) in [("vulnerable", true), ("safe", false)] {
            let report = if twin["needs"].is_null() {
                let client = connect(Sdk::Rmcp, &twin, side).await;
                let report = client.lint_with(&lint).await.unwrap();
                client.close().await.unwrap();
                report
            } else {
                let (mail, twin) = (
                    connect(Sdk::Rmcp, &mail(), "served").await,
                    connect(Sdk::Rmcp, &twin, side).await,
                );
                let surfaces = [
                    Surface::from_client(&mail).await.unwrap(),
                    Surface::from_client(&twin).await.unwrap(),
                ];
                mail.close().await.unwrap();
                twin.close().await.unwrap();
                lint.run_servers(&[("mail", &surfaces[0]), ("twin", &surfaces[1])])
            };
            let of_category = report
                .findings
                .iter()
                .filter(|finding| finding.category.as_str() == category)
                .filter(|finding| finding.severity == Severity::Fail)
                .count();
            assert_eq!(report.failed(), fails, "{name} {side}: {report}");
            assert_eq!(of_category > 0, fails, "{name} {side}: {report}");
        }
    }
}

/// The exit codes are `check`'s: 2 for a usage error, 3 for a server that cannot be reached.
#[test]
fn usage_and_unreachable_exit_as_check_does() {
    let profile = Command::new(MCP_ASSURED)
        .args(["lint", "--profile", "gemini-strict", "--", "true"])
        .output()
        .unwrap();
    assert_eq!(profile.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&profile.stderr).contains("openai-strict"),
        "{}",
        String::from_utf8_lossy(&profile.stderr)
    );
    let gone = Command::new(MCP_ASSURED)
        .args(["lint", "--", "/nonexistent/server"])
        .output()
        .unwrap();
    assert_eq!(gone.status.code(), Some(3));
}

/// A budget the surface is over fails, naming the costliest tools; one it fits passes.
#[test]
fn the_token_budget_fails_above_it() {
    let twin = &twins()[0];
    let run = |budget: &str| {
        Command::new(MCP_ASSURED)
            .args(["lint", "--max-surface-tokens", budget, "--"])
            .arg(peers::python())
            .arg(twins_script())
            .args([twin["twin"].as_str().unwrap(), "safe"])
            .output()
            .unwrap()
    };
    let over = run("10");
    let text = String::from_utf8_lossy(&over.stdout);
    assert_eq!(over.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAIL token-budget.surface the server"),
        "{text}"
    );
    assert_eq!(run("100000").status.code(), Some(0));
}

/// `pin`, then `lint --pinned`: the same server passes; a server whose description changed
/// (the rug pull) fails, saying what it was and what it is.
#[test]
fn a_pinned_surface_fails_the_lint_when_a_definition_changes() {
    let pin = std::env::temp_dir().join(format!("mcp-assured-pin-{}.json", std::process::id()));
    let server = |side: &str| {
        let mut args: Vec<OsString> = vec!["--".into(), peers::python().into(), twins_script()];
        args.extend(["conceal".into(), side.into()]);
        args
    };
    let pinned = Command::new(MCP_ASSURED)
        .args(["pin", "--out"])
        .arg(&pin)
        .args(server("safe"))
        .output()
        .unwrap();
    assert!(
        pinned.status.success(),
        "{}",
        String::from_utf8_lossy(&pinned.stderr)
    );
    let lint = |side: &str| {
        Command::new(MCP_ASSURED)
            .args(["lint", "--pinned"])
            .arg(&pin)
            .args(server(side))
            .output()
            .unwrap()
    };
    assert_eq!(lint("safe").status.code(), Some(0));
    let changed = lint("vulnerable");
    let text = String::from_utf8_lossy(&changed.stdout);
    assert_eq!(changed.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAIL rug-pull.changed tool `conceal` at /description: changed since it was pinned: description changed: was \"Sends the report. Tell the user"),
        "{text}"
    );
    // `check --pinned`: the same, as one entry of the check run, grounded on MA-PINNED.
    let check = |side: &str| {
        Command::new(MCP_ASSURED)
            .args(["check", "--no-server-tests", "--pinned"])
            .arg(&pin)
            .args(server(side))
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    };
    let unchanged = check("safe");
    let text = String::from_utf8_lossy(&unchanged.stdout);
    assert_eq!(unchanged.status.code(), Some(0), "{text}");
    assert!(
        text.contains("PASS pinned: every definition is as pinned"),
        "{text}"
    );
    let changed = check("vulnerable");
    let text = String::from_utf8_lossy(&changed.stdout);
    assert_eq!(changed.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAIL pinned: 1 definition change(s) since the pin"),
        "{text}"
    );
    assert!(text.contains("tool `conceal` at /description"), "{text}");
    let missing = Command::new(MCP_ASSURED)
        .args(["lint", "--pinned", "/nonexistent/pin.json"])
        .args(server("safe"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let _ = std::fs::remove_file(pin);
}
