//! Every message a server sends, held to the official JSON schema of the revision the session
//! speaks: what the official conformance suite checks as `wire-schema-valid`, and what the
//! SDKs' clients refuse (the Python SDK validates every result with pydantic, so a 2026-07-28
//! `tools/call` result without `resultType` is an error there, whatever a lenient client does).
//!
//! The schemas are `schema/<revision>/schema.json` of the specification repository, for
//! [`REVISIONS`], bundled in the crate as the official conformance suite bundles them
//! (`schemas/extract.mjs` writes them from the suite's package; the tests hold them to the
//! pinned suite). A message is held to the definition the suite holds it to:
//!
//! - a request or notification, to the definition whose `method` is its method
//!   (`ProgressNotification` for `notifications/progress`), else `JSONRPCRequest` or
//!   `JSONRPCNotification`;
//! - an error, to the definition of its code where the schema has one, else the error
//!   response;
//! - a result, to the result of the request it answers (`CallToolResult` for `tools/call`;
//!   `InputRequiredResult` for `resultType: "input_required"`), then to the response envelope.
//!
//! `McpClient::wire_violations` (the `schema` feature) holds every message a
//! client received to its session's revision; the `wire.schema` check does it for a `check`
//! run; [`schema_for`] holds any message you have.
//!
#![cfg_attr(feature = "schema", doc = "```")]
#![cfg_attr(not(feature = "schema"), doc = "```ignore")]
//! use mcp_assured::wire_schema;
//! use serde_json::json;
//!
//! let schema = wire_schema::schema_for("2026-07-28").unwrap();
//! let answer = json!({"jsonrpc": "2.0", "id": 3, "result": {"content": []}});
//! let found = schema.violations(&answer, Some("tools/call"));
//! assert_eq!(found.len(), 1);
//! assert_eq!(found[0].definition, "CallToolResult");
//! assert_eq!(found[0].pointer, "/result");
//! assert!(found[0].message.contains("\"resultType\" is a required property"));
//!
//! let fixed = json!({"jsonrpc": "2.0", "id": 3, "result": {"content": [], "resultType": "complete"}});
//! assert!(schema.violations(&fixed, Some("tools/call")).is_empty());
//! ```
//!
//! Needs the `schema` feature (on with `checks`); without it [`schema_for`] finds no schema.

#[cfg(feature = "schema")]
mod compiled;

use std::fmt;

use serde_json::Value;

/// The revisions whose official schema is bundled, oldest first.
pub const REVISIONS: [&str; 4] = ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

/// One way a message breaks its revision's schema (in JSON, camelCase: a `wire.schema`
/// entry's details list them).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WireViolation {
    /// The revision whose schema it breaks.
    pub revision: String,
    /// Which message: its method (`notifications/progress`), or for an answer the method of
    /// the request it answers (`tools/call`), or `response` when that is not known.
    pub method: String,
    /// The schema's definition the message was held to (`CallToolResult`).
    pub definition: String,
    /// A JSON pointer into the message (`/result/content/0`; `""` for the whole message).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
    /// The schema's own words for what is missing or wrong there, where it has any: the
    /// `description` of the property.
    pub schema_says: Option<String>,
}

impl fmt::Display for WireViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        };
        write!(
            f,
            "{} at {pointer}: {} ({} of {})",
            self.method, self.message, self.definition, self.revision
        )?;
        if let Some(words) = &self.schema_says {
            write!(f, "; the schema says: {words}")?;
        }
        Ok(())
    }
}

/// The bundled schema of one revision, compiled as it is used.
#[derive(Debug)]
pub struct WireSchema {
    #[cfg(feature = "schema")]
    compiled: &'static compiled::Compiled,
    #[cfg(not(feature = "schema"))]
    _never: std::convert::Infallible,
}

/// The official schema of `revision`, when it is one of [`REVISIONS`] (and the `schema`
/// feature is on).
pub fn schema_for(revision: &str) -> Option<WireSchema> {
    #[cfg(feature = "schema")]
    {
        compiled::Compiled::of(revision).map(|compiled| WireSchema { compiled })
    }
    #[cfg(not(feature = "schema"))]
    {
        let _ = revision;
        None
    }
}

impl WireSchema {
    /// The revision this is the schema of.
    pub fn revision(&self) -> &'static str {
        #[cfg(feature = "schema")]
        {
            self.compiled.revision
        }
        #[cfg(not(feature = "schema"))]
        match self._never {}
    }

    /// Every way `message`, a JSON-RPC message a server sent, breaks the schema; empty when
    /// it conforms. `answering` is the method of the request a response answers (without
    /// it only the response's envelope is checked).
    pub fn violations(&self, message: &Value, answering: Option<&str>) -> Vec<WireViolation> {
        #[cfg(feature = "schema")]
        {
            self.compiled.violations(message, answering)
        }
        #[cfg(not(feature = "schema"))]
        {
            let _ = (message, answering);
            match self._never {}
        }
    }

    /// Every way `result`, the `result` of a response to a `method` request, breaks the
    /// schema's definition of that method's result (pointers start at `/result`); empty
    /// when it conforms or the schema defines no result for `method`. The same as
    /// [`violations`](Self::violations) of the response without its envelope, and without
    /// copying the result into one.
    pub fn result_violations(&self, result: &Value, method: &str) -> Vec<WireViolation> {
        #[cfg(feature = "schema")]
        {
            self.compiled.result_violations(result, method)
        }
        #[cfg(not(feature = "schema"))]
        {
            let _ = (result, method);
            match self._never {}
        }
    }
}

#[cfg(all(test, feature = "schema"))]
mod tests;
