//! Streamable HTTP, the current MCP HTTP transport: rmcp's client, configured for testing,
//! over an HTTP backend that keeps every message as the server sent it.

use std::{collections::HashMap, sync::Arc, time::Duration};

use futures::{StreamExt, stream::BoxStream};
use http::{HeaderName, HeaderValue};
use rmcp::{
    model::{ClientJsonRpcMessage, JsonRpcMessage, RequestId, ServerJsonRpcMessage},
    transport::{
        StreamableHttpClientTransport,
        common::client_side_sse::ExponentialBackoff,
        streamable_http_client::{
            SseError, StreamableHttpClient, StreamableHttpClientTransportConfig,
            StreamableHttpError, StreamableHttpPostResponse,
        },
    },
};
use serde::{Deserialize, de::IgnoredAny};
use serde_json::Value;
use sse_stream::Sse;

#[cfg(feature = "oauth")]
use super::oauth::{Answered, Challenge, OAuthSession};
use super::{
    diagnostics::Diagnostics,
    http::{HttpTarget, describe_request_error},
    post::{Post, UNPARSABLE_BODY},
    raw::{HttpPost, RawChannel},
    standalone_stream::StandaloneStream,
};
use crate::{error::Error, tls::Tls};
#[cfg(feature = "oauth")]
use rmcp::transport::auth::AuthClient;

/// How many same-origin redirects are followed.
const MAX_REDIRECTS: usize = 5;

pub(crate) async fn transport(
    target: &HttpTarget,
    startup_timeout: Duration,
    diagnostics: &Arc<Diagnostics>,
) -> Result<StreamableHttpClientTransport<HttpClient>, Error> {
    #[cfg(not(feature = "oauth"))]
    if target.credentials.oauth_settings().is_some() {
        return Err(Error::invalid(
            "OAuth",
            "`.oauth(..)` was given, but OAuth needs mcp-assured's `oauth` feature: \
             `mcp-assured = { version = \"0.1\", features = [\"oauth\"] }` in Cargo.toml",
        ));
    }
    #[cfg(not(feature = "oauth"))]
    let _ = startup_timeout;
    let headers: HashMap<HeaderName, HeaderValue> = target
        .credentials
        .header_map()?
        .iter()
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    // A harness reports an expired session instead of silently starting a new one.
    let mut config = StreamableHttpClientTransportConfig::with_uri(target.url.as_str())
        .custom_headers(headers.clone())
        .reinit_on_expired_session(false);
    config.retry_config = Arc::new(reconnect_policy());
    let capturing = Capturing {
        inner: http_client(&target.tls)?,
        diagnostics: diagnostics.clone(),
    };
    let access = HttpPost {
        client: capturing.inner.clone(),
        url: target.url.clone(),
        headers: headers.clone(),
        oauth: target.credentials.oauth_settings().is_some(),
        sse: false,
    };
    diagnostics.http.set(access.clone());
    diagnostics.raw.set(RawChannel::Http(access));
    #[cfg(feature = "oauth")]
    let oauth = match target.credentials.oauth_settings() {
        Some(settings) => Some(
            OAuthSession::start(
                settings,
                &target.url,
                &target.tls,
                startup_timeout,
                capturing.clone(),
                diagnostics,
            )
            .await?,
        ),
        None => None,
    };
    let client = HttpClient {
        plain: capturing,
        standalone: Arc::default(),
        #[cfg(feature = "oauth")]
        oauth: oauth.map(|(session, client)| Arc::new(Authorizing { session, client })),
    };
    Ok(StreamableHttpClientTransport::with_client(client, config))
}

/// When an SSE stream breaks, reconnect once, at once, and give up if that fails too, so a
/// request whose server died fails in milliseconds instead of waiting out the timeout while
/// rmcp's default backoff (unbounded, doubling from 1 s) keeps knocking. A stream the server
/// closes gracefully is still resumed as SEP-1699 asks (after the server's `retry`, else
/// 100 ms), and the count starts over after every successful reconnect.
fn reconnect_policy() -> ExponentialBackoff {
    let mut policy = ExponentialBackoff::default();
    policy.max_times = Some(1);
    policy.base_duration = Duration::from_millis(100);
    policy.max_delay = Some(Duration::from_secs(1));
    policy
}

