//! [`record_to`](super::ClientBuilder::record_to): every exchange of a session, recorded into
//! a [`Cassette`] as it happens, and written to its file.
//!
//! [`Taping`] wraps the transport, below the client's own `Recording`, so it sees every
//! message both ways. It pairs each request of the client's with its answer by JSON-RPC id,
//! gives each notification of the server's to the request it came during (by progress token,
//! else the newest request in flight), and each request of the server's the client's answer.
//! What the server sent is recorded as it arrived (the transport's text, not rmcp's decoding
//! of it), secrets redacted.
//!
//! The file is written when recording starts (so a wrong path fails `build()`), again after
//! each change, by a thread of its own that writes the newest state whole and coalesces the
//! changes that came while it wrote (so recording costs a request nothing but a lock), when
//! the client closes, and when the last session of it is dropped: a test that panics leaves
//! a readable cassette of all it did.

use std::{
    collections::HashMap,
    fmt,
    path::{Path, PathBuf},
    sync::{Arc, Mutex, MutexGuard, PoisonError, mpsc},
    time::{Duration, Instant},
};

use rmcp::{
    RoleClient,
    model::{
        CustomNotification, CustomRequest, CustomResult, DiscoverResult, JsonRpcMessage, RequestId,
        ServerJsonRpcMessage, ServerNotification, ServerRequest, ServerResult,
    },
    service::{RxJsonRpcMessage, TxJsonRpcMessage},
    transport::Transport,
};
use serde_json::Value;

use crate::{
    cassette::{
        self, Cassette, CassetteError, Interaction, RecordedError, RecordedNotification,
        RecordedServer, RecordedServerRequest, redact,
    },
    transport::{
        diagnostics::Diagnostics,
        wire::{Key, id_text},
    },
};

/// A cassette being recorded to a file, shared by every session of one client: a
/// reconnected session goes on recording into it.
#[derive(Clone)]
pub(crate) struct Tape(Arc<Reel>);

struct Reel {
    path: PathBuf,
    started: Instant,
    state: Mutex<State>,
    /// The change last written; held while writing, so that two writes never cross.
    written: Mutex<Option<u64>>,
    /// Wakes the writer thread; dropped with the reel, which ends the thread.
    wake: mpsc::Sender<()>,
}

struct State {
    cassette: Cassette,
    /// How many changes were made.
    changes: u64,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // What it guards stays whole whatever panicked while holding it.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl fmt::Debug for Tape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Tape").field(&self.0.path).finish()
    }
}

impl Tape {
    /// Starts a cassette at `path`, writing it empty at once.
    pub(crate) fn create(path: &Path) -> Result<Tape, CassetteError> {
        let (wake, woken) = mpsc::channel::<()>();
        let reel = Arc::new(Reel {
            path: path.to_owned(),
            started: Instant::now(),
            state: Mutex::new(State {
                cassette: Cassette::new(RecordedServer::default()),
                changes: 0,
            }),
            written: Mutex::new(None),
            wake,
        });
        reel.write()?;
        let weak = Arc::downgrade(&reel);
        std::thread::Builder::new()
            .name("mcp-assured-cassette".to_owned())
            .spawn(move || {
                while woken.recv().is_ok() {
                    while woken.try_recv().is_ok() {}
                    let Some(reel) = weak.upgrade() else { break };
                    // An error comes again, and is returned, when the client closes.
                    let _ = reel.write();
                }
            })
            .map_err(|error| CassetteError {
                path: path.to_owned(),
                problem: format!("cannot start the thread that writes it: {error}"),
            })?;
        Ok(Tape(reel))
    }

    /// Writes the cassette now, if anything changed since it was last written.
    pub(crate) fn flush(&self) -> Result<(), CassetteError> {
        self.0.write()
    }

