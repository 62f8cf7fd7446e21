//! Tasks (MCP 2025-11-25, SEP-1686): a tool called as a task, then polled, awaited, listed and
//! cancelled by its id; the status notifications the server sends about it.
//!
//! rmcp 3.9 models only the 2026-07-28 tasks extension, which renamed and removed most of
//! this, so the requests go out as custom requests and the answers are read from the JSON
//! the server sent.

use std::time::Duration;

use rmcp::model::{CallToolResult, ClientRequest, CustomRequest};
use serde_json::{Map, Value, json};

use super::McpClient;
use crate::{
    error::{Error, Result},
    results::{
        mcp::ToolResult,
        notification::Notification,
        sent::Sent,
        task::{Task, TaskStatus},
    },
};

/// The notification a server sends when a task's status changes: 2025-11-25's name, and
/// the 2026-07-28 extension's.
const STATUS_NOTIFICATIONS: [&str; 2] = ["notifications/tasks/status", "notifications/tasks"];

/// How often [`McpClient::wait_for_task`] polls when the server suggests nothing, and the
/// bounds put on what it suggests.
const DEFAULT_POLL: Duration = Duration::from_millis(500);
const FASTEST_POLL: Duration = Duration::from_millis(20);
const SLOWEST_POLL: Duration = Duration::from_secs(5);

impl McpClient {
    /// `tools/call` as a task (`"task": {}`): the server answers at once with the task it
    /// created, which [`wait_for_task`](Self::wait_for_task) and
    /// [`task_result`](Self::task_result) follow. A server that answers with the tool's
    /// result instead (one without the `tasks` capability ignores `task`, as the protocol
    /// says it must) gets [`Error::UnexpectedResponse`] quoting that result.
    ///
    /// ```no_run
    /// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
    /// use mcp_assured::{TaskStatus, prelude::*};
    /// use serde_json::json;
    ///
    /// let task = client.call_tool_as_task("simulate-research-query", json!({"topic": "rust"})).await?;
    /// task.assert().has_status(TaskStatus::Working);
    /// let done = client.wait_for_task(&task.task_id).await?;
    /// done.assert().has_status(TaskStatus::Completed);
    /// client.task_result(&task.task_id).await?.assert().is_success();
    /// # Ok(()) }
    /// ```
    pub async fn call_tool_as_task(&self, name: &str, arguments: Value) -> Result<Task> {
        self.start_task(name, arguments, json!({})).await
    }

    /// [`call_tool_as_task`](Self::call_tool_as_task) asking the server to keep the task
    /// for `ttl` after its creation (`"task": {"ttl": ms}`); the server may keep it for
    /// another time, which the task it returns says.
    pub async fn call_tool_as_task_with_ttl(
        &self,
        name: &str,
        arguments: Value,
        ttl: Duration,
    ) -> Result<Task> {
        let millis = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        self.start_task(name, arguments, json!({ "ttl": millis }))
            .await
    }

    async fn start_task(&self, name: &str, arguments: Value, task: Value) -> Result<Task> {
        let mut params = Map::new();
        params.insert("name".into(), json!(name));
        if !arguments.is_null() {
            params.insert("arguments".into(), arguments);
        }
        params.insert("task".into(), task);
        let method = format!("tools/call {name} as a task");
        let answer = self
            .custom("tools/call", Value::Object(params), &method)
            .await?;
        // 2025-11-25: `{"task": {..}}`; the 2026-07-28 extension: the task itself, flat.
        let task = match answer.get("task") {
            Some(task) => task,
            None if answer.get("resultType") == Some(&json!("task")) => &answer,
            None => {
                return Err(Error::UnexpectedResponse {
                    method,
                    detail: format!(
                        "the tool's result at once, not a task: {answer}. A server without the \
                         `tasks` capability (see `server_capabilities()`) ignores `task`; one \
                         that has it creates tasks only for tools whose `execution.taskSupport` \
                         is `optional` or `required`"
                    ),
                });
            }
        };
        read_task(task, &method)
    }

    /// `tasks/get`: the task as it is now.
    pub async fn get_task(&self, task_id: &str) -> Result<Task> {
        self.task_request("tasks/get", task_id).await
    }

    /// `tasks/result`: what the task's request returns, once the task has ended. The server
    /// holds the answer until then (a task waiting for input gets it through this request:
    /// the client's elicitation and sampling answers reply), so this waits up to the client's
    /// timeout; see [`with_timeout`](Self::with_timeout) for a longer one.
    pub async fn task_result(&self, task_id: &str) -> Result<ToolResult> {
        let method = format!("tasks/result {task_id}");
        let sent: Sent<Value> = self
            .send(
                request("tasks/result", json!({ "taskId": task_id })),
                &method,
                "",
            )
            .await?;
        let (answer, wire) = sent.into_parts();
        let result: CallToolResult =
            serde_json::from_value(answer.clone()).map_err(|error| Error::UnexpectedResponse {
                method: method.clone(),
                detail: format!("not a tool result ({error}): {answer}"),
            })?;
        Ok(ToolResult::new(format!("task {task_id}"), result).with_wire(wire))
    }

