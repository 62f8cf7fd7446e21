//! Every message the server sent, held to the official JSON schema of the revision the
//! session speaks ([`crate::wire_schema`]), when asked.

use rmcp::model::RequestId;
use serde::Deserialize;
use serde_json::Value;

use super::{McpClient, lifecycle::probe_method};
use crate::{
    transport::{wire::id_text, wire_log::WireTally},
    wire_schema::{self, WireViolation},
};

impl McpClient {
    /// Every way a message the server sent so far broke the official JSON schema of the
    /// revision this session speaks ([`protocol_version`](Self::protocol_version)): its
    /// answers (each held to the result of the request it answers: `CallToolResult` for
    /// `tools/call`), its notifications and its requests, from the first (`initialize` or
    /// `server/discover`) on. Empty when every message conforms; what the official
    /// conformance suite checks as `wire-schema-valid`, and what the SDKs' clients refuse.
    ///
    /// ```no_run
    /// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
    /// client.call_tool("echo", serde_json::json!({"message": "hi"})).await?;
    /// let broken = client.wire_violations();
    /// assert!(broken.is_empty(), "{}", broken.iter().map(|v| format!("\n- {v}")).collect::<String>());
    /// # Ok(()) }
    /// ```
    ///
    /// Messages are kept as they come and held to the schema when this is called; up to
    /// 4096 wait, and a client that never asks keeps no more. A revision without a bundled
    /// schema ([`wire_schema::REVISIONS`]) finds nothing.
    pub fn wire_violations(&self) -> Vec<WireViolation> {
        self.wire_tally().violations
    }

    /// The messages held so far, and what they broke.
    pub(crate) fn wire_tally(&self) -> WireTally {
        let schema = wire_schema::schema_for(self.protocol_version());
        self.diagnostics().wire.log.hold(|waiting, method_of| {
            let Some(schema) = schema else {
                return (0, Vec::new());
            };
            let mut found = Vec::new();
            let mut held = 0;
            for text in waiting {
                // What is not JSON is reported by the transport, as the fault it is.
                let Ok(message) = serde_json::from_str::<Value>(&text) else {
                    continue;
                };
                let answering = answered_method(&message, method_of);
                found.extend(schema.violations(&message, answering.as_deref()));
                held += 1;
            }
            (held, found)
        })
    }
}

/// The method of the request `message` answers, if it is an answer and the request is
/// known.
fn answered_method(
    message: &Value,
    method_of: &mut dyn FnMut(&str) -> Option<String>,
) -> Option<String> {
    if message.get("method").is_some() {
        return None;
    }
    let id = RequestId::deserialize(message.get("id")?).ok()?;
    let text = id_text(&id);
    method_of(&text).or_else(|| probe_method(&text).map(str::to_owned))
}
