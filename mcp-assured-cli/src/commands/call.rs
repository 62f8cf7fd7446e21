//! `mcp-assured call <tool>`: one tool call, its complete result printed as JSON; exit
//! status 1 when the result is a tool error or the call fails.

use clap::Args;
use serde_json::{Map, Value};

use super::{
    outcome::{Exit, Failure, Outcome},
    target::Target,
};

#[derive(Debug, Args)]
pub(crate) struct CallArgs {
    /// The tool to call.
    tool: String,
    /// An argument, `name=value`; the value is read as JSON when it is JSON (`n=3`,
    /// `flag=true`, `list=[1,2]`), as a string otherwise (repeatable).
    #[arg(long = "arg", short = 'a', value_name = "NAME=VALUE")]
    args: Vec<String>,
    /// All the arguments as one JSON object (merged under --arg).
    #[arg(long, value_name = "JSON")]
    args_json: Option<String>,
    #[command(flatten)]
    target: Target,
}

pub(crate) async fn run(args: CallArgs) -> Outcome {
    let arguments = arguments(&args).map_err(Failure::usage)?;
    let client = args.target.connect().await?;
    let outcome = client.call_tool(&args.tool, Value::Object(arguments)).await;
    let _ = client.close().await;
    let result = outcome.map_err(|error| Failure::failed(error.to_string()))?;
    println!(
        "{}",
        serde_json::to_string_pretty(&result.json()).unwrap_or_default()
    );
    Ok(Exit::from_success(result.is_error != Some(true)))
}

fn arguments(args: &CallArgs) -> Result<Map<String, Value>, String> {
    let mut arguments = match &args.args_json {
        Some(json) => match serde_json::from_str(json) {
            Ok(Value::Object(object)) => object,
            Ok(other) => return Err(format!("--args-json must be an object, not {other}")),
            Err(error) => return Err(format!("--args-json is not JSON: {error}")),
        },
        None => Map::new(),
    };
    for pair in &args.args {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("--arg {pair:?}: expected name=value"))?;
        let value = serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_owned()));
        arguments.insert(name.to_owned(), value);
    }
    Ok(arguments)
}
