//! Results that remember what they answer: the tool, prompt or resource a result came from,
//! so assertions and snapshots can name it, and the JSON the result arrived as. Each derefs
//! to rmcp's result type and serializes as the server sent it.

use std::ops::Deref;

use rmcp::model::{CallToolResult, GetPromptResult, ReadResourceResult};
use serde::{Serialize, Serializer};
use serde_json::Value;

use super::wire::Wire;

macro_rules! named_result {
    ($(#[$doc:meta])* $name:ident, $inner:ty, $subject:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name {
            $subject: String,
            result: $inner,
            wire: Option<Wire>,
        }

        impl $name {
            /// Pairs a result with what it answers (with no wire JSON: it serializes as
            /// rmcp encodes it).
            pub fn new($subject: impl Into<String>, result: $inner) -> Self {
                $name { $subject: $subject.into(), result, wire: None }
            }

            pub(crate) fn with_wire(mut self, wire: Option<Wire>) -> Self {
                self.wire = wire;
                self
            }

            /// The message the result came in, exactly as the server sent it: `None` only
            /// for a result made with [`new`](Self::new).
            pub fn wire(&self) -> Option<&Wire> {
                self.wire.as_ref()
            }

            /// The result as JSON: as the server sent it, or as rmcp encodes it when there
            /// is no wire JSON.
            pub fn json(&self) -> Value {
                match &self.wire {
                    Some(wire) => wire.json().clone(),
                    None => serde_json::to_value(&self.result).unwrap_or(Value::Null),
                }
            }

            #[doc = concat!("The ", $what, " this result answers.")]
            pub fn $subject(&self) -> &str {
                &self.$subject
            }

            /// The rmcp result itself.
            pub fn into_inner(self) -> $inner {
                self.result
            }
        }

        /// Serializes as the server sent it (see [`wire`](Self::wire)).
        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match &self.wire {
                    Some(wire) => wire.serialize(serializer),
                    None => self.result.serialize(serializer),
                }
            }
        }

        impl Deref for $name {
            type Target = $inner;
            fn deref(&self) -> &$inner {
                &self.result
            }
        }

        impl AsRef<$inner> for $name {
            fn as_ref(&self) -> &$inner {
                &self.result
            }
        }

        impl From<$name> for $inner {
            fn from(named: $name) -> $inner {
                named.result
            }
        }
    };
}

named_result!(
    /// The result of `tools/call`, with the name of the tool that was called.
    ToolResult, CallToolResult, tool, "tool"
);
impl ToolResult {
    /// The text of every text block, joined by newlines (`""` when there is none).
    pub fn text(&self) -> String {
        text_of(&self.result)
    }
}

/// The text of every text block of a tool result, joined by newlines.
pub(crate) fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n")
}

named_result!(
    /// The result of `prompts/get`, with the name of the prompt.
    PromptResult, GetPromptResult, prompt, "prompt"
);
named_result!(
    /// The result of `resources/read`, with the URI that was read.
    ResourceResult, ReadResourceResult, uri, "URI"
);