/// No idle connection pooling (a pooled connection whose last body was not read to the end
/// stalls ~40 ms on Linux's delayed ACK), and only same-origin 307/308 redirects followed:
/// a 301/302 would turn the POST into a GET, and another origin would get the session and
/// the credentials.
fn http_client(tls: &Tls) -> Result<reqwest::Client, Error> {
    let policy = reqwest::redirect::Policy::custom(|attempt| {
        let keeps_body = matches!(
            attempt.status(),
            reqwest::StatusCode::TEMPORARY_REDIRECT | reqwest::StatusCode::PERMANENT_REDIRECT
        );
        let same_origin = attempt
            .previous()
            .first()
            .is_some_and(|first| first.origin() == attempt.url().origin());
        if !keeps_body || !same_origin {
            attempt.stop()
        } else if attempt.previous().len() > MAX_REDIRECTS {
            attempt.error(format!("more than {MAX_REDIRECTS} redirects"))
        } else {
            attempt.follow()
        }
    });
    tls.client_builder()?
        .pool_max_idle_per_host(0)
        .redirect(policy)
        .build()
        .map_err(|error| Error::invalid("HTTP client", describe_request_error(&error)))
}

/// The HTTP backend: POSTs sent by [`Post`], which keeps a plain JSON answer as it came;
/// GETs and DELETEs by rmcp's reqwest client; every SSE event's data kept as received; and
/// a response that comes on a request's own stream under another id noted.
#[derive(Clone)]
pub(crate) struct Capturing {
    inner: reqwest::Client,
    diagnostics: Arc<Diagnostics>,
}

type Events = BoxStream<'static, Result<Sse, SseError>>;

/// What tells a response from other messages, and whom it answers.
#[derive(Deserialize)]
struct Head {
    id: Option<Value>,
    method: Option<IgnoredAny>,
}

impl Capturing {
    /// `request`: the id of the request posted, whose answer the response's stream is for.
    fn tap(
        &self,
        response: StreamableHttpPostResponse,
        request: Option<RequestId>,
    ) -> StreamableHttpPostResponse {
        match response {
            StreamableHttpPostResponse::Sse(events, session) => {
                StreamableHttpPostResponse::Sse(self.tap_events(events, request), session)
            }
            other => other,
        }
    }

    fn tap_events(&self, events: Events, request: Option<RequestId>) -> Events {
        let diagnostics = self.diagnostics.clone();
        events
            .inspect(move |event| {
                let Ok(Sse {
                    data: Some(data), ..
                }) = event
                else {
                    return;
                };
                // Only what rmcp will decode too: an event it skips must not wait to be paired
                // with the next message of its kind.
                let decoded = crate::decode::server_message(data.as_bytes());
                if let Ok(message) = &decoded {
                    diagnostics.wire.arrived_decoded(data.as_bytes(), message);
                }
                // rmcp ends a request's stream at its first response, whatever the id: one
                // under another id takes the place of the answer, which is then lost.
                if let Some(request) = &request
                    && let Some(answered) = answered_instead(request, decoded.ok().as_ref(), data)
                {
                    diagnostics.record_misdirected(request.clone(), answered);
                }
            })
            .boxed()
    }
}

impl StreamableHttpClient for Capturing {
    type Error = reqwest::Error;

    // The `_with_max_sse_event_size` methods rmcp calls keep their defaults, which come
    // here: the transport is configured with rmcp's default limit, which is also what the
    // inner client's methods below apply.
    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let response = Post {
            client: &self.inner,
            uri: &uri,
            session_id,
            bearer: auth_header,
            custom_headers,
            wire: &self.diagnostics.wire,
        }
        .send(&message)
        .await?;
        Ok(self.tap(response, request_id(&message)))
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.inner
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<Events, StreamableHttpError<Self::Error>> {
        let events = self
            .inner
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await?;
        Ok(self.tap_events(events, None))
    }
}

