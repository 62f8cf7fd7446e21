//! Results that remember what they answer: the tool, prompt or resource a result came from,
//! so assertions and snapshots can name it. Each derefs to rmcp's result type and serializes
//! exactly as it.

use std::ops::Deref;

use rmcp::model::{CallToolResult, GetPromptResult, ReadResourceResult};
use serde::Serialize;

macro_rules! named_result {
    ($(#[$doc:meta])* $name:ident, $inner:ty, $subject:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(transparent)]
        pub struct $name {
            #[serde(skip)]
            $subject: String,
            result: $inner,
        }

        impl $name {
            /// Pairs a result with what it answers.
            pub fn new($subject: impl Into<String>, result: $inner) -> Self {
                $name { $subject: $subject.into(), result }
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
