//! The same tool modules over plain HTTP, for callers that do not speak MCP (the hybrid-server
//! REST surface): `GET /mcp/tools` lists them, `POST /mcp/tools/{name}/execute` runs one, and
//! every answer is the envelope `{success, result | error{code, message, details},
//! metadata{executionId, duration, timestamp}}` with an `X-MCP-Version: 1.0` header.
//!
//! | what happened | status | `error.code` |
//! | --- | --- | --- |
//! | the tool ran | 200 | — |
//! | no such tool | 404 | `TOOL_NOT_FOUND` |
//! | the body or `params` break the tool's input schema | 400 | `VALIDATION_ERROR` |
//! | the tool failed (the weather API is down, say) | 502 | `EXECUTION_ERROR` |
//! | slower than `context.timeout` | 504 | `TIMEOUT_ERROR` |
//! | missing or wrong bearer token | 401 | `PERMISSION_ERROR` |
//! | a body over the size limit | 413 | (plain text, from axum) |
//!
//! [`RestOptions::drift`] makes a deliberately wrong variant: the forecast's `days` allows 14
//! here (7 over MCP) and an unknown tool is an `EXECUTION_ERROR`, which a parity check must
//! catch.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use axum::{
    Json, Router,
    body::Bytes,
    extract::{DefaultBodyLimit, Path, Request, State},
    http::{HeaderValue, StatusCode, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use rmcp::model::{CallToolResult, JsonObject, Tool};
use serde_json::{Value, json};

use crate::{WeatherServer, api::WeatherApi, tools};

/// The protocol version this surface speaks, sent as `X-MCP-Version`.
pub const VERSION: &str = "1.0";

/// How the REST surface behaves.
#[derive(Clone)]
#[non_exhaustive]
pub struct RestOptions {
    /// If set, every request (MCP and REST, when served by
    /// [`serve_hybrid`](crate::serve::serve_hybrid)) without `Authorization: Bearer <token>`
    /// gets 401.
    pub bearer_token: Option<String>,
    /// The largest request body, in bytes (default 1 MiB); larger gets 413.
    pub max_body_bytes: usize,
    /// Deliberately drift from the MCP side (see the module docs).
    pub drift: bool,
}

impl Default for RestOptions {
    fn default() -> Self {
        Self {
            bearer_token: None,
            max_body_bytes: 1024 * 1024,
            drift: false,
        }
    }
}

impl std::fmt::Debug for RestOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RestOptions")
            .field(
                "bearer_token",
                &self.bearer_token.as_ref().map(|_| "<redacted>"),
            )
            .field("max_body_bytes", &self.max_body_bytes)
            .field("drift", &self.drift)
            .finish()
    }
}

impl RestOptions {
    /// Requires `Authorization: Bearer <token>`.
    #[must_use]
    pub fn bearer_token(mut self, token: impl Into<String>) -> Self {
        self.bearer_token = Some(token.into());
        self
    }

    /// Sets the largest request body.
    #[must_use]
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// The deliberately drifting variant.
    #[must_use]
    pub fn drifting(mut self) -> Self {
        self.drift = true;
        self
    }
}

struct Rest {
    api: Arc<WeatherApi>,
    options: RestOptions,
    executions: AtomicU64,
}

/// The REST routes for `server`'s tools; merge them with the MCP route to serve both.
pub fn router(server: &WeatherServer, options: RestOptions) -> Router {
    let limit = options.max_body_bytes;
    let rest = Arc::new(Rest {
        api: server.api(),
        options,
        executions: AtomicU64::new(0),
    });
    Router::new()
        .route("/mcp/tools", get(list_tools))
        .route("/mcp/tools/{name}/execute", post(execute))
        .layer(DefaultBodyLimit::max(limit))
        .layer(middleware::from_fn(version_header))
        .with_state(rest)
}

/// The tools as this surface lists them (drifted, if asked).
fn definitions(options: &RestOptions) -> Vec<Tool> {
    let mut tools = tools::definitions();
    if options.drift {
        for tool in &mut tools {
            if tool.name == tools::forecast::NAME {
                let mut schema = tool.input_schema.as_ref().clone();
                schema["properties"]["days"]["maximum"] = json!(14);
                tool.input_schema = Arc::new(schema);
            }
        }
    }
    tools
}

async fn list_tools(State(rest): State<Arc<Rest>>) -> Json<Value> {
    let tools: Vec<Value> = definitions(&rest.options)
        .iter()
        .map(|tool| {
            json!({
                "name": tool.name,
                "description": tool.description,
                "inputSchema": tool.input_schema,
                "metadata": {"version": env!("CARGO_PKG_VERSION"), "category": "weather"},
            })
        })
        .collect();
    Json(json!({ "version": VERSION, "tools": tools }))
}

