//! Records the server's notifications as they come off the transport, and the responses
//! that answer no request.
//!
//! rmcp hands each notification to the client on a task of its own, so a notification sent
//! just before a response (the last `notifications/progress` of a call, say) could be
//! recorded after the caller already has the response. Recording here, in arrival order,
//! means everything the server sent before a response is in the log when the response is
//! returned.
//!
//! It also tells [`StrayResponses`](super::stray::StrayResponses) which requests go out, which
//! are cancelled and which responses come in, and [`ListedTools`](super::listed_tools::ListedTools)
//! when the server's tools changed.

use std::sync::Arc;

use futures::FutureExt;

use super::{handler::Harness, notifications::NotificationLog};
use crate::{
    results::notification::Notification,
    transport::{
        diagnostics::Diagnostics,
        wire::{Key, id_text},
    },
};
use rmcp::{
    RoleClient,
    model::{ClientNotification, ClientRequest, JsonRpcMessage, RequestId, ServerNotification},
    service::{RxJsonRpcMessage, TxJsonRpcMessage},
    transport::Transport,
};

pub(crate) struct Recording<T> {
    inner: T,
    recorder: Recorder,
}

impl<T> Recording<T> {
    pub(crate) fn new(inner: T, harness: &Harness, diagnostics: &Arc<Diagnostics>) -> Self {
        diagnostics.wire.forget_unanswered();
        Recording {
            inner,
            recorder: Recorder {
                harness: harness.clone(),
                diagnostics: diagnostics.clone(),
                initialize: None,
            },
        }
    }
}

/// What the messages each way are recorded in.
struct Recorder {
    harness: Harness,
    diagnostics: Arc<Diagnostics>,
    /// The id of the `initialize` request, whose answer is kept as sent.
    initialize: Option<RequestId>,
}

impl Recorder {
    fn log(&self) -> &NotificationLog {
        &self.harness.state.notifications
    }

    /// Records a message to the server, before the transport sends it.
    fn sent(&mut self, message: &TxJsonRpcMessage<RoleClient>) {
        let stray = &self.harness.state.stray_responses;
        match message {
            JsonRpcMessage::Request(request) => {
                stray.sent(&request.id);
                #[cfg(feature = "schema")]
                self.diagnostics
                    .wire
                    .log
                    .sent(id_text(&request.id), request.request.method());
                if let ClientRequest::InitializeRequest(_) = &request.request {
                    self.initialize = Some(request.id.clone());
                }
            }
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
    }

    /// Records a message off the transport, before rmcp sees it.
    fn record(&mut self, message: &RxJsonRpcMessage<RoleClient>) {
        let stray = &self.harness.state.stray_responses;
        match message {
            JsonRpcMessage::Notification(notification) => {
                // Before it is logged: whoever waited for it finds the tools held stale.
                if let ServerNotification::ToolListChangedNotification(_) =
                    &notification.notification
                {
                    self.harness.state.listed_tools.changed();
                }
                let typed = Notification::from_server(&notification.notification);
                let key = Key::Notification(typed.method.clone());
                let recorded = match self.diagnostics.wire.take(&key) {
                    Some(text) => Notification::as_sent(text).unwrap_or(typed),
                    None => typed,
                };
                self.log().push(recorded);
            }
            JsonRpcMessage::Response(response) => {
                if let Some(id) = self
                    .initialize
                    .take_if(|initialize| *initialize == response.id)
                {
                    let text = self.diagnostics.wire.take(&Key::answer(&id));
                    *self
                        .harness
                        .state
                        .lifecycle_as_sent
                        .lock()
                        .unwrap_or_else(|p| p.into_inner()) = text;
                }
                stray.received(&response.id, message)
            }
            // Without an id it answers a request the server could not read: not stray.
            JsonRpcMessage::Error(error) => {
                if let Some(id) = &error.id {
                    stray.received(id, message);
                }
            }
            JsonRpcMessage::Request(request) => {
                let id = id_text(&request.id);
                if let Some(text) = self.diagnostics.wire.take(&Key::Request(id.clone())) {
                    self.harness
                        .state
                        .requests_as_sent
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .insert(id, text);
                }
            }
        }
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Recording<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.recorder.sent(&item);
        self.inner.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        let recorder = &mut self.recorder;
        // Mapped, not awaited in an `async` body: the message, hundreds of bytes, is moved
        // fewer times on its way to rmcp.
        self.inner.receive().map(move |message| {
            if let Some(message) = &message {
                recorder.record(message);
            }
            message
        })
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.inner.close().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let (_, late) = crate::client::stray::tests::response(1);
        let (_, answer) = crate::client::stray::tests::response(2);
        let diagnostics = Diagnostics::new();
        let mut transport = Recording::new(Replay(vec![late, answer]), &harness, &diagnostics);
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
        assert_eq!(harness.state.stray_responses.waiting(), 0);
    }
}
