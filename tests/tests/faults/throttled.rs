//! A server that asks its callers to slow down (HTTP `429`, `503` with `Retry-After`): the
//! error says how long it asked for, and a fuzz run waits as it asks and sends the call
//! again, instead of blaming the tool for a `broken_answer`.

use std::time::Duration;

use mcp_assured::{Error, report::Status};
use mcp_assured_tests::faults::{Fault, RATE_LIMIT};
use serde_json::json;

use crate::support::{Via, fault_server, tag};

async fn third_call_error(via: Via) -> Error {
    let (builder, _server) = fault_server(via, Fault::RateLimited, &tag()).await;
    let client = builder.build().await.expect("reached");
    for _ in 0..2 {
        client
            .call_tool("echo", json!({"message": "hi"}))
            .await
            .expect("the first two calls are served");
    }
    let error = client
        .call_tool("echo", json!({"message": "hi"}))
        .await
        .expect_err("the third is refused: 503, Retry-After: 1");
    client.close().await.unwrap();
    error
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_says_how_long_the_server_asked_to_wait() {
    for via in [Via::Http, Via::Sse] {
        let error = third_call_error(via).await;
        assert_eq!(error.http_status(), Some(503), "{via:?}: {error}");
        assert_eq!(
            error.retry_after(),
            Some(Duration::from_secs(1)),
            "{via:?}: {error:?}"
        );
        assert!(error.to_string().contains("Retry-After: 1"), "{error}");
    }
}

/// More calls than the server serves a second, with a `503` among them: every call is
/// served in the end, none is judged for a refusal, and the summary says what it cost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fuzz_waits_out_429_and_503_instead_of_blaming_the_tool() {
    let (builder, _server) = fault_server(Via::Http, Fault::RateLimited, &tag()).await;
    let client = builder.build().await.expect("reached");
    let report = client.fuzz().tool("echo").cases(25).seed(1).run().await;
    let failed: Vec<String> = report
        .entries()
        .iter()
        .filter(|entry| entry.status != Status::Passed)
        .map(|entry| format!("{} {:?}: {}", entry.name, entry.status, entry.message))
        .collect();
    assert!(failed.is_empty(), "{failed:#?}\n{report}");
    let run = report.entry("fuzz.run").expect("the summary");
    let refusals = run.details["throttled"]["refusals"].as_u64().unwrap();
    assert!(
        refusals > 0,
        "50 calls, 8 at a time, {RATE_LIMIT} served a second: no refusal\n{report}"
    );
    assert_eq!(run.details["throttled"]["given_up"], 0, "{report}");
    assert!(
        run.message.contains("refused") && run.message.contains("Retry-After"),
        "{}",
        run.message
    );
    client.close().await.unwrap();
}