/// The HTTP client of the transport: [`Capturing`] as it is, or with OAuth: rmcp's
/// [`AuthClient`] sending the token, and a 401 or `403 insufficient_scope` answered by
/// authorizing and sending the request again.
#[derive(Clone)]
pub(crate) struct HttpClient {
    plain: Capturing,
    /// Shared by the clones rmcp makes for its tasks.
    standalone: Arc<StandaloneStream>,
    #[cfg(feature = "oauth")]
    oauth: Option<Arc<Authorizing>>,
}

#[cfg(feature = "oauth")]
pub(crate) struct Authorizing {
    session: Arc<OAuthSession>,
    client: AuthClient<Capturing>,
}

#[cfg(feature = "oauth")]
impl Authorizing {
    /// Runs `send` until it is not refused for want of authorization, authorizing in
    /// between, at most the session's limit of times.
    async fn send<T, F, Fut>(&self, send: F) -> Result<T, StreamableHttpError<reqwest::Error>>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, StreamableHttpError<reqwest::Error>>>,
    {
        let limit = self.session.max_authorizations();
        let mut authorizations = 0;
        loop {
            let generation = self.session.generation();
            let result = send().await;
            let challenge = match &result {
                Err(StreamableHttpError::AuthRequired(refused)) => Challenge::Unauthorized {
                    www_authenticate: refused.www_authenticate_header.clone(),
                },
                Err(StreamableHttpError::InsufficientScope(refused)) => {
                    Challenge::InsufficientScope {
                        www_authenticate: refused.www_authenticate_header.clone(),
                        scope: refused.required_scope.clone(),
                    }
                }
                Err(StreamableHttpError::Auth(error)) => {
                    return Err(StreamableHttpError::Auth(self.session.fail_rmcp(error)));
                }
                _ => return result,
            };
            if authorizations == limit {
                let error = self.session.give_up(&challenge, authorizations);
                return Err(StreamableHttpError::Auth(error));
            }
            match self.session.answer(&challenge, generation).await {
                Ok(Answered::Authorized) => authorizations += 1,
                Ok(Answered::ByAnother) => {}
                Err(error) => return Err(StreamableHttpError::Auth(error)),
            }
        }
    }
}

impl StreamableHttpClient for HttpClient {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.standalone
            .before_sending(&message, session_id.as_deref())
            .await;
        #[cfg(feature = "oauth")]
        if let Some(oauth) = &self.oauth {
            return oauth
                .send(|| {
                    oauth.client.post_message(
                        uri.clone(),
                        message.clone(),
                        session_id.clone(),
                        None,
                        custom_headers.clone(),
                    )
                })
                .await;
        }
        self.plain
            .post_message(uri, message, session_id, auth_header, custom_headers)
            .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        #[cfg(feature = "oauth")]
        if let Some(oauth) = &self.oauth {
            return oauth
                .client
                .delete_session(uri, session_id, None, custom_headers)
                .await;
        }
        self.plain
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<Events, StreamableHttpError<Self::Error>> {
        let opening = last_event_id.is_none();
        let events = async {
            #[cfg(feature = "oauth")]
            if let Some(oauth) = &self.oauth {
                return oauth
                    .send(|| {
                        oauth.client.get_stream(
                            uri.clone(),
                            session_id.clone(),
                            last_event_id.clone(),
                            None,
                            custom_headers.clone(),
                        )
                    })
                    .await;
            }
            self.plain
                .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
                .await
        }
        .await;
        if opening {
            self.standalone.answered();
        }
        events
    }
}

/// The body and why it is not JSON-RPC, out of rmcp's message about a response body it could
/// not parse; `None` if the message is not of that shape.
pub(crate) fn unparsable_body(message: &str) -> Option<(String, String)> {
    let rest = message.strip_prefix(UNPARSABLE_BODY)?;
    // serde's error ends with its position, `at line L column C`; the body follows.
    rest.match_indices(" at line ").find_map(|(at, marker)| {
        let after = &rest[at + marker.len()..];
        let (line, after) = after.split_once(" column ")?;
        let (column, body) = after.split_once(": ")?;
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        (digits(line) && digits(column)).then(|| {
            let reason = &rest[..rest.len() - body.len() - 2];
            (body.to_owned(), reason.to_owned())
        })
    })
}

