//! The companion's tools, one module each, named after the tool: its `definition()` and its
//! `handle_call(..)`, registered together in [`TOOLS`]. And what they share: reading
//! arguments, finding the connection to use, answering a listing.

mod call_tool;
mod check_server;
mod complete;
mod connect_to_server;
mod disconnect;
mod fuzz_server;
mod get_connection_status;
mod get_notifications;
mod get_prompt;
mod lint_server;
mod list_connections;
mod list_prompts;
mod list_resource_templates;
mod list_resources;
mod list_tools;
mod ping;
mod read_resource;
mod run_server_tests;
mod set_logging_level;

use std::{
    collections::HashMap,
    pin::Pin,
    sync::{Arc, LazyLock},
    time::Instant,
};

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::{
    answer::Answer,
    clock::{iso, now},
    errors::{ErrorType, Operation, classify, details},
    secrets,
    state::{Connection, Connections},
};

/// A tool's definition and its handler, taken together from its module by [`tool!`].
struct ToolEntry {
    definition: fn() -> Tool,
    handle: for<'a> fn(Call<'a>) -> Handling<'a>,
    /// The module, which a test checks is named after the tool.
    #[cfg(test)]
    module: &'static str,
}

type Handling<'a> = Pin<Box<dyn Future<Output = Answer> + Send + 'a>>;

/// The [`ToolEntry`] of the tool module `$module`.
macro_rules! tool {
    ($module:ident) => {
        ToolEntry {
            definition: $module::definition,
            handle: |call| Box::pin($module::handle_call(call)),
            #[cfg(test)]
            module: stringify!($module),
        }
    };
}

/// Every tool, in the order `tools/list` shows them. Adding a tool is adding its module and
/// a line here.
const TOOLS: &[ToolEntry] = &[
    tool!(connect_to_server),
    tool!(disconnect),
    tool!(get_connection_status),
    tool!(list_connections),
    tool!(list_tools),
    tool!(call_tool),
    tool!(list_resources),
    tool!(list_resource_templates),
    tool!(read_resource),
    tool!(list_prompts),
    tool!(get_prompt),
    tool!(ping),
    tool!(complete),
    tool!(set_logging_level),
    tool!(get_notifications),
    tool!(run_server_tests),
    tool!(check_server),
    tool!(fuzz_server),
    tool!(lint_server),
];

/// The definitions, built once (their schemas come from schemars), and which entry of
/// [`TOOLS`] each name calls: the name is the definition's own.
struct Registry {
    definitions: Vec<Tool>,
    by_name: HashMap<String, usize>,
}

static REGISTRY: LazyLock<Registry> = LazyLock::new(|| {
    let definitions: Vec<Tool> = TOOLS.iter().map(|tool| (tool.definition)()).collect();
    let by_name = definitions
        .iter()
        .enumerate()
        .map(|(index, tool)| (tool.name.to_string(), index))
        .collect();
    Registry {
        definitions,
        by_name,
    }
});

/// Every tool, as `tools/list` shows them.
pub(crate) fn definitions() -> &'static [Tool] {
    &REGISTRY.definitions
}

/// The tool called `name`.
pub(crate) fn definition(name: &str) -> Option<&'static Tool> {
    let index = *REGISTRY.by_name.get(name)?;
    Some(&REGISTRY.definitions[index])
}

/// Runs the tool called `name`; `None` if there is none.
pub(crate) async fn call(
    connections: &Connections,
    name: &str,
    args: JsonObject,
    started: Instant,
) -> Option<Answer> {
    let index = *REGISTRY.by_name.get(name)?;
    let call = Call {
        connections,
        tool: &REGISTRY.definitions[index].name,
        args,
        started,
    };
    Some((TOOLS[index].handle)(call).await)
}

/// One call of a tool: the companion's connections, the tool's name, the arguments, when it
/// started.
pub(crate) struct Call<'a> {
    connections: &'a Connections,
    tool: &'static str,
    args: JsonObject,
    started: Instant,
}

