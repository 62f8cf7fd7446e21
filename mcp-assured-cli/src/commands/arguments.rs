//! `--arg name=value` and `--args-json JSON`: the arguments of a tool call or a prompt.

use clap::Args;
use serde_json::{Map, Value};

#[derive(Debug, Args)]
pub(crate) struct Arguments {
    /// An argument, `name=value`; the value is read as JSON when it is JSON (`n=3`,
    /// `flag=true`, `list=[1,2]`), as a string otherwise (repeatable).
    #[arg(long = "arg", short = 'a', value_name = "NAME=VALUE")]
    args: Vec<String>,
    /// All the arguments as one JSON object (merged under --arg).
    #[arg(long, value_name = "JSON")]
    args_json: Option<String>,
}

impl Arguments {
    /// The arguments as one object.
    pub(crate) fn object(&self) -> Result<Map<String, Value>, String> {
        let mut arguments = match &self.args_json {
            Some(json) => match serde_json::from_str(json) {
                Ok(Value::Object(object)) => object,
                Ok(other) => return Err(format!("--args-json must be an object, not {other}")),
                Err(error) => return Err(format!("--args-json is not JSON: {error}")),
            },
            None => Map::new(),
        };
        for pair in &self.args {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("--arg {pair:?}: expected name=value"))?;
            let value =
                serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_owned()));
            arguments.insert(name.to_owned(), value);
        }
        Ok(arguments)
    }
}
