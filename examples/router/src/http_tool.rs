//! HTTP tools: a tool registered at run time (through [`crate::admin`]) by name, URI and
//! method, which the router serves by sending one HTTP request to the URI per call. The
//! backend's answer is the tool's text; a backend that cannot be reached, answers an error
//! status or takes too long is a tool error that says so, in the words of the router
//! contract (`Connection refused: http://localhost:9999/weather`).

use std::{collections::BTreeMap, sync::Arc, time::Duration};

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::RwLock;

/// An HTTP tool's definition, as `POST /tools` takes it (the contract's `HttpToolConfig`).
///
/// ```
/// use router::HttpToolConfig;
///
/// let tool = HttpToolConfig::new("weather-api", "http://127.0.0.1:9000/weather")
///     .description("Get weather data from external API");
/// assert_eq!(tool.method, "GET");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HttpToolConfig {
    /// The tool's name, as `tools/list` shows it.
    pub name: String,
    /// The backend's URL.
    pub uri: String,
    /// The HTTP method: `GET` (the default) sends the arguments as query parameters, any
    /// other sends them as a JSON body.
    #[serde(default = "get")]
    pub method: String,
    /// What the tool does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The tool's input schema (default: an object of any properties).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<JsonObject>,
}

fn get() -> String {
    "GET".to_owned()
}

impl HttpToolConfig {
    /// A `GET` tool named `name` that calls `uri`.
    pub fn new(name: impl Into<String>, uri: impl Into<String>) -> HttpToolConfig {
        HttpToolConfig {
            name: name.into(),
            uri: uri.into(),
            method: get(),
            description: None,
            input_schema: None,
        }
    }

    /// Its method (`POST`, `PUT`, ...).
    pub fn method(mut self, method: impl Into<String>) -> HttpToolConfig {
        self.method = method.into().to_uppercase();
        self
    }

    /// What it does.
    pub fn description(mut self, description: impl Into<String>) -> HttpToolConfig {
        self.description = Some(description.into());
        self
    }

    /// Its input schema.
    pub fn input_schema(mut self, schema: Value) -> HttpToolConfig {
        self.input_schema = schema.as_object().cloned();
        self
    }

    /// What is wrong with it, if anything: an empty name, a URI that is not http(s), an
    /// unknown method.
    pub fn problem(&self) -> Option<String> {
        if self.name.trim().is_empty() {
            return Some("`name` is empty".into());
        }
        if !(self.uri.starts_with("http://") || self.uri.starts_with("https://")) {
            return Some(format!("`uri` {:?} is not an http(s) URL", self.uri));
        }
        if reqwest::Method::from_bytes(self.method.as_bytes()).is_err() {
            return Some(format!("`method` {:?} is not an HTTP method", self.method));
        }
        None
    }

    /// The tool as `tools/list` shows it.
    pub fn tool(&self) -> Tool {
        let schema = self.input_schema.clone().unwrap_or_else(|| {
            json!({"type": "object"})
                .as_object()
                .cloned()
                .unwrap_or_default()
        });
        let description = self
            .description
            .clone()
            .unwrap_or_else(|| format!("{} {}", self.method, self.uri));
        Tool::new(self.name.clone(), description, schema)
    }
}

/// The HTTP tools registered so far, by name; clones share them, and hear of each change.
#[derive(Debug, Clone)]
pub struct HttpTools {
    tools: Arc<RwLock<BTreeMap<String, HttpToolConfig>>>,
    changes: Arc<tokio::sync::watch::Sender<u64>>,
}

impl Default for HttpTools {
    fn default() -> Self {
        HttpTools {
            tools: Arc::default(),
            changes: Arc::new(tokio::sync::watch::Sender::new(0)),
        }
    }
}

impl HttpTools {
    /// Registers `config`, replacing a tool of the same name; returns whether one was
    /// replaced.
    pub async fn register(&self, config: HttpToolConfig) -> bool {
        let replaced = self
            .tools
            .write()
            .await
            .insert(config.name.clone(), config)
            .is_some();
        self.changes.send_modify(|version| *version += 1);
        replaced
    }

    /// Removes tool `name`; returns whether there was one.
    pub async fn remove(&self, name: &str) -> bool {
        let removed = self.tools.write().await.remove(name).is_some();
        if removed {
            self.changes.send_modify(|version| *version += 1);
        }
        removed
    }

    /// A receiver that wakes at each registration or removal.
    pub fn changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// Every registered tool, by name.
    pub async fn all(&self) -> Vec<HttpToolConfig> {
        self.tools.read().await.values().cloned().collect()
    }

    /// Tool `name`, if it is registered.
    pub async fn get(&self, name: &str) -> Option<HttpToolConfig> {
        self.tools.read().await.get(name).cloned()
    }
}

/// Calls `config`'s backend with `arguments`, within `timeout`: its answer's body as text,
/// or a tool error that says what went wrong.
pub async fn call(
    client: &reqwest::Client,
    config: &HttpToolConfig,
    arguments: JsonObject,
    timeout: Duration,
) -> CallToolResult {
    let method =
        reqwest::Method::from_bytes(config.method.as_bytes()).unwrap_or(reqwest::Method::GET);
    let mut url = match reqwest::Url::parse(&config.uri) {
        Ok(url) => url,
        Err(error) => {
            return CallToolResult::error(vec![ContentBlock::text(format!(
                "Invalid URI: {}: {error}",
                config.uri
            ))]);
        }
    };
    let request = if method == reqwest::Method::GET {
        // The arguments as query parameters: strings as they are, anything else as JSON.
        if !arguments.is_empty() {
            let mut query = url.query_pairs_mut();
            for (name, value) in &arguments {
                match value {
                    Value::String(text) => query.append_pair(name, text),
                    other => query.append_pair(name, &other.to_string()),
                };
            }
        }
        client.request(method, url)
    } else {
        client.request(method, url).json(&arguments)
    }
    .timeout(timeout);
    let answer = match request.send().await {
        Ok(answer) => answer,
        Err(error) => {
            return CallToolResult::error(vec![ContentBlock::text(failure(
                config, &error, timeout,
            ))]);
        }
    };
    let status = answer.status();
    let body = answer.text().await.unwrap_or_default();
    if status.is_success() {
        CallToolResult::success(vec![ContentBlock::text(body)])
    } else {
        CallToolResult::error(vec![ContentBlock::text(format!(
            "HTTP {} from {}: {body}",
            status.as_u16(),
            config.uri
        ))])
    }
}

/// What went wrong reaching the backend, in the contract's words where it has some.
fn failure(config: &HttpToolConfig, error: &reqwest::Error, timeout: Duration) -> String {
    if error.is_timeout() {
        format!(
            "Timed out: {} did not answer within {} ms",
            config.uri,
            timeout.as_millis()
        )
    } else if error.is_connect() {
        format!("Connection refused: {}", config.uri)
    } else {
        format!("Request failed: {}: {error}", config.uri)
    }
}