impl Call<'_> {
    fn answer(&self) -> Answer {
        Answer::new(self.started)
    }

    /// The arguments as `T`, or an `invalid_arguments` answer saying what is wrong.
    fn parse<T: DeserializeOwned>(&self) -> Result<T, Answer> {
        let tool = self.tool;
        serde_json::from_value(Value::Object(self.args.clone())).map_err(|error| {
            let reason = secrets::scrub(&error.to_string(), &self.args);
            self.answer().error(
                ErrorType::InvalidArguments,
                format!("invalid arguments for `{tool}`: {reason}"),
                json!({ "arguments": secrets::redact_arguments(&self.args), "reason": reason }),
            )
        })
    }

    /// The arguments as `T` and the connection they name (or the default one), or the
    /// answer saying why not (`invalid_arguments`, `not_connected`).
    async fn prepare<T: OnConnection>(&self) -> Result<(T, Arc<Connection>), Answer> {
        let args: T = self.parse()?;
        let connection = self.connection(args.connection()).await?;
        Ok((args, connection))
    }

    /// Puts `connection` in the place of the one of its name (its server started again).
    async fn replace(&self, connection: Connection) {
        self.connections.insert(connection, false).await;
    }

    /// The connection named `name` (or the default), or a `not_connected` answer.
    async fn connection(&self, name: Option<&str>) -> Result<Arc<Connection>, Answer> {
        self.connections.get(name).await.map_err(|known| {
            let message = match name {
                Some(name) => format!("no connection named `{name}`"),
                None => "not connected to any MCP server".to_owned(),
            };
            self.answer().error(
                ErrorType::NotConnected,
                message,
                json!({ "connections": known }),
            )
        })
    }
}

/// The answer of a tool that lists one kind of item on a connection: every item under
/// `field`, their count as `metadata.total_{field}`; or why not, saying what `failed`.
async fn listing<F, Fut>(call: Call<'_>, failed: &str, list: F) -> Answer
where
    F: FnOnce(Arc<Connection>) -> Fut,
    Fut: Future<Output = mcp_assured::Result<(&'static str, Value, usize)>>,
{
    let (_, connection) = match call.prepare::<ConnectionOnly>().await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    let answer = call.answer().connection(&connection);
    let answer = match list(connection.clone()).await {
        Ok((field, items, total)) => answer
            .field(field, items)
            .meta(&format!("total_{field}"), total)
            .meta("retrieved_at", iso(now())),
        Err(error) => answer.error(
            classify(&error, Operation::Other),
            format!("{failed} failed: {error}"),
            details(&error),
        ),
    };
    answer.counted(&connection)
}

/// Arguments that may name the connection to use.
trait OnConnection: DeserializeOwned {
    fn connection(&self) -> Option<&str>;
}

/// `OnConnection` for argument structs with a `connection: Option<String>` field.
macro_rules! on_connection {
    ($($args:ty),* $(,)?) => {$(
        impl $crate::companion::tools::OnConnection for $args {
            fn connection(&self) -> Option<&str> {
                self.connection.as_deref()
            }
        }
    )*};
}
use on_connection;

on_connection!(ConnectionOnly);

/// Arguments of tools that take only the optional connection name.
#[derive(Debug, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ConnectionOnly {
    /// Which connection to use (see list_connections); the default one when omitted.
    connection: Option<String>,
}

/// A tool definition with its input schema from `T`.
fn define<T: JsonSchema + 'static>(
    name: &'static str,
    description: &'static str,
    read_only: bool,
) -> Tool {
    Tool::new(name, description, JsonObject::new())
        .with_input_schema::<T>()
        .with_annotations(ToolAnnotations::new().read_only(read_only).open_world(true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tool_module_is_named_after_its_tool() {
        for tool in TOOLS {
            assert_eq!((tool.definition)().name, tool.module);
        }
    }

    #[test]
    fn each_name_calls_its_own_tool() {
        assert_eq!(
            REGISTRY.by_name.len(),
            TOOLS.len(),
            "a name is defined twice"
        );
        for (index, tool) in definitions().iter().enumerate() {
            assert_eq!(REGISTRY.by_name[tool.name.as_ref()], index);
            assert_eq!(definition(&tool.name).map(|t| &t.name), Some(&tool.name));
        }
        assert!(definition("no_such_tool").is_none());
    }
}