    /// Makes a change, and has it written.
    fn change<R>(&self, change: impl FnOnce(&mut Cassette, Duration) -> R) -> R {
        let changed = {
            let mut state = lock(&self.0.state);
            let changed = change(&mut state.cassette, self.0.started.elapsed());
            state.changes += 1;
            changed
        };
        let _ = self.0.wake.send(());
        changed
    }

    /// Whether the server was described already (by `initialize` or `server/discover`).
    fn described(&self) -> bool {
        !lock(&self.0.state)
            .cassette
            .server
            .protocol_version
            .is_empty()
    }

    /// The server's answer to `server/discover`, on protocol `version`: the answer's text as
    /// sent, else rmcp's decoding of it.
    pub(crate) fn discovered(&self, version: &str, sent: Option<&str>, decoded: &DiscoverResult) {
        let result = sent
            .and_then(|text| serde_json::from_str::<Value>(text).ok())
            .and_then(|mut answer| answer.get_mut("result").map(Value::take))
            .unwrap_or_else(|| serde_json::to_value(decoded).unwrap_or_default());
        let mut server = server_of(&result);
        server.protocol_version = version.to_owned();
        self.change(|cassette, _| cassette.server = server);
    }
}

impl Reel {
    fn write(&self) -> Result<(), CassetteError> {
        let mut written = lock(&self.written);
        let (text, changes) = {
            let state = lock(&self.state);
            if *written == Some(state.changes) {
                return Ok(());
            }
            (state.cassette.to_text(), state.changes)
        };
        cassette::write_text(&self.path, &text)?;
        *written = Some(changes);
        Ok(())
    }
}

impl Drop for Reel {
    fn drop(&mut self) {
        let _ = self.write();
    }
}

/// What the server said of itself, from its `initialize` or `server/discover` result.
fn server_of(result: &Value) -> RecordedServer {
    let mut result = result.clone();
    redact(&mut result);
    let protocol_version = result["protocolVersion"]
        .as_str()
        .or_else(|| result["supportedVersions"][0].as_str())
        .unwrap_or_default()
        .to_owned();
    let mut take = |pointer: &str| result.pointer_mut(pointer).map(Value::take);
    // 2026-07-28 moved it into the result's `_meta`.
    let server_info = take("/serverInfo")
        .or_else(|| take("/_meta/io.modelcontextprotocol~1serverInfo"))
        .unwrap_or_default();
    let mut field = |pointer: &str| take(pointer).unwrap_or_default();
    RecordedServer {
        server_info,
        protocol_version,
        capabilities: field("/capabilities"),
        instructions: field("/instructions").as_str().map(str::to_owned),
    }
}

