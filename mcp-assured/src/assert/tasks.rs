//! Checks on a task (`tools/call` as a task, `tasks/get`, `tasks/cancel`): its status and
//! what the server says about it.

use super::failure::{AssertionError, Failure, check};
use crate::results::task::{Task, TaskStatus};

/// Checks on a task; from `task.assert()` (see [`AssertTask`]).
///
/// ```no_run
/// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
/// use mcp_assured::{TaskStatus, prelude::*};
/// let task = client.get_task("786512e2").await?;
/// task.assert().has_status(TaskStatus::Working).has_status_message_containing("sources");
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct TaskAssert<'a> {
    task: &'a Task,
}

/// `.assert()` on a task.
pub trait AssertTask {
    /// Starts a chain of checks on the task.
    fn assert(&self) -> TaskAssert<'_>;
}

impl AssertTask for Task {
    fn assert(&self) -> TaskAssert<'_> {
        TaskAssert { task: self }
    }
}

impl TaskAssert<'_> {
    fn failure(&self, headline: String) -> Failure {
        Failure::new(headline)
            .fact("task", &self.task.task_id)
            .json("task", self.task.wire())
    }

    /// The task is in `status`.
    #[track_caller]
    pub fn has_status(self, status: TaskStatus) -> Self {
        check(self.try_has_status(status))
    }

    /// [`has_status`](Self::has_status), returning the failure.
    pub fn try_has_status(self, status: TaskStatus) -> Result<Self, AssertionError> {
        if self.task.status != status {
            return self
                .failure(format!(
                    "Expected task `{}` to be {}, but it is {}.",
                    self.task.task_id,
                    name(status),
                    name(self.task.status)
                ))
                .err();
        }
        Ok(self)
    }

    /// The task has ended: `completed`, `failed` or `cancelled`.
    #[track_caller]
    pub fn is_terminal(self) -> Self {
        check(self.try_is_terminal())
    }

    /// [`is_terminal`](Self::is_terminal), returning the failure.
    pub fn try_is_terminal(self) -> Result<Self, AssertionError> {
        if !self.task.is_terminal() {
            return self
                .failure(format!(
                    "Expected task `{}` to have ended (completed, failed or cancelled), but it is \
                     {}.",
                    self.task.task_id,
                    name(self.task.status)
                ))
                .err();
        }
        Ok(self)
    }

    /// The task's `statusMessage` contains `needle`.
    #[track_caller]
    pub fn has_status_message_containing(self, needle: &str) -> Self {
        check(self.try_has_status_message_containing(needle))
    }

    /// [`has_status_message_containing`](Self::has_status_message_containing), returning the
    /// failure.
    pub fn try_has_status_message_containing(self, needle: &str) -> Result<Self, AssertionError> {
        let message = self.task.status_message.as_deref();
        if !message.is_some_and(|message| message.contains(needle)) {
            return self
                .failure(format!(
                    "Expected the status message of task `{}` to contain {needle:?}, but it is \
                     {}.",
                    self.task.task_id,
                    message.map_or("absent".to_owned(), |m| format!("{m:?}"))
                ))
                .err();
        }
        Ok(self)
    }

    /// The task carries what the protocol requires of every task: `createdAt` and
    /// `lastUpdatedAt` timestamps, and a `ttl` (a number, or `null` for no limit).
    #[track_caller]
    pub fn is_well_formed(self) -> Self {
        check(self.try_is_well_formed())
    }

    /// [`is_well_formed`](Self::is_well_formed), returning the failure.
    pub fn try_is_well_formed(self) -> Result<Self, AssertionError> {
        let wire = self.task.wire();
        let missing: Vec<&str> = ["createdAt", "lastUpdatedAt", "ttl"]
            .into_iter()
            .filter(|field| {
                let alias = if *field == "ttl" { "ttlMs" } else { field };
                wire.get(field).is_none() && wire.get(alias).is_none()
            })
            .collect();
        if !missing.is_empty() {
            return self
                .failure(format!(
                    "Expected task `{}` to carry every field the protocol requires, but it lacks \
                     {}.",
                    self.task.task_id,
                    missing.join(", ")
                ))
                .err();
        }
        Ok(self)
    }
}

/// A status as it is written on the wire.
fn name(status: TaskStatus) -> String {
    serde_json::to_value(status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{status:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn says_what_the_task_is() {
        let task = Task::from_wire(&json!({"taskId": "t1", "status": "working",
            "statusMessage": "Gathering sources...", "createdAt": "x", "lastUpdatedAt": "x"}))
        .unwrap();
        task.assert()
            .has_status(TaskStatus::Working)
            .has_status_message_containing("sources");
        let wrong = task
            .assert()
            .try_has_status(TaskStatus::Completed)
            .unwrap_err();
        assert!(
            wrong
                .message()
                .contains("Expected task `t1` to be completed, but it is working."),
            "{wrong}"
        );
        let terminal = task.assert().try_is_terminal().unwrap_err();
        assert!(terminal.message().contains("it is working"), "{terminal}");
        let lacking = task.assert().try_is_well_formed().unwrap_err();
        assert!(lacking.message().contains("it lacks ttl."), "{lacking}");
    }
}
