//! Every string a model reads in a definition, with where it is: the JSON pointer inside
//! the definition and what kind of text it is (a name, a description, a default, …).

use serde_json::Value;

/// What a string in a definition is to the model that reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// The definition's own `name` (a tool's, a prompt's, a prompt argument's, a
    /// resource's), a resource's `uri` and a template's `uriTemplate`.
    Name,
    /// A `title` or a `description`, the definition's or a schema's, and the server's
    /// `instructions`: prose for the model.
    Prose,
    /// A property name or an argument name.
    Key,
    /// A value the schema offers: `default`, `enum`, `const`, `examples`.
    Value,
    /// Anything else that is a string (`type`, `format`, a URI, …).
    Other,
}

/// One string of a definition.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Text<'a> {
    /// Where it is, as a JSON pointer into the definition (`/inputSchema/properties/q/description`);
    /// a key's pointer is the pointer of the object it names.
    pub(crate) pointer: String,
    pub(crate) role: Role,
    pub(crate) text: &'a str,
}

/// The rules `findings` finds in `text` at `pointer`, by id: how the rules' tests read them.
#[cfg(test)]
pub(crate) fn rules_found(
    findings: fn(&str, &Text<'_>) -> Vec<super::Finding>,
    pointer: &str,
    role: Role,
    text: &str,
) -> Vec<&'static str> {
    let text = Text {
        pointer: pointer.into(),
        role,
        text,
    };
    findings("tool `t`", &text)
        .into_iter()
        .map(|finding| finding.rule)
        .collect()
}

#[cfg(test)]
impl<'a> Text<'a> {
    /// A tool's own description, for the rules' tests.
    pub(crate) fn description(text: &'a str) -> Text<'a> {
        Text {
            pointer: "/description".into(),
            role: Role::Prose,
            text,
        }
    }
}

/// Every string in `definition`, keys of `properties` (and of other objects) included.
pub(crate) fn texts(definition: &Value) -> Vec<Text<'_>> {
    let mut found = Vec::new();
    walk(definition, String::new(), Role::Other, &mut found);
    found
}

fn role_of(key: &str, parent: Role) -> Role {
    match key {
        "name" | "uri" | "uriTemplate" if parent == Role::Other => Role::Name,
        "title" | "description" | "instructions" => Role::Prose,
        "default" | "enum" | "const" | "examples" | "example" => Role::Value,
        _ if parent == Role::Value => Role::Value,
        _ => Role::Other,
    }
}

fn walk<'a>(value: &'a Value, pointer: String, role: Role, found: &mut Vec<Text<'a>>) {
    match value {
        Value::String(text) => found.push(Text {
            pointer,
            role,
            text,
        }),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                walk(item, format!("{pointer}/{index}"), role, found);
            }
        }
        Value::Object(members) => {
            // The names of properties (and prompt arguments' objects) are read as keys.
            let names_properties = pointer.ends_with("/properties");
            for (key, member) in members {
                let at = format!("{pointer}/{}", escape(key));
                if names_properties || role == Role::Value {
                    found.push(Text {
                        pointer: at.clone(),
                        role: if role == Role::Value {
                            Role::Value
                        } else {
                            Role::Key
                        },
                        text: key,
                    });
                }
                // A property named `description` is a key, its schema is not prose.
                let member_role = if names_properties {
                    Role::Other
                } else {
                    role_of(key, role)
                };
                walk(member, at, member_role, found);
            }
        }
        _ => {}
    }
}

/// A JSON pointer's escaping of one key (RFC 6901).
pub(crate) fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn finds_every_string_with_its_pointer_and_role() {
        let tool = json!({
            "name": "search",
            "description": "Searches.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "q": {"type": "string", "description": "The query.", "default": "rust"},
                    "description": {"type": "string", "enum": ["a", "b/c"]}
                }
            }
        });
        let found: Vec<(String, Role, &str)> = texts(&tool)
            .into_iter()
            .map(|text| (text.pointer, text.role, text.text))
            .collect();
        for expected in [
            ("/name".to_owned(), Role::Name, "search"),
            ("/description".to_owned(), Role::Prose, "Searches."),
            ("/inputSchema/properties/q".to_owned(), Role::Key, "q"),
            (
                "/inputSchema/properties/q/description".to_owned(),
                Role::Prose,
                "The query.",
            ),
            (
                "/inputSchema/properties/q/default".to_owned(),
                Role::Value,
                "rust",
            ),
            (
                "/inputSchema/properties/description".to_owned(),
                Role::Key,
                "description",
            ),
            (
                "/inputSchema/properties/description/enum/1".to_owned(),
                Role::Value,
                "b/c",
            ),
            ("/inputSchema/type".to_owned(), Role::Other, "object"),
        ] {
            assert!(found.contains(&expected), "{expected:?} in {found:#?}");
        }
    }
}
