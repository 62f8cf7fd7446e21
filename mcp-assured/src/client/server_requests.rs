//! Answers to the requests a server sends the client (sampling, elicitation, roots), and the
//! record of every such request.

use std::{
    sync::{Arc, Mutex},
    time::SystemTime,
};

use rmcp::model::{
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, ErrorData,
    Root,
};
use serde::Serialize;
use serde_json::Value;

/// A request the server sent to the client.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ServerRequest {
    /// E.g. `sampling/createMessage`, `elicitation/create`, `roots/list`, `ping`.
    pub method: String,
    /// The params object (`null` when there were none).
    pub params: Value,
    /// Whether the client had an answer configured; an unanswered request got a
    /// `METHOD_NOT_FOUND` error.
    pub answered: bool,
    /// When it arrived.
    #[serde(skip)]
    pub received_at: SystemTime,
}

/// What a configured answer may return: a value, or a JSON-RPC error to send back.
pub trait IntoAnswer<T> {
    /// The answer to send.
    fn into_answer(self) -> Result<T, ErrorData>;
}

impl<T> IntoAnswer<T> for T {
    fn into_answer(self) -> Result<T, ErrorData> {
        Ok(self)
    }
}

impl<T> IntoAnswer<T> for Result<T, ErrorData> {
    fn into_answer(self) -> Result<T, ErrorData> {
        self
    }
}

pub(crate) type Answer<P, R> = Arc<dyn Fn(&P) -> Result<R, ErrorData> + Send + Sync>;

/// The answers configured on the builder; each one present advertises its capability.
#[derive(Clone, Default)]
pub(crate) struct Answers {
    pub(crate) sampling: Option<Answer<CreateMessageRequestParams, CreateMessageResult>>,
    pub(crate) elicitation: Option<Answer<ElicitRequestParams, ElicitResult>>,
    pub(crate) roots: Option<Arc<Mutex<Vec<Root>>>>,
}

impl std::fmt::Debug for Answers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answers")
            .field("sampling", &self.sampling.is_some())
            .field("elicitation", &self.elicitation.is_some())
            .field("roots", &self.roots)
            .finish()
    }
}

pub(crate) fn answer<P, R, A, F>(f: F) -> Answer<P, R>
where
    F: Fn(&P) -> A + Send + Sync + 'static,
    A: IntoAnswer<R>,
{
    Arc::new(move |params| f(params).into_answer())
}
