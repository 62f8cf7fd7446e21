//! Every notification the server sends, recorded in arrival order, so tests can list them,
//! drain them, or wait for one without counting.

use std::{sync::Mutex, time::Duration};

use tokio::sync::Notify;

use super::McpClient;
use crate::{
    assert::{AssertNotifications, NotificationsAssert},
    results::notification::Notification,
};

impl AssertNotifications for McpClient {
    fn assert_notifications(&self) -> NotificationsAssert {
        NotificationsAssert::new(self.notifications())
    }
}

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

    /// How many notifications match `wanted`, counted in place (a long run's log is big).
    #[cfg(any(feature = "fuzz", feature = "checks"))]
    pub(crate) fn count(&self, wanted: impl Fn(&Notification) -> bool) -> usize {
        self.lock()
            .iter()
            .filter(|e| wanted(&e.notification))
            .count()
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
    use std::{sync::Arc, time::SystemTime};

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
}
