//! Where a double listens: streamable HTTP on a loopback port (rmcp's
//! `StreamableHttpService`, one hyper connection per task so a mock can drop them), and a
//! loopback socket for the stdio relay (`mcp-assured relay ADDRESS`), each connection one
//! MCP session.

use std::{convert::Infallible, io, net::SocketAddr, sync::Arc};

use http::{Request, Response, StatusCode};
use hyper::body::Incoming;

use hyper_util::{rt::TokioIo, service::TowerToHyperService};
use rmcp::{
    ServiceExt,
    transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    },
};
use tokio::net::{TcpListener, TcpStream};

use super::{
    handler::DoubleHandler,
    sse::{Body, SseSessions},
    state::State,
};

/// Serves streamable HTTP at `/mcp` (any path, in fact) on a loopback port (0: a free
/// one); its address.
pub(crate) async fn http(state: &Arc<State>, port: u16) -> io::Result<SocketAddr> {
    let listener = TcpListener::bind(("127.0.0.1", port)).await?;
    let address = listener.local_addr()?;
    // Loopback hosts only (rmcp's default) and pages from loopback origins only: what the
    // specification asks of every local server, against DNS rebinding.
    let config = StreamableHttpServerConfig::default()
        .with_allowed_origins(["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"])
        .with_cancellation_token(state.switch.stopped.child_token());
    let handler = DoubleHandler {
        state: Arc::clone(state),
    };
    let streamable = TowerToHyperService::new(StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    ));
    let sse = SseSessions::default();
    let state = Arc::clone(state);
    let routed = Arc::clone(&state);
    // `GET /sse` and `POST /message` are the HTTP+SSE face; everything else is rmcp's.
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let (streamable, sse, state) = (streamable.clone(), sse.clone(), Arc::clone(&routed));
        async move {
            if SseSessions::serves(&request) {
                if let Some(refusal) = foreign(&request) {
                    return Ok::<_, Infallible>(refusal);
                }
                return Ok(sse.handle(request, &state).await);
            }
            hyper::service::Service::call(&streamable, request).await
        }
    });
    tokio::spawn(async move {
        loop {
            let Some(stream) = accept(&listener, &state).await else {
                return;
            };
            let service = service.clone();
            let connection = tokio::spawn(async move {
                let served = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
                if let Err(error) = served {
                    tracing::debug!(%error, "an HTTP connection to the MCP double ended");
                }
            });
            state.switch.track(connection.abort_handle());
        }
    });
    Ok(address)
}

/// Accepts the relay's connections on a free loopback port, each an MCP session over its
/// lines; the address.
pub(crate) async fn relay(state: &Arc<State>) -> io::Result<SocketAddr> {
    let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
    let address = listener.local_addr()?;
    let state = Arc::clone(state);
    tokio::spawn(async move {
        loop {
            let Some(stream) = accept(&listener, &state).await else {
                return;
            };
            let (stream, key) = match kept(&state, stream) {
                Ok(kept) => kept,
                Err(error) => {
                    tracing::debug!(%error, "a relay's socket could not be kept");
                    continue;
                }
            };
            let handler = DoubleHandler {
                state: Arc::clone(&state),
            };
            let stopped = state.switch.stopped.clone();
            let ended = Arc::clone(&state);
            let session = tokio::spawn(async move {
                match handler.serve(stream).await {
                    Ok(running) => {
                        tokio::select! {
                            _ = running.waiting() => {}
                            () = stopped.cancelled() => {}
                        }
                    }
                    Err(error) => {
                        tracing::debug!(%error, "a relayed session of the MCP double did not start");
                    }
                }
                ended.switch.forget_socket(key);
            });
            state.switch.track(session.abort_handle());
        }
    });
    Ok(address)
}

/// The stream, with a second handle on its socket kept by the switch to shut it down, and
/// that handle's key.
fn kept(state: &State, stream: TcpStream) -> io::Result<(TcpStream, u64)> {
    let socket = stream.into_std()?;
    let key = state.switch.track_socket(socket.try_clone()?);
    Ok((TcpStream::from_std(socket)?, key))
}

/// The next connection, or `None` once the double is stopped or accepting fails.
async fn accept(listener: &TcpListener, state: &State) -> Option<TcpStream> {
    tokio::select! {
        () = state.switch.stopped.cancelled() => None,
        accepted = listener.accept() => match accepted {
            Ok((stream, _)) => Some(stream),
            Err(error) => {
                tracing::debug!(%error, "the MCP double stopped accepting connections");
                None
            }
        },
    }
}

/// A 403 for a request to the SSE face from a name or page other than loopback (against DNS
/// rebinding, as rmcp's streamable HTTP checks its own).
fn foreign(request: &Request<Incoming>) -> Option<Response<Body>> {
    let loopback = |authority: &str| {
        let host = authority
            .rsplit_once(':')
            .filter(|(_, port)| port.chars().all(|c| c.is_ascii_digit()))
            .map_or(authority, |(host, _)| host);
        matches!(host, "localhost" | "127.0.0.1" | "[::1]")
    };
    let header = |name: http::header::HeaderName| {
        request
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned)
    };
    let host_ok = header(http::header::HOST).is_none_or(|host| loopback(&host));
    let origin_ok = header(http::header::ORIGIN).is_none_or(|origin| {
        origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .is_some_and(loopback)
    });
    (!(host_ok && origin_ok)).then(|| {
        use http_body_util::BodyExt as _;
        Response::builder()
            .status(StatusCode::FORBIDDEN)
            .body(
                http_body_util::Full::new(bytes::Bytes::from_static(b"only loopback"))
                    .map_err(|never| match never {})
                    .boxed(),
            )
            .expect("a valid response")
    })
}
