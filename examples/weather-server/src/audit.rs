//! [`AuditLog`]: server-wide hooks that write one JSON line per hook to a file
//! (`--audit-log FILE`): `beforeExecute`, `afterExecute` and `onError`, with the tool, the
//! face, the argument names (not their values) and, on error, the code and message.

use std::{
    fs::{File, OpenOptions},
    io::{self, Write},
    path::Path,
    sync::Mutex,
};

use rmcp::model::CallToolResult;
use serde_json::{Value, json};

use crate::{
    policy::Refusal,
    tools::hooks::{Call, HookFuture, ToolHooks},
};

/// Appends every hook's event to a file, one JSON object a line.
#[derive(Debug)]
pub struct AuditLog {
    file: Mutex<File>,
}

impl AuditLog {
    /// Appends to `path`, creating it.
    ///
    /// # Errors
    ///
    /// If the file cannot be opened for appending.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Self> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Self {
            file: Mutex::new(file),
        })
    }

    fn write(&self, hook: &str, call: &Call<'_>, more: Value) {
        let mut line = json!({
            "hook": hook,
            "tool": call.tool,
            "face": call.face.as_str(),
            "params": call.params.keys().collect::<Vec<_>>(),
            "at": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        });
        if let (Value::Object(line), Value::Object(more)) = (&mut line, more) {
            line.extend(more);
        }
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // An audit line that cannot be written must not fail the call; it is logged.
        if let Err(error) = writeln!(file, "{line}") {
            tracing::warn!("audit log: {error}");
        }
    }
}

impl ToolHooks for AuditLog {
    fn before_execute<'a>(&'a self, call: &'a Call<'a>) -> HookFuture<'a, Result<(), Refusal>> {
        self.write("beforeExecute", call, json!({}));
        Box::pin(async { Ok(()) })
    }

    fn after_execute<'a>(
        &'a self,
        call: &'a Call<'a>,
        result: &'a CallToolResult,
    ) -> HookFuture<'a, ()> {
        let structured = result.structured_content.is_some();
        self.write("afterExecute", call, json!({ "structured": structured }));
        Box::pin(async {})
    }

    fn on_error<'a>(&'a self, call: &'a Call<'a>, error: &'a Refusal) -> HookFuture<'a, ()> {
        self.write(
            "onError",
            call,
            json!({ "code": error.code, "message": error.message }),
        );
        Box::pin(async {})
    }
}
