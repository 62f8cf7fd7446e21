//! `mcp-assured list`: what a server offers, tools with their input schemas. A list the
//! server advertises but fails to give is reported, and fails the command.

use super::stdout::outln;
use clap::Args;
use mcp_assured_cli::output;
use serde_json::{Map, Value, json};

use super::{
    outcome::{Exit, Outcome},
    target::Target,
};

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    #[command(flatten)]
    target: Target,
}

/// Lists everything; with `json`, as JSON (tools, resources, templates and prompts as
/// advertised, and `errors` for the lists that failed).
pub(crate) async fn run(args: ListArgs, json: bool) -> Outcome {
    let client = args.target.connect().await?;
    let capabilities = client.server_info().capabilities.clone();
    let mut errors = Map::new();
    let mut failed = |list: &str, error: mcp_assured::Error| {
        errors.insert(list.to_owned(), Value::String(error.to_string()));
    };
    let tools = match client.list_tools_json().await {
        Ok(tools) => tools,
        Err(error) => {
            failed("tools", error);
            Vec::new()
        }
    };
    let (resources, templates) = if capabilities.resources.is_some() {
        let resources = client.list_resources().await.unwrap_or_else(|error| {
            failed("resources", error);
            Default::default()
        });
        let templates = client
            .list_resource_templates()
            .await
            .unwrap_or_else(|error| {
                failed("resource_templates", error);
                Default::default()
            });
        (resources, templates)
    } else {
        Default::default()
    };
    let prompts = if capabilities.prompts.is_some() {
        client.list_prompts().await.unwrap_or_else(|error| {
            failed("prompts", error);
            Default::default()
        })
    } else {
        Default::default()
    };
    let server = client.server_info().clone();
    let _ = client.close().await;
    let exit = Exit::from_success(errors.is_empty());
    if json {
        let items = |list: Value| -> Vec<output::McpItem> {
            serde_json::from_value(list).unwrap_or_default()
        };
        let everything = output::List {
            server,
            tools: items(json!(tools)),
            resources: items(json!(resources)),
            resource_templates: items(json!(templates)),
            prompts: items(json!(prompts)),
            errors: (!errors.is_empty()).then_some(errors),
        };
        outln!(
            "{}",
            serde_json::to_string_pretty(&everything).unwrap_or_default()
        );
        return Ok(exit);
    }
    outln!(
        "{} {} on protocol {}",
        server.name,
        server.version,
        server.protocol_version
    );
    outln!("\ntools ({}):", tools.len());
    for tool in &tools {
        outln!(
            "  {}: {}",
            tool["name"].as_str().unwrap_or("?"),
            tool["description"].as_str().unwrap_or("")
        );
        outln!("    input: {}", tool["inputSchema"]);
    }
    outln!("\nresources ({}):", resources.len());
    for resource in &resources {
        outln!("  {} ({})", resource.uri, resource.name);
    }
    outln!("\nresource templates ({}):", templates.len());
    for template in &templates {
        outln!("  {}", template.uri_template);
    }
    outln!("\nprompts ({}):", prompts.len());
    for prompt in &prompts {
        let arguments: Vec<String> = prompt
            .arguments
            .iter()
            .flatten()
            .map(|a| {
                format!(
                    "{}{}",
                    a.name,
                    if a.required == Some(true) { "*" } else { "" }
                )
            })
            .collect();
        outln!("  {}({})", prompt.name, arguments.join(", "));
    }
    for (list, error) in &errors {
        eprintln!(
            "mcp-assured: {list}/list failed: {}",
            error.as_str().unwrap_or_default()
        );
    }
    Ok(exit)
}
