//! The example server fuzzed in this process. Its tools that crash, hang or take as long as
//! they are told to are there to be found, and are: the rest, and its resource template and
//! prompts, have no finding.

use std::time::Duration;

use mcp_assured::{
    McpAssured,
    fuzz::{self, FindingKind},
    prelude::*,
    report::Status,
};
use mcp_assured_examples::ExampleServer;

/// The tools that misbehave on purpose, and how the fuzzer tells it.
const ON_PURPOSE: [(&str, FindingKind); 4] = [
    ("hang", FindingKind::Hang),
    ("slow", FindingKind::Hang),
    // Silent longer than the call timeout between two progress notifications: hung.
    ("progress", FindingKind::Hang),
    // Progress within the timeout each time, but more steps than six timeouts hold: slow,
    // a warning.
    ("progress", FindingKind::Slow),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_tools_that_misbehave_on_purpose_are_found() {
    let client = McpAssured::client()
        .service(ExampleServer::new())
        .build()
        .await
        .unwrap();
    let report = client
        .fuzz()
        .seed(7)
        .cases(40)
        // `crash` exits the process; in process that would end the test.
        .exclude_tool("crash")
        .call_timeout(Duration::from_secs(1))
        .run()
        .await;
    let found: Vec<(String, FindingKind)> = fuzz::findings(&report)
        .into_iter()
        .map(|finding| (finding.name, finding.kind))
        .collect();
    for finding in &found {
        let on_purpose = ON_PURPOSE
            .iter()
            .any(|(tool, kind)| (*tool, *kind) == (&finding.0, finding.1));
        assert!(
            on_purpose,
            "{finding:?} is not a tool that misbehaves on purpose: {report}"
        );
    }
    // `hang` never answers; `slow` and `progress` only when told to take long enough.
    assert!(
        found.contains(&("hang".to_owned(), FindingKind::Hang)),
        "{report}"
    );
    let clean = report
        .entries()
        .iter()
        .filter(|entry| entry.status == Status::Passed && entry.name != "fuzz.run")
        .count();
    assert!(clean >= 10, "{report}");

    let fine = client.fuzz().seed(7).cases(40).exclude_tool("crash");
    let fine = ON_PURPOSE
        .iter()
        .fold(fine, |fuzz, (tool, _)| fuzz.exclude_tool(*tool));
    fine.run().await.assert().no_findings();
}
