//! The notifications a server sends, as values: any notification's method and params, and
//! the typed views of progress and log messages.

#![allow(deprecated)] // logging is SEP-2577-deprecated; servers on 2025-11-25 still log

use std::{sync::Arc, time::SystemTime};

use rmcp::model::{LoggingLevel, ServerNotification};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use serde_json::Value;

/// A notification the server sent: its method and its params, as JSON exactly as the server
/// wrote them.
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

    /// The notification as the server sent it: its params exactly as written (integers
    /// stay integers, fields rmcp does not model are kept).
    pub(crate) fn as_sent(text: Arc<str>) -> Option<Self> {
        let mut message: Value = serde_json::from_str(&text).ok()?;
        Some(Notification {
            method: message.get("method")?.as_str()?.to_owned(),
            params: message
                .get_mut("params")
                .map(Value::take)
                .unwrap_or(Value::Null),
            received_at: SystemTime::now(),
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
