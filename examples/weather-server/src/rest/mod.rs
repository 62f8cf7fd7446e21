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
//! | slower than `context.timeout` | 504 | `TIMEOUT_ERROR` |
//! | missing or wrong bearer token | 401 | `PERMISSION_ERROR` |
//! | over the rate limit (with `Retry-After`) | 429 | `RATE_LIMIT_ERROR` |
//! | a path that is none of the endpoints (with or without a token) | 404 | `NOT_FOUND` |
//!
//! The spec names no code for 413 and 405; both are requests the endpoint cannot accept, so
//! `VALIDATION_ERROR`, with `details` naming the limit or the allowed method. An unknown path
//! reaches no endpoint at all, and each of the spec's codes would misname it (`TOOL_NOT_FOUND`
//! says a tool is missing), so it is `NOT_FOUND`, outside the spec, with `details` listing
//! the endpoints; clients that keep unknown codes, as mcp-assured's does, see it as it is.
//!
//! [`RestOptions::drift`] makes deliberately wrong variants, one [`Drift`] per parity check.

mod envelope;
mod execute;
mod guard;
mod options;

use std::sync::Arc;

use axum::{
    Json, Router,
    extract::{DefaultBodyLimit, State},
    routing::{get, post},
};
use rmcp::model::Tool;
use serde_json::{Value, json};

pub use options::{DEFAULT_MAX_BODY_BYTES, Drift, RestOptions};

use crate::{WeatherServer, api::WeatherApi, tools};
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
    api: Arc<WeatherApi>,
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

/// `mcp` (the MCP route) and the REST routes for `server`'s tools in one app, each behind the
/// bearer token of `options` if it has one, every answer with `X-MCP-Version`.
pub fn hybrid_router(server: &WeatherServer, mcp: Router, options: RestOptions) -> Router {
    let executions = Arc::new(Executions::default());
    let token = options.bearer_token.clone();
    let token = token.as_deref();
    let auth_drift = options.drifts(Drift::Auth);
    let limit = options.max_body_bytes;
    let rest = Arc::new(Rest {
        api: server.api(),
        rate_limit: options.rate_limit.map(RateLimit::new),
        tools: surface(&options),
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
            guard::protect(execute, token, Accept::Exact, &executions),
            Accept::Exact,
        )
    };
    let app = guard::protect(list, token, Accept::Exact, &executions)
        .merge(execute)
        .merge(guard::protect(mcp, token, mcp_accepts, &executions));
    guard::version_header(guard::not_found(app, &executions))
}

/// The tools as this surface lists them (drifted, if asked).
fn surface(options: &RestOptions) -> Vec<SurfaceTool> {
    tools::definitions()
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
            let metadata = tool
                .meta
                .as_ref()
                .and_then(|meta| meta.get("metadata"))
                .cloned()
                .unwrap_or(Value::Null);
            json!({
                "name": tool.name,
                "description": tool.description,
                "inputSchema": tool.input_schema,
                "metadata": metadata,
            })
        })
        .collect();
    Json(json!({ "version": VERSION, "tools": tools }))
}
