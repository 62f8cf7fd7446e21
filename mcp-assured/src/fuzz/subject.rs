//! What a fuzz run calls: a tool, a resource template or a prompt, with the schema its
//! arguments are generated from and the request that carries them.

use std::fmt;

use serde_json::{Map, Value, json};

use super::uri_template;

/// One thing the server offers that takes arguments.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Subject {
    Tool {
        name: String,
        input_schema: Value,
        output_schema: Option<Value>,
        destructive: bool,
        /// Its annotations say `openWorldHint: true` (explicitly): its answers wait on
        /// systems outside the server (the web, a remote API).
        open_world: bool,
    },
    /// A resource template; its variables are strings.
    Template { uri_template: String },
    /// A prompt; its arguments are strings.
    Prompt {
        name: String,
        /// Each argument's name and whether it is required.
        arguments: Vec<(String, bool)>,
    },
}

/// Which of the three a subject is, as named in entries and regression files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum SubjectKind {
    Tool,
    Template,
    Prompt,
}

impl SubjectKind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            SubjectKind::Tool => "tool",
            SubjectKind::Template => "template",
            SubjectKind::Prompt => "prompt",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<SubjectKind> {
        match text {
            "tool" => Some(SubjectKind::Tool),
            "template" => Some(SubjectKind::Template),
            "prompt" => Some(SubjectKind::Prompt),
            _ => None,
        }
    }

    /// The plural that starts its entries' names: `fuzz.tools.greet`.
    pub(crate) fn plural(self) -> &'static str {
        match self {
            SubjectKind::Tool => "tools",
            SubjectKind::Template => "templates",
            SubjectKind::Prompt => "prompts",
        }
    }
}

impl Subject {
    /// A tool as `tools/list` sends it.
    pub(crate) fn tool(tool: &Value) -> Option<Subject> {
        let name = tool.get("name")?.as_str()?.to_owned();
        let input_schema = tool
            .get("inputSchema")
            .cloned()
            .unwrap_or_else(|| json!({"type": "object"}));
        let destructive = tool
            .pointer("/annotations/destructiveHint")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let open_world = tool.pointer("/annotations/openWorldHint") == Some(&Value::Bool(true));
        Some(Subject::Tool {
            name,
            input_schema,
            output_schema: tool.get("outputSchema").cloned(),
            destructive,
            open_world,
        })
    }

    /// A resource template as `resources/templates/list` sends it.
    pub(crate) fn template(template: &Value) -> Option<Subject> {
        Some(Subject::Template {
            uri_template: template.get("uriTemplate")?.as_str()?.to_owned(),
        })
    }

    /// A prompt as `prompts/list` sends it.
    pub(crate) fn prompt(prompt: &Value) -> Option<Subject> {
        let arguments = prompt
            .get("arguments")
            .and_then(Value::as_array)
            .map(|arguments| {
                arguments
                    .iter()
                    .filter_map(|argument| {
                        let name = argument.get("name")?.as_str()?.to_owned();
                        let required = argument
                            .get("required")
                            .and_then(Value::as_bool)
                            .unwrap_or(false);
                        Some((name, required))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(Subject::Prompt {
            name: prompt.get("name")?.as_str()?.to_owned(),
            arguments,
        })
    }

    pub(crate) fn kind(&self) -> SubjectKind {
        match self {
            Subject::Tool { .. } => SubjectKind::Tool,
            Subject::Template { .. } => SubjectKind::Template,
            Subject::Prompt { .. } => SubjectKind::Prompt,
        }
    }

    /// The tool's or prompt's name, or the template's URI template.
    pub(crate) fn name(&self) -> &str {
        match self {
            Subject::Tool { name, .. } | Subject::Prompt { name, .. } => name,
            Subject::Template { uri_template } => uri_template,
        }
    }

    pub(crate) fn is_destructive(&self) -> bool {
        matches!(
            self,
            Subject::Tool {
                destructive: true,
                ..
            }
        )
    }

    /// Whether it is a tool whose annotations say `openWorldHint: true`.
    pub(crate) fn is_open_world(&self) -> bool {
        matches!(
            self,
            Subject::Tool {
                open_world: true,
                ..
            }
        )
    }

    /// The JSON Schema its arguments are generated from: a tool's `inputSchema`; for a
    /// template, an object of its variables; for a prompt, an object of its arguments (all
    /// strings, as the protocol has them).
    pub(crate) fn argument_schema(&self) -> Value {
        match self {
            Subject::Tool { input_schema, .. } => input_schema.clone(),
            Subject::Template { uri_template } => {
                let variables = uri_template::variables(uri_template);
                strings_object(variables.iter().map(|name| (name.as_str(), true)), true)
            }
            Subject::Prompt { arguments, .. } => strings_object(
                arguments
                    .iter()
                    .map(|(name, required)| (name.as_str(), *required)),
                false,
            ),
        }
    }

    /// The request that carries `arguments`: its method and params.
    pub(crate) fn request(&self, arguments: &Value) -> (&'static str, Value) {
        match self {
            Subject::Tool { name, .. } => {
                ("tools/call", json!({"name": name, "arguments": arguments}))
            }
            Subject::Template { uri_template } => (
                "resources/read",
                json!({"uri": uri_template::expand(uri_template, arguments)}),
            ),
            Subject::Prompt { name, .. } => {
                ("prompts/get", json!({"name": name, "arguments": arguments}))
            }
        }
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} `{}`", self.kind().as_str(), self.name())
    }
}

/// `{"type": "object", "properties": {name: {"type": "string"}}, "required": [..]}`; a
/// template's variables are never empty (an empty one expands to nothing and reads another
/// resource).
fn strings_object<'a>(fields: impl Iterator<Item = (&'a str, bool)>, non_empty: bool) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (name, is_required) in fields {
        let schema = if non_empty {
            json!({"type": "string", "minLength": 1})
        } else {
            json!({"type": "string"})
        };
        properties.insert(name.to_owned(), schema);
        if is_required {
            required.push(Value::String(name.to_owned()));
        }
    }
    json!({"type": "object", "properties": properties, "required": required})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_is_open_world_only_when_its_annotations_say_so_explicitly() {
        let tool = |annotations: Value| {
            Subject::tool(&json!({"name": "fetch", "annotations": annotations})).unwrap()
        };
        assert!(tool(json!({"openWorldHint": true})).is_open_world());
        // The protocol's default is `true`, but an unsaid hint says nothing of the tool.
        assert!(!tool(json!({})).is_open_world());
        assert!(!tool(json!({"openWorldHint": false})).is_open_world());
        assert!(!tool(json!({"openWorldHint": "true"})).is_open_world());
    }
}
