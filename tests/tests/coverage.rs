//! Surface coverage (`mcp_assured::coverage`) of a suite driven by `#[mcp_test]`, against an
//! order desk on the Python SDK (`tests/peers/orders_server.py`) and its twin on the
//! TypeScript SDK (`orders_server.mjs`). The suite (`mod suite`) never calls `track_order`
//! and never sends the size `large`; the tests below run it in child processes of this
//! binary with `MCP_ASSURED_COVERAGE` set, as `cargo test` (one process) and as nextest does
//! (one process per test, in two partitions), and assert the reports to the number. The
//! example suites of `examples/any-language` (a Python SDK and a TypeScript SDK server, each
//! with its own `#[mcp_test]` tests) and the weather server's (`examples/weather-server`, on
//! rmcp, over three transports) are run the same way, as built for this workspace.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use mcp_assured::coverage::{
    ArgumentRef, Coverage, CoverageReport, Outcome, OutcomeRef, ServerReport, Thresholds, ValueRef,
};
use serde_json::json;

/// The suite whose coverage is measured: real tests of the two servers, run here as they
/// are, and in child processes with coverage on.
mod suite {
    use mcp_assured::{McpClient, mcp_test};
    use mcp_assured_tests::peers;
    use serde_json::json;

    async fn places_orders(client: &McpClient) {
        let gift = client
            .call_tool(
                "place_order",
                json!({"item": "tea", "size": "small", "gift": true}),
            )
            .await
            .unwrap();
        assert!(
            gift.text().contains("small tea as a gift"),
            "{}",
            gift.text()
        );
        let plain = client
            .call_tool(
                "place_order",
                json!({"item": "cake", "size": "medium", "gift": false}),
            )
            .await
            .unwrap();
        assert!(plain.text().contains("medium cake"), "{}", plain.text());
        let empty = client
            .call_tool("place_order", json!({"item": "", "size": "small"}))
            .await
            .unwrap();
        assert_eq!(empty.is_error, Some(true));
    }

    async fn cancels_and_quotes(client: &McpClient) {
        let cancelled = client
            .call_tool("cancel_order", json!({"id": "A1"}))
            .await
            .unwrap();
        assert!(
            cancelled.text().contains("cancelled A1"),
            "{}",
            cancelled.text()
        );
        let unknown = client
            .call_tool("cancel_order", json!({"id": "Z9"}))
            .await
            .unwrap();
        assert_eq!(unknown.is_error, Some(true));
        let quote = client
            .call_tool("quote", json!({"item": "tea"}))
            .await
            .unwrap();
        assert_eq!(quote.structured_content, Some(json!({"price": 2.5})));
        let off_menu = client
            .call_tool("quote", json!({"item": "soup"}))
            .await
            .unwrap();
        assert_eq!(off_menu.is_error, Some(true));
    }

    async fn reads_and_prompts(client: &McpClient) {
        let summary = client
            .get_prompt("order_summary", json!({"id": "A1"}))
            .await
            .unwrap();
        assert!(format!("{summary:?}").contains("Summarise order A1"));
        let recent = client.read_resource("orders://recent").await.unwrap();
        assert!(format!("{recent:?}").contains("A1"));
        let one = client.read_resource("orders://A1").await.unwrap();
        assert!(format!("{one:?}").contains("order A1"));
    }

    #[mcp_test(server = command(peers::python(), peers::python_orders_server_script()))]
    async fn python_places_orders(client: McpClient) {
        places_orders(&client).await;
    }

    #[mcp_test(server = command(peers::python(), peers::python_orders_server_script()))]
    async fn python_cancels_and_quotes(client: McpClient) {
        cancels_and_quotes(&client).await;
    }

    #[mcp_test(server = command(peers::python(), peers::python_orders_server_script()))]
    async fn python_reads_and_prompts(client: McpClient) {
        reads_and_prompts(&client).await;
    }

    #[mcp_test(server = command(
        peers::node(),
        peers::typescript_orders_server_script(),
        peers::npm_modules()
    ))]
    async fn typescript_places_orders(client: McpClient) {
        places_orders(&client).await;
    }

    #[mcp_test(server = command(
        peers::node(),
        peers::typescript_orders_server_script(),
        peers::npm_modules()
    ))]
    async fn typescript_cancels_and_quotes(client: McpClient) {
        cancels_and_quotes(&client).await;
    }

    #[mcp_test(server = command(
        peers::node(),
        peers::typescript_orders_server_script(),
        peers::npm_modules()
    ))]
    async fn typescript_reads_and_prompts(client: McpClient) {
        reads_and_prompts(&client).await;
    }
}

