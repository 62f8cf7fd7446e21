//! Records the server's notifications as they come off the transport.
//!
//! rmcp hands each notification to the client on a task of its own, so a notification sent
//! just before a response (the last `notifications/progress` of a call, say) could be
//! recorded after the caller already has the response. Recording here, in arrival order,
//! means everything the server sent before a response is in the log when the response is
//! returned.

use rmcp::{
    RoleClient,
    model::JsonRpcMessage,
    service::{RxJsonRpcMessage, TxJsonRpcMessage},
    transport::Transport,
};

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

impl<T: Transport<RoleClient>> Transport<RoleClient> for Recording<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await?;
        if let JsonRpcMessage::Notification(notification) = &message {
            self.log()
                .push(Notification::from_server(&notification.notification));
        }
        Some(message)
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.inner.close().await
    }
}
