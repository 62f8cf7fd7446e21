//! [`ToolHooks`]: the hybrid protocol's lifecycle hooks (`beforeExecute`, `afterExecute`,
//! `onError`), part of the tool-module interface. Every method has a default that does
//! nothing, so a module implements only the hooks it needs; the server runs the tool's own
//! hooks and then its server-wide ones (the [audit log](crate::audit::AuditLog)) around
//! every call, on both faces.

use std::{future::Future, pin::Pin};

use rmcp::model::{CallToolResult, JsonObject};

use crate::policy::Refusal;

/// Which face a call came in through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    /// MCP `tools/call`.
    Mcp,
    /// REST `POST /mcp/tools/{name}/execute`.
    Rest,
}

impl Face {
    /// `mcp` or `rest`.
    pub fn as_str(self) -> &'static str {
        match self {
            Face::Mcp => "mcp",
            Face::Rest => "rest",
        }
    }
}

/// One call as the hooks see it.
#[derive(Debug, Clone)]
pub struct Call<'a> {
    /// The tool's (MCP) name.
    pub tool: &'a str,
    /// Its arguments, already checked against its input schema over REST.
    pub params: &'a JsonObject,
    /// Which face it came in through.
    pub face: Face,
}

/// What a hook returns: a future, boxed so that hooks can be picked by tool name at run time
/// (`&dyn ToolHooks`).
pub type HookFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Lifecycle hooks of a tool. `before_execute` runs after the call passed its permission and
/// limit checks and before the tool; an `Err` refuses the call with that error (and
/// `on_error` runs). `after_execute` runs after a result that is no error; `on_error` after
/// a tool error, a refusal by `before_execute`, or a timeout.
///
/// ```
/// use weather_server::tools::hooks::{Call, HookFuture, ToolHooks};
/// use weather_server::policy::Refusal;
///
/// /// Refuses any call on a Sunday.
/// struct Closed(bool);
///
/// impl ToolHooks for Closed {
///     fn before_execute<'a>(&'a self, call: &'a Call<'a>) -> HookFuture<'a, Result<(), Refusal>> {
///         Box::pin(async move {
///             if self.0 {
///                 return Err(Refusal::permission(format!("`{}` is closed today", call.tool)));
///             }
///             Ok(())
///         })
///     }
/// }
/// ```
pub trait ToolHooks: Send + Sync {
    /// Before the tool runs.
    fn before_execute<'a>(&'a self, call: &'a Call<'a>) -> HookFuture<'a, Result<(), Refusal>> {
        let _ = call;
        Box::pin(async { Ok(()) })
    }

    /// After a result that is no error.
    fn after_execute<'a>(
        &'a self,
        call: &'a Call<'a>,
        result: &'a CallToolResult,
    ) -> HookFuture<'a, ()> {
        let _ = (call, result);
        Box::pin(async {})
    }

    /// After the call failed: `error` says how, with the hybrid protocol's code.
    fn on_error<'a>(&'a self, call: &'a Call<'a>, error: &'a Refusal) -> HookFuture<'a, ()> {
        let _ = (call, error);
        Box::pin(async {})
    }
}

/// The hooks of a tool module that keeps every default.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoHooks;

impl ToolHooks for NoHooks {}
