//! HTTP requests written by hand for the checks of the transport and of authorization: any
//! method, any header (a foreign `Host`, a bogus `Mcp-Session-Id`), read as far as the
//! check needs and no further, since an event stream may stay open.

use std::time::Duration;

use futures::StreamExt as _;
use http::{HeaderMap, Method};
use serde_json::Value;

use crate::transport::{
    describe_request_error,
    raw::{HttpPost, answer_in_body},
};

/// The most of a body a check reads.
const MAX_BODY: usize = 1024 * 1024;

/// How long a body that holds no answer is read before the check moves on: a notification's
/// `202` ends at once; a server answering it with an event stream may not end at all.
const READ_AT_MOST: Duration = Duration::from_secs(2);

/// How far to read a response.
#[derive(Debug, Clone)]
pub(super) enum Read {
    /// The status and headers only (an event stream that stays open).
    Headers,
    /// Until the answer to the request with this id is in, or the body ends.
    Answer(Value),
    /// To the end, for at most [`READ_AT_MOST`].
    Body,
    /// Until an event of this name is in, for at most the timeout.
    Event(&'static str),
}

/// Whether `body` holds a whole event named `name`.
fn has_event(body: &str, name: &str) -> bool {
    let body = body.replace("\r\n", "\n");
    let events: Vec<&str> = body.split("\n\n").collect();
    // What follows the last blank line is not whole yet.
    events[..events.len() - 1].iter().any(|event| {
        event.lines().any(|line| {
            line.strip_prefix("event:")
                .is_some_and(|event| event.trim() == name)
        })
    })
}

/// One HTTP exchange: the status, the headers and as much of the body as was read.
#[derive(Debug, Clone)]
pub(super) struct Exchange {
    pub(super) status: u16,
    pub(super) headers: HeaderMap,
    pub(super) body: String,
}

impl Exchange {
    pub(super) fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }

    /// The media type, without parameters, lower case (`""` when there is none).
    pub(super) fn media_type(&self) -> String {
        self.header("content-type")
            .unwrap_or("")
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    }

    pub(super) fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    pub(super) fn is_client_error(&self) -> bool {
        (400..500).contains(&self.status)
    }

    /// The JSON-RPC answer to `id` in the body, plain or in an event.
    pub(super) fn answer(&self, id: &Value) -> Option<Value> {
        answer_in_body(&self.body, id).filter(|answer| answer.get("id") == Some(id))
    }

    /// The body as JSON, if it is.
    pub(super) fn json(&self) -> Option<Value> {
        serde_json::from_str(&self.body).ok()
    }

    /// The `id:` and `retry:` fields of the body's events, in order.
    pub(super) fn event_fields(&self) -> (Vec<String>, Vec<String>) {
        let (mut ids, mut retries) = (Vec::new(), Vec::new());
        for line in self.body.lines() {
            let field = |name: &str| {
                let rest = line.strip_prefix(name)?;
                Some(rest.strip_prefix(' ').unwrap_or(rest).to_owned())
            };
            if let Some(id) = field("id:") {
                ids.push(id);
            } else if let Some(retry) = field("retry:") {
                retries.push(retry);
            }
        }
        (ids, retries)
    }

    /// `HTTP 200 (text/event-stream): <the start of the body>`, for messages.
    pub(super) fn describe(&self) -> String {
        let media = self.media_type();
        let mut text = format!("HTTP {}", self.status);
        if !media.is_empty() {
            text.push_str(&format!(" ({media})"));
        }
        let body = self.body.trim();
        if !body.is_empty() {
            let mut cut: String = body.chars().take(200).collect();
            if cut.len() < body.len() {
                cut.push('…');
            }
            text.push_str(&format!(": {}", cut.replace('\n', " ")));
        }
        text
    }
}

/// Sends requests to the server the connection reaches, with the connection's headers
/// (credentials, custom headers) unless a request changes them.
#[derive(Clone)]
pub(super) struct Probe {
    access: HttpPost,
    timeout: Duration,
}

impl Probe {
    pub(super) fn new(access: &HttpPost, timeout: Duration) -> Probe {
        Probe {
            access: access.clone(),
            timeout,
        }
    }

    /// The URL the connection was given (an HTTP+SSE server's event stream).
    pub(super) fn url(&self) -> &str {
        &self.access.url
    }

    /// Whether the server speaks the older HTTP+SSE transport.
    pub(super) fn is_sse(&self) -> bool {
        self.access.sse
    }

    /// Whether the connection authorizes with OAuth, whose token rmcp holds.
    pub(super) fn is_oauth(&self) -> bool {
        self.access.oauth
    }

