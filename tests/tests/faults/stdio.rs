//! Faults only a child process on stdio can have: dying or hanging at start, and breaking the
//! JSON-RPC lines.

use std::time::{Duration, Instant};

use mcp_assured::Error;
use mcp_assured_tests::faults::Fault;
use serde_json::json;

use crate::support::{TIMEOUT, assert_gone, assert_reaped, assert_within, stdio, tag};

#[tokio::test]
async fn exiting_at_once_is_a_server_exited_error() {
    let tag = tag();
    let started = Instant::now();
    let error = stdio(Fault::ExitAtStart, &tag).build().await.unwrap_err();
    assert_within(started, Duration::from_secs(3));
    assert!(
        matches!(&error, Error::ServerExited { status, method, .. }
            if status == "exit status: 0" && method.as_deref() == Some("initialize")),
        "{error:?}"
    );
    assert!(error.to_string().contains("exit status: 0"), "{error}");
    assert_gone(&tag).await;
}

#[tokio::test]
async fn crashing_during_initialize_shows_the_stderr() {
    let tag = tag();
    let started = Instant::now();
    let error = stdio(Fault::CrashOnInitialize, &tag)
        .build()
        .await
        .unwrap_err();
    assert_within(started, Duration::from_secs(3));
    match &error {
        Error::ServerExited {
            status,
            stderr_tail,
            ..
        } => {
            assert_eq!(status, "exit status: 3");
            assert_eq!(
                stderr_tail.as_deref(),
                Some("fault-server: crashing during initialize (code 3)")
            );
        }
        other => panic!("expected ServerExited, got {other:?}"),
    }
    assert_gone(&tag).await;
}

#[tokio::test]
async fn hanging_on_initialize_times_out_and_the_child_is_killed() {
    let tag = tag();
    let limit = Duration::from_millis(500);
    let started = Instant::now();
    let error = stdio(Fault::HangOnInitialize, &tag)
        .timeout(limit)
        .build()
        .await
        .unwrap_err();
    let waited = started.elapsed();
    assert!(
        matches!(&error, Error::Timeout { method, timeout, .. }
            if method == "initialize" && *timeout == limit),
        "{error:?}"
    );
    assert!(waited >= limit && waited < limit * 4, "{waited:?}");
    assert_gone(&tag).await;
}

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
async fn a_response_with_an_unknown_id_does_not_disturb_the_call() {
    let tag = tag();
    let client = stdio(Fault::UnknownId, &tag).build().await.unwrap();
    for round in 0..3 {
        let text = format!("round {round}");
        let result = client
            .call_tool("echo", json!({ "text": text }))
            .await
            .unwrap();
        assert_eq!(result.text(), text);
    }
    let pid = client.process_id().unwrap();
    client.close().await.unwrap();
    assert_reaped(pid);
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
