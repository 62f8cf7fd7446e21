//! What the server sent, exactly: the text of one JSON-RPC message as it came off the
//! transport, and its result (or params) as JSON parsed from that text.
//!
//! rmcp decodes every message into its own types and hands those on; re-encoded, they are
//! not what arrived: fields the types do not model are gone (a tool's
//! `execution.taskSupport` in rmcp 3.9), integers held as floats come back as `5.0`, and
//! numbers held as `f32` gain digits (`0.7` becomes `0.699999988079071`). The harness keeps
//! the text beside the typed value, so assertions, snapshots and the companion read what the
//! server said.

use std::sync::{Arc, OnceLock};

use serde::{Serialize, Serializer};
use serde_json::Value;

/// One message exactly as the server sent it; see [`ToolResult::wire`](crate::ToolResult::wire)
/// and the other results that carry one.
///
/// ```no_run
/// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
/// let tools = client.list_tools().await?;
/// // A field rmcp's `Tool` does not model, as the server sent it:
/// let support = tools.wire_of("simulate-research-query").and_then(|tool| tool.pointer("/execution/taskSupport"));
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Wire {
    inner: Arc<Inner>,
}

struct Inner {
    message: Arc<str>,
    member: Member,
    json: OnceLock<Value>,
}

/// Which member of the message the typed value was decoded from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Member {
    /// A response's `result`.
    Result,
    /// A request's or a notification's `params`.
    Params,
}

impl Member {
    fn key(self) -> &'static str {
        match self {
            Member::Result => "result",
            Member::Params => "params",
        }
    }
}

impl Wire {
    pub(crate) fn new(message: Arc<str>, member: Member) -> Self {
        Wire {
            inner: Arc::new(Inner {
                message,
                member,
                json: OnceLock::new(),
            }),
        }
    }

    /// The result (of a response) or the params (of a request or notification), parsed on
    /// first use from the text that arrived: integers stay integers, decimals are read from
    /// their digits (not through a narrower type), and every field is kept. `null` when the
    /// message had none.
    pub fn json(&self) -> &Value {
        self.inner.json.get_or_init(|| {
            serde_json::from_str::<Value>(&self.inner.message)
                .ok()
                .and_then(|mut message| message.get_mut(self.inner.member.key()).map(Value::take))
                .unwrap_or(Value::Null)
        })
    }

    /// The value at a JSON pointer (RFC 6901: `/structuredContent/temperature`) in
    /// [`json`](Self::json).
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        self.json().pointer(pointer)
    }

    /// The whole JSON-RPC message, byte for byte as it came (a stdio line without its
    /// newline, an SSE event's data, an HTTP body).
    pub fn message(&self) -> &str {
        &self.inner.message
    }
}

impl std::fmt::Debug for Wire {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Wire").field(self.json()).finish()
    }
}

/// Two wires are equal when their JSON is.
impl PartialEq for Wire {
    fn eq(&self, other: &Wire) -> bool {
        self.json() == other.json()
    }
}

/// Serializes as its [`json`](Wire::json).
impl Serialize for Wire {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json().serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_member_as_written() {
        let text = r#"{"jsonrpc":"2.0","id":1,"result":{"n":5,"p":0.7,"x-extra":{"deep":[1]}}}"#;
        let wire = Wire::new(text.into(), Member::Result);
        assert_eq!(
            wire.json(),
            &json!({"n": 5, "p": 0.7, "x-extra": {"deep": [1]}})
        );
        assert_eq!(wire.json()["n"].as_u64(), Some(5));
        assert_eq!(wire.pointer("/x-extra/deep/0"), Some(&json!(1)));
        assert_eq!(wire.message(), text);
        let notification = Wire::new(r#"{"jsonrpc":"2.0","method":"m"}"#.into(), Member::Params);
        assert_eq!(notification.json(), &Value::Null);
    }
}
