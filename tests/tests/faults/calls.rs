//! Tools that misbehave during a call, on every transport where the fault can happen.

use std::time::{Duration, Instant};

use mcp_assured::Error;
use mcp_assured_tests::faults::{Fault, FaultServer, LATE_ANSWER, STRAY_RESPONSE};
use serde_json::{Value, json};

use crate::support::{Peer, TIMEOUT, Via, assert_crashed, assert_within, on, wait_exited};

/// A hung call is a `Timeout` naming the request at the configured time, the server hears
/// `notifications/cancelled`, and the session goes on.
async fn hang_times_out_and_is_cancelled(via: Via) {
    let peer = Peer::start(via).await;
    let limit = Duration::from_millis(500);
    let started = Instant::now();
    let error = peer
        .client
        .with_timeout(limit)
        .call_tool("hang", json!({}))
        .await
        .unwrap_err();
    let waited = started.elapsed();
    assert!(
        matches!(&error, Error::Timeout { method, timeout, .. }
            if method == "tools/call hang" && *timeout == limit),
        "{error:?}"
    );
    assert!(waited >= limit && waited < limit * 4, "{waited:?}");
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let result = peer
            .client
            .call_tool("cancelled_calls", json!({}))
            .await
            .unwrap();
        if result.text() == "1" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the server never heard of the cancellation"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    peer.finish().await;
}
on!(hang_times_out_and_is_cancelled: in_process, stdio, http, sse);

