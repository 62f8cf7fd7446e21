//! The connections the companion holds: named, one of them the default, each with its
//! client, how it was reached, when, and what was done through it.

use std::{
    collections::BTreeMap,
    sync::{
        Arc, OnceLock,
        atomic::{AtomicU64, Ordering},
    },
};

use mcp_assured::McpClient;
use serde_json::{Value, json};
use tokio::sync::Mutex;

use super::clock::{Timestamp, iso};

/// The name of the connection used when a tool gets no `connection` argument and nothing
/// else was made the default.
pub(crate) const DEFAULT_CONNECTION: &str = "default";

/// One connected server.
#[derive(Debug)]
pub(crate) struct Connection {
    pub(crate) name: String,
    pub(crate) client: McpClient,
    /// The URL, or the command line of a stdio server.
    pub(crate) server_url: String,
    /// How an `mcp-assured` command line names the server: the URL, `-- COMMAND ARGS`, or
    /// `--config FILE --server NAME` (whose command may hold secrets).
    pub(crate) command_line_target: String,
    /// `streaming-http`, `sse` or `stdio`, as the spec names them.
    pub(crate) transport: &'static str,
    pub(crate) connected_at: Timestamp,
    /// What credentials were given, never their values.
    pub(crate) auth: Vec<String>,
    /// Over https://, which certificates are trusted (`Tls::describe`).
    pub(crate) tls: Option<String>,
    pub(crate) stats: Stats,
    /// How many notifications `get_notifications` has handed out (when peeking is off).
    pub(crate) notifications_seen: AtomicU64,
    /// [`summary`](Self::summary), made once: nothing in it changes while the connection
    /// lives, and every answer carries it.
    pub(crate) summary: OnceLock<Value>,
}

#[derive(Debug, Default)]
pub(crate) struct Stats {
    pub(crate) tools_called: AtomicU64,
    pub(crate) resources_read: AtomicU64,
    pub(crate) prompts_retrieved: AtomicU64,
    pub(crate) requests: AtomicU64,
    pub(crate) errors: AtomicU64,
}

impl Stats {
    pub(crate) fn count(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    fn json(&self) -> Value {
        let get = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        json!({
            "tools_called": get(&self.tools_called),
            "resources_read": get(&self.resources_read),
            "prompts_retrieved": get(&self.prompts_retrieved),
            "requests": get(&self.requests),
            "errors": get(&self.errors),
        })
    }
}

impl Connection {
    /// The same connection on a new session with its server (after the server was started
    /// again): the same name, address and counts, a new client.
    pub(crate) fn with_client(&self, client: McpClient) -> Connection {
        let copy = |counter: &AtomicU64| AtomicU64::new(counter.load(Ordering::Relaxed));
        Connection {
            name: self.name.clone(),
            client,
            server_url: self.server_url.clone(),
            command_line_target: self.command_line_target.clone(),
            transport: self.transport,
            connected_at: self.connected_at,
            auth: self.auth.clone(),
            tls: self.tls.clone(),
            stats: Stats {
                tools_called: copy(&self.stats.tools_called),
                resources_read: copy(&self.stats.resources_read),
                prompts_retrieved: copy(&self.stats.prompts_retrieved),
                requests: copy(&self.stats.requests),
                errors: copy(&self.stats.errors),
            },
            notifications_seen: AtomicU64::new(0),
            summary: OnceLock::new(),
        }
    }

    /// The `connection` object of every answer.
    pub(crate) fn summary(&self) -> Value {
        self.summary.get_or_init(|| self.make_summary()).clone()
    }

    fn make_summary(&self) -> Value {
        let info = self.client.server_info();
        let mut server_info = json!({
            "name": info.name,
            "version": info.version,
            "protocol_version": info.protocol_version,
        });
        if let Some(title) = &info.title {
            server_info["title"] = json!(title);
        }
        let mut summary = json!({
            "name": self.name,
            "server_url": self.server_url,
            "transport": self.transport,
            "connected_at": iso(self.connected_at),
            "server_info": server_info,
            "auth": if self.auth.is_empty() { json!("none") } else { json!(self.auth) },
        });
        if let Some(tls) = &self.tls {
            summary["tls"] = json!({ "trusts": tls });
        }
        summary
    }

    /// The summary plus the server's capabilities and instructions, and the statistics.
    pub(crate) fn status(&self) -> Value {
        let info = self.client.server_info();
        let mut connection = self.summary();
        connection["server_info"]["capabilities"] = json!(info.capabilities);
        if let Some(instructions) = &info.instructions {
            connection["server_info"]["instructions"] = json!(instructions);
        }
        connection["closed"] = json!(self.client.is_closed());
        json!({ "connection": connection, "statistics": self.stats.json() })
    }
}

/// Every connection of the companion, shared by all its MCP sessions.
#[derive(Debug, Default)]
pub(crate) struct Connections {
    inner: Mutex<Registry>,
}

#[derive(Debug, Default)]
struct Registry {
    connections: BTreeMap<String, Arc<Connection>>,
    default: Option<String>,
}

impl Connections {
    /// The connection called `name`, or the default one.
    pub(crate) async fn get(&self, name: Option<&str>) -> Result<Arc<Connection>, Vec<String>> {
        let registry = self.inner.lock().await;
        let name = name
            .map(str::to_owned)
            .or_else(|| registry.default.clone())
            .unwrap_or_else(|| DEFAULT_CONNECTION.to_owned());
        registry
            .connections
            .get(&name)
            .cloned()
            .ok_or_else(|| registry.connections.keys().cloned().collect())
    }

    /// Adds a connection (replacing one of the same name, which is returned) and makes it
    /// the default when asked to or when it is the only one.
    pub(crate) async fn insert(
        &self,
        connection: Connection,
        make_default: bool,
    ) -> Option<Arc<Connection>> {
        let mut registry = self.inner.lock().await;
        let name = connection.name.clone();
        let previous = registry
            .connections
            .insert(name.clone(), Arc::new(connection));
        if make_default || registry.default.is_none() {
            registry.default = Some(name);
        }
        previous
    }

    pub(crate) async fn remove(&self, name: Option<&str>) -> Option<Arc<Connection>> {
        let mut registry = self.inner.lock().await;
        let name = name
            .map(str::to_owned)
            .or_else(|| registry.default.clone())
            .unwrap_or_else(|| DEFAULT_CONNECTION.to_owned());
        let removed = registry.connections.remove(&name);
        if registry.default.as_deref() == Some(name.as_str()) {
            registry.default = registry.connections.keys().next().cloned();
        }
        removed
    }

    /// Every connection, and the name of the default.
    pub(crate) async fn all(&self) -> (Vec<Arc<Connection>>, Option<String>) {
        let registry = self.inner.lock().await;
        (
            registry.connections.values().cloned().collect(),
            registry.default.clone(),
        )
    }
}
