//! The POST of the streamable HTTP transport: one message sent, and the server's answer read
//! as rmcp 3.9's reqwest client reads it, except that a plain JSON body is kept exactly as it
//! came. rmcp parses such a body and drops its text, and there is no other way to have it:
//! rmcp offers [`StreamableHttpClient`](rmcp::transport::streamable_http_client) as the place
//! for a custom backend, and this is that backend's POST.
//!
//! Rule for rule as rmcp's, so that the transport behaves the same with or without it: the
//! `Accept` header, the bearer token, the custom headers (the reserved ones refused), the
//! session header; 401 and 403 challenges; 202/204 (and an empty 200 to a notification) as
//! accepted; 404 on a session as expired; a JSON-RPC error in a failed answer kept, with the
//! body's size bounded; `server/discover` refused by a pre-2026 server turned into an error
//! the lifecycle can read; an SSE answer as an event stream with rmcp's event-size limit.

use std::{borrow::Cow, collections::HashMap, sync::Arc};

use futures::{Stream, StreamExt, TryStreamExt, stream::BoxStream};
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use rmcp::{
    model::{ClientJsonRpcMessage, ClientRequest, ErrorData, JsonRpcMessage, ServerJsonRpcMessage},
    transport::streamable_http_client::{
        AuthRequiredError, HttpStatusError, InsufficientScopeError, SseError, StreamableHttpError,
        StreamableHttpPostResponse,
    },
};
use sse_stream::{Sse, SseStream};

use super::wire::WireInbox;

type PostError = StreamableHttpError<reqwest::Error>;

const SESSION_ID: &str = "Mcp-Session-Id";
const EVENT_STREAM: &str = "text/event-stream";
const JSON: &str = "application/json";
/// rmcp's limits: a JSON answer, a failed answer's body, one SSE event.
const MAX_JSON_BODY: usize = 16 * 1024 * 1024;
const MAX_ERROR_BODY: usize = 64 * 1024;
const MAX_SSE_EVENT: usize = 16 * 1024 * 1024;
const MAX_RETRY_AFTER: usize = 128;
/// Headers a custom header may not replace (`MCP-Protocol-Version` may: rmcp sets it that way).
const RESERVED: [&str; 3] = ["accept", "mcp-session-id", "last-event-id"];

/// How the POST (as rmcp's own) begins its message about a response body that is not a
/// JSON-RPC message: `{UNPARSABLE_BODY}{serde's error}: {the body's first 256 bytes}`.
pub(crate) const UNPARSABLE_BODY: &str = "could not parse JSON response as ServerJsonRpcMessage: ";

/// What one POST needs besides the message.
pub(crate) struct Post<'a> {
    pub(crate) client: &'a reqwest::Client,
    pub(crate) uri: &'a str,
    pub(crate) session_id: Option<Arc<str>>,
    pub(crate) bearer: Option<String>,
    pub(crate) custom_headers: HashMap<HeaderName, HeaderValue>,
    pub(crate) wire: &'a WireInbox,
}