/// A JSON-RPC error whose `data` is odd reaches the test intact.
async fn odd_error_data_arrives_intact(via: Via) {
    let peer = Peer::start(via).await;
    let started = Instant::now();
    let error = peer
        .client
        .call_tool("odd_error", json!({}))
        .await
        .unwrap_err();
    assert_within(started, TIMEOUT);
    match &error {
        Error::JsonRpc {
            method,
            code,
            message,
            data,
        } => {
            assert_eq!(method, "tools/call odd_error");
            assert_eq!(*code, -32099);
            assert_eq!(message, "odd error: see data");
            assert_eq!(data.as_ref(), Some(&FaultServer::odd_data()));
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
    let text = error.to_string();
    assert!(
        text.contains("-32099") && text.contains("ünïcödé"),
        "{text}"
    );
    peer.client.ping().await.unwrap();
    peer.finish().await;
}
on!(odd_error_data_arrives_intact: in_process, stdio, http, sse);

/// A 5 MB answer arrives whole, within the timeout.
async fn a_five_megabyte_answer_arrives_whole(via: Via) {
    let peer = Peer::start(via).await;
    let started = Instant::now();
    let result = peer
        .client
        .call_tool("huge", json!({"bytes": 5_000_000}))
        .await
        .unwrap();
    assert_within(started, TIMEOUT);
    let text = result.text();
    assert_eq!(text.len(), 5_000_000);
    assert!(text.bytes().all(|byte| byte == b'x'));
    peer.client.ping().await.unwrap();
    peer.finish().await;
}
on!(a_five_megabyte_answer_arrives_whole: in_process, stdio, http, sse);

/// 10,000 notifications while a call is pending: the call completes and every notification
/// is recorded once. On one stream (stdio, in-process) they are all recorded, in order,
/// before the answer is returned; over HTTP the server may send some on the session's GET
/// stream, which has no order relative to the call's own stream, and loses what is sent
/// before the client opened that stream: so first wait until a warm-up notification comes
/// through.
async fn a_notification_flood_during_a_call(via: Via) {
    let peer = Peer::start(via).await;
    let flood = |peer: &Peer| {
        peer.client
            .log_messages()
            .into_iter()
            .filter(|message| message.logger.as_deref() == Some("flood"))
            .collect::<Vec<_>>()
    };
    if via == Via::Http {
        let deadline = Instant::now() + Duration::from_secs(3);
        while peer.client.log_messages().is_empty() {
            assert!(Instant::now() < deadline, "no notification came through");
            peer.client
                .call_tool("flood", json!({"count": 1, "logger": "warm-up"}))
                .await
                .unwrap();
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let started = Instant::now();
    let result = peer
        .client
        .call_tool("flood", json!({"count": 10_000}))
        .await
        .unwrap();
    assert_within(started, TIMEOUT);
    assert_eq!(result.text(), "sent 10000");
    let deadline = Instant::now() + Duration::from_secs(3);
    let mut logged = flood(&peer);
    while matches!(via, Via::Http | Via::Sse) && logged.len() < 10_000 && Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
        logged = flood(&peer);
    }
    let mut indices: Vec<u64> = logged
        .iter()
        .map(|message| message.data["flood"].as_u64().unwrap())
        .collect();
    if !matches!(via, Via::Http | Via::Sse) {
        assert!(indices.is_sorted(), "out of order");
    }
    indices.sort_unstable();
    assert!(
        indices == (0..10_000).collect::<Vec<u64>>(),
        "{} recorded, from {:?} to {:?}",
        indices.len(),
        indices.first(),
        indices.last()
    );
    peer.client.ping().await.unwrap();
    peer.finish().await;
}
on!(a_notification_flood_during_a_call: in_process, stdio, http, sse);

/// The server process dies while answering: a typed error naming the call, at once.
async fn a_crash_during_a_call(via: Via) {
    let peer = Peer::start(via).await;
    let started = Instant::now();
    let error = peer
        .client
        .call_tool("crash", json!({"code": 5}))
        .await
        .unwrap_err();
    assert_within(started, Duration::from_secs(3));
    assert_crashed(
        via,
        &error,
        "tools/call crash",
        5,
        "crashing on purpose (code 5)",
    );
    assert!(!error.is_timeout());
    peer.finish().await;
}
on!(a_crash_during_a_call: stdio, http, sse);

/// The server dies while the client is idle: the next request fails at once, saying so.
async fn a_crash_between_calls(via: Via) {
    let peer = Peer::with(via, |server| server, Fault::CrashBetweenCalls).await;
    let echoed = peer
        .client
        .call_tool("echo", json!({"text": "still alive"}))
        .await
        .unwrap();
    assert_eq!(echoed.text(), "still alive");
    wait_exited(peer.tag.as_deref().unwrap()).await;
    let started = Instant::now();
    let error = peer
        .client
        .call_tool("echo", json!({"text": "anyone there?"}))
        .await
        .unwrap_err();
    assert_within(started, Duration::from_secs(3));
    match (via, &error) {
        (
            Via::Stdio,
            Error::ServerExited {
                status,
                stderr_tail,
                ..
            },
        ) => {
            assert_eq!(status, "exit status: 4");
            let stderr = stderr_tail.as_deref().unwrap_or_default();
            assert!(stderr.contains("crashing between calls"), "{stderr}");
        }
        (Via::Http, Error::Transport { method, reason, .. }) => {
            assert_eq!(method.as_deref(), Some("tools/call echo"));
            assert!(
                reason.contains("refused") || reason.contains("connect"),
                "{reason}"
            );
        }
        // The session's event stream broke when the server died; the next call says so.
        (Via::Sse, Error::Transport { method, reason, .. }) => {
            assert_eq!(method.as_deref(), Some("tools/call echo"));
            assert!(reason.contains("SSE stream broke"), "{reason}");
        }
        (via, other) => panic!("{via:?}: unexpected {other:?}"),
    }
    peer.finish().await;
}
on!(a_crash_between_calls: stdio, http, sse);

/// A response with an id nobody asked for, before each answer: the client records each
/// stray response by the time the call after it returns. On one stream (stdio) the calls go
/// on undisturbed. Over streamable HTTP, rmcp ends a call's SSE stream at its first
/// response, whatever the id, so the real answer is lost: an error naming the call and both
/// ids (not a closed connection: the server closed nothing), at once, and the session goes
/// on. (HTTP+SSE has one event stream per session, like stdio: nothing to add to stdio's
/// case.)
async fn a_response_with_an_unknown_id_is_recorded(via: Via) {
    let peer = Peer::with(via, |server| server, Fault::UnknownId).await;
    let stray: Value = serde_json::from_str(STRAY_RESPONSE).unwrap();
    for round in 1..=3 {
        let text = format!("round {round}");
        let started = Instant::now();
        let call = peer
            .client
            .start_call_tool("echo", json!({ "text": text }))
            .await
            .unwrap();
        let id = serde_json::to_string(call.request_id()).unwrap();
        let result = call.result().await;
        assert_within(started, Duration::from_secs(3));
        assert_eq!(peer.client.stray_responses(), vec![stray.clone(); round]);
        match (via, result) {
            (Via::Stdio, Ok(result)) => assert_eq!(result.text(), text),
            (Via::Http, Err(error)) => {
                let Error::UnexpectedResponse { method, detail } = &error else {
                    panic!("expected an unexpected answer, got {error:?}");
                };
                assert_eq!(method, "tools/call echo");
                assert_eq!(
                    detail,
                    &format!(
                        "the server answered under id {}, not this request's id {id}; rmcp \
                         ends a request's stream at its first response, so the answer never \
                         came",
                        stray["id"]
                    )
                );
                assert!(
                    error
                        .to_string()
                        .starts_with("`tools/call echo` got an unexpected answer: "),
                    "{error}"
                );
                // Only the call's stream ended: the session goes on.
                peer.client.ping().await.unwrap();
            }
            (via, other) => panic!("{via:?}: unexpected {other:?}"),
        }
    }
    peer.finish().await;
}
on!(a_response_with_an_unknown_id_is_recorded: stdio, http);

/// An answer that comes after the client gave up on its request — it timed out, or it was
/// cancelled — is stray: rmcp sent `notifications/cancelled` and drops the answer, the
/// client records it, and the session goes on.
async fn a_late_answer_is_stray(via: Via) {
    let peer = Peer::with(via, |server| server, Fault::LateAnswer).await;
    // Far below LATE_ANSWER: the answer comes after the timeout even on a loaded machine.
    let limit = Duration::from_millis(100);
    let timed_out = peer
        .client
        .with_timeout(limit)
        .start_call_tool("echo", json!({"text": "timed out"}))
        .await
        .unwrap();
    let timed_out_id = serde_json::to_value(timed_out.request_id()).unwrap();
    let error = timed_out.result().await.unwrap_err();
    assert!(matches!(error, Error::Timeout { .. }), "{error:?}");
    let cancelled = peer
        .client
        .start_call_tool("echo", json!({"text": "cancelled"}))
        .await
        .unwrap();
    let cancelled_id = serde_json::to_value(cancelled.request_id()).unwrap();
    cancelled.cancel("changed my mind").await.unwrap();
    let expected = [
        (timed_out_id, json!("timed out")),
        (cancelled_id, json!("cancelled")),
    ];
    let deadline = Instant::now() + LATE_ANSWER * 5;
    loop {
        let stray: Vec<_> = peer
            .client
            .stray_responses()
            .iter()
            .map(|answer| {
                (
                    answer["id"].clone(),
                    answer["result"]["content"][0]["text"].clone(),
                )
            })
            .collect();
        if stray.len() == expected.len() || Instant::now() > deadline {
            assert_eq!(stray, expected);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    peer.client.ping().await.unwrap();
    peer.finish().await;
}
on!(a_late_answer_is_stray: stdio);