/// Milliseconds, to the microsecond.
fn ms(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

/// A result or an error, from an answer's JSON, secrets redacted.
fn outcome(answer: &Value) -> Option<Result<Value, RecordedError>> {
    if let Some(result) = answer.get("result") {
        let mut result = result.clone();
        redact(&mut result);
        return Some(Ok(result));
    }
    let error = answer.get("error")?;
    let mut data = error.get("data").cloned();
    data.iter_mut().for_each(redact);
    Some(Err(RecordedError {
        code: error["code"].as_i64().unwrap_or_default(),
        message: error["message"].as_str().unwrap_or_default().to_owned(),
        data,
    }))
}

/// The params of a request or notification, secrets redacted.
fn params_of(message: &Value) -> Value {
    let mut params = message.get("params").cloned().unwrap_or(Value::Null);
    redact(&mut params);
    params
}

/// The transport, recording into a [`Tape`].
pub(crate) struct Taping<T> {
    inner: T,
    /// `None`: nothing is recorded.
    tape: Option<Tape>,
    diagnostics: Arc<Diagnostics>,
    /// In a proxy: each message's text is taken off the wire (no client takes it) and the
    /// message handed on as the server sent it.
    proxying: bool,
    session: Session,
}

/// What pairs the messages of one session.
#[derive(Default)]
struct Session {
    /// The client's requests in flight, by id (as JSON text).
    flights: HashMap<String, Flight>,
    /// The server's requests waiting for the client's answer, by id: where they are recorded.
    asked: HashMap<String, Place>,
    /// The id of `initialize` or `server/discover`, whose answer describes the server.
    lifecycle: Option<String>,
}

struct Flight {
    index: usize,
    sent: Instant,
    token: Option<Value>,
}

/// Where a request of the server's is recorded: during an interaction, or outside any.
#[derive(Debug, Clone, Copy)]
enum Place {
    During(usize, usize),
    Outside(usize),
}

impl<T> Taping<T> {
    /// Beside a client, which takes the messages' texts after this has read them.
    pub(crate) fn beside(inner: T, tape: Option<Tape>, diagnostics: &Arc<Diagnostics>) -> Self {
        Taping {
            inner,
            tape,
            diagnostics: diagnostics.clone(),
            proxying: false,
            session: Session::default(),
        }
    }

    /// In a proxy, handing on what the server sent as it sent it.
    pub(crate) fn proxying(inner: T, tape: Option<Tape>, diagnostics: &Arc<Diagnostics>) -> Self {
        Taping {
            proxying: true,
            ..Taping::beside(inner, tape, diagnostics)
        }
    }

    /// A message the server sent, as it sent it (else as rmcp encodes it).
    fn as_sent(&self, message: &RxJsonRpcMessage<RoleClient>) -> Value {
        let typed = serde_json::to_value(message).unwrap_or(Value::Null);
        let key = match message {
            JsonRpcMessage::Response(response) => Some(Key::answer(&response.id)),
            JsonRpcMessage::Error(error) => error.id.as_ref().map(Key::answer),
            JsonRpcMessage::Request(request) => Some(Key::Request(id_text(&request.id))),
            JsonRpcMessage::Notification(_) => typed["method"]
                .as_str()
                .map(|method| Key::Notification(method.to_owned())),
        };
        let wire = &self.diagnostics.wire;
        let text = key.and_then(|key| match self.proxying {
            true => wire.take(&key),
            false => wire.peek(&key),
        });
        text.and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or(typed)
    }
}

impl Session {
    /// The interaction a message of the server's came during, and when it was sent: the one
    /// whose progress token it carries, else the newest in flight.
    fn during(&self, token: Option<&Value>) -> Option<(usize, Instant)> {
        let flights = || self.flights.values();
        token
            .and_then(|token| flights().find(|flight| flight.token.as_ref() == Some(token)))
            .or_else(|| flights().max_by_key(|flight| flight.index))
            .map(|flight| (flight.index, flight.sent))
    }

    fn sent(&mut self, tape: &Tape, message: &TxJsonRpcMessage<RoleClient>) {
        let json = serde_json::to_value(message).unwrap_or(Value::Null);
        match message {
            JsonRpcMessage::Request(request) => {
                let id = id_text(&request.id);
                let method = json["method"].as_str().unwrap_or_default();
                // `initialize` starts a session; `server/discover` also serves as a ping on
                // 2026-07-28, and describes the server only when nothing did yet.
                if method == "initialize" || (method == "server/discover" && !tape.described()) {
                    self.lifecycle = Some(id);
                    return;
                }
                let token = json.pointer("/params/_meta/progressToken").cloned();
                let interaction = Interaction::new(method, params_of(&json));
                let index = tape.change(|cassette, _| {
                    cassette.interactions.push(interaction);
                    cassette.interactions.len() - 1
                });
                let sent = Instant::now();
                self.flights.insert(id, Flight { index, sent, token });
            }
            JsonRpcMessage::Notification(_) if json["method"] == "notifications/cancelled" => {
                let id = id_text(&json["params"]["requestId"]);
                if let Some(flight) = self.flights.get(&id) {
                    let reason = json["params"]["reason"].as_str().unwrap_or_default();
                    let reason = reason.to_owned();
                    let elapsed = ms(flight.sent.elapsed());
                    tape.change(|cassette, _| {
                        let interaction = &mut cassette.interactions[flight.index];
                        interaction.cancelled = Some(reason);
                        interaction.elapsed_ms = Some(elapsed);
                    });
                }
            }
            JsonRpcMessage::Response(response) => {
                self.answered(tape, &id_text(&response.id), &json);
            }
            JsonRpcMessage::Error(error) => {
                if let Some(id) = &error.id {
                    self.answered(tape, &id_text(id), &json);
                }
            }
            JsonRpcMessage::Notification(_) => {}
        }
    }

    /// The client's answer to a request of the server's.
    fn answered(&mut self, tape: &Tape, id: &str, json: &Value) {
        let (Some(place), Some(outcome)) = (self.asked.remove(id), outcome(json)) else {
            return;
        };
        tape.change(|cassette, _| {
            let request = match place {
                Place::During(index, at) => &mut cassette.interactions[index].server_requests[at],
                Place::Outside(at) => &mut cassette.server_requests[at],
            };
            match outcome {
                Ok(result) => request.result = Some(result),
                Err(error) => request.error = Some(error),
            }
        });
    }

    fn received(&mut self, tape: &Tape, message: &RxJsonRpcMessage<RoleClient>, json: &Value) {
        let id = match message {
            JsonRpcMessage::Response(response) => Some(&response.id),
            JsonRpcMessage::Error(error) => error.id.as_ref(),
            JsonRpcMessage::Request(request) => {
                self.asked_by_server(tape, &request.id, json);
                return;
            }
            JsonRpcMessage::Notification(_) => {
                self.notified(tape, json);
                return;
            }
        };
        let Some(id) = id.map(id_text) else { return };
        if self.lifecycle.as_ref() == Some(&id) {
            self.lifecycle = None;
            if let Some(result) = json.get("result") {
                let server = server_of(result);
                tape.change(|cassette, _| cassette.server = server);
            }
            return;
        }
        let (Some(flight), Some(outcome)) = (self.flights.remove(&id), outcome(json)) else {
            return;
        };
        let elapsed = ms(flight.sent.elapsed());
        tape.change(|cassette, _| {
            let interaction = &mut cassette.interactions[flight.index];
            match outcome {
                Ok(result) => interaction.result = Some(result),
                Err(error) => interaction.error = Some(error),
            }
            interaction.elapsed_ms = Some(elapsed);
        });
    }

    fn notified(&mut self, tape: &Tape, json: &Value) {
        let during = self.during(json.pointer("/params/progressToken"));
        let method = json["method"].as_str().unwrap_or_default().to_owned();
        let params = params_of(json);
        tape.change(|cassette, since_start| match during {
            Some((index, sent)) => {
                cassette.interactions[index]
                    .notifications
                    .push(RecordedNotification {
                        method,
                        params,
                        at_ms: ms(sent.elapsed()),
                        after: None,
                    })
            }
            None => cassette.notifications.push(RecordedNotification {
                method,
                params,
                at_ms: ms(since_start),
                after: Some(cassette.interactions.len()),
            }),
        });
    }

    fn asked_by_server(&mut self, tape: &Tape, id: &RequestId, json: &Value) {
        let during = self.during(None);
        let method = json["method"].as_str().unwrap_or_default();
        let mut request = RecordedServerRequest {
            method: method.to_owned(),
            params: params_of(json),
            result: None,
            error: None,
            at_ms: 0.0,
            after: None,
        };
        let place = tape.change(|cassette, since_start| match during {
            Some((index, sent)) => {
                request.at_ms = ms(sent.elapsed());
                let requests = &mut cassette.interactions[index].server_requests;
                requests.push(request);
                Place::During(index, requests.len() - 1)
            }
            None => {
                request.at_ms = ms(since_start);
                request.after = Some(cassette.interactions.len());
                cassette.server_requests.push(request);
                Place::Outside(cassette.server_requests.len() - 1)
            }
        });
        self.asked.insert(id_text(id), place);
    }
}

/// `json`, a message of the server's as it sent it, in a form rmcp hands on unchanged: a
/// request, notification or result as a custom one (rmcp's decoding drops fields it does not
/// model). `None` for an error, and a request or notification without params: rmcp keeps
/// those whole (and would write a custom one's missing params as `null`).
fn unchanged(json: Value) -> Option<ServerJsonRpcMessage> {
    let id = || serde_json::from_value::<RequestId>(json.get("id")?.clone()).ok();
    match (json.get("method").and_then(Value::as_str), id()) {
        (Some(method), Some(id)) => Some(JsonRpcMessage::request(
            ServerRequest::CustomRequest(CustomRequest::new(
                method,
                Some(json.get("params")?.clone()),
            )),
            id,
        )),
        (Some(method), None) => Some(JsonRpcMessage::notification(
            ServerNotification::CustomNotification(CustomNotification::new(
                method,
                Some(json.get("params")?.clone()),
            )),
        )),
        (None, Some(id)) => {
            let result = json.get("result")?.clone();
            Some(JsonRpcMessage::response(
                ServerResult::CustomResult(CustomResult::new(result)),
                id,
            ))
        }
        (None, None) => None,
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Taping<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        if let Some(tape) = &self.tape {
            self.session.sent(tape, &item);
        }
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await?;
        if self.tape.is_none() && !self.proxying {
            return Some(message);
        }
        let json = self.as_sent(&message);
        if let Some(tape) = &self.tape {
            self.session.received(tape, &message, &json);
        }
        if self.proxying {
            return Some(unchanged(json).unwrap_or(message));
        }
        Some(message)
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.inner.close().await
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_proxied_message_keeps_what_rmcp_does_not_model() {
        let tool =
            json!({"name": "t", "inputSchema": {"type": "object"}, "testMetadata": {"x": 1}});
        let answer = json!({"jsonrpc": "2.0", "id": 3, "result": {"tools": [tool]}});
        let proxied = serde_json::to_value(unchanged(answer.clone()).unwrap()).unwrap();
        assert_eq!(proxied, answer);
        let note = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 0.5, "extra": true}});
        let proxied = serde_json::to_value(unchanged(note.clone()).unwrap()).unwrap();
        assert_eq!(proxied, note);
        let request = json!({"jsonrpc": "2.0", "id": "s-1", "method": "sampling/createMessage", "params": {"maxTokens": 5}});
        let proxied = serde_json::to_value(unchanged(request.clone()).unwrap()).unwrap();
        assert_eq!(proxied, request);
        let bare = json!({"jsonrpc": "2.0", "id": "s-2", "method": "roots/list"});
        assert!(unchanged(bare).is_none());
        let error = json!({"jsonrpc": "2.0", "id": 4, "error": {"code": -32601, "message": "no"}});
        assert!(unchanged(error).is_none());
    }

    #[test]
    fn the_server_is_described_by_its_lifecycle_answer() {
        let initialized = server_of(&json!({
            "protocolVersion": "2025-11-25",
            "serverInfo": {"name": "s", "version": "1"},
            "capabilities": {"tools": {}},
            "instructions": "use it",
        }));
        assert_eq!(initialized.protocol_version, "2025-11-25");
        assert_eq!(
            initialized.server_info,
            json!({"name": "s", "version": "1"})
        );
        assert_eq!(initialized.instructions.as_deref(), Some("use it"));
        let discovered = server_of(&json!({
            "supportedVersions": ["2026-07-28"],
            "capabilities": {},
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "2"}},
        }));
        assert_eq!(discovered.protocol_version, "2026-07-28");
        assert_eq!(discovered.server_info, json!({"name": "s", "version": "2"}));
        assert_eq!(ms(Duration::from_nanos(1_234_567)), 1.235);
    }
}
