//! A request as the double received it: what matchers look at, and what
//! [`MockServer::received_requests`](super::MockServer::received_requests) lists.

use std::{fmt, time::SystemTime};

use serde_json::Value;

/// One request a client sent the double. Its `Debug` shows credential headers
/// (`authorization`, `cookie`, `proxy-authorization`, and any whose name says key, token or
/// secret) as `<redacted>`; the headers themselves are kept whole for matchers.
#[derive(Clone, PartialEq)]
pub struct McpRequest {
    /// The JSON-RPC method: `tools/call`, `resources/read`, `prompts/get`, `tools/list`, ...
    pub method: String,
    /// The request's params as sent (`{}` when it had none).
    pub params: Value,
    /// The HTTP headers of the request that carried it (names in lower case), empty over
    /// stdio.
    pub headers: Vec<(String, String)>,
    /// When it arrived.
    pub received: SystemTime,
}

impl McpRequest {
    pub(crate) fn new(
        method: impl Into<String>,
        params: Value,
        headers: Vec<(String, String)>,
    ) -> Self {
        McpRequest {
            method: method.into(),
            params: if params.is_null() {
                Value::Object(Default::default())
            } else {
                params
            },
            headers,
            received: SystemTime::now(),
        }
    }

    /// What the request is about: a tool's or prompt's `name`, a resource's `uri`, or the
    /// `ref` of a completion (its `name` or `uri`).
    pub fn subject(&self) -> Option<&str> {
        let params = &self.params;
        params["name"]
            .as_str()
            .or_else(|| params["uri"].as_str())
            .or_else(|| params["ref"]["name"].as_str())
            .or_else(|| params["ref"]["uri"].as_str())
    }

    /// The arguments of a tool call, prompt or completion (`params.arguments`, or
    /// `params.argument` for a completion), `Null` when there are none.
    pub fn arguments(&self) -> &Value {
        match self.params.get("arguments") {
            Some(arguments) => arguments,
            None => self.params.get("argument").unwrap_or(&Value::Null),
        }
    }

    /// The value of a header (case-insensitive), if it was sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

impl fmt::Debug for McpRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<(&str, &str)> = self
            .headers
            .iter()
            .map(|(name, value)| {
                let shown = if is_credential(name) {
                    "<redacted>"
                } else {
                    value.as_str()
                };
                (name.as_str(), shown)
            })
            .collect();
        f.debug_struct("McpRequest")
            .field("method", &self.method)
            .field("params", &self.params)
            .field("headers", &headers)
            .field("received", &self.received)
            .finish()
    }
}

/// Whether a header carries a credential.
fn is_credential(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    matches!(
        name.as_str(),
        "authorization" | "proxy-authorization" | "cookie" | "set-cookie"
    ) || ["key", "token", "secret", "password"]
        .iter()
        .any(|word| name.contains(word))
}

/// `tools/call search {"query":"rust"}`: the method, the subject and the arguments. Header
/// values are left out: they may carry credentials.
impl fmt::Display for McpRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.method)?;
        if let Some(subject) = self.subject() {
            write!(f, " {subject}")?;
        }
        let arguments = self.arguments();
        if !arguments.is_null() {
            write!(f, " {arguments}")?;
        }
        Ok(())
    }
}
