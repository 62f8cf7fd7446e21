//! Faults only a child process on stdio can have: broken JSON-RPC lines.

use std::time::{Duration, Instant};

use mcp_assured::Error;
use mcp_assured_tests::{faults::Fault, processes::assert_reaped};
use serde_json::json;

use crate::support::{TIMEOUT, assert_gone, stdio, tag};

/// Connects with `fault`, then calls `echo`, which the fault breaks.
async fn broken_echo(fault: Fault, timeout: Duration) -> (Error, Duration) {
    let tag = tag();
    let client = stdio(fault, &tag).timeout(timeout).build().await.unwrap();
    let pid = client.process_id().unwrap();
    let started = Instant::now();
    let error = client
        .call_tool("echo", json!({"text": "hello"}))
        .await
        .unwrap_err();
    let took = started.elapsed();
    // The session is broken, so closing may report that; the child must be reaped either way.
    let _ = client.close().await;
    assert_reaped(pid);
    assert_gone(&tag).await;
    (error, took)
}

#[tokio::test]
async fn a_log_line_on_stdout_is_quoted_with_the_call() {
    let (error, took) = broken_echo(Fault::LogLines, TIMEOUT).await;
    assert!(took < Duration::from_secs(3), "{took:?}");
    match &error {
        Error::Undecodable { line, method, .. } => {
            assert_eq!(line, "[fault-server] INFO finished tools/call");
            assert_eq!(method.as_deref(), Some("tools/call echo"));
        }
        other => panic!("expected Undecodable, got {other:?}"),
    }
    assert!(
        error
            .to_string()
            .contains("[fault-server] INFO finished tools/call"),
        "{error}"
    );
}

#[tokio::test]
async fn partial_json_is_quoted_with_the_call() {
    let (error, took) = broken_echo(Fault::PartialJson, TIMEOUT).await;
    assert!(took < Duration::from_secs(3), "{took:?}");
    match &error {
        Error::Undecodable { line, method, .. } => {
            assert!(line.starts_with(r#"{"jsonrpc":"2.0","id":"#), "{line}");
            assert!(serde_json::from_str::<serde_json::Value>(line).is_err());
            assert_eq!(method.as_deref(), Some("tools/call echo"));
        }
        other => panic!("expected Undecodable, got {other:?}"),
    }
}

#[tokio::test]
async fn an_answer_under_the_wrong_id_times_out_naming_the_call() {
    let limit = Duration::from_millis(500);
    let (error, took) = broken_echo(Fault::WrongId, limit).await;
    assert!(
        matches!(&error, Error::Timeout { method, .. } if method == "tools/call echo"),
        "{error:?}"
    );
    assert!(took >= limit && took < limit * 4, "{took:?}");
}