impl Post<'_> {
    pub(crate) async fn send(
        self,
        message: &ClientJsonRpcMessage,
    ) -> Result<StreamableHttpPostResponse, PostError> {
        let mut request = self
            .client
            .post(self.uri)
            .header(header::ACCEPT, format!("{EVENT_STREAM}, {JSON}"));
        if let Some(token) = &self.bearer {
            request = request.bearer_auth(token);
        }
        for (name, value) in self.custom_headers {
            if RESERVED.contains(&name.as_str()) {
                return Err(StreamableHttpError::ReservedHeaderConflict(
                    name.to_string(),
                ));
            }
            request = request.header(name, value);
        }
        let session_was_attached = self.session_id.is_some();
        if let Some(session_id) = &self.session_id {
            request = request.header(SESSION_ID, session_id.as_ref());
        }
        let response = request
            .json(message)
            .send()
            .await
            .map_err(StreamableHttpError::Client)?;
        let status = response.status();
        if let Some(challenge) = challenge(status, response.headers())? {
            return Err(challenge);
        }
        if matches!(status, StatusCode::ACCEPTED | StatusCode::NO_CONTENT) {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if status == StatusCode::NOT_FOUND && session_was_attached {
            return Err(StreamableHttpError::SessionExpired);
        }
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
        let is_json = content_type
            .as_deref()
            .is_some_and(|value| value.starts_with(JSON));
        let status_error = status_error(status, response.headers());
        if let Some(error) = &status_error
            && (!is_json || status == StatusCode::TOO_MANY_REQUESTS)
        {
            return Err(HttpStatusError::new(error.status, error.retry_after.clone()).into());
        }
        let session_id = response
            .headers()
            .get(SESSION_ID)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        let answers_nothing = !matches!(message, JsonRpcMessage::Request(_));
        // The spec asks for 202, but some servers answer a notification with an empty 200.
        if status.is_success() && response.content_length() == Some(0) && answers_nothing {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        let content_length = response.content_length();
        if !status.is_success() {
            let declared = response.headers().get(header::CONTENT_TYPE).cloned();
            let body = match bounded_body(response, content_length, MAX_ERROR_BODY).await {
                Ok(body) => text_of(body, declared).await,
                Err(error @ StreamableHttpError::ResponseBodyTooLarge { .. }) => {
                    return Err(status_error.map(Into::into).unwrap_or(error));
                }
                Err(_) => "<failed to read response body>".to_owned(),
            };
            if let Some(answer) = discover_refused(message, session_was_attached, status, &body) {
                return Ok(answer);
            }
            let is_auth_failure =
                matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN);
            if !is_auth_failure
                && is_json
                && let Ok(error @ JsonRpcMessage::Error(_)) =
                    serde_json::from_str::<ServerJsonRpcMessage>(&body)
            {
                self.wire.arrived(body.as_bytes());
                return Ok(StreamableHttpPostResponse::Json(error, session_id));
            }
            if let Some(error) = status_error {
                return Err(error.into());
            }
            return Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                format!("HTTP {status}: {body}"),
            )));
        }
        match content_type.as_deref() {
            Some(value) if value.starts_with(EVENT_STREAM) => Ok(StreamableHttpPostResponse::Sse(
                event_stream(response.bytes_stream()),
                session_id,
            )),
            Some(value) if value.starts_with(JSON) => {
                let body = bounded_body(response, content_length, MAX_JSON_BODY).await?;
                match crate::decode::server_message(&body) {
                    Ok(parsed) => {
                        self.wire.arrived_decoded(&body, &parsed);
                        Ok(StreamableHttpPostResponse::Json(parsed, session_id))
                    }
                    // Nothing awaits an answer to a notification or a response.
                    Err(_) if answers_nothing => Ok(StreamableHttpPostResponse::Accepted),
                    Err(error) => Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                        format!("{UNPARSABLE_BODY}{error}: {}", preview(&body)),
                    ))),
                }
            }
            _ => Err(StreamableHttpError::UnexpectedContentType(content_type)),
        }
    }
}

/// A 401 or 403 with a `WWW-Authenticate` challenge, as rmcp's OAuth client expects it.
fn challenge(status: StatusCode, headers: &HeaderMap) -> Result<Option<PostError>, PostError> {
    let Some(value) = headers.get(header::WWW_AUTHENTICATE) else {
        return Ok(None);
    };
    if !matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) {
        return Ok(None);
    }
    let value = value
        .to_str()
        .map_err(|_| {
            StreamableHttpError::UnexpectedServerResponse(Cow::from(
                "invalid www-authenticate header value",
            ))
        })?
        .to_owned();
    Ok(Some(if status == StatusCode::UNAUTHORIZED {
        StreamableHttpError::AuthRequired(AuthRequiredError::new(value))
    } else {
        let scope = scope_of(&value);
        StreamableHttpError::InsufficientScope(InsufficientScopeError::new(value, scope))
    }))
}

/// The `scope` parameter of a challenge, quoted or not.
fn scope_of(challenge: &str) -> Option<String> {
    let at = challenge.to_ascii_lowercase().find("scope=")?;
    let value = &challenge[at + "scope=".len()..];
    match value.strip_prefix('"') {
        Some(quoted) => quoted.find('"').map(|end| quoted[..end].to_owned()),
        None => {
            let end = value.find([',', ' ']).unwrap_or(value.len());
            (end > 0).then(|| value[..end].to_owned())
        }
    }
}

/// 429 and 5xx, with a short `Retry-After`.
fn status_error(status: StatusCode, headers: &HeaderMap) -> Option<HttpStatusError> {
    if status != StatusCode::TOO_MANY_REQUESTS && !status.is_server_error() {
        return None;
    }
    let retry_after = headers
        .get(header::RETRY_AFTER)
        .filter(|value| value.len() <= MAX_RETRY_AFTER)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    Some(HttpStatusError::new(status.as_u16(), retry_after))
}

/// A pre-2026 server refusing `server/discover` (4xx, no session): an error answer the
/// lifecycle can read, under the request's own id (middleware cannot echo it).
fn discover_refused(
    message: &ClientJsonRpcMessage,
    session_was_attached: bool,
    status: StatusCode,
    body: &str,
) -> Option<StreamableHttpPostResponse> {
    if session_was_attached
        || !status.is_client_error()
        || matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN)
    {
        return None;
    }
    let JsonRpcMessage::Request(request) = message else {
        return None;
    };
    if !matches!(request.request, ClientRequest::DiscoverRequest(_)) {
        return None;
    }
    let error = match serde_json::from_str::<ServerJsonRpcMessage>(body) {
        Ok(JsonRpcMessage::Error(error)) => error.error,
        _ => ErrorData::invalid_request(
            format!("server/discover rejected with HTTP {status}: {body}"),
            None,
        ),
    };
    Some(StreamableHttpPostResponse::Json(
        ServerJsonRpcMessage::error(error, Some(request.id.clone())),
        None,
    ))
}

