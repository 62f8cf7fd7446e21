//! A request that has been sent and not yet answered: watch its progress, cancel it, or
//! await its result.

use std::marker::PhantomData;

use rmcp::{
    RoleClient,
    model::{
        CallToolResult, ClientRequest, CompleteResult, GetPromptResult, ListPromptsResult,
        ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, ProgressToken,
        ReadResourceResult, RequestId, ServerResult,
    },
    service::RequestHandle,
};
use serde_json::Value;

use super::{
    McpClient, failure,
    input_required::{self, MAX_ROUNDS},
};
use crate::{
    error::{Error, Result},
    results::mcp::{PromptResult, ResourceResult, ToolResult},
    results::notification::PROGRESS,
    results::notification::Progress,
    results::sent::Sent,
    results::wire::{Member, Wire},
    transport::wire::Key,
};

/// A result type a request can return.
pub trait FromServerResult: Sized {
    /// Picks the expected variant out of rmcp's untyped answer, or hands it back.
    /// `subject` is what the request was about: a tool or prompt name, a URI, or empty;
    /// `wire` is the response as the server sent it.
    fn from_server_result(
        result: ServerResult,
        subject: &str,
        wire: Option<Wire>,
    ) -> Result<Self, Box<ServerResult>>;
}

/// A result beside the response it came in, as sent.
impl<T: FromServerResult> FromServerResult for Sent<T> {
    fn from_server_result(
        result: ServerResult,
        subject: &str,
        wire: Option<Wire>,
    ) -> Result<Self, Box<ServerResult>> {
        T::from_server_result(result, subject, wire.clone()).map(|typed| Sent::new(typed, wire))
    }
}

macro_rules! from_server_result {
    ($($variant:ident => $ty:ty),* $(,)?) => {$(
        impl FromServerResult for $ty {
            fn from_server_result(result: ServerResult, _subject: &str, _wire: Option<Wire>) -> Result<Self, Box<ServerResult>> {
                match result {
                    ServerResult::$variant(result) => Ok(result),
                    other => Err(Box::new(other)),
                }
            }
        }
    )*};
}

macro_rules! named_from_server_result {
    ($($variant:ident => $ty:ty),* $(,)?) => {$(
        impl FromServerResult for $ty {
            fn from_server_result(result: ServerResult, subject: &str, wire: Option<Wire>) -> Result<Self, Box<ServerResult>> {
                match result {
                    ServerResult::$variant(result) => Ok(<$ty>::new(subject, result).with_wire(wire)),
                    other => Err(Box::new(other)),
                }
            }
        }
    )*};
}

named_from_server_result! {
    CallToolResult => ToolResult,
    GetPromptResult => PromptResult,
    ReadResourceResult => ResourceResult,
}

from_server_result! {
    CallToolResult => CallToolResult,
    ListToolsResult => ListToolsResult,
    ListResourcesResult => ListResourcesResult,
    ListResourceTemplatesResult => ListResourceTemplatesResult,
    ReadResourceResult => ReadResourceResult,
    ListPromptsResult => ListPromptsResult,
    GetPromptResult => GetPromptResult,
    CompleteResult => CompleteResult,
}

impl FromServerResult for () {
    fn from_server_result(
        result: ServerResult,
        _subject: &str,
        _wire: Option<Wire>,
    ) -> Result<Self, Box<ServerResult>> {
        match result {
            ServerResult::EmptyResult(_) => Ok(()),
            // Some servers answer `ping` or `logging/setLevel` with a result that has only
            // `_meta`; that is still an empty result.
            ServerResult::CustomResult(custom)
                if custom
                    .0
                    .as_object()
                    .is_some_and(|o| o.keys().all(|k| k == "_meta")) =>
            {
                Ok(())
            }
            other => Err(Box::new(other)),
        }
    }
}

/// The result as the server sent it (as rmcp re-encodes it only if the text was lost).
impl FromServerResult for Value {
    fn from_server_result(
        result: ServerResult,
        _subject: &str,
        wire: Option<Wire>,
    ) -> Result<Self, Box<ServerResult>> {
        Ok(match wire {
            Some(wire) => wire.json().clone(),
            None => serde_json::to_value(&result).unwrap_or(Value::Null),
        })
    }
}

/// A request in flight, returned by the client's `start_*` methods.
///
/// Every request carries a progress token, so a server can report progress on any of them.
///
/// ```no_run
/// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
/// use serde_json::json;
/// let call = client.start_call_tool("progress", json!({"steps": 3})).await?;
/// let first = call.wait_for_progress().await?;
/// assert_eq!(first.progress, 1.0);
/// let result = call.result().await?;
/// # Ok(()) }
/// ```
#[must_use = "a pending request does nothing unless its result is awaited or it is cancelled"]
#[derive(Debug)]
pub struct PendingRequest<T> {
    handle: RequestHandle<RoleClient>,
    /// What was sent, to send again after an `input_required` answer; kept only for the
    /// requests that may get one (see [`input_required::may_ask_for_input`]).
    request: Option<ClientRequest>,
    method: String,
    subject: String,
    client: McpClient,
    _result: PhantomData<fn() -> T>,
}

