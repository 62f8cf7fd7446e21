//! The fuzzer against servers with planted bugs, one of each kind it looks for: every bug
//! found, shrunk to its smallest input; nothing reported on the correct tools; the same seed
//! finds the same; a regression file replays a past finding first.
//!
//! In process: `mcp_assured_tests::planted_bugs` (rmcp). As a child over stdio and
//! streamable HTTP: `tests/peers/planted_bugs_server.py` (Python SDK 2.3), in
//! `fuzz_planted_bugs_python.rs`.

use std::time::Duration;

use mcp_assured::{
    McpAssured, McpClient,
    fuzz::{self, FindingKind},
    prelude::*,
    report::{Report, Status},
};
use mcp_assured_tests::planted_bugs::{
    BUGGY_TOOLS, PlantedBugs, Reached, assert_every_bug_found, finding_in,
};
use serde_json::Value;

async fn in_process(server: PlantedBugs) -> McpClient {
    McpAssured::client().service(server).build().await.unwrap()
}

async fn fuzz(client: &McpClient, seed: u64) -> Report {
    client
        .fuzz()
        .seed(seed)
        .cases(60)
        .call_timeout(Duration::from_secs(1))
        .run()
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finds_every_planted_bug_shrunk_and_nothing_else() {
    let client = in_process(PlantedBugs::new()).await;
    let report = fuzz(&client, 1).await;
    println!("{report}");
    assert_every_bug_found(&report, Reached::InProcess);
    let findings = fuzz::findings(&report);
    let greet = finding_in(&findings, "greet");
    let search = finding_in(&findings, "search");
    assert_eq!(
        search.arguments.as_object().unwrap().len(),
        1,
        "{search:#?}"
    );
    // A tool that is slow by design is not a bug: the hang says how to tell the fuzzer so.
    let hang = report.entry("fuzz.tools.search.hang").unwrap();
    assert!(
        hang.message.contains("raise the per-call timeout")
            && hang.message.contains("`--exclude-tool search`"),
        "{}",
        hang.message
    );
    for tool in ["echo", "add", "noop"] {
        assert_eq!(
            report.entry(&format!("fuzz.tools.{tool}")).unwrap().status,
            Status::Passed
        );
    }
    assert_eq!(
        report.entry("fuzz.tools.delete_everything").unwrap().status,
        Status::Skipped
    );
    // In process, a finding has a test to paste but no command line.
    assert!(greet.reproduce.command.is_none());
    assert!(
        greet
            .reproduce
            .test
            .contains(r#"client.call_tool("greet", json!({"name":""}))"#)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reports_nothing_on_the_correct_tools() {
    let client = in_process(PlantedBugs::correct()).await;
    let report = client
        .fuzz()
        .seed(2)
        .cases(60)
        .include_destructive(true)
        .call_timeout(Duration::from_secs(1))
        .run()
        .await;
    report.assert().no_findings().all_passed();
    let run = report.entry("fuzz.run").unwrap();
    assert!(run.message.contains("seed 2:"), "{}", run.message);
    assert_eq!(report.entries().len(), 1 + BUGGY_TOOLS.len() + 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_seed_finds_the_same() {
    let shrunk = |report: &Report| -> Vec<(String, FindingKind, Value)> {
        fuzz::findings(report)
            .into_iter()
            .map(|f| (f.name, f.kind, f.arguments))
            .collect()
    };
    let client = in_process(PlantedBugs::new()).await;
    let quick = |seed| {
        client
            .fuzz()
            .seed(seed)
            .cases(40)
            .exclude_tool("greet")
            .exclude_tool("search")
            .run()
    };
    let first = shrunk(&quick(99).await);
    let again = shrunk(&quick(99).await);
    assert_eq!(first, again);
    assert!(first.len() >= 6, "{first:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_regression_file_replays_a_past_finding_first() {
    let dir = std::env::temp_dir().join(format!("mcp-assured-fuzz-{}", std::process::id()));
    let file = dir.join("planted.txt");
    let client = in_process(PlantedBugs::new()).await;
    let first = client
        .fuzz()
        .tool("divide")
        .seed(5)
        .cases(40)
        .regressions(&file)
        .run()
        .await;
    let found = fuzz::findings(&first);
    assert_eq!(found.len(), 1, "{first}");
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains("tool \"divide\" jsonrpc_error {"), "{saved}");

    // No generated case at all: only the file's input is sent, and it still fails.
    let replayed = client
        .fuzz()
        .tool("divide")
        .cases(0)
        .regressions(&file)
        .run()
        .await;
    let again = fuzz::findings(&replayed);
    assert_eq!(again.len(), 1, "{replayed}");
    assert!(again[0].replayed);
    assert_eq!(again[0].arguments, found[0].arguments);
    let failure = replayed.assert().try_no_findings().unwrap_err();
    assert!(
        failure
            .message()
            .contains("replayed from the regression file"),
        "{failure}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_property_of_ones_own_gets_a_shrunk_counterexample() {
    let client = in_process(PlantedBugs::correct()).await;
    let report = client
        .fuzz()
        .tool("add")
        .seed(3)
        .cases(60)
        .property("the sum is below 1000", |_arguments, result| {
            let sum = result
                .structured_content
                .as_ref()
                .and_then(|s| s["sum"].as_i64());
            match sum {
                Some(sum) if sum >= 1000 => Err(format!("the sum is {sum}")),
                _ => Ok(()),
            }
        })
        .run()
        .await;
    let findings = fuzz::findings(&report);
    assert_eq!(findings.len(), 1, "{report}");
    let property = &findings[0];
    assert_eq!(property.kind, FindingKind::Property);
    assert_eq!(property.property.as_deref(), Some("the sum is below 1000"));
    let (a, b) = (
        property.arguments["a"].as_i64().unwrap(),
        property.arguments["b"].as_i64().unwrap(),
    );
    assert_eq!(a + b, 1000, "shrunk to the boundary: {property:#?}");
    assert_eq!(
        report
            .entry("fuzz.tools.add.property.the sum is below 1000")
            .unwrap()
            .status,
        Status::Failed
    );

    // A panicking assertion inside the property is a broken property too.
    let report = client
        .fuzz()
        .tool("echo")
        .seed(3)
        .cases(30)
        .property("echoes", |arguments, result| {
            result
                .assert()
                .text_equals(arguments["message"].as_str().unwrap());
            assert!(result.text().chars().count() < 5, "long");
        })
        .run()
        .await;
    let findings = fuzz::findings(&report);
    assert_eq!(findings.len(), 1, "{report}");
    assert_eq!(
        findings[0].arguments["message"]
            .as_str()
            .unwrap()
            .chars()
            .count(),
        5,
        "{findings:#?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_nothing_can_be_generated_from_is_reported_not_skipped() {
    let client = in_process(PlantedBugs::correct().with_external_schema()).await;
    let report = client
        .fuzz()
        .tool("external")
        .tool("echo")
        .seed(4)
        .cases(10)
        .run()
        .await;
    let external = report.entry("fuzz.tools.external").unwrap();
    assert_eq!(external.status, Status::Warned, "{report}");
    assert!(
        external
            .message
            .starts_with("not fuzzed: no input can be generated from its schema: "),
        "{}",
        external.message
    );
    assert!(
        external
            .message
            .contains("https://example.com/schemas/external.json"),
        "{}",
        external.message
    );
    assert_eq!(
        report.entry("fuzz.tools.echo").unwrap().status,
        Status::Passed
    );
    // Strict: every warning fails, the run's own among them.
    let strict = client
        .fuzz()
        .tool("external")
        .seed(4)
        .cases(10)
        .strict(true)
        .run()
        .await;
    let external = strict.entry("fuzz.tools.external").unwrap();
    assert_eq!(external.status, Status::Failed, "{strict}");
    assert!(
        external
            .message
            .starts_with("(a warning, failed by strict) not fuzzed"),
        "{}",
        external.message
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_time_budget_ends_the_run_and_says_so() {
    let client = in_process(PlantedBugs::correct()).await;
    let report = client
        .fuzz()
        .seed(4)
        .cases(100_000)
        .time_budget(Duration::from_millis(300))
        .run()
        .await;
    let run = report.entry("fuzz.run").unwrap();
    assert!(
        run.message.contains("the time budget ran out"),
        "{}",
        run.message
    );
    assert!(run.duration.unwrap() < Duration::from_secs(10), "{run:?}");
    report.assert().no_findings();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_that_is_not_there_is_named_with_those_that_are() {
    let client = in_process(PlantedBugs::correct()).await;
    let report = client.fuzz().tool("ehco").run().await;
    let setup = report.entry("fuzz.setup").unwrap();
    assert_eq!(setup.status, Status::Failed);
    assert!(
        setup.message.contains("tool `ehco` not found"),
        "{}",
        setup.message
    );
    assert!(setup.message.contains("echo"), "{}", setup.message);
    let failure = report.assert().try_no_findings().unwrap_err();
    assert!(
        failure.message().contains("tool `ehco` not found"),
        "{failure}"
    );
}