/// The body, refused unread past `max` bytes.
async fn bounded_body(
    response: reqwest::Response,
    content_length: Option<u64>,
    max: usize,
) -> Result<Vec<u8>, PostError> {
    if content_length.is_some_and(|length| length > max as u64) {
        return Err(StreamableHttpError::ResponseBodyTooLarge { max_size: max });
    }
    let mut chunks = response.bytes_stream();
    let mut body = Vec::new();
    while let Some(chunk) = chunks
        .try_next()
        .await
        .map_err(StreamableHttpError::Client)?
    {
        if chunk.len() > max - body.len() {
            return Err(StreamableHttpError::ResponseBodyTooLarge { max_size: max });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// A body as text, decoded as reqwest does (the charset its `Content-Type` names, a BOM
/// dropped), as rmcp reads a failed answer.
async fn text_of(body: Vec<u8>, content_type: Option<HeaderValue>) -> String {
    let mut buffered = http::Response::new(body);
    if let Some(content_type) = content_type {
        buffered
            .headers_mut()
            .insert(header::CONTENT_TYPE, content_type);
    }
    reqwest::Response::from(buffered)
        .text()
        .await
        .unwrap_or_else(|_| "<failed to read response body>".to_owned())
}

/// The first 256 bytes of a body, for a message.
fn preview(body: &[u8]) -> Cow<'_, str> {
    if body.is_empty() {
        return Cow::Borrowed("<empty>");
    }
    let text = String::from_utf8_lossy(body);
    if text.len() <= 256 {
        return text;
    }
    let mut end = 256;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(text[..end].to_owned())
}

/// An SSE body as events, failing on an event larger than rmcp allows.
fn event_stream<S>(chunks: S) -> BoxStream<'static, Result<Sse, SseError>>
where
    S: Stream<Item = reqwest::Result<bytes::Bytes>> + Send + 'static,
{
    let mut limit = EventLimit::default();
    // The stream ends at the first error, as rmcp's does. Unlike rmcp's, the error is an I/O
    // error (rmcp's own type is private), so rmcp may try to resume the stream once.
    let bounded = chunks.scan(false, move |failed, chunk| {
        if *failed {
            return std::future::ready(None);
        }
        let checked = chunk
            .map_err(std::io::Error::other)
            .and_then(|chunk| limit.take(&chunk).map(|()| chunk));
        *failed = checked.is_err();
        std::future::ready(Some(checked))
    });
    SseStream::from_bytes_stream(bounded).boxed()
}

/// Counts the bytes of the event being read: an event ends at a blank line, lines ending in
/// `\n`, `\r\n` or `\r`.
#[derive(Default)]
struct EventLimit {
    in_event: usize,
    after_newline: bool,
    after_cr: bool,
}

impl EventLimit {
    fn take(&mut self, chunk: &[u8]) -> std::io::Result<()> {
        for &byte in chunk {
            let newline = match byte {
                // The `\n` of a `\r\n`: that line has ended already.
                b'\n' if self.after_cr => {
                    self.after_cr = false;
                    continue;
                }
                b'\n' => true,
                b'\r' => {
                    self.after_cr = true;
                    true
                }
                _ => {
                    self.after_cr = false;
                    false
                }
            };
            if newline {
                if self.after_newline {
                    self.in_event = 0;
                }
                self.after_newline = true;
                continue;
            }
            self.after_newline = false;
            self.in_event += 1;
            if self.in_event > MAX_SSE_EVENT {
                return Err(std::io::Error::other(format!(
                    "an SSE event longer than {MAX_SSE_EVENT} bytes"
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_scope_of_a_challenge() {
        let quoted = r#"Bearer error="insufficient_scope", scope="files:read files:write""#;
        assert_eq!(scope_of(quoted).as_deref(), Some("files:read files:write"));
        assert_eq!(
            scope_of("Bearer scope=read:data, x=1").as_deref(),
            Some("read:data")
        );
        assert_eq!(scope_of("Bearer realm=\"x\""), None);
    }

    #[test]
    fn an_event_ends_at_a_blank_line() {
        let mut limit = EventLimit::default();
        limit.take(b"data: 1\r\n\r\n").unwrap();
        assert_eq!(limit.in_event, 0);
        limit.take(b"data: 22\n").unwrap();
        assert_eq!(limit.in_event, 8);
        limit.take(b"\n").unwrap();
        assert_eq!(limit.in_event, 0);
        limit.take(b"data: 1\r\rdata: 22\r").unwrap();
        assert_eq!(
            limit.in_event, 8,
            "a bare \\r ends a line, two end the event"
        );
    }
}
