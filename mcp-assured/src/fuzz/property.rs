//! Properties an author states of their own tools: "for every valid input, the answer is a
//! number". A property is a closure of the arguments and the result; what it returns (or a
//! panic inside it, such as a failed assertion) says whether it holds.

use std::{
    fmt,
    panic::{AssertUnwindSafe, catch_unwind},
    sync::Arc,
};

use serde_json::Value;

use crate::results::mcp::ToolResult;

/// What a property closure may return: `bool`, `()` (it holds unless it panicked, so
/// assertions can be used inside), or `Result<(), E>` with `E: Display` (the error says
/// why it does not hold).
pub trait PropertyOutcome {
    /// `Err` with the reason when the property does not hold.
    fn holds(self) -> Result<(), String>;
}

impl PropertyOutcome for bool {
    fn holds(self) -> Result<(), String> {
        if self {
            Ok(())
        } else {
            Err("it returned false".to_owned())
        }
    }
}

impl PropertyOutcome for () {
    fn holds(self) -> Result<(), String> {
        Ok(())
    }
}

impl<E: fmt::Display> PropertyOutcome for Result<(), E> {
    fn holds(self) -> Result<(), String> {
        self.map_err(|error| error.to_string())
    }
}

type Check = dyn Fn(&Value, &ToolResult) -> Result<(), String> + Send + Sync;

/// A named property of a tool's answers; made by [`Fuzz::property`](super::Fuzz::property).
#[derive(Clone)]
pub struct Property {
    name: String,
    /// The tool it is of; `None`: every tool fuzzed.
    tool: Option<String>,
    check: Arc<Check>,
}

impl fmt::Debug for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Property")
            .field("name", &self.name)
            .field("tool", &self.tool)
            .finish_non_exhaustive()
    }
}

/// Whether a property held for one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    Holds,
    Broken(String),
}

impl Property {
    pub(crate) fn new<F, O>(tool: Option<String>, name: impl Into<String>, check: F) -> Property
    where
        F: Fn(&Value, &ToolResult) -> O + Send + Sync + 'static,
        O: PropertyOutcome,
    {
        Property {
            name: name.into(),
            tool,
            check: Arc::new(move |arguments: &Value, result: &ToolResult| {
                check(arguments, result).holds()
            }),
        }
    }

    /// The name it was given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether it is stated of the tool named `tool`.
    pub(crate) fn applies_to(&self, tool: &str) -> bool {
        self.tool.as_deref().is_none_or(|of| of == tool)
    }

    /// Runs the closure; a panic inside it is a broken property, its message the reason.
    pub(crate) fn check(&self, arguments: &Value, result: &ToolResult) -> Verdict {
        match catch_unwind(AssertUnwindSafe(|| (self.check)(arguments, result))) {
            Ok(Ok(())) => Verdict::Holds,
            Ok(Err(why)) => Verdict::Broken(why),
            Err(panic) => Verdict::Broken(
                panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_else(|| "it panicked".to_owned()),
            ),
        }
    }
}
