//! Streamable HTTP, the current MCP HTTP transport: rmcp's client, configured for testing,
//! over a reqwest client that keeps the raw JSON of responses when a raw request wants it.

use std::{collections::HashMap, sync::Arc, time::Duration};

use futures::{StreamExt, stream::BoxStream};
use http::{HeaderName, HeaderValue};
use rmcp::{
    model::ClientJsonRpcMessage,
    transport::{
        StreamableHttpClientTransport,
        common::client_side_sse::ExponentialBackoff,
        streamable_http_client::{
            SseError, StreamableHttpClient, StreamableHttpClientTransportConfig,
            StreamableHttpError, StreamableHttpPostResponse,
        },
    },
};
use sse_stream::Sse;

use super::{
    diagnostics::Diagnostics,
    http::{Auth, HttpSettings},
};
use crate::Error;

/// How many same-origin redirects are followed.
const MAX_REDIRECTS: usize = 5;

pub(crate) fn transport(
    url: &str,
    settings: &HttpSettings,
    diagnostics: &Arc<Diagnostics>,
) -> Result<StreamableHttpClientTransport<Capturing>, Error> {
    let mut without_bearer = settings.clone();
    let mut config = StreamableHttpClientTransportConfig::with_uri(url);
    // rmcp sends a bearer token itself; everything else travels as a custom header.
    if let Some(Auth::Bearer(token)) = &settings.auth {
        config = config.auth_header(token.expose());
        without_bearer.auth = None;
    }
    // A harness reports an expired session instead of silently starting a new one.
    let mut config = config
        .custom_headers(without_bearer.header_map()?)
        .reinit_on_expired_session(false);
    config.retry_config = Arc::new(reconnect_policy());
    let client = Capturing {
        inner: http_client(),
        diagnostics: diagnostics.clone(),
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
fn http_client() -> reqwest::Client {
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
    reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .redirect(policy)
        .build()
        .unwrap_or_default()
}

/// rmcp's reqwest client, keeping each SSE event's data as received (responses sent as a
/// plain JSON body are parsed by rmcp first, so those are kept as rmcp re-encodes them).
#[derive(Clone)]
pub(crate) struct Capturing {
    inner: reqwest::Client,
    diagnostics: Arc<Diagnostics>,
}

type Events = BoxStream<'static, Result<Sse, SseError>>;

impl Capturing {
    fn tap(&self, response: StreamableHttpPostResponse) -> StreamableHttpPostResponse {
        match response {
            StreamableHttpPostResponse::Sse(events, session) => {
                StreamableHttpPostResponse::Sse(self.tap_events(events), session)
            }
            StreamableHttpPostResponse::Json(message, session) => {
                if self.diagnostics.raw.wanted()
                    && let Ok(json) = serde_json::to_value(&message)
                {
                    self.diagnostics.raw.record(json);
                }
                StreamableHttpPostResponse::Json(message, session)
            }
            other => other,
        }
    }

    fn tap_events(&self, events: Events) -> Events {
        let diagnostics = self.diagnostics.clone();
        events
            .inspect(move |event| {
                if let Ok(Sse {
                    data: Some(data), ..
                }) = event
                {
                    diagnostics.raw.record_bytes(data.as_bytes());
                }
            })
            .boxed()
    }
}

impl StreamableHttpClient for Capturing {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let response = self
            .inner
            .post_message(uri, message, session_id, auth_header, custom_headers)
            .await?;
        Ok(self.tap(response))
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let response = self
            .inner
            .post_message_with_max_sse_event_size(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await?;
        Ok(self.tap(response))
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
        Ok(self.tap_events(events))
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<Events, StreamableHttpError<Self::Error>> {
        let events = self
            .inner
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await?;
        Ok(self.tap_events(events))
    }
}