/// A fresh directory for one run's records.
fn records_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mcp-assured-coverage-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs the suite's tests named by `filter` (libtest's arguments) in one child process of
/// this binary, recording into `dir`.
fn run_suite(dir: &Path, filter: &[&str]) {
    // Installed here, once, not by each child at the same time.
    let _ = (
        mcp_assured_tests::peers::python(),
        mcp_assured_tests::peers::npm_modules(),
    );
    let output = Command::new(std::env::current_exe().unwrap())
        .args(filter)
        .args(["--test-threads", "2"])
        .env(mcp_assured::coverage::ENV, dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "the suite failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The suite's test names, as `--list` gives them.
fn suite_tests() -> Vec<String> {
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["suite::", "--list", "--format", "terse"])
        .output()
        .unwrap();
    let names: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.strip_suffix(": test"))
        .map(str::to_owned)
        .collect();
    assert_eq!(names.len(), 6, "{names:?}");
    names
}

fn server<'a>(report: &'a CoverageReport, name: &str) -> &'a ServerReport {
    report
        .servers
        .iter()
        .find(|server| server.server.name == name)
        .unwrap_or_else(|| panic!("no report of {name}: {report}"))
}

fn tally(report: &ServerReport, name: &str) -> (u64, u64) {
    let (_, tally) = report
        .tallies()
        .into_iter()
        .find(|(tally, _)| *tally == name)
        .unwrap();
    (tally.covered, tally.total)
}

fn argument(tool: &str, argument: &str) -> ArgumentRef {
    ArgumentRef {
        tool: tool.into(),
        argument: argument.into(),
    }
}

fn value(tool: &str, argument: &str, value: serde_json::Value) -> ValueRef {
    ValueRef {
        tool: tool.into(),
        argument: argument.into(),
        value,
    }
}

/// What both servers' reports say, to the number: the one tool and the one enum value the
/// suite skipped (and the skipped tool's arguments, values and outcomes) uncovered, and
/// nothing else.
fn assert_the_suite_s_coverage(report: &ServerReport) {
    let shown = format!("{report}");
    assert_eq!(report.records, 3, "{shown}");
    assert_eq!(tally(report, "tools"), (3, 4), "{shown}");
    assert_eq!(tally(report, "arguments"), (5, 7), "{shown}");
    assert_eq!(tally(report, "values"), (4, 7), "{shown}");
    assert_eq!(tally(report, "outcomes"), (6, 8), "{shown}");
    assert_eq!(tally(report, "prompts"), (1, 1), "{shown}");
    assert_eq!(tally(report, "resources"), (1, 1), "{shown}");
    assert_eq!(tally(report, "templates"), (1, 1), "{shown}");
    let uncovered = &report.uncovered;
    assert_eq!(uncovered.tools, ["track_order"], "{shown}");
    assert_eq!(
        uncovered.arguments,
        [
            argument("track_order", "id"),
            argument("track_order", "verbose")
        ],
        "{shown}"
    );
    assert_eq!(
        uncovered.values,
        [
            value("place_order", "size", json!("large")),
            value("track_order", "verbose", json!(false)),
            value("track_order", "verbose", json!(true)),
        ],
        "{shown}"
    );
    assert_eq!(
        uncovered.outcomes,
        [
            OutcomeRef {
                tool: "track_order".into(),
                outcome: Outcome::Success
            },
            OutcomeRef {
                tool: "track_order".into(),
                outcome: Outcome::IsError
            },
        ],
        "{shown}"
    );
    assert!(
        uncovered.prompts.is_empty() && uncovered.resources.is_empty(),
        "{shown}"
    );
    assert!(uncovered.templates.is_empty(), "{shown}");
    assert_eq!(report.unlisted, Default::default(), "{shown}");
    // The calls, as the suite made them.
    let calls: Vec<(&str, u64, u64, u64)> = report
        .tool_calls
        .iter()
        .map(|row| {
            let outcomes = &row.outcomes;
            (
                row.name.as_str(),
                row.calls,
                outcomes.success,
                outcomes.is_error,
            )
        })
        .collect();
    assert_eq!(
        calls,
        [
            ("cancel_order", 2, 1, 1),
            ("place_order", 3, 2, 1),
            ("quote", 2, 1, 1),
            ("track_order", 0, 0, 0),
        ],
        "{shown}"
    );
    // Which arguments each call had, and which values of those the schema lists.
    let place = report
        .tool_calls
        .iter()
        .find(|row| row.name == "place_order")
        .unwrap();
    // (name, required, present, absent, [(value, times sent)])
    type Use<'a> = (&'a str, bool, u64, u64, Vec<(serde_json::Value, u64)>);
    let uses: Vec<Use<'_>> = place
        .argument_uses
        .iter()
        .map(|argument| {
            let values = argument
                .values
                .iter()
                .map(|value| (value.value.clone(), value.sent))
                .collect();
            let name = argument.name.as_str();
            (
                name,
                argument.required,
                argument.present,
                argument.absent,
                values,
            )
        })
        .collect();
    assert_eq!(
        uses,
        [
            (
                "gift",
                false,
                2,
                1,
                vec![(json!(false), 1), (json!(true), 1)]
            ),
            ("item", true, 3, 0, vec![]),
            (
                "size",
                true,
                3,
                0,
                vec![
                    (json!("small"), 2),
                    (json!("medium"), 1),
                    (json!("large"), 0)
                ]
            ),
        ],
        "{shown}"
    );
    let quote = report
        .tool_calls
        .iter()
        .find(|row| row.name == "quote")
        .unwrap();
    assert_eq!(
        (quote.output.valid, quote.output.invalid),
        (1, 0),
        "{shown}"
    );
}

