//! The same tool modules over plain HTTP, for callers that do not speak MCP (the hybrid-server
//! REST surface): `GET /mcp/tools` lists them, `POST /mcp/tools/{name}/execute` runs one.
//! Every execution and every refusal is the envelope `{success, result | error{code, message,
//! details}, metadata{executionId, duration, timestamp}}`; the listing is the spec's
//! `{version, tools}`. Every answer has an `X-MCP-Version: 1.0` header.
//!
//! | what happened | status | `error.code` |
//! | --- | --- | --- |
//! | the tool ran | 200 | — |
//! | no such tool (whatever the body) | 404 | `TOOL_NOT_FOUND` |
//! | the body or `params` break the tool's input schema | 400 | `VALIDATION_ERROR` |
//! | a body over the size limit (10 MB unless configured) | 413 | `VALIDATION_ERROR` |
//! | a method the endpoint does not take | 405 | `VALIDATION_ERROR` |
//! | the tool failed (the weather API is down, say) | 502 | `EXECUTION_ERROR` |
//! | slower than `context.timeout` or the tool's `maxExecutionTime` | 504 | `TIMEOUT_ERROR` |
//! | missing or unknown bearer token | 401 | `PERMISSION_ERROR` |
//! | a token without the tool's `permissions` | 403 | `PERMISSION_ERROR` |
//! | over the rate limit (with `Retry-After`) | 429 | `RATE_LIMIT_ERROR` |
//! | `maxConcurrency` calls running, the tool rejects more (with `Retry-After`) | 429 | `RATE_LIMIT_ERROR` |
//! | a body over the tool's `maxPayloadSize`, not run | 413 | `VALIDATION_ERROR` |
//! | a path that is none of the endpoints (with or without a token) | 404 | `NOT_FOUND` |
//!
//! The spec names no code for 413 and 405; both are requests the endpoint cannot accept, so
//! `VALIDATION_ERROR`, with `details` naming the limit or the allowed method. An unknown path
//! reaches no endpoint at all, and each of the spec's codes would misname it (`TOOL_NOT_FOUND`
//! says a tool is missing), so it is `NOT_FOUND`, outside the spec, with `details` listing
//! the endpoints; clients that keep unknown codes, as mcp-assured's does, see it as it is.
//!
//! The listing gives each tool's `permissions` and `limits` (see [`crate::policy`]) beside
//! its `metadata`, as the MCP side does in `_meta`.
//!
//! **Streaming.** `POST /mcp/tools/{name}/execute` with `Accept: application/x-ndjson`
//! answers a call that runs with `200` and JSON lines, one object each, as they come:
//! `{"type":"progress","progress":1,"total":3,"message":".."}` for the tool's progress,
//! `{"type":"item","item":{..}}` for each item it writes to its stream, and last
//! `{"type":"result", ..the envelope..}`, the envelope a call without the header gets (a
//! failure after the stream began, a timeout say, is that last line with `success: false`).
//! A call that ends before its first line (refused, invalid, or done without progress) is
//! answered as without the header: its status, one envelope. JSON lines rather than
//! server-sent events: the spec's `stream.write(object)` writes objects, and one object a
//! line is what `curl | jq` and every line reader consume as is; the execute endpoint is a
//! POST, which the browser's `EventSource` cannot send anyway, so SSE's one advantage is
//! moot; and a line cannot be mistaken for part of another, with no `event:`/`data:`
//! framing to get wrong.
//!
//! [`RestOptions::drift`] makes deliberately wrong variants, one [`Drift`] per parity check.

mod envelope;
mod execute;
mod guard;
mod options;
mod stream;

use std::sync::Arc;

use axum::{
    Json, Router,
    extract::{DefaultBodyLimit, State},
    routing::{get, post},
};
use rmcp::model::Tool;
use serde_json::{Value, json};

pub use options::{DEFAULT_MAX_BODY_BYTES, Drift, RestOptions};

use crate::{
    WeatherServer,
    policy::{Grants, Runner},
    tools,
};
use envelope::Executions;
use guard::{Accept, RateLimit};

/// The protocol version this surface speaks, sent as `X-MCP-Version`.
pub const VERSION: &str = "1.0";

/// What this app serves, as a 404 lists it.
const ENDPOINTS: [&str; 3] = [
    "GET /mcp/tools",
    "POST /mcp/tools/{name}/execute",
    "/mcp (MCP, streamable HTTP)",
];

struct Rest {
    runner: Arc<Runner>,
    grants: Arc<Grants>,
    options: RestOptions,
    executions: Arc<Executions>,
    rate_limit: Option<RateLimit>,
    /// The tools as this surface offers them, built once.
    tools: Vec<SurfaceTool>,
}

