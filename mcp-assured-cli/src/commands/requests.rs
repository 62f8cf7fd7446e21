//! The one-request commands: `read URI`, `prompt NAME`, `complete` and `ping`. Each connects,
//! sends its request, prints the complete answer (as JSON, as the server sent it) and exits
//! 1 when the request fails.

use super::stdout::outln;
use std::time::Instant;

use clap::{ArgGroup, Args};
use mcp_assured::{McpClient, model::Reference};
use serde::Serialize;
use serde_json::{Value, json};

use super::{
    arguments::Arguments,
    outcome::{Exit, Failure, Outcome},
    target::Target,
};

#[derive(Debug, Args)]
pub(crate) struct ReadArgs {
    /// The resource's URI, e.g. `file:///logs/today.txt`.
    uri: String,
    #[command(flatten)]
    target: Target,
}

#[derive(Debug, Args)]
pub(crate) struct PromptArgs {
    /// The prompt's name.
    name: String,
    #[command(flatten)]
    arguments: Arguments,
    #[command(flatten)]
    target: Target,
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("reference").required(true).args(["prompt", "resource"])))]
pub(crate) struct CompleteArgs {
    /// Complete an argument of this prompt.
    #[arg(long, value_name = "NAME")]
    prompt: Option<String>,
    /// Complete a variable of this resource template, e.g. `file:///{path}`.
    #[arg(long, value_name = "URI_TEMPLATE")]
    resource: Option<String>,
    /// The argument (or template variable) to complete.
    argument: String,
    /// What has been typed so far.
    #[arg(default_value = "")]
    value: String,
    #[command(flatten)]
    target: Target,
}

#[derive(Debug, Args)]
pub(crate) struct PingArgs {
    #[command(flatten)]
    target: Target,
}

pub(crate) async fn read(args: ReadArgs) -> Outcome {
    let client = args.target.connect().await?;
    let outcome = client.read_resource(&args.uri).await;
    finish(client, outcome.map(|result| result.json())).await
}

pub(crate) async fn prompt(args: PromptArgs) -> Outcome {
    let arguments = args.arguments.object().map_err(Failure::usage)?;
    let client = args.target.connect().await?;
    let outcome = client
        .get_prompt(&args.name, Value::Object(arguments))
        .await;
    finish(client, outcome.map(|result| result.json())).await
}

pub(crate) async fn complete(args: CompleteArgs) -> Outcome {
    let reference = match (&args.prompt, &args.resource) {
        (Some(name), _) => Reference::for_prompt(name.as_str()),
        (None, Some(uri)) => Reference::for_resource(uri.as_str()),
        (None, None) => return Err(Failure::usage("give --prompt NAME or --resource URI")),
    };
    let client = args.target.connect().await?;
    let outcome = client
        .complete(reference, &args.argument, &args.value)
        .await;
    finish(client, outcome.map(|result| as_json(&result))).await
}

/// `ping`, and its round trip: `pong from NAME VERSION in N ms`, or JSON with `--json`.
pub(crate) async fn ping(args: PingArgs, json: bool) -> Outcome {
    let client = args.target.connect().await?;
    let server = client.server_info().clone();
    let started = Instant::now();
    let outcome = client.ping().await;
    let round_trip_ms = started.elapsed().as_secs_f64() * 1e3;
    let _ = client.close().await;
    outcome.map_err(|error| Failure::failed(format!("ping failed: {error}")))?;
    if json {
        let answer = json!({
            "server": {"name": server.name, "version": server.version},
            "protocol_version": server.protocol_version,
            "round_trip_ms": round_trip_ms,
        });
        outln!(
            "{}",
            serde_json::to_string_pretty(&answer).unwrap_or_default()
        );
    } else {
        outln!(
            "pong from {} {} (protocol {}) in {round_trip_ms:.1} ms",
            server.name,
            server.version,
            server.protocol_version
        );
    }
    Ok(Exit::Success)
}

/// Closes the client, then prints the answer or fails with the request's error.
async fn finish(client: McpClient, outcome: mcp_assured::Result<Value>) -> Outcome {
    let _ = client.close().await;
    let answer = outcome.map_err(|error| Failure::failed(error.to_string()))?;
    outln!(
        "{}",
        serde_json::to_string_pretty(&answer).unwrap_or_default()
    );
    Ok(Exit::Success)
}

fn as_json(value: &impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}