#[test]
fn a_suite_s_report_names_exactly_what_it_skipped_and_partitions_merge_to_it() {
    // As `cargo test` runs it: one process.
    let whole = records_dir("whole");
    run_suite(&whole, &["suite::"]);
    let report = Coverage::load(&whole).unwrap().report();
    assert_eq!(report.servers.len(), 2, "{report}");
    assert_the_suite_s_coverage(server(&report, "orders-python"));
    assert_the_suite_s_coverage(server(&report, "orders-typescript"));

    // Thresholds on the same report: 75 % of the tools is reached, 100 % is not.
    let below = |thresholds: Thresholds| report.below(&thresholds).len();
    let tools = |minimum| Thresholds {
        tools: Some(minimum),
        ..Thresholds::default()
    };
    assert_eq!(below(tools(75.0)), 0);
    assert_eq!(below(tools(100.0)), 2);

    // As nextest runs it: each test a process of its own, in two partitions (by count, as
    // `--partition count:N/2`), each into a directory of its own, copied under one.
    let parts = records_dir("parts");
    for (index, test) in suite_tests().iter().enumerate() {
        let partition = parts.join(format!("partition-{}", index % 2 + 1));
        run_suite(&partition, &[test, "--exact"]);
    }
    let merged = Coverage::load(&parts).unwrap().report();
    assert_eq!(
        serde_json::to_value(&merged).unwrap(),
        serde_json::to_value(&report).unwrap()
    );
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&parts);
}

/// The test binaries of the workspace's test targets `names`, built as `cargo test
/// --workspace` builds them (the same features, so nothing is built again when it ran).
fn workspace_test_binaries(names: &[&str]) -> Vec<PathBuf> {
    let mut cargo = Command::new(env!("CARGO"));
    cargo.args([
        "test",
        "--no-run",
        "--workspace",
        "--locked",
        "--message-format",
        "json",
    ]);
    for name in names {
        cargo.args(["--test", name]);
    }
    let output = cargo.output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let binaries: Vec<PathBuf> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-artifact")
        // Not the package's binaries, built for its tests beside them.
        .filter(|message| message["profile"]["test"] == true)
        .filter_map(|message| message["executable"].as_str().map(PathBuf::from))
        .collect();
    assert_eq!(binaries.len(), names.len(), "{binaries:?}");
    binaries
}