    /// `POST` of `message` to the server's URL, accepting JSON and events; `changes` set
    /// (`Some`) or remove (`None`) headers.
    pub(super) async fn post(
        &self,
        message: &Value,
        changes: &[(&str, Option<&str>)],
    ) -> Result<Exchange, String> {
        let read = match message.get("id") {
            Some(id) if message.get("method").is_some() => Read::Answer(id.clone()),
            _ => Read::Body,
        };
        self.send(Method::POST, &self.access.url, changes, Some(message), read)
            .await
    }

    /// Any request to `url`. `Accept` is `application/json, text/event-stream` unless
    /// `changes` says otherwise.
    pub(super) async fn send(
        &self,
        method: Method,
        url: &str,
        changes: &[(&str, Option<&str>)],
        body: Option<&Value>,
        read: Read,
    ) -> Result<Exchange, String> {
        let headers = self.access.headers_with(changes);
        let mut request = self.access.client.request(method.clone(), url);
        if let Some(body) = body {
            request = request.json(body);
        }
        for (name, value) in headers {
            request = request.header(name, value);
        }
        let what = format!("{method} {url}");
        let response = tokio::time::timeout(self.timeout, request.send())
            .await
            .map_err(|_| format!("{what}: no answer within {:?}", self.timeout))?
            .map_err(|error| format!("{what}: {}", describe_request_error(&error)))?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let mut exchange = Exchange {
            status,
            headers,
            body: String::new(),
        };
        let limit = match &read {
            Read::Headers => return Ok(exchange),
            Read::Answer(_) | Read::Event(_) => self.timeout,
            Read::Body => READ_AT_MOST.min(self.timeout),
        };
        let mut chunks = response.bytes_stream();
        let mut bytes = Vec::new();
        let reading = async {
            while let Some(Ok(chunk)) = chunks.next().await {
                bytes.extend_from_slice(&chunk);
                if bytes.len() > MAX_BODY {
                    break;
                }
                let text = String::from_utf8_lossy(&bytes);
                let done = match &read {
                    Read::Answer(id) => answer_in_body(&text, id).is_some(),
                    Read::Event(name) => has_event(&text, name),
                    Read::Headers | Read::Body => false,
                };
                if done {
                    break;
                }
            }
        };
        // A body that does not end in time is judged on what came.
        let _ = tokio::time::timeout(limit, reading).await;
        exchange.body = String::from_utf8_lossy(&bytes).into_owned();
        Ok(exchange)
    }

    /// A `GET` of a metadata document: no credentials, JSON accepted.
    pub(super) async fn get_document(&self, url: &str) -> Result<Exchange, String> {
        let what = format!("GET {url}");
        let request = self
            .access
            .client
            .get(url)
            .header("accept", "application/json");
        let response = tokio::time::timeout(self.timeout, request.send())
            .await
            .map_err(|_| format!("{what}: no answer within {:?}", self.timeout))?
            .map_err(|error| format!("{what}: {}", describe_request_error(&error)))?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = tokio::time::timeout(self.timeout, response.text())
            .await
            .map_err(|_| format!("{what}: the body did not end within {:?}", self.timeout))?
            .map_err(|error| format!("{what}: {}", describe_request_error(&error)))?;
        Ok(Exchange {
            status,
            headers,
            body,
        })
    }
}

/// Whether `url`'s host is a loopback address or `localhost`.
pub(super) fn is_loopback(url: &reqwest::Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exchange(body: &str) -> Exchange {
        Exchange {
            status: 200,
            headers: HeaderMap::new(),
            body: body.to_owned(),
        }
    }

    #[test]
    fn reads_event_ids_and_retries() {
        let body = "id: 7\nretry: 3000\ndata: {}\n\nid:8\ndata: {}\n\n";
        assert_eq!(
            exchange(body).event_fields(),
            (
                vec!["7".to_owned(), "8".to_owned()],
                vec!["3000".to_owned()]
            )
        );
    }

    #[test]
    fn describes_status_type_and_body() {
        let mut answer = exchange("{\"a\":\n1}");
        answer.headers.insert(
            "content-type",
            "application/json; charset=utf-8".parse().unwrap(),
        );
        assert_eq!(answer.describe(), "HTTP 200 (application/json): {\"a\": 1}");
    }

    #[test]
    fn sees_whole_events_only() {
        assert!(has_event("event: endpoint\ndata: /m?s=1\n\n", "endpoint"));
        assert!(has_event(
            ": hi\r\n\r\nevent:endpoint\r\ndata: /m\r\n\r\n",
            "endpoint"
        ));
        assert!(!has_event("event: endpoint\ndata: /m?s=1", "endpoint"));
        assert!(!has_event("event: message\ndata: {}\n\n", "endpoint"));
    }

    #[test]
    fn knows_loopback_hosts() {
        for url in [
            "http://localhost:1/mcp",
            "http://127.0.0.1/",
            "http://[::1]:8/",
        ] {
            assert!(is_loopback(&url.parse().unwrap()), "{url}");
        }
        assert!(!is_loopback(&"https://example.com/mcp".parse().unwrap()));
    }
}
