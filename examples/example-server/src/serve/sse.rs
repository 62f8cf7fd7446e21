//! The HTTP+SSE transport of protocol 2024-11-05, which rmcp no longer ships.
//!
//! `GET /sse` opens a session: an SSE stream whose first event, `endpoint`, names the URL for
//! the client's messages (`/message?sessionId=<id>`). Each message POSTed there is answered
//! `202 Accepted`; the server's replies, requests and notifications come back as `message`
//! events on the stream.

use std::{
    collections::HashMap,
    io,
    pin::Pin,
    sync::{Arc, Mutex, MutexGuard, PoisonError},
    task::{Context, Poll},
};

use axum::{
    Router,
    body::Bytes,
    extract::{Query, State},
    http::StatusCode,
    response::{
        IntoResponse, Response,
        sse::{Event, KeepAlive, Sse},
    },
    routing::{get, post},
};
use futures::{
    SinkExt, Stream, StreamExt,
    channel::mpsc,
    stream::{self, BoxStream},
};
use rmcp::{
    RoleServer, Service, ServiceExt,
    model::ClientJsonRpcMessage,
    service::DynService,
    transport::common::server_side_http::{SessionId, session_id},
};
use serde::Deserialize;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::{HttpOptions, auth, dns_rebinding};
use crate::ExampleServer;

/// Messages buffered per direction before the sender waits.
const CHANNEL_CAPACITY: usize = 32;

/// Where each open session takes the client's messages.
type Sessions = Arc<Mutex<HashMap<SessionId, mpsc::Sender<ClientJsonRpcMessage>>>>;

/// Makes the server of each new session.
type NewSession = Arc<dyn Fn() -> Box<dyn DynService<RoleServer>> + Send + Sync>;

#[derive(Clone)]
struct AppState {
    new_session: NewSession,
    sessions: Sessions,
    shutdown: CancellationToken,
}

/// Serves the example server over HTTP+SSE (`GET /sse`, `POST /message`) on `listener`.
///
/// # Errors
///
/// If accepting connections fails.
pub async fn serve_sse(listener: TcpListener, options: HttpOptions) -> io::Result<()> {
    let server: ExampleServer = options.server();
    serve_sse_with(listener, options, move || server.for_new_session()).await
}

/// Serves any rmcp server over HTTP+SSE like [`serve_sse`], `new_session` making the server
/// of each session (`options.page_size` is the example server's and is ignored here).
///
/// # Errors
///
/// If accepting connections fails.
pub async fn serve_sse_with<S>(
    listener: TcpListener,
    options: HttpOptions,
    new_session: impl Fn() -> S + Send + Sync + 'static,
) -> io::Result<()>
where
    S: Service<RoleServer>,
{
    serve_sse_wrapped(listener, options, new_session, |app| app).await
}

/// [`serve_sse_with`], with `wrap` around the app (inside the auth layer): middleware that
/// sees `GET /sse` and `POST /message`, such as the fault suite's fault injection.
///
/// # Errors
///
/// If accepting connections fails.
pub async fn serve_sse_wrapped<S>(
    listener: TcpListener,
    options: HttpOptions,
    new_session: impl Fn() -> S + Send + Sync + 'static,
    wrap: impl FnOnce(Router) -> Router,
) -> io::Result<()>
where
    S: Service<RoleServer>,
{
    let shutdown = CancellationToken::new();
    // Dropping this future (an aborted test task) ends the sessions too.
    let _end_sessions = shutdown.clone().drop_guard();
    let state = AppState {
        new_session: Arc::new(move || new_session().into_dyn()),
        sessions: Sessions::default(),
        shutdown,
    };
    let app = Router::new()
        .route("/sse", get(open_session))
        .route("/message", post(receive_message))
        .with_state(state)
        .layer(axum::middleware::from_fn(dns_rebinding::loopback_only));
    axum::serve(listener, auth::protect(wrap(app), &options)).await
}

