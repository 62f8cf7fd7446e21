//! `mcp-assured list`: what a server offers, tools with their input schemas.

use std::process::ExitCode;

use clap::Args;
use serde_json::json;

use super::target::Target;

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// Print everything as JSON (tools, resources, templates and prompts as advertised).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    target: Target,
}

pub(crate) async fn run(args: ListArgs) -> ExitCode {
    let client = match args.target.connect().await {
        Ok(client) => client,
        Err(error) => {
            eprintln!("mcp-assured: {error}");
            return ExitCode::from(2);
        }
    };
    let capabilities = client.server_info().capabilities.clone();
    let tools = match client.list_tools_json().await {
        Ok(tools) => tools,
        Err(error) => {
            eprintln!("mcp-assured: tools/list failed: {error}");
            return ExitCode::FAILURE;
        }
    };
    let resources = match capabilities.resources {
        Some(_) => client.list_resources().await.unwrap_or_default(),
        None => Default::default(),
    };
    let templates = match capabilities.resources {
        Some(_) => client.list_resource_templates().await.unwrap_or_default(),
        None => Default::default(),
    };
    let prompts = match capabilities.prompts {
        Some(_) => client.list_prompts().await.unwrap_or_default(),
        None => Default::default(),
    };
    let server = client.server_info().clone();
    let _ = client.close().await;
    if args.json {
        let everything = json!({
            "server": server,
            "tools": tools,
            "resources": resources,
            "resource_templates": templates,
            "prompts": prompts,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&everything).unwrap_or_default()
        );
        return ExitCode::SUCCESS;
    }
    println!(
        "{} {} on protocol {}",
        server.name, server.version, server.protocol_version
    );
    println!("\ntools ({}):", tools.len());
    for tool in &tools {
        println!(
            "  {}: {}",
            tool["name"].as_str().unwrap_or("?"),
            tool["description"].as_str().unwrap_or("")
        );
        println!("    input: {}", tool["inputSchema"]);
    }
    println!("\nresources ({}):", resources.len());
    for resource in &resources {
        println!("  {} ({})", resource.uri, resource.name);
    }
    println!("\nresource templates ({}):", templates.len());
    for template in &templates {
        println!("  {}", template.uri_template);
    }
    println!("\nprompts ({}):", prompts.len());
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
        println!("  {}({})", prompt.name, arguments.join(", "));
    }
    ExitCode::SUCCESS
}