    /// `tasks/list` through every page.
    pub async fn list_tasks(&self) -> Result<Vec<Task>> {
        let mut tasks = Vec::new();
        let mut cursor: Option<String> = None;
        let mut seen = std::collections::HashSet::new();
        loop {
            let params = match &cursor {
                Some(cursor) => json!({ "cursor": cursor }),
                None => json!({}),
            };
            let page = self.custom("tasks/list", params, "tasks/list").await?;
            for task in page["tasks"].as_array().into_iter().flatten() {
                tasks.push(read_task(task, "tasks/list")?);
            }
            match page.get("nextCursor").and_then(Value::as_str) {
                None => return Ok(tasks),
                Some(next) if !seen.insert(next.to_owned()) => {
                    return Err(Error::UnexpectedResponse {
                        method: "tasks/list".into(),
                        detail: format!("the cursor `{next}` came twice: the pages loop"),
                    });
                }
                Some(next) => cursor = Some(next.to_owned()),
            }
        }
    }

    /// `tasks/cancel`: the task as the server left it (`cancelled`, on 2025-11-25). A task
    /// that has already ended cannot be cancelled: the server answers `-32602`.
    pub async fn cancel_task(&self, task_id: &str) -> Result<Task> {
        self.task_request("tasks/cancel", task_id).await
    }

    /// Polls `tasks/get` (as often as the task's `pollInterval` says, within 20 ms and 5 s)
    /// until the task has ended or waits for input, up to the client's timeout.
    pub async fn wait_for_task(&self, task_id: &str) -> Result<Task> {
        let deadline = tokio::time::Instant::now() + self.timeout();
        loop {
            let task = self.get_task(task_id).await?;
            if task.is_terminal() || task.status == TaskStatus::InputRequired {
                return Ok(task);
            }
            let pause = task
                .poll_interval
                .map_or(DEFAULT_POLL, Duration::from_millis)
                .clamp(FASTEST_POLL, SLOWEST_POLL);
            if tokio::time::Instant::now() + pause > deadline {
                let message = task
                    .status_message
                    .as_deref()
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default();
                return Err(self.notification_timeout(&format!(
                    "task {task_id} to end (last seen {:?}{message})",
                    task.status
                )));
            }
            tokio::time::sleep(pause).await;
        }
    }

    /// The status notifications received about the task, in order (a server need not send
    /// any: the protocol lets clients rely only on polling).
    pub fn task_notifications(&self, task_id: &str) -> Vec<Task> {
        self.notifications()
            .iter()
            .filter_map(|n| status_of(n, task_id))
            .collect()
    }

    /// Waits, up to the client's timeout, for a status notification saying the task is in
    /// `status` (one that came before the call counts).
    pub async fn wait_for_task_status(&self, task_id: &str, status: TaskStatus) -> Result<Task> {
        let wanted = |n: &Notification| status_of(n, task_id).is_some_and(|t| t.status == status);
        self.wait_for_notification_matching(wanted)
            .await
            .ok()
            .and_then(|notification| status_of(&notification, task_id))
            .ok_or_else(|| {
                self.notification_timeout(&format!(
                    "a notification that task {task_id} is {status:?}"
                ))
            })
    }

    /// A request about one task whose answer is the task.
    async fn task_request(&self, method: &str, task_id: &str) -> Result<Task> {
        let described = format!("{method} {task_id}");
        let answer = self
            .custom(method, json!({ "taskId": task_id }), &described)
            .await?;
        read_task(&answer, &described)
    }

    /// Sends a request rmcp has no type for; returns its result as the server sent it.
    async fn custom(&self, method: &str, params: Value, described: &str) -> Result<Value> {
        let sent: Sent<Value> = self.send(request(method, params), described, "").await?;
        Ok(sent.into_inner())
    }
}

fn request(method: &str, params: Value) -> ClientRequest {
    ClientRequest::CustomRequest(CustomRequest::new(method, Some(params)))
}

fn read_task(json: &Value, method: &str) -> Result<Task> {
    Task::from_wire(json).map_err(|error| Error::UnexpectedResponse {
        method: method.to_owned(),
        detail: format!("not a task ({error}): {json}"),
    })
}

/// The task a status notification describes, if it is one about `task_id`.
fn status_of(notification: &Notification, task_id: &str) -> Option<Task> {
    (STATUS_NOTIFICATIONS.contains(&notification.method.as_str())
        && notification.params["taskId"] == task_id)
        .then(|| Task::from_wire(&notification.params).ok())
        .flatten()
}
