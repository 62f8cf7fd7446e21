//! The HTTP+SSE transport of protocol 2024-11-05, which many deployed servers still speak:
//! a GET opens an event stream whose first `endpoint` event names the URL to POST messages
//! to; the server's messages arrive as `message` events on the stream.
//!
//! rmcp dropped its client for it, but accepts any transport, so this is one.

use std::sync::Arc;

use futures::{StreamExt, stream::BoxStream};
use http::{HeaderMap, header};
use rmcp::{
    service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage},
    transport::Transport,
};
use sse_stream::{Sse, SseStream};

use super::{
    diagnostics::{Diagnostics, Fault},
    http::{HttpTarget, connect_failed},
    raw::HttpPost,
};
use crate::error::Error;

/// A failed POST of a message to the endpoint.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PostError {
    #[error("HTTP {status} from the message endpoint: {body}")]
    Status {
        status: u16,
        www_authenticate: Option<String>,
        /// The `Retry-After` header, if any.
        retry_after: Option<String>,
        body: String,
    },
    #[error("the message could not be sent: {0}")]
    Request(#[from] reqwest::Error),
}

pub(crate) struct SseTransport {
    http: reqwest::Client,
    endpoint: reqwest::Url,
    headers: HeaderMap,
    events: BoxStream<'static, Result<Sse, sse_stream::Error>>,
    diagnostics: Arc<Diagnostics>,
}

/// Opens the event stream and waits for the `endpoint` event.
pub(crate) async fn connect(
    target: &HttpTarget,
    diagnostics: &Arc<Diagnostics>,
) -> Result<SseTransport, Error> {
    let url = target.url.as_str();
    let connect_error =
        |status: Option<u16>, www_authenticate: Option<String>, reason: String| Error::Connect {
            target: url.to_owned(),
            status,
            www_authenticate,
            reason,
        };
    let stream_url = reqwest::Url::parse(url)
        .map_err(|e| Error::invalid("base URI", format!("`{url}` is not a URL: {e}")))?;
    let headers = target.credentials.header_map()?;
    // Pooled idle connections stall ~40 ms per POST (delayed ACK); a test harness wants
    // every call fast and independent.
    let http = target
        .tls
        .client_builder()?
        .pool_max_idle_per_host(0)
        .build()
        .map_err(|e| connect_error(None, None, e.to_string()))?;
    diagnostics.http.set(HttpPost {
        client: http.clone(),
        url: url.to_owned(),
        headers: headers
            .iter()
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect(),
        oauth: false,
        sse: true,
    });
    let response = http
        .get(stream_url.clone())
        .header(header::ACCEPT, "text/event-stream")
        .headers(headers.clone())
        .send()
        .await
        .map_err(|e| connect_failed(url, &e))?;
    let status = response.status();
    if !status.is_success() {
        let challenge = www_authenticate(response.headers());
        let body = response.text().await.unwrap_or_default();
        return Err(connect_error(
            Some(status.as_u16()),
            challenge,
            format!("the SSE stream was refused: {}", snippet(&body)),
        ));
    }
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    if !content_type.starts_with("text/event-stream") {
        return Err(connect_error(
            Some(status.as_u16()),
            None,
            format!(
                "expected an SSE stream (text/event-stream) but got `{content_type}`; \
                 is this a streamable HTTP endpoint? Then drop `.sse()` or the `/sse` path"
            ),
        ));
    }
    let mut events = SseStream::from_bytes_stream(response.bytes_stream()).boxed();
    let endpoint = loop {
        match events.next().await {
            Some(Ok(event)) if event.event.as_deref() == Some("endpoint") => {
                let data = event.data.unwrap_or_default();
                break stream_url.join(data.trim()).map_err(|e| {
                    connect_error(None, None, format!("bad endpoint event `{data}`: {e}"))
                })?;
            }
            Some(Ok(_)) => continue,
            Some(Err(error)) => {
                return Err(connect_error(
                    None,
                    None,
                    format!("bad SSE stream: {error}"),
                ));
            }
            None => {
                return Err(connect_error(
                    None,
                    None,
                    "the SSE stream ended before the `endpoint` event".into(),
                ));
            }
        }
    };
    Ok(SseTransport {
        http,
        endpoint,
        headers,
        events,
        diagnostics: diagnostics.clone(),
    })
}

impl Transport<RoleClient> for SseTransport {
    type Error = PostError;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let request = self
            .http
            .post(self.endpoint.clone())
            .headers(self.headers.clone())
            .json(&item);
        async move {
            let response = request.send().await?;
            let status = response.status();
            if status.is_success() {
                return Ok(());
            }
            let www_authenticate = www_authenticate(response.headers());
            let retry_after = response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|value| value.to_str().ok())
                .filter(|value| value.len() <= 128)
                .map(str::to_owned);
            let body = response.text().await.unwrap_or_default();
            Err(PostError::Status {
                status: status.as_u16(),
                www_authenticate,
                retry_after,
                body: snippet(&body),
            })
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            match self.events.next().await? {
                Ok(event) if matches!(event.event.as_deref(), None | Some("message")) => {
                    let Some(data) = event.data else { continue };
                    match crate::decode::server_message(data.as_bytes()) {
                        Ok(message) => {
                            self.diagnostics.wire.arrived(data.as_bytes());
                            return Some(message);
                        }
                        Err(error) => {
                            self.diagnostics.record_undecodable(data.as_bytes(), error);
                            return None;
                        }
                    }
                }
                Ok(_) => continue,
                Err(error) => {
                    self.diagnostics.record(Fault::Broken {
                        status: None,
                        reason: format!("the SSE stream broke: {error}"),
                    });
                    return None;
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.events = futures::stream::empty().boxed();
        Ok(())
    }
}

fn www_authenticate(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::WWW_AUTHENTICATE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

fn snippet(body: &str) -> String {
    let body = body.trim();
    if body.is_empty() {
        return "<empty body>".to_owned();
    }
    let cut: String = body.chars().take(300).collect();
    if cut.len() < body.len() {
        format!("{cut}…")
    } else {
        cut
    }
}