impl<T: FromServerResult> PendingRequest<T> {
    pub(crate) fn new(
        handle: RequestHandle<RoleClient>,
        request: Option<ClientRequest>,
        method: String,
        subject: String,
        client: McpClient,
    ) -> Self {
        PendingRequest {
            handle,
            request,
            method,
            subject,
            client,
            _result: PhantomData,
        }
    }

    /// The JSON-RPC id of the request.
    pub fn request_id(&self) -> &RequestId {
        &self.handle.id
    }

    /// The progress token sent in the request's `_meta`.
    pub fn progress_token(&self) -> &ProgressToken {
        &self.handle.progress_token
    }

    /// The method, e.g. `tools/call`.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The progress notifications about this request received so far, in order.
    pub fn progress(&self) -> Vec<Progress> {
        let token = self.token_json();
        self.client
            .notifications()
            .iter()
            .filter_map(Progress::from_notification)
            .filter(|p| p.progress_token == token)
            .collect()
    }

    /// Waits for the next progress notification about this request (one not returned by
    /// an earlier call), up to the client's timeout.
    pub async fn wait_for_progress(&self) -> Result<Progress> {
        let token = self.token_json();
        let found = self
            .client
            .wait_for_notification_matching(|n| {
                n.method == PROGRESS && n.params.get("progressToken") == Some(&token)
            })
            .await
            .map_err(|_| Error::Timeout {
                method: format!("progress of `{}`", self.method),
                timeout: self.client.timeout(),
                stderr_tail: self.client.stderr_tail(),
            })?;
        Progress::from_notification(&found).ok_or_else(|| Error::UnexpectedResponse {
            method: PROGRESS.to_owned(),
            detail: format!("undecodable progress params: {}", found.params),
        })
    }

    /// Sends `notifications/cancelled` for this request and stops waiting for it.
    pub async fn cancel(self, reason: impl Into<String>) -> Result<()> {
        let diagnostics = self.client.diagnostics().clone();
        let method = self.method.clone();
        match self.handle.cancel(Some(reason.into())).await {
            Ok(()) => Ok(()),
            Err(error) => Err(failure::request_failed(error, &method, &diagnostics).await),
        }
    }

    /// Waits for the answer, up to the client's timeout; on timeout the request is
    /// cancelled with `notifications/cancelled`. On protocol 2026-07-28 an `input_required`
    /// answer is answered with the client's handlers and the request sent again (with a new
    /// id), until the server completes it; the timeout bounds all the rounds together.
    pub async fn result(self) -> Result<T> {
        let PendingRequest {
            mut handle,
            mut request,
            method,
            subject,
            client,
            ..
        } = self;
        let mut rounds = 0;
        let deadline = tokio::time::Instant::now() + client.timeout();
        loop {
            let id = handle.id.clone();
            let answered = handle.await_response().await;
            // Taken whatever the answer, so that nothing waits for a taker.
            let wire = client
                .diagnostics()
                .wire
                .take(&Key::answer(&id))
                .map(|text| Wire::new(text, Member::Result));
            let result = match answered {
                Ok(result) => result,
                // Boxed, as the rounds after the first: the future of every request's result
                // is moved, and stays small without them.
                Err(error) => {
                    let failed = failure::answer_failed(error, &method, &id, client.diagnostics());
                    return Err(Box::pin(failed).await);
                }
            };
            let input = match result {
                ServerResult::InputRequiredResult(input) => input,
                result => {
                    return T::from_server_result(result, &subject, wire).map_err(|other| {
                        let json = serde_json::to_string(&other).unwrap_or_default();
                        Error::UnexpectedResponse {
                            method,
                            detail: format!("a result of another shape: {json}"),
                        }
                    });
                }
            };
            if rounds == MAX_ROUNDS {
                return Err(Error::UnexpectedResponse {
                    method,
                    detail: format!(
                        "`input_required` {MAX_ROUNDS} times over, and never a result; not sent \
                         again"
                    ),
                });
            }
            rounds += 1;
            let again = input_required::retry(
                request.as_ref(),
                input,
                wire.as_ref(),
                client.harness(),
                &method,
            )?;
            // The client's timeout bounds the whole exchange, not each round of it.
            let Some(left) = deadline.checked_duration_since(tokio::time::Instant::now()) else {
                return Err(Error::Timeout {
                    method,
                    timeout: client.timeout(),
                    stderr_tail: client.stderr_tail(),
                });
            };
            handle = match Box::pin(client.with_timeout(left).send_request(again.clone())).await {
                Ok(handle) => handle,
                Err(error) => {
                    let failed = failure::request_failed(error, &method, client.diagnostics());
                    return Err(Box::pin(failed).await);
                }
            };
            request = Some(again);
        }
    }

    fn token_json(&self) -> Value {
        serde_json::to_value(&self.handle.progress_token).unwrap_or(Value::Null)
    }
}
