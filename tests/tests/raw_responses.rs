//! `request_raw` and `list_tools_json` keep what rmcp's types drop, over every transport:
//! server-everything's `simulate-research-query` tool carries `execution.taskSupport`, a
//! field rmcp 3.9's `Tool` does not model.

use mcp_assured_tests::{Transport, connect, for_each_transport};
use serde_json::json;

for_each_transport!(
    stdio, streamable_http, sse =>
    list_tools_json_keeps_unmodelled_fields,
    request_raw_returns_the_result_as_sent,
);

async fn list_tools_json_keeps_unmodelled_fields(transport: Transport) {
    let client = connect::everything(transport, |builder| builder).await;
    let raw = client.list_tools_json().await.unwrap();
    let typed = client.list_tools().await.unwrap();
    assert_eq!(raw.len(), typed.len());
    let research = raw
        .iter()
        .find(|tool| tool["name"] == "simulate-research-query")
        .unwrap_or_else(|| panic!("no simulate-research-query in {raw:?}"));
    assert_eq!(research["execution"], json!({"taskSupport": "required"}));
    let typed_json =
        serde_json::to_value(typed.iter().find(|t| t.name == "simulate-research-query")).unwrap();
    assert_eq!(
        typed_json.get("execution"),
        None,
        "rmcp drops it; the raw list keeps it"
    );
}

async fn request_raw_returns_the_result_as_sent(transport: Transport) {
    let client = connect::everything(transport, |builder| builder).await;
    let raw = client.request_raw("tools/list", json!({})).await.unwrap();
    assert!(
        raw["tools"]
            .as_array()
            .is_some_and(|tools| !tools.is_empty()),
        "{raw}"
    );
    let error = client
        .request_raw("no/such/method", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(mcp_assured::code::METHOD_NOT_FOUND));
}