/// The id of a response on `request`'s stream that answers another request: from the message
/// as rmcp decodes it, or, for one rmcp cannot decode, from its `id` and `method` alone.
fn answered_instead(
    request: &RequestId,
    decoded: Option<&ServerJsonRpcMessage>,
    data: &str,
) -> Option<Value> {
    let answered = match decoded {
        Some(JsonRpcMessage::Response(response)) => Some(&response.id),
        Some(JsonRpcMessage::Error(error)) => error.id.as_ref(),
        Some(_) => None,
        None => {
            let Ok(Head {
                id: Some(id),
                method: None,
            }) = serde_json::from_str(data)
            else {
                return None;
            };
            return (serde_json::to_value(request).ok().as_ref() != Some(&id)).then_some(id);
        }
    }?;
    (answered != request).then(|| serde_json::to_value(answered).unwrap_or(Value::Null))
}

fn request_id(message: &ClientJsonRpcMessage) -> Option<RequestId> {
    match message {
        JsonRpcMessage::Request(request) => Some(request.id.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_response_under_another_id_is_told_apart() {
        let request = RequestId::Number(7);
        let decode = |data: &str| serde_json::from_str::<ServerJsonRpcMessage>(data).ok();
        let own = r#"{"jsonrpc":"2.0","id":7,"result":{}}"#;
        assert_eq!(answered_instead(&request, decode(own).as_ref(), own), None);
        let other = r#"{"jsonrpc":"2.0","id":8,"result":{}}"#;
        assert_eq!(
            answered_instead(&request, decode(other).as_ref(), other),
            Some(serde_json::json!(8))
        );
        let as_text = r#"{"jsonrpc":"2.0","id":"7","error":{"code":-1,"message":"x"}}"#;
        assert_eq!(
            answered_instead(&request, decode(as_text).as_ref(), as_text),
            Some(serde_json::json!("7"))
        );
        let unread = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#;
        assert_eq!(
            answered_instead(&request, decode(unread).as_ref(), unread),
            None
        );
        let notification = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#;
        assert_eq!(
            answered_instead(&request, decode(notification).as_ref(), notification),
            None
        );
        // rmcp cannot decode it (no `result` nor `error`), and it still answers request 9.
        let undecodable = r#"{"jsonrpc":"2.0","id":9}"#;
        assert!(decode(undecodable).is_none());
        assert_eq!(
            answered_instead(&request, None, undecodable),
            Some(serde_json::json!(9))
        );
    }

    #[test]
    fn finds_the_body_in_rmcps_message() {
        let html = "<html><body><h1>Welcome: nginx!</h1></body></html>";
        let error = serde_json::from_str::<Value>(html).unwrap_err();
        let message = format!("{UNPARSABLE_BODY}{error}: {html}");
        assert_eq!(
            unparsable_body(&message),
            Some((
                html.to_owned(),
                "expected value at line 1 column 1".to_owned()
            ))
        );
        let reason = "invalid type: string \"x at line 9\", expected a map at line 1 column 3";
        assert_eq!(
            unparsable_body(&format!("{UNPARSABLE_BODY}{reason}: \"x at line 9\"")),
            Some(("\"x at line 9\"".to_owned(), reason.to_owned()))
        );
        assert_eq!(unparsable_body("HTTP 500 Internal Server Error: x"), None);
        assert_eq!(
            unparsable_body(&format!("{UNPARSABLE_BODY}no position: x")),
            None
        );
    }
}

#[cfg(all(test, not(feature = "oauth")))]
mod without_the_feature {
    use std::time::Duration;

    use super::{Diagnostics, HttpTarget, transport};
    use crate::{
        credentials::{Credentials, OAuth},
        tls::Tls,
    };

    #[tokio::test]
    async fn oauth_names_the_feature() {
        let target = HttpTarget {
            url: "http://127.0.0.1:9/mcp".to_owned(),
            credentials: Credentials::new().oauth(OAuth::new().client_id("test-client")),
            tls: Tls::new(),
        };
        let Err(error) = transport(&target, Duration::from_secs(5), &Diagnostics::new()).await
        else {
            panic!("OAuth without the `oauth` feature was accepted");
        };
        let error = error.to_string();
        assert!(error.contains("`oauth` feature"), "{error}");
        assert!(error.contains(r#"features = ["oauth"]"#), "{error}");
    }
}