#[test]
fn the_any_language_example_suites_report_what_they_exercised() {
    let dir = records_dir("any-language");
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/any-language");
    for binary in workspace_test_binaries(&["python", "typescript"]) {
        // As cargo runs a package's tests: from the package's directory.
        let output = Command::new(&binary)
            .current_dir(&package)
            .env(mcp_assured::coverage::ENV, &dir)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}:\n{}\n{}",
            binary.display(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let report = Coverage::load(&dir).unwrap().report();
    assert_eq!(report.servers.len(), 2, "{report}");

    // The Python server: five tests (one over stdio and streamable HTTP), everything
    // covered; no argument has values to count, and there are no templates.
    let units = server(&report, "units");
    let shown = units.to_string();
    assert_eq!(units.server.version, "1.2.0");
    assert_eq!(units.records, 5, "{shown}");
    let tallies: Vec<(&str, (u64, u64))> = units
        .tallies()
        .into_iter()
        .map(|(name, tally)| (name, (tally.covered, tally.total)))
        .collect();
    assert_eq!(
        tallies,
        [
            ("tools", (1, 1)),
            ("arguments", (3, 3)),
            ("values", (0, 0)),
            ("outcomes", (2, 2)),
            ("prompts", (1, 1)),
            ("resources", (1, 1)),
            ("templates", (0, 0)),
        ],
        "{shown}"
    );
    assert!(units.uncovered.is_empty(), "{shown}");
    let convert = &units.tool_calls[0];
    assert_eq!(
        (convert.name.as_str(), convert.calls),
        ("convert", 3),
        "{shown}"
    );
    assert_eq!(
        (convert.output.valid, convert.output.invalid),
        (2, 0),
        "{shown}"
    );

    // The TypeScript server: `word_count` is never made to fail.
    let text_tools = server(&report, "text-tools");
    let shown = text_tools.to_string();
    assert_eq!(text_tools.records, 4, "{shown}");
    assert_eq!(tally(text_tools, "tools"), (2, 2), "{shown}");
    assert_eq!(tally(text_tools, "arguments"), (2, 2), "{shown}");
    assert_eq!(tally(text_tools, "outcomes"), (3, 4), "{shown}");
    assert_eq!(tally(text_tools, "templates"), (1, 1), "{shown}");
    assert_eq!(
        text_tools.uncovered.outcomes,
        [OutcomeRef {
            tool: "word_count".into(),
            outcome: Outcome::IsError
        }],
        "{shown}"
    );
    let mut rest = text_tools.uncovered.clone();
    rest.outcomes.clear();
    assert!(rest.is_empty(), "{shown}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_weather_server_s_own_suite_reports_what_it_exercised() {
    let dir = records_dir("weather");
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/weather-server");
    let [binary] = &workspace_test_binaries(&["weather"])[..] else {
        unreachable!()
    };
    let output = Command::new(binary)
        .current_dir(&package)
        .env(mcp_assured::coverage::ENV, &dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let report = Coverage::load(&dir).unwrap().report();
    let weather = server(&report, "weather-server");
    let shown = weather.to_string();
    // Seven scenarios over three transports.
    assert_eq!(weather.records, 21, "{shown}");
    assert_eq!(tally(weather, "tools"), (3, 4), "{shown}");
    assert_eq!(tally(weather, "arguments"), (4, 7), "{shown}");
    assert_eq!(tally(weather, "outcomes"), (5, 8), "{shown}");
    // What the suite never tries: the report tool, the units, a failing alert.
    let uncovered = &weather.uncovered;
    assert_eq!(uncovered.tools, ["weather_report"], "{shown}");
    assert_eq!(
        uncovered.arguments,
        [
            argument("current_weather", "units"),
            argument("weather_report", "cities"),
            argument("weather_report", "units"),
        ],
        "{shown}"
    );
    assert_eq!(
        uncovered.outcomes,
        [
            OutcomeRef {
                tool: "weather_alerts".into(),
                outcome: Outcome::IsError
            },
            OutcomeRef {
                tool: "weather_report".into(),
                outcome: Outcome::Success
            },
            OutcomeRef {
                tool: "weather_report".into(),
                outcome: Outcome::IsError
            },
        ],
        "{shown}"
    );
    // And what it sends on purpose that the server does not list.
    assert_eq!(weather.unlisted.tools, ["tides"], "{shown}");
    assert_eq!(
        weather.unlisted.arguments,
        [argument("current_weather", "town")],
        "{shown}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fuzz run records into the same directory as the suite: its calls are counted too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fuzz_run_records_its_calls_too() {
    let dir = records_dir("fuzz");
    let client = mcp_assured::McpAssured::client()
        .service(mcp_assured_examples::ExampleServer::new())
        .coverage_to(&dir)
        .build()
        .await
        .unwrap();
    let report = client.fuzz().tool("echo").cases(10).seed(1).run().await;
    client.close().await.unwrap();
    assert!(report.entry("fuzz.run").is_some());
    let coverage = Coverage::load(&dir).unwrap().report();
    let example = server(&coverage, "mcp-assured-example");
    let echo = example
        .tool_calls
        .iter()
        .find(|row| row.name == "echo")
        .unwrap();
    // Ten valid inputs and ten invalid ones at least.
    assert!(echo.calls >= 20, "{example}");
    assert!(echo.outcomes.success > 0, "{example}");
    assert!(
        !example.uncovered.tools.contains(&"echo".to_owned()),
        "{example}"
    );
    // Only `echo` was fuzzed: the other tools are still to cover.
    assert!(!example.uncovered.tools.is_empty(), "{example}");
    let _ = std::fs::remove_dir_all(&dir);
}
