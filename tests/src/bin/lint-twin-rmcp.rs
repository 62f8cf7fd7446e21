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
//! otherwise); an unknown tool is a JSON-RPC error -32602. The side's resources, resource
//! templates and prompts are listed as given (each read or got as "ok"), and its
//! `instructions` are the server's.

use std::process::ExitCode;

use rmcp::{
    ErrorData, RoleServer, ServerHandler, ServiceExt,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock,
        GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation,
        ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
        PaginatedRequestParams, Prompt, PromptMessage, ReadResourceRequestParams,
        ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ResourceTemplate,
        Role, ServerCapabilities, ServerConfig, Tool,
    },
    service::RequestContext,
};
use serde_json::{Value, json};

/// A server of one tool and the side's other items, as given.
#[derive(Debug, Clone)]
struct Twin {
    tool: Tool,
    resources: Vec<Resource>,
    templates: Vec<ResourceTemplate>,
    prompts: Vec<Prompt>,
    instructions: Option<String>,
}

impl ServerHandler for Twin {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder().enable_tools();
        let capabilities = match (
            self.resources.is_empty() && self.templates.is_empty(),
            self.prompts.is_empty(),
        ) {
            (true, true) => capabilities.build(),
            (false, true) => capabilities.enable_resources().build(),
            (true, false) => capabilities.enable_prompts().build(),
            (false, false) => capabilities.enable_resources().enable_prompts().build(),
        };
        let info = ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("lint-twin-rmcp", "1.0.0"));
        match &self.instructions {
            Some(instructions) => info.with_instructions(instructions.clone()),
            None => info,
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(self.resources.clone()))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(
            self.templates.clone(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if !self
            .resources
            .iter()
            .any(|resource| resource.uri == request.uri)
        {
            return Err(ErrorData::resource_not_found(
                format!("Resource not found: {}", request.uri),
                None,
            ));
        }
        Ok(ReadResourceResult::new(vec![ResourceContents::text("ok", request.uri)]).into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(self.prompts.clone()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if !self
            .prompts
            .iter()
            .any(|prompt| prompt.name == request.name)
        {
            return Err(ErrorData::invalid_params(
                format!("Unknown prompt: {}", request.name),
                None,
            ));
        }
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, "ok")]).into())
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

/// The items of a side's list (`resources`, …), none when it has no such list.
fn listed<T: serde::de::DeserializeOwned>(items: &Value) -> Result<Vec<T>, String> {
    if items.is_null() {
        return Ok(Vec::new());
    }
    serde_json::from_value(items.clone()).map_err(|error| format!("not a list of items: {error}"))
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
    let side = &twin[side];
    let items = (
        listed::<Resource>(&side["resources"]),
        listed::<ResourceTemplate>(&side["resourceTemplates"]),
        listed::<Prompt>(&side["prompts"]),
    );
    let (resources, templates, prompts) = match items {
        (Ok(resources), Ok(templates), Ok(prompts)) => (resources, templates, prompts),
        (Err(error), _, _) | (_, Err(error), _) | (_, _, Err(error)) => {
            eprintln!("lint-twin-rmcp: {error}");
            return ExitCode::from(2);
        }
    };
    let twin = Twin {
        tool,
        resources,
        templates,
        prompts,
        instructions: side["instructions"].as_str().map(str::to_owned),
    };
    let served = match twin.serve(rmcp::transport::stdio()).await {
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
