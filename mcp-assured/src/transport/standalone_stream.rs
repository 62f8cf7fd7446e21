//! Streamable HTTP: the session's first requests wait until the standalone stream (the GET
//! rmcp opens once a session starts) has been answered.
//!
//! A server sends what it asks of the client outside any request (an `elicitation/create`
//! from a background task, a `sampling/createMessage`, a list-changed notification) on that
//! stream, and one that has no stream open yet drops the message: the TypeScript SDK does. rmcp
//! opens the stream in a task of its own after `notifications/initialized`, so a tool called
//! right after `build()` raced it, and lost on a loaded machine (the conformance suite's
//! `elicitation-sep1034-client-defaults` failed that way). Waiting for the answer, whatever
//! it is (an event stream, or `405` from a server without one), makes the order the same on
//! every run, for milliseconds once per session.

use std::time::Duration;

use rmcp::model::ClientJsonRpcMessage;
use tokio::sync::watch;

/// The longest a request waits for the stream: a server that holds the GET unanswered
/// longer costs each session this once, and is then not waited for again.
pub(crate) const OPENING_WAIT: Duration = Duration::from_secs(1);

/// Whether the session's standalone stream has been answered, or waited for long enough.
#[derive(Debug)]
pub(crate) struct StandaloneStream {
    settled: watch::Sender<bool>,
}

impl Default for StandaloneStream {
    fn default() -> Self {
        Self {
            settled: watch::Sender::new(false),
        }
    }
}

impl StandaloneStream {
    /// The server answered the GET that opens the stream (not a reconnection's, which
    /// carries the last event's id).
    pub(crate) fn answered(&self) {
        self.settled.send_replace(true);
    }

    /// Waits, at most [`OPENING_WAIT`], until the stream has been answered, before `message`
    /// goes out under `session_id`. Only requests wait, and only in a session: rmcp opens
    /// the stream once the server gave a session id, and sends `notifications/initialized`
    /// before it does.
    pub(crate) async fn before_sending(
        &self,
        message: &ClientJsonRpcMessage,
        session_id: Option<&str>,
    ) {
        if *self.settled.borrow()
            || session_id.is_none()
            || !matches!(message, ClientJsonRpcMessage::Request(_))
        {
            return;
        }
        let mut settled = self.settled.subscribe();
        let answered = tokio::time::timeout(OPENING_WAIT, settled.wait_for(|settled| *settled));
        if answered.await.is_err() {
            tracing::debug!(
                "the standalone stream was not answered within {OPENING_WAIT:?}; \
                 sending without waiting for it"
            );
            self.settled.send_replace(true);
        }
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::{ClientNotification, ClientRequest, InitializedNotification, PingRequest};

    use super::*;

    fn request() -> ClientJsonRpcMessage {
        ClientJsonRpcMessage::request(
            ClientRequest::PingRequest(PingRequest::default()),
            rmcp::model::RequestId::Number(1),
        )
    }

    #[tokio::test]
    async fn a_request_in_a_session_waits_for_the_answer() {
        let stream = std::sync::Arc::new(StandaloneStream::default());
        let answering = stream.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            answering.answered();
        });
        let started = std::time::Instant::now();
        stream.before_sending(&request(), Some("session")).await;
        let waited = started.elapsed();
        assert!(
            waited >= Duration::from_millis(300) && waited < OPENING_WAIT,
            "{waited:?}"
        );
    }

    #[tokio::test]
    async fn a_stream_never_answered_is_waited_for_once() {
        let stream = StandaloneStream::default();
        let started = std::time::Instant::now();
        stream.before_sending(&request(), Some("session")).await;
        let first = started.elapsed();
        stream.before_sending(&request(), Some("session")).await;
        let both = started.elapsed();
        assert!(first >= OPENING_WAIT, "{first:?}");
        assert!(both - first < OPENING_WAIT / 2, "{first:?} then {both:?}");
    }

    #[tokio::test]
    async fn notifications_and_sessionless_servers_do_not_wait() {
        let stream = StandaloneStream::default();
        let started = std::time::Instant::now();
        let initialized = ClientJsonRpcMessage::notification(
            ClientNotification::InitializedNotification(InitializedNotification::default()),
        );
        stream.before_sending(&initialized, Some("session")).await;
        stream.before_sending(&request(), None).await;
        assert!(
            started.elapsed() < OPENING_WAIT / 2,
            "{:?}",
            started.elapsed()
        );
    }
}
