//! `lint-twin-rmcp`: one side of one lint twin, served by rmcp (the Rust SDK) over stdio, the
//! Rust twin of `tests/peers/lint_twins_server.py` and `.mjs`: the same definitions, listed as
//! given.
//!
//! ```sh
//! lint-twin-rmcp TWIN_JSON vulnerable|safe
//! ```
//!
//! TWIN_JSON is one line of `python lint_twins_server.py --list`. The tool, TWIN with `-` as
//! `_`, answers "ok" to arguments its schema's required properties are in (a tool error
//! otherwise); an unknown tool is a JSON-RPC error -32602.

use std::process::ExitCode;

use rmcp::{
    ErrorData, RoleServer, ServerHandler, ServiceExt,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
        ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    },
    service::RequestContext,
};
use serde_json::{Value, json};

/// A server of one tool, as given.
#[derive(Debug, Clone)]
struct Twin {
    tool: Tool,
}

impl ServerHandler for Twin {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("lint-twin-rmcp", "1.0.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![self.tool.clone()]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != self.tool.name {
            return Err(ErrorData::invalid_params(
                format!("Unknown tool: {}", request.name),
                None,
            ));
        }
        let given = request.arguments.unwrap_or_default();
        let required = self.tool.input_schema.get("required").cloned();
        let missing = required
            .as_ref()
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .find(|name| !given.contains_key(*name));
        let result = match missing {
            Some(name) => CallToolResult::error(vec![ContentBlock::text(format!(
                "missing required argument `{name}`"
            ))]),
            None => CallToolResult::success(vec![ContentBlock::text("ok")]),
        };
        Ok(result.into())
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [twin, side] = args.as_slice() else {
        eprintln!("usage: lint-twin-rmcp TWIN_JSON vulnerable|safe");
        return ExitCode::from(2);
    };
    let twin: Value = match serde_json::from_str(twin) {
        Ok(twin) => twin,
        Err(error) => {
            eprintln!("lint-twin-rmcp: TWIN_JSON is not JSON: {error}");
            return ExitCode::from(2);
        }
    };
    let definition = json!({
        "name": twin[side]["name"]
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| twin["twin"].as_str().unwrap_or("twin").replace('-', "_")),
        "description": twin[side]["description"],
        "inputSchema": twin[side]["inputSchema"],
    });
    let tool: Tool = match serde_json::from_value(definition) {
        Ok(tool) => tool,
        Err(error) => {
            eprintln!("lint-twin-rmcp: not a tool definition: {error}");
            return ExitCode::from(2);
        }
    };
    let served = match (Twin { tool }).serve(rmcp::transport::stdio()).await {
        Ok(running) => running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Err(error) => Err(error.to_string()),
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("lint-twin-rmcp: {error}");
            ExitCode::FAILURE
        }
    }
}
