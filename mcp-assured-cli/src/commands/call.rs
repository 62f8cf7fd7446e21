//! `mcp-assured call <tool>`: one tool call, its complete result printed as JSON; exit
//! status 1 when the result is a tool error or the call fails.

use super::stdout::outln;
use clap::Args;
use serde_json::Value;

use super::{
    arguments::Arguments,
    outcome::{Exit, Failure, Outcome},
    target::Target,
};

#[derive(Debug, Args)]
pub(crate) struct CallArgs {
    /// The tool to call.
    tool: String,
    #[command(flatten)]
    arguments: Arguments,
    #[command(flatten)]
    target: Target,
}

pub(crate) async fn run(args: CallArgs) -> Outcome {
    let arguments = args.arguments.object().map_err(Failure::usage)?;
    let client = args.target.connect().await?;
    let outcome = client.call_tool(&args.tool, Value::Object(arguments)).await;
    let _ = client.close().await;
    let result = outcome.map_err(|error| Failure::failed(error.to_string()))?;
    outln!(
        "{}",
        serde_json::to_string_pretty(&result.json()).unwrap_or_default()
    );
    Ok(Exit::from_success(result.is_error != Some(true)))
}
