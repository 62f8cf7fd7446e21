//! What a double holds while it serves: its mocks and how often each was used, what it
//! received, what it declares, the sessions it serves, and the switch that drops or stops
//! them.

use std::{
    sync::{
        Arc, Mutex, PoisonError,
        atomic::{AtomicU64, Ordering},
    },
    time::SystemTime,
};

use rmcp::{RoleServer, model::ErrorCode, service::Peer};
use serde_json::{Value, json};
use tokio::task::AbortHandle;
use tokio_util::sync::CancellationToken;

use super::{matchers::Named, mock::Mock, replay, reply::Reply, request::McpRequest};
use crate::cassette::{Cassette, Matching};

/// Whether the double has an answer of its own for `method`, without a mock.
fn answered_without_a_mock(method: &str) -> bool {
    method.ends_with("/list")
        || matches!(
            method,
            "completion/complete"
                | "logging/setLevel"
                | "resources/subscribe"
                | "resources/unsubscribe"
        )
}

/// What a cassette made of a request.
enum Replayed {
    Answer(Reply),
    NoMatch(Reply),
}

/// The `answered_by` of a request the cassette answered.
pub(crate) const REPLAYED: u64 = 0;

/// A mock as mounted, with its uses.
struct Mounted {
    id: u64,
    mock: Mock,
    hits: u64,
}

/// A request and which mock answered it, if any.
#[derive(Debug, Clone)]
pub(crate) struct Received {
    pub(crate) request: McpRequest,
    pub(crate) answered_by: Option<u64>,
    /// The cassette the double replays has no answer for it, and it was refused.
    pub(crate) replay_miss: bool,
}

/// A client's answer to a request the double asked it.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientAnswer {
    /// The double's request: `sampling/createMessage`, `elicitation/create`, `roots/list`.
    pub method: String,
    /// Its params.
    pub params: Value,
    /// The client's result, or the text of its error.
    pub answer: Result<Value, String>,
    /// When it came.
    pub received: SystemTime,
}

/// The surface the double advertises beyond what its mocks name.
#[derive(Debug, Clone, Default)]
pub(crate) struct Declared {
    pub(crate) tools: Vec<Value>,
    pub(crate) prompts: Vec<Value>,
    pub(crate) resources: Vec<Value>,
    pub(crate) templates: Vec<Value>,
}

/// The double's identity and capabilities, as `initialize` answers them.
#[derive(Debug, Clone)]
pub(crate) struct Identity {
    pub(crate) name: String,
    pub(crate) version: String,
    pub(crate) instructions: Option<String>,
    /// `None`: tools, prompts, resources (with subscribe), logging and completions, each
    /// with `listChanged`.
    pub(crate) capabilities: Option<Value>,
    /// `None`: every revision rmcp knows.
    pub(crate) versions: Option<Vec<String>>,
}

/// Drops connections or stops the double, on a mock's cue or when it is dropped.
#[derive(Debug, Default)]
pub(crate) struct Switch {
    pub(crate) stopped: CancellationToken,
    connections: Mutex<Vec<AbortHandle>>,
    /// The relay's sockets, shut down with the connections: the session on one waits for
    /// the request that asked for the drop, which never ends, so only closing the socket
    /// itself tells the relay (and the server under test) at once.
    sockets: Mutex<Vec<(u64, std::net::TcpStream)>>,
    next_socket: AtomicU64,
}

impl Switch {
    /// Keeps a connection's task, to abort when connections are dropped.
    pub(crate) fn track(&self, connection: AbortHandle) {
        let mut connections = self
            .connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        connections.retain(|handle| !handle.is_finished());
        connections.push(connection);
    }

    /// Keeps a handle on a relay's socket, to shut it down when connections are dropped;
    /// its key for [`forget_socket`](Self::forget_socket).
    pub(crate) fn track_socket(&self, socket: std::net::TcpStream) -> u64 {
        let key = self.next_socket.fetch_add(1, Ordering::Relaxed);
        self.sockets
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((key, socket));
        key
    }

    /// Lets go of a socket whose session ended.
    pub(crate) fn forget_socket(&self, key: u64) {
        self.sockets
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|(kept, _)| *kept != key);
    }

    /// Closes every open connection; new ones are still accepted.
    pub(crate) fn drop_connections(&self) {
        for (_, socket) in self
            .sockets
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain(..)
        {
            let _ = socket.shutdown(std::net::Shutdown::Both);
        }
        for connection in self
            .connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain(..)
        {
            connection.abort();
        }
    }

    /// Closes every connection and accepts no new one.
    pub(crate) fn stop(&self) {
        self.stopped.cancel();
        self.drop_connections();
    }
}

