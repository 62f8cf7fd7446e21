//! Answers to the requests a server sends the client (sampling, elicitation, roots), and the
//! record of every such request.

use std::{
    sync::{Arc, Mutex},
    time::SystemTime,
};

use rmcp::model::{
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
    ElicitationAction, ErrorData, Root,
};
use serde::Serialize;
use serde_json::{Map, Value};

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

/// The values a form elicitation's requested schema declares as defaults (SEP-1034), by
/// property: what a user who accepted the form unchanged would send. Properties without a
/// default are left out; a URL elicitation has none.
///
/// Add what the defaults lack (a required field, say) in an answer of your own:
///
/// ```
/// use mcp_assured::{McpAssured, elicitation_defaults, model::{ElicitResult, ElicitationAction}};
/// use serde_json::{Value, json};
///
/// let builder = McpAssured::client().on_elicitation(|request| {
///     let mut content = elicitation_defaults(request);
///     content.insert("name".into(), json!("Ada"));
///     ElicitResult::new(ElicitationAction::Accept).with_content(Value::Object(content))
/// });
/// # drop(builder);
/// ```
pub fn elicitation_defaults(request: &ElicitRequestParams) -> Map<String, Value> {
    let ElicitRequestParams::FormElicitationParams {
        requested_schema, ..
    } = request
    else {
        return Map::new();
    };
    let schema = serde_json::to_value(requested_schema).unwrap_or(Value::Null);
    schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(name, property)| Some((name.clone(), property.get("default")?.clone())))
        .collect()
}

/// Accepts an elicitation as a user would who changed nothing: a form with its
/// [defaults](elicitation_defaults), a URL elicitation with no content.
pub(crate) fn accept_defaults(request: &ElicitRequestParams) -> ElicitResult {
    let accepted = ElicitResult::new(ElicitationAction::Accept);
    match request {
        ElicitRequestParams::FormElicitationParams { .. } => {
            accepted.with_content(Value::Object(elicitation_defaults(request)))
        }
        _ => accepted,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn request(params: Value) -> ElicitRequestParams {
        serde_json::from_value(params).unwrap()
    }

    #[test]
    fn a_form_is_accepted_with_its_defaults_only() {
        let form = request(json!({
            "mode": "form",
            "message": "Details?",
            "requestedSchema": {"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string"},
                "count": {"type": "integer", "default": 3},
                "subscribe": {"type": "boolean", "default": false},
            }},
        }));
        assert_eq!(
            Value::Object(elicitation_defaults(&form)),
            json!({"count": 3, "subscribe": false})
        );
        let answer = accept_defaults(&form);
        assert_eq!(answer.action, ElicitationAction::Accept);
        assert_eq!(
            answer.content,
            Some(json!({"count": 3, "subscribe": false}))
        );
    }

    #[test]
    fn a_url_elicitation_is_accepted_without_content() {
        let url = request(json!({
            "mode": "url",
            "message": "Sign in",
            "url": "https://example.com/login",
            "elicitationId": "e-1",
        }));
        assert!(elicitation_defaults(&url).is_empty());
        let answer = accept_defaults(&url);
        assert_eq!(answer.action, ElicitationAction::Accept);
        assert_eq!(answer.content, None);
    }
}
