//! A streamed execution (`Accept: application/x-ndjson`): the tool's progress and items as
//! JSON lines while it runs, its envelope as the last line. See the [module docs](super).

use std::{convert::Infallible, future::Future, sync::Arc};

use axum::{
    body::{Body, Bytes},
    http::{HeaderValue, StatusCode, header},
    response::Response,
};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::{Rest, envelope::Envelope, execute};
use crate::{policy::Refusal, tools::ToolEvent};

/// Runs `run`, answering with JSON lines from its first event on; a call that ends before
/// any gets the plain envelope.
pub(super) async fn respond(
    rest: Arc<Rest>,
    envelope: Envelope,
    mcp_name: String,
    run: impl Future<Output = Result<CallToolResult, Refusal>> + Send + 'static,
    mut events: mpsc::UnboundedReceiver<ToolEvent>,
) -> Response {
    let mut running = tokio::spawn(run);
    let first = tokio::select! {
        biased;
        Some(event) = events.recv() => event,
        outcome = &mut running => {
            let outcome = outcome.unwrap_or_else(|panic| Err(Refusal::execution(format!("the tool panicked: {panic}"))));
            match events.try_recv() {
                // Done, but it did report on the way: stream it all the same.
                Ok(event) => {
                    let (lines, body) = lines();
                    let _ = lines.send(line(&event));
                    forward_rest(&lines, &mut events);
                    let last = last_line(&rest, envelope, &mcp_name, outcome).await;
                    let _ = lines.send(last);
                    return streaming(body);
                }
                Err(_) => return execute::answer(&rest, envelope, &mcp_name, outcome),
            }
        }
    };
    let (lines, body) = lines();
    let _ = lines.send(line(&first));
    tokio::spawn(async move {
        let outcome = loop {
            tokio::select! {
                biased;
                Some(event) = events.recv() => {
                    if lines.send(line(&event)).is_err() {
                        // The caller went away: stop the tool.
                        running.abort();
                        return;
                    }
                }
                outcome = &mut running => break outcome,
            }
        };
        let outcome = outcome
            .unwrap_or_else(|panic| Err(Refusal::execution(format!("the tool panicked: {panic}"))));
        forward_rest(&lines, &mut events);
        let last = last_line(&rest, envelope, &mcp_name, outcome).await;
        let _ = lines.send(last);
    });
    streaming(body)
}

type Lines = mpsc::UnboundedSender<Bytes>;

/// A channel of lines and the body that sends them as they come.
fn lines() -> (Lines, Body) {
    let (sender, receiver) = mpsc::unbounded_channel::<Bytes>();
    let stream = futures::stream::unfold(receiver, |mut receiver| async move {
        receiver
            .recv()
            .await
            .map(|line| (Ok::<_, Infallible>(line), receiver))
    });
    (sender, Body::from_stream(stream))
}

fn streaming(body: Body) -> Response {
    let mut response = Response::new(body);
    *response.status_mut() = StatusCode::OK;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(execute::NDJSON),
    );
    response
}

/// Every event already queued.
fn forward_rest(lines: &Lines, events: &mut mpsc::UnboundedReceiver<ToolEvent>) {
    while let Ok(event) = events.try_recv() {
        let _ = lines.send(line(&event));
    }
}

fn line(event: &ToolEvent) -> Bytes {
    let value = match event {
        ToolEvent::Progress {
            progress,
            total,
            message,
        } => {
            let mut value = json!({"type": "progress", "progress": progress, "message": message});
            if let Some(total) = total {
                value["total"] = json!(total);
            }
            value
        }
        ToolEvent::Item(item) => json!({"type": "item", "item": item}),
    };
    Bytes::from(format!("{value}\n"))
}

/// The envelope the call would have had unstreamed, as the last line: `{"type":"result",..}`.
async fn last_line(
    rest: &Rest,
    envelope: Envelope,
    mcp_name: &str,
    outcome: Result<CallToolResult, Refusal>,
) -> Bytes {
    let answer = execute::answer(rest, envelope, mcp_name, outcome);
    let body = axum::body::to_bytes(answer.into_body(), usize::MAX)
        .await
        .unwrap_or_default();
    let mut value: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    if let Value::Object(fields) = &mut value {
        let mut last = serde_json::Map::new();
        last.insert("type".to_owned(), json!("result"));
        last.extend(std::mem::take(fields));
        *fields = last;
    }
    Bytes::from(format!("{value}\n"))
}
