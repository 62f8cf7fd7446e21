//! Records the server's notifications as they come off the transport, and the responses
//! that answer no request.
//!
//! rmcp hands each notification to the client on a task of its own, so a notification sent
//! just before a response (the last `notifications/progress` of a call, say) could be
//! recorded after the caller already has the response. Recording here, in arrival order,
//! means everything the server sent before a response is in the log when the response is
//! returned.
//!
//! rmcp drops a response whose id it is not waiting for without a word; a harness keeps it,
//! for [`McpClient::stray_responses`](crate::McpClient::stray_responses). A request the
//! client cancelled (`notifications/cancelled`, sent on a timeout too) is no longer waited
//! for, so a late answer to it is stray.

use std::{
    collections::HashSet,
    sync::{Mutex, MutexGuard},
};

use rmcp::{
    RoleClient,
    model::{ClientNotification, JsonRpcMessage, RequestId},
    service::{RxJsonRpcMessage, TxJsonRpcMessage},
    transport::Transport,
};
use serde_json::Value;

use super::{
    handler::Harness,
    notifications::{Notification, NotificationLog},
};

pub(crate) struct Recording<T> {
    inner: T,
    harness: Harness,
}

impl<T> Recording<T> {
    pub(crate) fn new(inner: T, harness: &Harness) -> Self {
        Recording {
            inner,
            harness: harness.clone(),
        }
    }

    fn log(&self) -> &NotificationLog {
        &self.harness.state.notifications
    }
}

/// The ids of the client's requests not answered yet, and the responses that matched none.
#[derive(Debug, Default)]
pub(crate) struct StrayResponses {
    waiting: Mutex<HashSet<RequestId>>,
    stray: Mutex<Vec<Value>>,
}

impl StrayResponses {
    fn sent(&self, id: &RequestId) {
        lock(&self.waiting).insert(id.clone());
    }

    /// The client cancelled a request: rmcp stops waiting for it, and so do we.
    fn cancelled(&self, id: &RequestId) {
        lock(&self.waiting).remove(id);
    }

    /// A response arrived: stray unless it answers a request still waiting.
    fn received(&self, id: &RequestId, message: &RxJsonRpcMessage<RoleClient>) {
        if !lock(&self.waiting).remove(id) {
            lock(&self.stray).push(serde_json::to_value(message).unwrap_or(Value::Null));
        }
    }

    pub(crate) fn all(&self) -> Vec<Value> {
        lock(&self.stray).clone()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Recording<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let stray = &self.harness.state.stray_responses;
        match &item {
            JsonRpcMessage::Request(request) => stray.sent(&request.id),
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    stray.cancelled(id);
                }
            }
            _ => {}
        }
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await?;
        let stray = &self.harness.state.stray_responses;
        match &message {
            JsonRpcMessage::Notification(notification) => self
                .log()
                .push(Notification::from_server(&notification.notification)),
            JsonRpcMessage::Response(response) => stray.received(&response.id, &message),
            // Without an id it answers a request the server could not read: not stray.
            JsonRpcMessage::Error(error) => {
                if let Some(id) = &error.id {
                    stray.received(id, &message);
                }
            }
            JsonRpcMessage::Request(_) => {}
        }
        Some(message)
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.inner.close().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(id: i64) -> (RequestId, RxJsonRpcMessage<RoleClient>) {
        let message: RxJsonRpcMessage<RoleClient> =
            serde_json::from_value(serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}}))
                .unwrap();
        (RequestId::Number(id), message)
    }

    #[test]
    fn a_response_is_stray_unless_its_request_is_waiting() {
        let responses = StrayResponses::default();
        responses.sent(&RequestId::Number(1));
        let (id, answer) = response(1);
        responses.received(&id, &answer);
        assert!(responses.all().is_empty());
        // Answered twice, and never asked.
        responses.received(&id, &answer);
        let (unknown, stray) = response(7);
        responses.received(&unknown, &stray);
        let ids: Vec<_> = responses.all().iter().map(|r| r["id"].clone()).collect();
        assert_eq!(ids, [1, 7]);
    }

    /// Sends nothing anywhere; receives the messages it was given, then ends.
    struct Replay(Vec<RxJsonRpcMessage<RoleClient>>);

    impl Transport<RoleClient> for Replay {
        type Error = std::io::Error;

        fn send(
            &mut self,
            _: TxJsonRpcMessage<RoleClient>,
        ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
            std::future::ready(Ok(()))
        }

        async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
            (!self.0.is_empty()).then(|| self.0.remove(0))
        }

        async fn close(&mut self) -> Result<(), Self::Error> {
            Ok(())
        }
    }

    fn outgoing(message: serde_json::Value) -> TxJsonRpcMessage<RoleClient> {
        serde_json::from_value(message).unwrap()
    }

    /// rmcp cancels a request that timed out and drops its late answer: the harness reports it.
    #[tokio::test]
    async fn an_answer_to_a_cancelled_request_is_stray() {
        let harness = Harness::new(Default::default(), Default::default());
        let (_, late) = response(1);
        let (_, answer) = response(2);
        let mut transport = Recording::new(Replay(vec![late, answer]), &harness);
        for id in [1, 2] {
            let request = serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "ping"});
            transport.send(outgoing(request)).await.unwrap();
        }
        let cancel = serde_json::json!({
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": 1, "reason": "request timeout"},
        });
        transport.send(outgoing(cancel)).await.unwrap();
        while transport.receive().await.is_some() {}
        let stray = harness.state.stray_responses.all();
        let ids: Vec<_> = stray.iter().map(|r| r["id"].clone()).collect();
        assert_eq!(ids, [1]);
        assert!(lock(&harness.state.stray_responses.waiting).is_empty());
    }
}
