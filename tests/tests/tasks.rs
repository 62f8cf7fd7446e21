//! Tasks (MCP 2025-11-25): a tool called as a task, polled, awaited, listed and cancelled,
//! its status notifications and its result, against server-everything (whose
//! `simulate-research-query` is a task-only tool of ~4 s) over stdio and streamable HTTP, and
//! a server on the Python SDK's 1.x line, the one that runs tasks. The Python SDK 2.3 peer has
//! no task runtime and shows what a server without the capability does: it ignores `task`.

use mcp_assured::{
    McpAssured, McpClient, TaskStatus, code,
    model::{ElicitResult, ElicitationAction},
    prelude::*,
};
use mcp_assured_tests::{Transport, connect, for_each_transport, peers};
use serde_json::{Value, json};

for_each_transport!(
    stdio, streamable_http =>
    the_capability_and_tool_support_are_visible,
    a_research_query_runs_as_a_task_to_its_result,
    a_cancelled_task_stays_cancelled,
    a_task_waits_for_input_until_its_result_is_asked_for,
);

const RESEARCH: &str = "simulate-research-query";

async fn the_capability_and_tool_support_are_visible(transport: Transport) {
    let client = connect::everything(transport, |builder| builder).await;
    let tasks = &client.server_capabilities()["tasks"];
    assert!(tasks["requests"]["tools"]["call"].is_object(), "{tasks}");
    assert!(
        tasks["cancel"].is_object() && tasks["list"].is_object(),
        "{tasks}"
    );
    let tools = client.list_tools().await.unwrap();
    tools.assert().tool(RESEARCH).has_task_support("required");
    tools.assert().tool("echo").has_task_support("forbidden");
    let wrong = tools
        .assert()
        .tool("echo")
        .try_has_task_support("optional")
        .unwrap_err();
    assert!(
        wrong
            .message()
            .contains("to have taskSupport \"optional\", but it has \"forbidden\""),
        "{wrong}"
    );
}

async fn a_research_query_runs_as_a_task_to_its_result(transport: Transport) {
    let client = connect::everything(transport, |builder| builder).await;
    let task = client
        .call_tool_as_task(RESEARCH, json!({"topic": "rust"}))
        .await
        .unwrap();
    task.assert()
        .has_status(TaskStatus::Working)
        .is_well_formed();
    assert_eq!(task.poll_interval, Some(1000));
    let listed = client.list_tasks().await.unwrap();
    assert!(
        listed.iter().any(|t| t.task_id == task.task_id),
        "{listed:?}"
    );
    let done = client.wait_for_task(&task.task_id).await.unwrap();
    done.assert()
        .has_status(TaskStatus::Completed)
        .is_terminal();
    let result = client.task_result(&task.task_id).await.unwrap();
    result
        .assert()
        .is_success()
        .text_contains("Research Report: rust");
    assert_eq!(
        result
            .wire()
            .unwrap()
            .pointer("/_meta/io.modelcontextprotocol~1related-task/taskId"),
        Some(&json!(task.task_id)),
        "the result names its task"
    );
    // Status notifications (over HTTP they come on the GET stream, so wait for them).
    client
        .wait_for_task_status(&task.task_id, TaskStatus::Completed)
        .await
        .unwrap();
    // Over HTTP the first ones may be sent before the GET stream is open (and then lost, as
    // the transport allows), so: working updates with their messages, then completed.
    let statuses = client.task_notifications(&task.task_id);
    assert!(
        statuses
            .iter()
            .any(|t| t.status == TaskStatus::Working && t.status_message.is_some()),
        "{statuses:?}"
    );
    assert_eq!(
        statuses.last().map(|t| t.status),
        Some(TaskStatus::Completed),
        "{statuses:?}"
    );
    // An ended task cannot be cancelled.
    let refused = client.cancel_task(&task.task_id).await.unwrap_err();
    assert_eq!(refused.code(), Some(code::INVALID_PARAMS), "{refused}");
}

async fn a_cancelled_task_stays_cancelled(transport: Transport) {
    let client = connect::everything(transport, |builder| builder).await;
    let task = client
        .call_tool_as_task(RESEARCH, json!({"topic": "cats"}))
        .await
        .unwrap();
    let cancelled = client.cancel_task(&task.task_id).await.unwrap();
    cancelled.assert().has_status(TaskStatus::Cancelled);
    client
        .get_task(&task.task_id)
        .await
        .unwrap()
        .assert()
        .has_status(TaskStatus::Cancelled);
    let unknown = client.get_task("no-such-task").await.unwrap_err();
    assert_eq!(unknown.code(), Some(code::INVALID_PARAMS), "{unknown}");
    // A tool that forbids tasks: server-everything refuses with -32602.
    let forbidden = client
        .call_tool_as_task("echo", json!({"message": "hi"}))
        .await
        .unwrap_err();
    assert_eq!(forbidden.code(), Some(code::INVALID_PARAMS), "{forbidden}");
}

