//! `subscriptions/listen` (protocol 2026-07-28, SEP-2575): a stream of the notifications
//! asked for (list changes, resource updates), which the server acknowledges first and
//! tags with the subscription's id. On rmcp's subscription, with the client's timeout.

use std::time::Duration;

use rmcp::{model::SubscriptionFilter, service::Subscription as RmcpSubscription};
use serde_json::Value;

use crate::{error::Error, results::notification::Notification};

/// What to listen for: `Subscriptions::new().tools().resource("file:///x")`.
#[derive(Debug, Clone, Default, PartialEq)]
#[must_use = "a filter does nothing until given to `McpClient::listen`"]
pub struct Subscriptions(SubscriptionFilter);

impl Subscriptions {
    /// Nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// `notifications/tools/list_changed`.
    pub fn tools(mut self) -> Self {
        self.0.tools_list_changed = Some(true);
        self
    }

    /// `notifications/prompts/list_changed`.
    pub fn prompts(mut self) -> Self {
        self.0.prompts_list_changed = Some(true);
        self
    }

    /// `notifications/resources/list_changed`.
    pub fn resources(mut self) -> Self {
        self.0.resources_list_changed = Some(true);
        self
    }

    /// `notifications/resources/updated` for `uri`.
    pub fn resource(mut self, uri: impl Into<String>) -> Self {
        self.0
            .resource_subscriptions
            .get_or_insert_with(Vec::new)
            .push(uri.into());
        self
    }

    pub(crate) fn into_filter(self) -> SubscriptionFilter {
        self.0
    }
}

/// An open `subscriptions/listen`, from [`McpClient::listen`](crate::McpClient::listen).
/// Its notifications are also in [`McpClient::notifications`](crate::McpClient::notifications).
#[derive(Debug)]
pub struct Subscription {
    inner: RmcpSubscription,
    timeout: Duration,
}

impl Subscription {
    pub(crate) fn new(inner: RmcpSubscription, timeout: Duration) -> Self {
        Subscription { inner, timeout }
    }

    /// What the server agreed to send, from its `notifications/subscriptions/acknowledged`.
    pub fn acknowledged(&self) -> Value {
        serde_json::to_value(self.inner.acknowledged()).unwrap_or(Value::Null)
    }

    /// The next notification, up to the client's timeout; `None` once the server ended the
    /// subscription.
    ///
    /// # Errors
    ///
    /// [`Error::Timeout`] when none came in time, [`Error::Transport`] when the stream broke.
    pub async fn next(&mut self) -> Result<Option<Notification>, Error> {
        match tokio::time::timeout(self.timeout, self.inner.next()).await {
            Ok(Ok(notification)) => Ok(notification.as_ref().map(Notification::from_server)),
            Ok(Err(error)) => Err(Error::Transport {
                method: Some("subscriptions/listen".to_owned()),
                status: None,
                reason: error.to_string(),
            }),
            Err(_) => Err(Error::Timeout {
                method: "a notification of `subscriptions/listen`".to_owned(),
                timeout: self.timeout,
                stderr_tail: None,
            }),
        }
    }

    /// Ends the subscription: closes its stream over HTTP, sends `notifications/cancelled`
    /// over stdio.
    ///
    /// # Errors
    ///
    /// [`Error::Transport`] when the cancellation could not be sent.
    pub async fn cancel(mut self) -> Result<(), Error> {
        self.inner.cancel().await.map_err(|error| Error::Transport {
            method: Some("subscriptions/listen".to_owned()),
            status: None,
            reason: error.to_string(),
        })
    }
}
