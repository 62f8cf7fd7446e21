//! The double's HTTP+SSE face (protocol 2024-11-05's transport, which rmcp no longer
//! ships), beside streamable HTTP on the same port: `GET /sse` opens a session whose first
//! event, `endpoint`, names `/message?sessionId=<id>`; each message POSTed there is answered
//! `202 Accepted` and the double's answers come back as `message` events.

use std::{
    collections::HashMap,
    convert::Infallible,
    sync::{Arc, Mutex},
};

use bytes::Bytes;
use futures::{StreamExt as _, channel::mpsc, stream};
use http::{Request, Response, StatusCode, request::Parts};
use http_body_util::{BodyExt, StreamBody, combinators::BoxBody};
use hyper::body::{Frame, Incoming};
use rmcp::{
    ServiceExt as _,
    model::{ClientJsonRpcMessage, GetExtensions as _, JsonRpcMessage},
};

use super::{handler::DoubleHandler, state::State};

/// Messages buffered per direction before the sender waits.
const CHANNEL_CAPACITY: usize = 32;

pub(crate) type Body = BoxBody<Bytes, Infallible>;

/// Where each open SSE session takes the client's messages.
#[derive(Debug, Clone, Default)]
pub(crate) struct SseSessions {
    sessions: Arc<Mutex<HashMap<String, mpsc::Sender<ClientJsonRpcMessage>>>>,
}

impl SseSessions {
    /// Whether `request` is one of this face's: `GET /sse` or `POST /message`.
    pub(crate) fn serves(request: &Request<Incoming>) -> bool {
        matches!(
            (request.method().as_str(), request.uri().path()),
            ("GET", "/sse") | ("POST", "/message")
        )
    }

    pub(crate) async fn handle(
        &self,
        request: Request<Incoming>,
        state: &Arc<State>,
    ) -> Response<Body> {
        if request.method() == "GET" {
            self.open(state)
        } else {
            self.receive(request).await
        }
    }

    /// A new session: the MCP service on a pair of channels, its output as events.
    fn open(&self, state: &Arc<State>) -> Response<Body> {
        let id = session_id();
        let (to_server, from_client) = mpsc::channel(CHANNEL_CAPACITY);
        let (to_client, from_server) = mpsc::channel(CHANNEL_CAPACITY);
        self.lock().insert(id.clone(), to_server);
        let handler = DoubleHandler {
            state: Arc::clone(state),
        };
        // Ends with the double, or when the client drops its event stream.
        let stopped = state.switch.stopped.child_token();
        let ending = Ending {
            session: stopped.clone(),
            sessions: self.clone(),
            id: id.clone(),
        };
        let sessions = self.clone();
        let forget = id.clone();
        tokio::spawn(async move {
            // rmcp takes any (Sink, Stream) pair of JSON-RPC messages as a transport.
            match handler
                .serve_with_ct((to_client, from_client), stopped)
                .await
            {
                Ok(running) => {
                    let _ = running.waiting().await;
                }
                Err(error) => tracing::debug!(%error, "an SSE session of the double ended early"),
            }
            sessions.lock().remove(&forget);
        });
        let endpoint = event("endpoint", &format!("/message?sessionId={id}"));
        let messages = from_server.map(|message: rmcp::model::ServerJsonRpcMessage| {
            let json = serde_json::to_string(&message).unwrap_or_default();
            event("message", &json)
        });
        let frames = stream::once(async move { endpoint })
            .chain(messages)
            .map(move |bytes| {
                // The stream owns the session's end: dropped, it closes the session.
                let _ending = &ending;
                Ok::<_, Infallible>(Frame::data(bytes))
            });
        Response::builder()
            .header(http::header::CONTENT_TYPE, "text/event-stream")
            .header(http::header::CACHE_CONTROL, "no-cache")
            .body(BodyExt::boxed(StreamBody::new(frames)))
            .expect("a valid response")
    }

    /// A client's message, handed to its session with the request's headers (for the
    /// matchers of headers and credentials).
    async fn receive(&self, request: Request<Incoming>) -> Response<Body> {
        let (parts, body) = request.into_parts();
        let Some(id) = session_of(&parts) else {
            return status(StatusCode::BAD_REQUEST, "no sessionId in the query");
        };
        let Some(mut to_server) = self.lock().get(&id).cloned() else {
            return status(StatusCode::NOT_FOUND, "unknown session");
        };
        let body = match body.collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(error) => return status(StatusCode::BAD_REQUEST, &error.to_string()),
        };
        let mut message: ClientJsonRpcMessage = match crate::decode::client_message(&body) {
            Ok(message) => message,
            Err(error) => {
                return status(
                    StatusCode::BAD_REQUEST,
                    &format!("invalid JSON-RPC message: {error}"),
                );
            }
        };
        if let JsonRpcMessage::Request(request) = &mut message {
            request.request.extensions_mut().insert(parts);
        }
        if futures::SinkExt::send(&mut to_server, message)
            .await
            .is_err()
        {
            return status(StatusCode::NOT_FOUND, "session closed");
        }
        status(StatusCode::ACCEPTED, "")
    }

    fn lock(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<String, mpsc::Sender<ClientJsonRpcMessage>>> {
        // A map of senders stays consistent even if a holder panicked.
        self.sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Dropped with a session's event stream (the client went away): the session is
/// forgotten and its MCP service ended.
#[derive(Debug)]
struct Ending {
    session: tokio_util::sync::CancellationToken,
    sessions: SseSessions,
    id: String,
}

impl Drop for Ending {
    fn drop(&mut self) {
        self.session.cancel();
        self.sessions.lock().remove(&self.id);
    }
}

fn session_of(parts: &Parts) -> Option<String> {
    parts.uri.query()?.split('&').find_map(|pair| {
        pair.strip_prefix("sessionId=").map(|id| {
            percent_encoding::percent_decode_str(id)
                .decode_utf8_lossy()
                .into_owned()
        })
    })
}

fn session_id() -> String {
    rmcp::transport::common::server_side_http::session_id().to_string()
}

fn event(name: &str, data: &str) -> Bytes {
    let mut text = format!("event: {name}\n");
    for line in data.lines() {
        text.push_str("data: ");
        text.push_str(line);
        text.push('\n');
    }
    text.push('\n');
    Bytes::from(text)
}

fn status(code: StatusCode, text: &str) -> Response<Body> {
    Response::builder()
        .status(code)
        .body(
            http_body_util::Full::new(Bytes::from(text.to_owned()))
                .map_err(|never| match never {})
                .boxed(),
        )
        .expect("a valid response")
}
