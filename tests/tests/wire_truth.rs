//! Every result, notification and server request keeps the JSON exactly as it arrived, over
//! every transport, a plain JSON body over streamable HTTP included; assertions, snapshots
//! and `request` read it.
//!
//! What rmcp 3.9's types lose, and these tests show kept:
//! - fields it does not model: a tool's `execution.taskSupport` (server-everything);
//! - integers it holds as floats: `progress: 1` comes back `1.0`;
//! - decimals it holds as `f32`: a sampling `temperature` or a content `priority` of `0.7`
//!   comes back `0.699999988079071`.

use mcp_assured::{
    Wire,
    assert::{AssertToolResult, AssertTools},
    snapshot::Snapshot,
};
use mcp_assured_tests::{Transport, connect, for_each_transport, server};
use serde_json::{Value, json};

for_each_transport!(
    stdio, streamable_http, sse =>
    listed_tools_keep_fields_rmcp_does_not_model,
    request_returns_the_result_as_sent,
    notifications_keep_integers,
    server_requests_keep_decimals,
    results_carry_their_message,
);

async fn listed_tools_keep_fields_rmcp_does_not_model(transport: Transport) {
    let client = connect::everything(transport, |builder| builder).await;
    let tools = client.list_tools().await.unwrap();
    let research = tools.wire_of("simulate-research-query").unwrap();
    assert_eq!(research["execution"], json!({"taskSupport": "required"}));
    let typed = tools
        .iter()
        .find(|tool| tool.name == "simulate-research-query")
        .unwrap();
    assert_eq!(
        serde_json::to_value(typed).unwrap().get("execution"),
        None,
        "rmcp's Tool drops it; the wire keeps it"
    );
    assert_eq!(tools.wire().len(), tools.len());
    tools
        .assert()
        .tool("simulate-research-query")
        .json_at("/execution/taskSupport", "required");
    let wrong = tools
        .assert()
        .tool("echo")
        .try_json_at("/execution/taskSupport", "required")
        .unwrap_err()
        .to_string();
    assert!(
        wrong.contains("to be \"required\", but it is \"forbidden\""),
        "{wrong}"
    );
    // The snapshot of the list is what the server sent.
    let snapshot = tools.snapshot_json();
    let listed = snapshot.as_array().unwrap();
    assert!(
        listed.iter().all(|tool| tool.get("execution").is_some()),
        "{snapshot:#}"
    );
    // `list_tools_json` and the typed list agree.
    assert_eq!(client.list_tools_json().await.unwrap(), tools.wire());
}

async fn request_returns_the_result_as_sent(transport: Transport) {
    let client = connect::everything(transport, |builder| builder).await;
    for page in [
        client.request("tools/list", json!({})).await.unwrap(),
        client.request_raw("tools/list", json!({})).await.unwrap(),
    ] {
        let tools = page["tools"].as_array().unwrap();
        assert!(
            tools.iter().all(|tool| tool["execution"].is_object()),
            "{page:#}"
        );
    }
    let error = client
        .request("no/such/method", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(mcp_assured::code::METHOD_NOT_FOUND));
}

async fn notifications_keep_integers(transport: Transport) {
    let client = connect::everything(transport, |builder| builder).await;
    client
        .call_tool(
            "trigger-long-running-operation",
            json!({"duration": 0.2, "steps": 2}),
        )
        .await
        .unwrap()
        .assert()
        .is_success();
    let progress: Vec<Value> = client
        .notifications()
        .into_iter()
        .filter(|n| n.method == "notifications/progress")
        .map(|n| n.params)
        .collect();
    assert_eq!(progress.len(), 2, "{progress:?}");
    for (step, params) in progress.iter().enumerate() {
        assert_eq!(
            params["progress"].as_u64(),
            Some(step as u64 + 1),
            "{params}"
        );
        assert_eq!(params["total"].as_u64(), Some(2), "{params}");
    }
    // The typed view still reads it.
    assert_eq!(client.progress_notifications()[1].progress, 2.0);
}

async fn server_requests_keep_decimals(transport: Transport) {
    let client = connect::everything(transport, |builder| {
        builder.on_sampling(|request| connect::sampled(request, |asked| format!("<{asked}>")))
    })
    .await;
    client
        .call_tool("trigger-sampling-request", json!({"prompt": "hi"}))
        .await
        .unwrap()
        .assert()
        .is_success();
    let requests = client.server_requests();
    let sampling = requests
        .iter()
        .find(|r| r.method == "sampling/createMessage")
        .unwrap();
    assert_eq!(
        sampling.params["temperature"],
        json!(0.7),
        "as sent, not as rmcp's f32 holds it: {}",
        sampling.params
    );
}