/// Everything one double shares between its handle, its sessions and its listeners.
#[derive(Debug)]
pub(crate) struct State {
    mocks: Mutex<Vec<Mounted>>,
    next_id: AtomicU64,
    received: Mutex<Vec<Received>>,
    answers: Mutex<Vec<ClientAnswer>>,
    declared: Mutex<Declared>,
    pub(crate) identity: Identity,
    sessions: Mutex<Vec<Peer<RoleServer>>>,
    pub(crate) switch: Switch,
    /// A recorded session that answers what no mock does.
    pub(crate) replay: Option<Replay>,
}

/// A cassette the double answers from, and how requests are matched to it.
#[derive(Debug)]
pub(crate) struct Replay {
    pub(crate) cassette: Arc<Cassette>,
    pub(crate) matching: Matching,
}

impl std::fmt::Debug for Mounted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mounted")
            .field("id", &self.id)
            .field("mock", &self.mock)
            .field("hits", &self.hits)
            .finish()
    }
}

impl State {
    pub(crate) fn new(
        identity: Identity,
        declared: Declared,
        replay: Option<Replay>,
    ) -> Arc<State> {
        Arc::new(State {
            mocks: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(1),
            received: Mutex::new(Vec::new()),
            answers: Mutex::new(Vec::new()),
            declared: Mutex::new(declared),
            identity,
            sessions: Mutex::new(Vec::new()),
            switch: Switch::default(),
            replay,
        })
    }

