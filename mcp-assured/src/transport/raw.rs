//! Messages written by hand, beside rmcp: what a check sends to see how a server copes with
//! what rmcp never sends (a request without its metadata, a version nobody speaks, a missing
//! header). Each transport that can carry one registers how it writes; the answer is read
//! from the [wire inbox](super::wire), or from the HTTP response.

#[cfg(feature = "http")]
use std::collections::HashMap;
use std::{
    io,
    sync::{Arc, OnceLock},
};

use futures::future::BoxFuture;
#[cfg(feature = "http")]
use http::{HeaderName, HeaderValue};
use serde_json::Value;

/// Writes one line (a JSON-RPC message and its newline) on a stdio or in-process pipe.
pub(crate) type WriteLine =
    Arc<dyn Fn(Vec<u8>) -> BoxFuture<'static, io::Result<()>> + Send + Sync>;

/// How a message sent by hand reaches the server.
#[derive(Clone)]
pub(crate) enum RawChannel {
    /// On the pipe rmcp writes on; the answer comes back through the transport.
    Lines(WriteLine),
    /// A POST of its own to the server's URL, with the connection's headers.
    #[cfg(feature = "http")]
    Http(HttpPost),
}

impl std::fmt::Debug for RawChannel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RawChannel::Lines(_) => f.write_str("RawChannel::Lines"),
            #[cfg(feature = "http")]
            RawChannel::Http(post) => f.debug_tuple("RawChannel::Http").field(&post.url).finish(),
        }
    }
}

/// What a request by hand over HTTP needs: the client (with the connection's TLS), the URL
/// and the headers every request of the connection carries (credentials, custom headers).
#[cfg(feature = "http")]
#[derive(Clone)]
pub(crate) struct HttpPost {
    pub(crate) client: reqwest::Client,
    pub(crate) url: String,
    pub(crate) headers: HashMap<HeaderName, HeaderValue>,
    /// Whether the connection authorizes with OAuth (whose token rmcp holds).
    pub(crate) oauth: bool,
    /// Whether the server speaks the older HTTP+SSE transport (`url` is its event stream).
    #[cfg_attr(not(feature = "checks"), allow(dead_code))]
    pub(crate) sse: bool,
}

#[cfg(feature = "http")]
impl HttpPost {
    /// The connection's headers, then `Accept: application/json, text/event-stream`, then
    /// each of `changes` in order: `Some` sets a header (once, whatever its case), `None`
    /// removes it.
    pub(crate) fn headers_with(&self, changes: &[(&str, Option<&str>)]) -> Vec<(String, String)> {
        let mut headers: Vec<(String, String)> = self
            .headers
            .iter()
            .filter_map(|(name, value)| Some((name.to_string(), value.to_str().ok()?.to_owned())))
            .collect();
        let accept = ("accept", Some("application/json, text/event-stream"));
        for (name, value) in std::iter::once(&accept).chain(changes) {
            headers.retain(|(held, _)| !held.eq_ignore_ascii_case(name));
            if let Some(value) = value {
                headers.push(((*name).to_owned(), (*value).to_owned()));
            }
        }
        headers
    }
}

/// Where an HTTP transport leaves how it reaches the server, set once: for the checks of
/// the transport itself.
#[cfg(feature = "http")]
#[derive(Default)]
pub(crate) struct HttpAccessSlot(OnceLock<HttpPost>);

#[cfg(feature = "http")]
impl HttpAccessSlot {
    pub(crate) fn set(&self, access: HttpPost) {
        let _ = self.0.set(access);
    }

    #[cfg_attr(not(feature = "checks"), allow(dead_code))]
    pub(crate) fn get(&self) -> Option<&HttpPost> {
        self.0.get()
    }
}

#[cfg(feature = "http")]
impl std::fmt::Debug for HttpAccessSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let url = self.0.get().map(|access| access.url.as_str());
        f.debug_tuple("HttpAccessSlot").field(&url).finish()
    }
}

/// Where the transport leaves its channel, set once.
#[derive(Debug, Default)]
pub(crate) struct RawChannelSlot(OnceLock<RawChannel>);

impl RawChannelSlot {
    pub(crate) fn set(&self, channel: RawChannel) {
        let _ = self.0.set(channel);
    }

    pub(crate) fn get(&self) -> Option<&RawChannel> {
        self.0.get()
    }
}

/// What came back to a message sent by hand.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RawAnswer {
    /// The HTTP status, over HTTP.
    pub http_status: Option<u16>,
    /// The JSON-RPC answer to the message, as sent (`None` when none came: over HTTP, a
    /// `202` or a body that holds none).
    pub message: Option<Value>,
}

impl RawAnswer {
    pub(crate) fn new(http_status: Option<u16>, message: Option<Value>) -> Self {
        RawAnswer {
            http_status,
            message,
        }
    }

    /// The error code of the answer, if it is a JSON-RPC error.
    pub fn error_code(&self) -> Option<i64> {
        self.message.as_ref()?.pointer("/error/code")?.as_i64()
    }
}

/// The JSON-RPC message answering `id` in an HTTP body: the body itself, or one of its SSE
/// events' data.
#[cfg(feature = "http")]
pub(crate) fn answer_in_body(body: &str, id: &Value) -> Option<Value> {
    let answers =
        |message: &Value| message.get("id") == Some(id) && message.get("method").is_none();
    // A plain body is the answer, whatever its id (an error to a request the server could
    // not read has `null`).
    if let Ok(message) = serde_json::from_str::<Value>(body) {
        return Some(message);
    }
    body.split('\n')
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .find(answers)
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_the_answer_in_json_or_sse() {
        let id = json!("raw-1");
        let plain = r#"{"jsonrpc":"2.0","id":"raw-1","error":{"code":-32602,"message":"x"}}"#;
        assert_eq!(answer_in_body(plain, &id).unwrap()["error"]["code"], -32602);
        let events = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n\n\
                      data: {\"jsonrpc\":\"2.0\",\"id\":\"raw-1\",\"result\":{}}\n\n";
        assert_eq!(answer_in_body(events, &id).unwrap()["result"], json!({}));
        assert_eq!(answer_in_body("", &id), None);
    }
}
