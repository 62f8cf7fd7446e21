//! The tools, one module each.
//!
//! Each module adds an `impl ExampleServer` block whose `#[tool_router]` yields a router for
//! its tool(s); [`router`] joins them. The `#[tool]` macro gives every tool the two halves of
//! our tool-module interface: `ExampleServer::<tool>_tool_attr()`, the definition with its
//! JSON schemas, and the method itself, the handler.

mod add;
mod add_tool;
mod crash;
mod echo;
mod elicit;
mod fail;
mod hang;
mod log;
mod progress;
mod roots;
mod sample;
mod slow;
mod touch_resource;
mod weather;
mod whole_number;

use rmcp::handler::server::router::tool::ToolRouter;

use crate::ExampleServer;

pub(crate) use add_tool::EXTRA;

pub(crate) fn router() -> ToolRouter<ExampleServer> {
    ExampleServer::add_router()
        + ExampleServer::add_tool_router()
        + ExampleServer::crash_router()
        + ExampleServer::echo_router()
        + ExampleServer::elicit_router()
        + ExampleServer::fail_router()
        + ExampleServer::hang_router()
        + ExampleServer::log_router()
        + ExampleServer::progress_router()
        + ExampleServer::roots_router()
        + ExampleServer::sample_router()
        + ExampleServer::slow_router()
        + ExampleServer::touch_resource_router()
        + ExampleServer::weather_router()
}

/// A notification could not be sent because the connection is closing; the error will most
/// likely not reach the client either.
fn notification_failed(error: rmcp::service::ServiceError) -> rmcp::ErrorData {
    rmcp::ErrorData::internal_error(format!("could not send a notification: {error}"), None)
}