    /// Mounts `mock`; its id.
    pub(crate) fn mount(&self, mock: Mock) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.mocks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Mounted { id, mock, hits: 0 });
        id
    }

    /// Removes a mock; what it expected and did not get, if anything.
    pub(crate) fn unmount(&self, id: u64) -> Option<String> {
        let mut mocks = self.mocks.lock().unwrap_or_else(PoisonError::into_inner);
        let index = mocks.iter().position(|mounted| mounted.id == id)?;
        let mounted = mocks.remove(index);
        drop(mocks);
        self.unmet(std::slice::from_ref(&mounted))
    }

    /// The reply of the mock that answers `request`, which is recorded either way.
    pub(crate) fn choose(&self, request: &McpRequest) -> Option<Reply> {
        let mocked = {
            let mut mocks = self.mocks.lock().unwrap_or_else(PoisonError::into_inner);
            mocks
                .iter_mut()
                .filter(|mounted| {
                    mounted.mock.up_to.is_none_or(|up_to| mounted.hits < up_to)
                        && mounted.mock.matchers.matches(request)
                })
                .min_by_key(|mounted| (mounted.mock.priority, mounted.id))
                .map(|mounted| {
                    mounted.hits += 1;
                    (mounted.id, Arc::clone(&mounted.mock.respond))
                })
        };
        // The reply is made outside the lock: a closure that panics must not poison it.
        let (answered_by, reply, replay_miss) = match mocked {
            Some((id, respond)) => (Some(id), Some(respond.respond(request)), false),
            None => match self.replayed(request) {
                Some(Replayed::Answer(reply)) => (Some(REPLAYED), Some(reply), false),
                Some(Replayed::NoMatch(reply)) => (None, Some(reply), true),
                None => (None, None, false),
            },
        };
        self.received
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Received {
                request: request.clone(),
                answered_by,
                replay_miss,
            });
        reply
    }

    /// The cassette's answer to `request`, if the double replays one: what was recorded, or
    /// an error naming the closest recorded request. A list with no recorded answer is left
    /// to the surface.
    fn replayed(&self, request: &McpRequest) -> Option<Replayed> {
        let replay = self.replay.as_ref()?;
        match replay
            .cassette
            .answer(&request.method, &request.params, &replay.matching)
        {
            Ok(interaction) => Some(Replayed::Answer(replay::reply_of(interaction))),
            // What the double answers by itself (the lists from its surface, completions,
            // log levels, subscriptions) it still answers when nothing was recorded.
            Err(_) if answered_without_a_mock(&request.method) => None,
            Err(no_match) => Some(Replayed::NoMatch(Reply::error(
                ErrorCode::INVALID_PARAMS.0,
                no_match.to_string(),
            ))),
        }
    }

    pub(crate) fn received(&self) -> Vec<Received> {
        self.received
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(crate) fn forget_received(&self) {
        self.received
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        self.answers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    pub(crate) fn remove_all(&self) {
        self.mocks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    pub(crate) fn keep_answer(&self, method: &str, params: &Value, answer: Result<Value, String>) {
        self.answers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(ClientAnswer {
                method: method.to_owned(),
                params: params.clone(),
                answer,
                received: SystemTime::now(),
            });
    }

    pub(crate) fn answers(&self) -> Vec<ClientAnswer> {
        self.answers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(crate) fn declare(&self, change: impl FnOnce(&mut Declared)) {
        change(&mut self.declared.lock().unwrap_or_else(PoisonError::into_inner));
    }

    /// What every mock expected and did not get, as one message, if anything.
    pub(crate) fn verify(&self) -> Option<String> {
        let mocks = self.mocks.lock().unwrap_or_else(PoisonError::into_inner);
        let all: Vec<&Mounted> = mocks.iter().collect();
        self.unmet_of(&all)
    }

    fn unmet(&self, mounted: &[Mounted]) -> Option<String> {
        let all: Vec<&Mounted> = mounted.iter().collect();
        self.unmet_of(&all)
    }

    fn unmet_of(&self, mounted: &[&Mounted]) -> Option<String> {
        let unmet: Vec<String> = mounted
            .iter()
            .filter_map(|mounted| {
                let expected = mounted.mock.expected?;
                (!expected.contains(mounted.hits)).then(|| {
                    format!(
                        "- {} expected {expected} request{}, got {}",
                        mounted.mock.describe(),
                        if expected.to_string().ends_with(" 1") {
                            ""
                        } else {
                            "s"
                        },
                        mounted.hits
                    )
                })
            })
            .collect();
        if unmet.is_empty() {
            return None;
        }
        Some(format!(
            "the MCP double's expectations were not met:\n{}\n{}",
            unmet.join("\n"),
            self.received_listing()
        ))
    }

    /// What came, numbered, each with whether a mock answered it.
    pub(crate) fn received_listing(&self) -> String {
        let received = self.received.lock().unwrap_or_else(PoisonError::into_inner);
        if received.is_empty() {
            return "it received no request".to_owned();
        }
        let lines: Vec<String> = received
            .iter()
            .enumerate()
            .map(|(index, received)| {
                let answered = if received.answered_by.is_some() {
                    ""
                } else {
                    " (no mock matched)"
                };
                format!("  {}. {}{answered}", index + 1, received.request)
            })
            .collect();
        format!("it received {}:\n{}", received.len(), lines.join("\n"))
    }

    /// The advertised tools: declared ones, then those mocks name, each once.
    pub(crate) fn tools(&self) -> Vec<Value> {
        let declared = self
            .declared
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .tools
            .clone();
        self.with_named(declared, "name", |named| match named {
            Named::Tool(name) => Some(json!({
                "name": name,
                "inputSchema": {"type": "object"},
            })),
            _ => None,
        })
    }

    pub(crate) fn prompts(&self) -> Vec<Value> {
        let declared = self
            .declared
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .prompts
            .clone();
        self.with_named(declared, "name", |named| match named {
            Named::Prompt(name) => Some(json!({"name": name})),
            _ => None,
        })
    }

    pub(crate) fn resources(&self) -> Vec<Value> {
        let declared = self
            .declared
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .resources
            .clone();
        self.with_named(declared, "uri", |named| match named {
            Named::Resource(uri) => Some(json!({"uri": uri, "name": uri})),
            _ => None,
        })
    }

    pub(crate) fn templates(&self) -> Vec<Value> {
        self.declared
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .templates
            .clone()
    }

    fn with_named(
        &self,
        mut listed: Vec<Value>,
        key: &str,
        entry: impl Fn(&Named) -> Option<Value>,
    ) -> Vec<Value> {
        let mocks = self.mocks.lock().unwrap_or_else(PoisonError::into_inner);
        for named in mocks
            .iter()
            .flat_map(|mounted| mounted.mock.matchers.names())
        {
            if let Some(item) = entry(&named)
                && !listed.iter().any(|listed| listed[key] == item[key])
            {
                listed.push(item);
            }
        }
        listed
    }

    pub(crate) fn join(&self, peer: Peer<RoleServer>) {
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        sessions.retain(|peer| !peer.is_transport_closed());
        sessions.push(peer);
    }

    /// The sessions open now, to tell of a changed list.
    pub(crate) fn sessions(&self) -> Vec<Peer<RoleServer>> {
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        sessions.retain(|peer| !peer.is_transport_closed());
        sessions.clone()
    }
}