async fn a_task_waits_for_input_until_its_result_is_asked_for(transport: Transport) {
    let client = connect::everything(transport, |builder| {
        builder.on_elicitation(|_| {
            ElicitResult::new(ElicitationAction::Accept)
                .with_content(json!({"interpretation": "programming"}))
        })
    })
    .await;
    let task = client
        .call_tool_as_task(RESEARCH, json!({"topic": "python", "ambiguous": true}))
        .await
        .unwrap();
    let waiting = client.wait_for_task(&task.task_id).await.unwrap();
    waiting
        .assert()
        .has_status(TaskStatus::InputRequired)
        .has_status_message_containing("clarification");
    // The question comes on the `tasks/result` request; the client's answer lets it finish.
    let result = client.task_result(&task.task_id).await.unwrap();
    result
        .assert()
        .is_success()
        .text_contains("Research Report: python (programming)");
    let asked = client.server_requests();
    let elicitation = asked
        .iter()
        .find(|r| r.method == "elicitation/create")
        .unwrap_or_else(|| panic!("{asked:?}"));
    assert_eq!(
        elicitation.params["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        json!(task.task_id)
    );
}

async fn python_tasks() -> McpClient {
    McpAssured::client()
        .command(peers::python_tasks())
        .arg(peers::python_tasks_server_script())
        .build()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_tasks_complete_fail_and_cancel() {
    let client = python_tasks().await;
    assert!(client.server_capabilities()["tasks"]["requests"]["tools"]["call"].is_object());
    let tools = client.list_tools().await.unwrap();
    tools
        .assert()
        .tool("slow-echo")
        .has_task_support("optional");
    tools.assert().tool("echo").has_task_support("forbidden");

    let echo = client
        .call_tool_as_task_with_ttl(
            "slow-echo",
            json!({"message": "hi"}),
            std::time::Duration::from_secs(60),
        )
        .await
        .unwrap();
    assert_eq!(echo.ttl, Some(60_000), "the ttl asked for");
    let failing = client
        .call_tool_as_task("fail-task", json!({}))
        .await
        .unwrap();
    let endless = client
        .call_tool_as_task("wait-for-cancel", json!({}))
        .await
        .unwrap();
    let ids: Vec<String> = client
        .list_tasks()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.task_id)
        .collect();
    for task in [&echo, &failing, &endless] {
        assert!(ids.contains(&task.task_id), "{ids:?}");
    }

    client
        .wait_for_task(&echo.task_id)
        .await
        .unwrap()
        .assert()
        .has_status(TaskStatus::Completed);
    client
        .task_result(&echo.task_id)
        .await
        .unwrap()
        .assert()
        .text_equals("hi");
    let said: Vec<Option<String>> = client
        .task_notifications(&echo.task_id)
        .into_iter()
        .map(|t| t.status_message)
        .collect();
    assert!(
        said.contains(&Some("sleeping for a second".into())),
        "{said:?}"
    );

    client
        .wait_for_task(&failing.task_id)
        .await
        .unwrap()
        .assert()
        .has_status(TaskStatus::Failed)
        .has_status_message_containing("boom");

    client
        .cancel_task(&endless.task_id)
        .await
        .unwrap()
        .assert()
        .has_status(TaskStatus::Cancelled);
    client
        .wait_for_task(&endless.task_id)
        .await
        .unwrap()
        .assert()
        .has_status(TaskStatus::Cancelled);
    client.close().await.unwrap();
}

/// A server without the `tasks` capability answers a task-augmented call with the tool's
/// result, as the protocol says it must; the client says so instead of inventing a task.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_tasks_answers_at_once() {
    let connected = connect::python(Transport::Stdio).await;
    assert_eq!(connected.server_capabilities().get("tasks"), None);
    let error = connected
        .call_tool_as_task("echo", json!({"message": "hi"}))
        .await
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("the tool's result at once, not a task"),
        "{error}"
    );
    let unknown: Value = json!(connected.get_task("t").await.unwrap_err().code());
    assert_eq!(unknown, json!(code::METHOD_NOT_FOUND));
}