async fn execute(State(rest): State<Arc<Rest>>, Path(name): Path<String>, body: Bytes) -> Response {
    let started = Instant::now();
    let execution = rest.executions.fetch_add(1, Ordering::Relaxed) + 1;
    let envelope = |status: StatusCode, outcome: Value| {
        let mut body = json!({
            "metadata": {
                "executionId": format!("exec-{execution}"),
                "duration": started.elapsed().as_millis() as u64,
                "timestamp": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            },
        });
        if let (Value::Object(body), Value::Object(outcome)) = (&mut body, outcome) {
            body.extend(outcome);
        }
        (status, Json(body)).into_response()
    };
    let failure = |status: StatusCode, code: &str, message: String, details: Value| {
        let mut error = json!({ "code": code, "message": message });
        if !details.is_null() {
            error["details"] = details;
        }
        envelope(status, json!({ "success": false, "error": error }))
    };

    let request: Value = match serde_json::from_slice(&body) {
        Ok(request) => request,
        Err(error) => {
            return failure(
                StatusCode::BAD_REQUEST,
                "VALIDATION_ERROR",
                format!("the body is not JSON: {error}"),
                json!({"expected": {"params": {}, "context": {}}}),
            );
        }
    };
    let Some(params) = request.get("params").and_then(Value::as_object).cloned() else {
        return failure(
            StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
            "the body must be {\"params\": {..}}, with an optional \"context\"".to_owned(),
            Value::Null,
        );
    };
    let Some(tool) = definitions(&rest.options)
        .into_iter()
        .find(|tool| tool.name == name)
    else {
        let names: Vec<_> = tools::definitions().into_iter().map(|t| t.name).collect();
        let (status, code) = if rest.options.drift {
            (StatusCode::INTERNAL_SERVER_ERROR, "EXECUTION_ERROR")
        } else {
            (StatusCode::NOT_FOUND, "TOOL_NOT_FOUND")
        };
        return failure(
            status,
            code,
            format!("no tool `{name}`"),
            json!({ "available": names }),
        );
    };
    let violations = violations(&tool, &params);
    if !violations.is_empty() {
        return failure(
            StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
            format!("`params` break the input schema of `{name}`"),
            json!({ "violations": violations }),
        );
    }
    let timeout = request["context"]["timeout"]
        .as_u64()
        .map(Duration::from_millis);
    let call = tools::call(&rest.api, &name, params);
    let result = match timeout {
        Some(limit) => match tokio::time::timeout(limit, call).await {
            Ok(result) => result,
            Err(_) => {
                return failure(
                    StatusCode::GATEWAY_TIMEOUT,
                    "TIMEOUT_ERROR",
                    format!("`{name}` took longer than {} ms", limit.as_millis()),
                    Value::Null,
                );
            }
        },
        None => call.await,
    };
    match result {
        Some(result) if result.is_error == Some(true) => failure(
            StatusCode::BAD_GATEWAY,
            "EXECUTION_ERROR",
            text_of(&result),
            Value::Null,
        ),
        Some(result) => envelope(
            StatusCode::OK,
            json!({ "success": true, "result": result_value(&result) }),
        ),
        None => failure(
            StatusCode::NOT_FOUND,
            "TOOL_NOT_FOUND",
            format!("no tool `{name}`"),
            Value::Null,
        ),
    }
}

/// Every way `params` break `tool`'s input schema, as `{path, message}`.
fn violations(tool: &Tool, params: &JsonObject) -> Vec<Value> {
    let schema = Value::Object(tool.input_schema.as_ref().clone());
    match jsonschema::validator_for(&schema) {
        Ok(validator) => validator
            .iter_errors(&Value::Object(params.clone()))
            .map(|error| json!({"path": error.instance_path().to_string(), "message": error.to_string()}))
            .collect(),
        Err(error) => vec![json!({"path": "", "message": format!("invalid schema: {error}")})],
    }
}

/// The structured content, else the text.
fn result_value(result: &CallToolResult) -> Value {
    result
        .structured_content
        .clone()
        .unwrap_or_else(|| Value::String(text_of(result)))
}

fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|text| text.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `app` (MCP and REST routes alike) behind `Authorization: Bearer <token>`, if there is a
/// token: a missing or wrong one gets 401 with a `PERMISSION_ERROR` envelope and a
/// `WWW-Authenticate` challenge.
pub fn protect(app: Router, token: Option<&str>) -> Router {
    match token {
        Some(token) => app.layer(middleware::from_fn_with_state(
            Arc::<str>::from(format!("Bearer {token}")),
            check_token,
        )),
        None => app,
    }
}

async fn check_token(State(expected): State<Arc<str>>, request: Request, next: Next) -> Response {
    let given = request.headers().get(header::AUTHORIZATION);
    if given.is_some_and(|value| value.as_bytes() == expected.as_bytes()) {
        return next.run(request).await;
    }
    let message = if given.is_some() {
        "the bearer token is wrong"
    } else {
        "a bearer token is required"
    };
    let body = json!({
        "success": false,
        "error": {"code": "PERMISSION_ERROR", "message": message},
        "metadata": {
            "executionId": null,
            "duration": 0,
            "timestamp": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        },
    });
    (
        StatusCode::UNAUTHORIZED,
        [(header::WWW_AUTHENTICATE, r#"Bearer realm="weather-server""#)],
        Json(body),
    )
        .into_response()
}

async fn version_header(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    response
        .headers_mut()
        .insert("x-mcp-version", HeaderValue::from_static(VERSION));
    response
}