async fn open_session(State(state): State<AppState>) -> impl IntoResponse {
    let id = session_id();
    let (to_server, from_client) = mpsc::channel(CHANNEL_CAPACITY);
    let (to_client, from_server) = mpsc::channel(CHANNEL_CAPACITY);
    lock(&state.sessions).insert(id.clone(), to_server);

    let server = (state.new_session)();
    let session_ended = state.shutdown.child_token();
    tokio::spawn(async move {
        // rmcp takes any (Sink, Stream) pair of JSON-RPC messages as a transport.
        match server
            .serve_with_ct((to_client, from_client), session_ended)
            .await
        {
            Ok(running) => {
                let _ = running.waiting().await;
            }
            Err(error) => tracing::debug!(%error, "SSE session ended before initialization"),
        }
    });

    let endpoint = Event::default()
        .event("endpoint")
        .data(format!("/message?sessionId={id}"));
    let messages = from_server.map(|message| Event::default().event("message").json_data(message));
    let events = stream::once(async { Ok(endpoint) }).chain(messages).boxed();
    Sse::new(SessionEvents {
        events,
        id,
        sessions: state.sessions,
    })
    .keep_alive(KeepAlive::default())
}

#[derive(Debug, Deserialize)]
struct SessionQuery {
    #[serde(rename = "sessionId")]
    session_id: String,
}

async fn receive_message(
    State(state): State<AppState>,
    Query(query): Query<SessionQuery>,
    body: Bytes,
) -> Response {
    let Some(mut to_server) = lock(&state.sessions)
        .get(query.session_id.as_str())
        .cloned()
    else {
        return (StatusCode::NOT_FOUND, "unknown session").into_response();
    };
    let message: ClientJsonRpcMessage = match serde_json::from_slice(&body) {
        Ok(message) => message,
        Err(error) => {
            return (
                StatusCode::BAD_REQUEST,
                format!("invalid JSON-RPC message: {error}"),
            )
                .into_response();
        }
    };
    if to_server.send(message).await.is_err() {
        return (StatusCode::NOT_FOUND, "session closed").into_response();
    }
    StatusCode::ACCEPTED.into_response()
}

/// The SSE stream of one session. Dropping it (the client went away) forgets the session,
/// which closes the server's input and so ends its MCP service.
struct SessionEvents {
    events: BoxStream<'static, Result<Event, axum::Error>>,
    id: SessionId,
    sessions: Sessions,
}

impl Stream for SessionEvents {
    type Item = Result<Event, axum::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.events.poll_next_unpin(cx)
    }
}

impl Drop for SessionEvents {
    fn drop(&mut self) {
        lock(&self.sessions).remove(&self.id);
    }
}

fn lock(
    sessions: &Sessions,
) -> MutexGuard<'_, HashMap<SessionId, mpsc::Sender<ClientJsonRpcMessage>>> {
    // A map of senders stays consistent even if a holder panicked.
    sessions.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    async fn endpoint_of(stream: &mut reqwest::Response) -> String {
        let mut received = String::new();
        while !received.contains("\n\n") {
            let chunk = stream
                .chunk()
                .await
                .unwrap()
                .expect("the stream stays open");
            received.push_str(std::str::from_utf8(&chunk).unwrap());
        }
        let (_, data) = received
            .split_once("event: endpoint\ndata: ")
            .expect("the first event names the endpoint");
        data.lines().next().unwrap().to_owned()
    }

    /// Once the client drops the SSE stream, its session is gone: its endpoint answers 404
    /// like one that never existed.
    #[tokio::test]
    async fn a_session_ends_when_its_stream_closes() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let server = tokio::spawn(serve_sse(listener, HttpOptions::default()));
        let client = reqwest::Client::new();
        let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        let post = |path: String| client.post(format!("{base}{path}")).body(ping).send();

        let mut stream = client.get(format!("{base}/sse")).send().await.unwrap();
        let endpoint = endpoint_of(&mut stream).await;
        assert_eq!(post(endpoint.clone()).await.unwrap().status(), 202);
        let unknown = "/message?sessionId=unknown".to_owned();
        assert_eq!(post(unknown).await.unwrap().status(), 404);

        drop(stream);
        let mut status = 202;
        for _ in 0..100 {
            status = post(endpoint.clone()).await.unwrap().status().as_u16();
            if status == 404 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(status, 404, "the session outlived its stream");
        server.abort();
    }
}