async fn results_carry_their_message(transport: Transport) {
    let client = connect::everything(transport, |builder| builder).await;
    let result = client
        .call_tool("echo", json!({"message": "hi"}))
        .await
        .unwrap();
    let wire: &Wire = result.wire().expect("the result's message");
    let message: Value = serde_json::from_str(wire.message()).unwrap();
    assert_eq!(message["jsonrpc"], "2.0");
    assert_eq!(&message["result"], wire.json());
    assert_eq!(wire.pointer("/content/0/text"), Some(&json!("Echo: hi")));
    assert_eq!(result.json(), *wire.json());
    assert_eq!(serde_json::to_value(&result).unwrap(), *wire.json());
    // A page of a listing, rmcp's type, keeps its message too.
    let page = client.list_tools_page(None).await.unwrap();
    let sent = page.wire().expect("the page's message");
    assert!(
        sent.json()["tools"]
            .as_array()
            .is_some_and(|tools| tools.iter().all(|tool| tool["execution"].is_object())),
        "{sent:?}"
    );
    assert_eq!(
        page.tools.len(),
        sent.json()["tools"].as_array().unwrap().len()
    );
}

/// A response that comes as a plain JSON body (the Python SDK's `json_response=True`) is
/// kept as sent, which rmcp's own HTTP client cannot do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_json_bodies_are_kept_as_sent() {
    let server = server::python_json_bodies().await;
    let client = mcp_assured::McpAssured::client()
        .base_uri(server.url().unwrap())
        .build()
        .await
        .unwrap();
    assert_ranked_keeps_its_priority(&client).await;
    let page = client.request("tools/list", json!({})).await.unwrap();
    assert!(
        page["tools"].as_array().is_some_and(|t| t.len() == 4),
        "{page}"
    );
    client.close().await.unwrap();
}

/// The same over stdio: decimals are read from their digits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decimals_keep_their_digits_over_stdio() {
    let connected = connect::python(Transport::Stdio).await;
    assert_ranked_keeps_its_priority(&connected.client).await;
}

async fn assert_ranked_keeps_its_priority(client: &mcp_assured::McpClient) {
    let result = client.call_tool("ranked", json!({})).await.unwrap();
    let wire = result.wire().unwrap();
    assert!(
        wire.message().contains(r#""priority":0.7"#),
        "{}",
        wire.message()
    );
    assert_eq!(
        wire.pointer("/content/0/annotations/priority"),
        Some(&json!(0.7))
    );
    let reencoded = serde_json::to_value(result.clone().into_inner()).unwrap();
    assert_ne!(
        reencoded["content"][0]["annotations"]["priority"],
        json!(0.7),
        "rmcp holds a priority as f32; if this fails, rmcp no longer loses the digits"
    );
    assert_eq!(
        result.snapshot_json()["content"][0]["annotations"]["priority"],
        json!(0.7),
        "snapshots read the wire"
    );
    result.assert().is_success().text_equals("ranked");
}

/// In process too: the server's messages cross an in-memory pipe as text, kept as they came.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_process_results_are_as_sent() {
    let client = mcp_assured::McpAssured::client()
        .service(mcp_assured_examples::ExampleServer::new())
        .build()
        .await
        .unwrap();
    let result = client
        .call_tool("progress", json!({"steps": 2}))
        .await
        .unwrap();
    let message: Value = serde_json::from_str(result.wire().unwrap().message()).unwrap();
    assert_eq!(message["result"], result.json());
    assert!(
        result
            .wire()
            .unwrap()
            .message()
            .contains(r#""jsonrpc":"2.0""#),
        "{result:?}"
    );
    client.close().await.unwrap();
}

/// `send_raw`: a request answered as sent, a notification not waited for, a numeric id
/// refused on a pipe (rmcp numbers its own), and the session untouched.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_sent_by_hand() {
    let client = mcp_assured::McpAssured::client()
        .service(mcp_assured_examples::ExampleServer::new())
        .build()
        .await
        .unwrap();
    assert_eq!(
        client.protocol_version(),
        "2026-07-28",
        "the default negotiates"
    );
    let bare = json!({"jsonrpc": "2.0", "id": "by-hand-1", "method": "tools/list"});
    let answer = client.send_raw(bare).await.unwrap();
    assert_eq!(answer.error_code(), Some(-32602), "{answer:?}");
    assert_eq!(answer.http_status, None);
    let numeric = client
        .send_raw(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list"}))
        .await
        .unwrap_err()
        .to_string();
    assert!(numeric.contains("give a string id"), "{numeric}");
    assert_eq!(client.list_tools().await.unwrap().len(), 15);
    assert!(
        client.stray_responses().is_empty(),
        "{:?}",
        client.stray_responses()
    );
    let started = std::time::Instant::now();
    let quiet = client
        .send_raw(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "none"}}))
        .await
        .unwrap();
    assert_eq!(quiet.message, None);
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
    client.close().await.unwrap();
}
