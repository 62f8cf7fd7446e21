//! Every notification the server sends, recorded in arrival order, so tests can list them,
//! drain them, or wait for one without counting.

use std::{
    sync::Mutex,
    time::{Duration, SystemTime},
};

use rmcp::model::{LoggingLevel, ServerNotification};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use serde_json::Value;
use tokio::sync::Notify;

/// A notification the server sent: its method and its params, as JSON.
///
/// Typed views are one call away: [`Notification::params_as`], or the client's
/// [`log_messages`](crate::McpClient::log_messages) and [`Progress`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Notification {
    /// E.g. `notifications/message`, `notifications/progress`,
    /// `notifications/tools/list_changed`, or a custom method.
    pub method: String,
    /// The params object (`null` when the notification had none).
    pub params: Value,
    /// When the client received it.
    #[serde(skip)]
    pub received_at: SystemTime,
}

impl Notification {
    pub(crate) fn from_server(notification: &ServerNotification) -> Self {
        let json = serde_json::to_value(notification).unwrap_or(Value::Null);
        Notification {
            method: json["method"].as_str().unwrap_or("<unknown>").to_owned(),
            params: json.get("params").cloned().unwrap_or(Value::Null),
            received_at: SystemTime::now(),
        }
    }

    /// Decodes the params into a type of the test's choosing.
    pub fn params_as<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        T::deserialize(&self.params)
    }
}

/// One `notifications/progress` the server sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    /// The token of the request the progress is about.
    pub progress_token: Value,
    /// How far along (grows with each notification).
    pub progress: f64,
    /// The total, if the server knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    /// A human-readable message, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl Progress {
    pub(crate) fn from_notification(notification: &Notification) -> Option<Self> {
        (notification.method == PROGRESS)
            .then(|| notification.params_as().ok())
            .flatten()
    }
}

/// One `notifications/message` (a log message) the server sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogMessage {
    /// The severity.
    pub level: LoggingLevel,
    /// The logger's name, if the server gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logger: Option<String>,
    /// The message: a string or any JSON.
    pub data: Value,
}

impl LogMessage {
    /// The data as text: the string itself, or the JSON of anything else.
    pub fn text(&self) -> String {
        match &self.data {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        }
    }
}

pub(crate) const PROGRESS: &str = "notifications/progress";
pub(crate) const LOG_MESSAGE: &str = "notifications/message";

#[derive(Debug)]
struct Entry {
    notification: Notification,
    /// Handed out by a `wait_for_*` call already; each wait gets a notification once.
    taken: bool,
}

/// The record, shared by the client handler (which appends) and the client (which reads).
#[derive(Debug, Default)]
pub(crate) struct NotificationLog {
    entries: Mutex<Vec<Entry>>,
    arrived: Notify,
}

impl NotificationLog {
    pub(crate) fn push(&self, notification: Notification) {
        self.lock().push(Entry {
            notification,
            taken: false,
        });
        self.arrived.notify_waiters();
    }

    pub(crate) fn all(&self) -> Vec<Notification> {
        self.lock().iter().map(|e| e.notification.clone()).collect()
    }

    pub(crate) fn drain(&self) -> Vec<Notification> {
        self.lock()
            .drain(..)
            .map(|entry| entry.notification)
            .collect()
    }

    /// The first notification matching `wanted` that no earlier wait has returned, including
    /// ones that arrived before the call; waits up to `timeout` for one to arrive.
    pub(crate) async fn wait_for(
        &self,
        wanted: impl Fn(&Notification) -> bool,
        timeout: Duration,
    ) -> Option<Notification> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let arrived = self.arrived.notified();
            tokio::pin!(arrived);
            // Registered before looking, so a notification pushed in between still wakes us.
            arrived.as_mut().enable();
            if let Some(found) = self.take_first(&wanted) {
                return Some(found);
            }
            if tokio::time::timeout_at(deadline, arrived).await.is_err() {
                return self.take_first(&wanted);
            }
        }
    }

    fn take_first(&self, wanted: &impl Fn(&Notification) -> bool) -> Option<Notification> {
        let mut entries = self.lock();
        let entry = entries
            .iter_mut()
            .find(|e| !e.taken && wanted(&e.notification))?;
        entry.taken = true;
        Some(entry.notification.clone())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Entry>> {
        self.entries
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::Arc;

    fn note(method: &str) -> Notification {
        Notification {
            method: method.into(),
            params: json!({}),
            received_at: SystemTime::now(),
        }
    }

    #[tokio::test]
    async fn a_wait_sees_earlier_notifications_once() {
        let log = NotificationLog::default();
        log.push(note("a"));
        let by_method = |n: &Notification| n.method == "a";
        let short = Duration::from_millis(10);
        assert!(log.wait_for(by_method, short).await.is_some());
        assert!(log.wait_for(by_method, short).await.is_none());
        assert_eq!(log.all().len(), 1, "waiting does not remove");
    }

    #[tokio::test]
    async fn a_wait_wakes_when_the_notification_arrives() {
        let log = Arc::new(NotificationLog::default());
        let pusher = log.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            pusher.push(note("late"));
        });
        let found = log
            .wait_for(|n| n.method == "late", Duration::from_secs(5))
            .await;
        assert_eq!(found.map(|n| n.method).as_deref(), Some("late"));
    }

    #[test]
    fn drain_empties_the_log() {
        let log = NotificationLog::default();
        log.push(note("a"));
        log.push(note("b"));
        assert_eq!(log.drain().len(), 2);
        assert!(log.all().is_empty());
    }

    #[test]
    fn progress_decodes_from_its_notification() {
        let n = Notification {
            method: PROGRESS.into(),
            params: json!({"progressToken": 7, "progress": 2, "total": 3, "message": "m"}),
            received_at: SystemTime::now(),
        };
        let p = Progress::from_notification(&n).unwrap();
        assert_eq!(p.progress, 2.0);
        assert_eq!(p.total, Some(3.0));
        assert_eq!(p.progress_token, json!(7));
    }
}
