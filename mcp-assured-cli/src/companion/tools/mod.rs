//! The companion's tools, one module each (`tool_definition()` and `handle_call(..)`), and
//! what they share: reading arguments and finding the connection to use.

mod call_tool;
mod check_server;
mod complete;
mod connect_to_server;
mod get_connection_status;
mod get_notifications;
mod get_prompt;
mod list_tools;
mod read_resource;
mod run_server_tests;

use std::{sync::Arc, time::Instant};

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::json;

use super::{
    answer::Answer,
    errors::ErrorType,
    secrets,
    state::{Connection, Connections},
};

/// Every tool, as `tools/list` shows them.
pub(crate) fn definitions() -> Vec<Tool> {
    vec![
        connect_to_server::connect_definition(),
        connect_to_server::disconnect_definition(),
        get_connection_status::status_definition(),
        get_connection_status::list_definition(),
        list_tools::definition(),
        call_tool::definition(),
        read_resource::list_definition(),
        read_resource::templates_definition(),
        read_resource::read_definition(),
        get_prompt::list_definition(),
        get_prompt::get_definition(),
        complete::ping_definition(),
        complete::complete_definition(),
        complete::set_logging_level_definition(),
        get_notifications::definition(),
        run_server_tests::definition(),
        check_server::definition(),
    ]
}

/// Runs the tool called `name`; `None` if there is none.
pub(crate) async fn call(
    connections: &Connections,
    name: &str,
    args: JsonObject,
    started: Instant,
) -> Option<Answer> {
    let call = Call {
        connections,
        args,
        started,
    };
    Some(match name {
        connect_to_server::CONNECT => connect_to_server::connect(call).await,
        connect_to_server::DISCONNECT => connect_to_server::disconnect(call).await,
        get_connection_status::STATUS => get_connection_status::status(call).await,
        get_connection_status::LIST => get_connection_status::list(call).await,
        list_tools::NAME => list_tools::handle_call(call).await,
        call_tool::NAME => call_tool::handle_call(call).await,
        read_resource::LIST => read_resource::list(call).await,
        read_resource::TEMPLATES => read_resource::templates(call).await,
        read_resource::READ => read_resource::read(call).await,
        get_prompt::LIST => get_prompt::list(call).await,
        get_prompt::GET => get_prompt::get(call).await,
        complete::PING => complete::ping(call).await,
        complete::COMPLETE => complete::complete(call).await,
        complete::SET_LOGGING_LEVEL => complete::set_logging_level(call).await,
        get_notifications::NAME => get_notifications::handle_call(call).await,
        run_server_tests::NAME => run_server_tests::handle_call(call).await,
        check_server::NAME => check_server::handle_call(call).await,
        _ => return None,
    })
}

/// One call of a tool: the companion's connections, the arguments, when it started.
pub(crate) struct Call<'a> {
    connections: &'a Connections,
    args: JsonObject,
    started: Instant,
}

impl Call<'_> {
    fn answer(&self) -> Answer {
        Answer::new(self.started)
    }

    /// The arguments as `T`, or an `invalid_arguments` answer saying what is wrong.
    fn parse<T: DeserializeOwned>(&self, tool: &str) -> Result<T, Answer> {
        serde_json::from_value(serde_json::Value::Object(self.args.clone())).map_err(|error| {
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
    async fn prepare<T: OnConnection>(&self, tool: &str) -> Result<(T, Arc<Connection>), Answer> {
        let args: T = self.parse(tool)?;
        let connection = self.connection(args.connection()).await?;
        Ok((args, connection))
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
