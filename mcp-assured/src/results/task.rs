//! A task (MCP 2025-11-25's task-augmented requests): what `tools/call` with `task`,
//! `tasks/get`, `tasks/list`, `tasks/cancel` and `notifications/tasks/status` carry.
//!
//! rmcp 3.9 models only the 2026-07-28 tasks extension (`ttlMs`, `resultType: "task"`), so
//! this type is read from the JSON the server sent; both spellings of the timings are read.

pub use rmcp::model::TaskStatus;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

/// One task as the server described it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Task {
    /// The server's id for it (opaque).
    pub task_id: String,
    /// `working`, `input_required`, `completed`, `failed` or `cancelled`.
    pub status: TaskStatus,
    /// What the server says it is doing, if anything.
    #[serde(default)]
    pub status_message: Option<String>,
    /// When it was created (ISO 8601); the protocol requires it.
    #[serde(default)]
    pub created_at: Option<String>,
    /// When its status last changed (ISO 8601); the protocol requires it.
    #[serde(default)]
    pub last_updated_at: Option<String>,
    /// How long the server keeps it, in milliseconds from creation: `None` when the server
    /// sent `null` (no limit) or nothing (see [`wire`](Self::wire) to tell which).
    #[serde(default, alias = "ttlMs")]
    pub ttl: Option<u64>,
    /// How often the server suggests polling, in milliseconds.
    #[serde(default, alias = "pollIntervalMs")]
    pub poll_interval: Option<u64>,
    #[serde(skip)]
    wire: Value,
}

impl Task {
    /// Reads a task from the JSON the server sent.
    pub(crate) fn from_wire(json: &Value) -> Result<Task, serde_json::Error> {
        let mut task = Task::deserialize(json)?;
        task.wire = json.clone();
        Ok(task)
    }

    /// The task exactly as the server sent it.
    pub fn wire(&self) -> &Value {
        &self.wire
    }

    /// Whether it has ended: `completed`, `failed` or `cancelled`.
    pub fn is_terminal(&self) -> bool {
        self.status.is_terminal()
    }
}

/// Serializes as the server sent it.
impl Serialize for Task {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.wire.serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_both_revisions_spellings() {
        let old = json!({"taskId": "t1", "status": "working", "createdAt": "2026-11-24T10:00:00Z",
            "lastUpdatedAt": "2026-11-24T10:00:00Z", "ttl": 60000, "pollInterval": 500});
        let task = Task::from_wire(&old).unwrap();
        assert_eq!(task.status, TaskStatus::Working);
        assert_eq!((task.ttl, task.poll_interval), (Some(60000), Some(500)));
        assert_eq!(task.wire(), &old);
        assert!(!task.is_terminal());
        let new = json!({"taskId": "t2", "status": "input_required", "ttlMs": null, "pollIntervalMs": 1000});
        let task = Task::from_wire(&new).unwrap();
        assert_eq!(task.status, TaskStatus::InputRequired);
        assert_eq!((task.ttl, task.poll_interval), (None, Some(1000)));
        assert!(Task::from_wire(&json!({"taskId": "t3", "status": "sleeping"})).is_err());
    }
}