/// One tool of the surface: its MCP name, its definition here (drifted, if asked), and its
/// input schema compiled once (or why it does not compile).
struct SurfaceTool {
    mcp_name: String,
    tool: Tool,
    schema: Result<jsonschema::Validator, String>,
}

/// `mcp` (the MCP route of `server`) and the REST routes for `server`'s tools in one app,
/// each behind the tokens of `options` if it has any, every answer with `X-MCP-Version`.
/// `server` must have the same tokens ([`WeatherServer::with_grants`] with
/// [`RestOptions::grants`]) for its MCP side to know each caller's scopes;
/// [`serve_hybrid`](crate::serve::serve_hybrid) sees to it.
pub fn hybrid_router(server: &WeatherServer, mcp: Router, options: RestOptions) -> Router {
    let executions = Arc::new(Executions::default());
    let grants = Arc::new(options.grants());
    let auth_drift = options.drifts(Drift::Auth);
    let limit = options.max_body_bytes;
    let rest = Arc::new(Rest {
        runner: server.runner(),
        grants: Arc::clone(&grants),
        rate_limit: options.rate_limit.map(RateLimit::new),
        tools: surface(server, &options),
        options,
        executions: Arc::clone(&executions),
    });
    let list = Router::new().route("/mcp/tools", get(list_tools));
    let list = guard::method_not_allowed(list, "GET", &executions).with_state(Arc::clone(&rest));
    let execute = Router::new()
        .route("/mcp/tools/{name}/execute", post(execute::execute))
        .layer(DefaultBodyLimit::max(limit));
    let execute = guard::method_not_allowed(execute, "POST", &executions).with_state(rest);
    let (execute, mcp_accepts) = if auth_drift {
        (execute, Accept::AnyBearer)
    } else {
        (
            guard::protect(execute, &grants, Accept::Exact, &executions),
            Accept::Exact,
        )
    };
    let app = guard::protect(list, &grants, Accept::Exact, &executions)
        .merge(execute)
        .merge(guard::protect(mcp, &grants, mcp_accepts, &executions));
    guard::version_header(guard::not_found(app, &executions))
}

/// The tools as this surface lists them (drifted, if asked).
fn surface(server: &WeatherServer, options: &RestOptions) -> Vec<SurfaceTool> {
    server
        .tools()
        .into_iter()
        .map(|mut tool| {
            let mcp_name = tool.name.to_string();
            if options.drifts(Drift::Schema) && tool.name == tools::forecast::NAME {
                let mut schema = tool.input_schema.as_ref().clone();
                schema["properties"]["days"]["maximum"] = json!(14);
                tool.input_schema = Arc::new(schema);
            }
            if options.drifts(Drift::Names) && tool.name == tools::weather_alerts::NAME {
                tool.name = "alerts".into();
            }
            if options.drifts(Drift::Descriptions) && tool.name == tools::current_weather::NAME {
                tool.description = Some("The weather now.".into());
            }
            if options.drifts(Drift::Metadata)
                && tool.name == tools::forecast::NAME
                && let Some(metadata) = tool.meta.as_mut().and_then(|meta| meta.get_mut("metadata"))
            {
                // Tags as one string, and a "deprecated" version newer than the tool's.
                metadata["tags"] = json!("weather,forecast");
                metadata["deprecates"] = json!("3.0.0");
            }
            let schema =
                jsonschema::validator_for(&Value::Object(tool.input_schema.as_ref().clone()))
                    .map_err(|error| error.to_string());
            SurfaceTool {
                mcp_name,
                tool,
                schema,
            }
        })
        .collect()
}

async fn list_tools(State(rest): State<Arc<Rest>>) -> Json<Value> {
    let tools: Vec<Value> = rest
        .tools
        .iter()
        .map(|SurfaceTool { tool, .. }| {
            // The metadata the MCP side lists in `_meta.metadata` (drifted, if asked).
            // What the MCP side lists in `_meta` (drifted, if asked): the metadata, the
            // permissions and the limits.
            let listed = |key: &str| {
                tool.meta
                    .as_ref()
                    .and_then(|meta| meta.get(key))
                    .cloned()
                    .unwrap_or(Value::Null)
            };
            json!({
                "name": tool.name,
                "description": tool.description,
                "inputSchema": tool.input_schema,
                "metadata": listed("metadata"),
                "permissions": listed("permissions"),
                "limits": listed("limits"),
            })
        })
        .collect();
    Json(json!({ "version": VERSION, "tools": tools }))
}
