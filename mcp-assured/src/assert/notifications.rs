//! Checks on the notifications a client has received so far.

#![allow(deprecated)] // logging is SEP-2577-deprecated; servers on 2025-11-25 still log

use rmcp::model::LoggingLevel;
use serde_json::Value;

use super::failure::{AssertionError, Failure, check};
use crate::results::notification::{LogMessage, Notification, Progress};

/// Checks on the notifications received so far; from `client.assert_notifications()`.
///
/// Notifications can arrive after the result of the call that caused them (over streamable
/// HTTP they travel on another stream), so wait first when in doubt:
/// `client.wait_for_notification("notifications/message").await?`.
#[derive(Debug, Clone)]
pub struct NotificationsAssert {
    notifications: Vec<Notification>,
}

/// `.assert_notifications()` on a client.
pub trait AssertNotifications {
    /// Starts a chain of checks on the notifications received so far.
    fn assert_notifications(&self) -> NotificationsAssert;
}

impl NotificationsAssert {
    pub(crate) fn new(notifications: Vec<Notification>) -> Self {
        NotificationsAssert { notifications }
    }

    fn received(&self) -> Value {
        Value::Array(
            self.notifications
                .iter()
                .map(|n| serde_json::json!({"method": n.method, "params": n.params}))
                .collect(),
        )
    }

    /// A notification with this method arrived.
    #[track_caller]
    pub fn has_notification(self, method: &str) -> Self {
        check(self.try_has_notification(method))
    }

    /// [`has_notification`](Self::has_notification), returning the failure.
    pub fn try_has_notification(self, method: &str) -> Result<Self, AssertionError> {
        if !self.notifications.iter().any(|n| n.method == method) {
            return Failure::new(format!("Expected a `{method}` notification."))
                .json("received", &self.received())
                .err();
        }
        Ok(self)
    }

    /// A log message at `level` whose text contains `needle` arrived.
    #[track_caller]
    pub fn has_log(self, level: LoggingLevel, needle: &str) -> Self {
        check(self.try_has_log(level, needle))
    }

    /// [`has_log`](Self::has_log), returning the failure.
    pub fn try_has_log(self, level: LoggingLevel, needle: &str) -> Result<Self, AssertionError> {
        let logs: Vec<LogMessage> = self
            .notifications
            .iter()
            .filter(|n| n.method == "notifications/message")
            .filter_map(|n| n.params_as().ok())
            .collect();
        if !logs
            .iter()
            .any(|l| l.level == level && l.text().contains(needle))
        {
            let level_name = serde_json::to_value(level).unwrap_or(Value::Null);
            return Failure::new(format!(
                "Expected a log message at level {level_name} containing `{needle}`."
            ))
            .json(
                "log messages",
                &serde_json::to_value(&logs).unwrap_or(Value::Null),
            )
            .err();
        }
        Ok(self)
    }

    /// Some progress notification reached at least `value`.
    #[track_caller]
    pub fn progress_reached(self, value: f64) -> Self {
        check(self.try_progress_reached(value))
    }

    /// [`progress_reached`](Self::progress_reached), returning the failure.
    pub fn try_progress_reached(self, value: f64) -> Result<Self, AssertionError> {
        let progress: Vec<Progress> = self
            .notifications
            .iter()
            .filter_map(Progress::from_notification)
            .collect();
        if !progress.iter().any(|p| p.progress >= value) {
            let highest = progress
                .iter()
                .map(|p| p.progress)
                .fold(None, |m: Option<f64>, p| Some(m.map_or(p, |m| m.max(p))));
            return Failure::new(format!(
                "Expected progress to reach {value}, but {}.",
                highest.map_or("no progress arrived".to_owned(), |h| format!(
                    "the highest was {h}"
                ))
            ))
            .json(
                "progress",
                &serde_json::to_value(&progress).unwrap_or(Value::Null),
            )
            .err();
        }
        Ok(self)
    }
}
