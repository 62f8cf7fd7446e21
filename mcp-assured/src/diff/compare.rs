//! Two surfaces compared list by list: items matched by name (URI, URI template), each
//! pair compared member by member; the schemas by [`super::schema`].

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::{
    change::{ChangeKind, Changes, Item, Severity},
    found::Found,
    schema::{Direction, Walk, escape},
    surface::Surface,
};

/// Every change from `old` to `new`, breaking first. The capabilities are compared only
/// when both sides know them (a snapshot does not record them).
pub fn compare(old: &Surface, new: &Surface) -> Changes {
    let mut found = Found::new();
    if let (Some(before), Some(after)) = (&old.capabilities, &new.capabilities) {
        capabilities(&mut found, before, after, "");
    }
    let lists = [
        (Item::Tool, &old.tools, &new.tools),
        (Item::Resource, &old.resources, &new.resources),
        (
            Item::ResourceTemplate,
            &old.resource_templates,
            &new.resource_templates,
        ),
        (Item::Prompt, &old.prompts, &new.prompts),
    ];
    for (item, before, after) in lists {
        items(&mut found, item, before, after);
    }
    Changes::new(found.into_changes())
}

/// The member of an item that names it.
pub(super) fn key_of(item: Item) -> &'static str {
    match item {
        Item::Resource => "uri",
        Item::ResourceTemplate => "uriTemplate",
        _ => "name",
    }
}

fn keyed(item: Item, list: &[Value]) -> BTreeMap<&str, &Value> {
    list.iter()
        .map(|value| (value[key_of(item)].as_str().unwrap_or_default(), value))
        .collect()
}

fn items<'a>(found: &mut Found<'a>, item: Item, old: &'a [Value], new: &'a [Value]) {
    let (before, after) = (keyed(item, old), keyed(item, new));
    let names: BTreeSet<&str> = before.keys().chain(after.keys()).copied().collect();
    for name in names {
        found.at(item, name);
        match (before.get(name), after.get(name)) {
            (Some(old), Some(new)) => match item {
                Item::Tool => tool(found, old, new),
                Item::Prompt => prompt(found, old, new),
                _ => resource(found, old, new),
            },
            (Some(old), None) => {
                let kind = match item {
                    Item::Tool => ChangeKind::ToolRemoved,
                    Item::Resource => ChangeKind::ResourceRemoved,
                    Item::ResourceTemplate => ChangeKind::ResourceTemplateRemoved,
                    _ => ChangeKind::PromptRemoved,
                };
                let message = format!("removed: clients that use this {item} fail");
                found.push(
                    kind,
                    Severity::Breaking,
                    String::new(),
                    message,
                    Some(old),
                    None,
                );
            }
            (None, Some(new)) => {
                let kind = match item {
                    Item::Tool => ChangeKind::ToolAdded,
                    Item::Resource => ChangeKind::ResourceAdded,
                    Item::ResourceTemplate => ChangeKind::ResourceTemplateAdded,
                    _ => ChangeKind::PromptAdded,
                };
                found.push(
                    kind,
                    Severity::Compatible,
                    String::new(),
                    "added".to_owned(),
                    None,
                    Some(new),
                );
            }
            (None, None) => {}
        }
    }
}

/// `member` of `value`, unless absent or `null`.
fn present<'v>(value: &'v Value, member: &str) -> Option<&'v Value> {
    value.get(member).filter(|member| !member.is_null())
}

/// Titles and descriptions (`members` of `old` and `new`, at `pointer`): compatible.
fn texts(found: &mut Found<'_>, old: &Value, new: &Value, pointer: &str, members: &[&str]) {
    for member in members {
        let (before, after) = (old.get(*member), new.get(*member));
        if before != after {
            found.push(
                ChangeKind::DescriptionChanged,
                Severity::Compatible,
                format!("{pointer}/{member}"),
                format!("{member} changed"),
                before,
                after,
            );
        }
    }
}

fn tool<'a>(found: &mut Found<'a>, old: &'a Value, new: &'a Value) {
    texts(found, old, new, "", &["title", "description"]);
    // No input schema reads as `{}`: any arguments.
    static ANY: Value = Value::Null;
    Walk::compare(
        found,
        Direction::Input,
        "/inputSchema",
        present(old, "inputSchema").unwrap_or(&ANY),
        present(new, "inputSchema").unwrap_or(&ANY),
    );
    match (present(old, "outputSchema"), present(new, "outputSchema")) {
        (None, None) => {}
        (None, Some(after)) => found.push(
            ChangeKind::OutputSchemaAdded,
            Severity::Compatible,
            "/outputSchema".to_owned(),
            "output schema added".to_owned(),
            None,
            Some(after),
        ),
        (Some(before), None) => found.push(
            ChangeKind::OutputSchemaRemoved,
            Severity::Breaking,
            "/outputSchema".to_owned(),
            "output schema removed: consumers of its structured content lose the promise of \
             its shape"
                .to_owned(),
            Some(before),
            None,
        ),
        (Some(before), Some(after)) => {
            Walk::compare(found, Direction::Output, "/outputSchema", before, after)
        }
    }
    hints(found, old.get("annotations"), new.get("annotations"));
}

/// A tool's hints, each with its default (MCP's) and the value that promises more.
/// `destructiveHint` and `idempotentHint` mean something only for a tool that is not
/// read-only.
const HINTS: [(&str, bool, bool, &str, &str); 4] = [
    (
        "readOnlyHint",
        false,
        true,
        "now read-only",
        "no longer read-only",
    ),
    (
        "destructiveHint",
        true,
        false,
        "no longer destructive",
        "now destructive",
    ),
    (
        "idempotentHint",
        false,
        true,
        "now idempotent",
        "no longer idempotent",
    ),
    (
        "openWorldHint",
        true,
        false,
        "no longer open-world",
        "now open-world (reaches outside systems)",
    ),
];

/// Annotations that promise less (no longer read-only, now destructive, ...) are breaking:
/// a client that runs a read-only tool without asking, or a policy that allows only
/// non-destructive tools, must now treat it otherwise.
fn hints(found: &mut Found<'_>, old: Option<&Value>, new: Option<&Value>) {
    let hint = |annotations: Option<&Value>, name: &str, default: bool| {
        annotations
            .and_then(|a| a.get(name))
            .and_then(Value::as_bool)
            .unwrap_or(default)
    };
    let read_only = hint(old, "readOnlyHint", false) || hint(new, "readOnlyHint", false);
    for (name, default, promise, stronger, weaker) in HINTS {
        if read_only && matches!(name, "destructiveHint" | "idempotentHint") {
            continue;
        }
        let (before, after) = (hint(old, name, default), hint(new, name, default));
        if before == after {
            continue;
        }
        let (kind, severity, what) = if before == promise {
            (ChangeKind::HintWeakened, Severity::Breaking, weaker)
        } else {
            (ChangeKind::HintStrengthened, Severity::Compatible, stronger)
        };
        found.push(
            kind,
            severity,
            format!("/annotations/{name}"),
            format!("{what} ({name} {before} became {after})"),
            Some(&Value::Bool(before)),
            Some(&Value::Bool(after)),
        );
    }
    let none = Value::Null;
    texts(
        found,
        old.unwrap_or(&none),
        new.unwrap_or(&none),
        "/annotations",
        &["title"],
    );
}

/// A resource or a resource template.
fn resource(found: &mut Found<'_>, old: &Value, new: &Value) {
    texts(found, old, new, "", &["name", "title", "description"]);
    let (before, after) = (present(old, "mimeType"), present(new, "mimeType"));
    if before != after {
        // A client may parse the content by its type; stating one, or no longer, changes
        // nothing it could rely on.
        let severity = match (before, after) {
            (Some(_), Some(_)) => Severity::Breaking,
            _ => Severity::Compatible,
        };
        found.push(
            ChangeKind::MimeTypeChanged,
            severity,
            "/mimeType".to_owned(),
            format!(
                "mimeType {} became {}",
                before.map_or("none".to_owned(), Value::to_string),
                after.map_or("none".to_owned(), Value::to_string)
            ),
            before,
            after,
        );
    }
}

fn prompt(found: &mut Found<'_>, old: &Value, new: &Value) {
    texts(found, old, new, "", &["title", "description"]);
    let arguments = |prompt: &Value| -> Vec<Value> {
        prompt
            .get("arguments")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let (before, after) = (arguments(old), arguments(new));
    let index = |list: &[Value], name: &str| {
        list.iter()
            .position(|argument| argument["name"].as_str() == Some(name))
    };
    let required = |argument: &Value| argument["required"].as_bool() == Some(true);
    let names: BTreeSet<&str> = before
        .iter()
        .chain(&after)
        .filter_map(|argument| argument["name"].as_str())
        .collect();
    for name in names {
        match (index(&before, name), index(&after, name)) {
            (Some(o), Some(n)) => {
                let pointer = format!("/arguments/{n}");
                texts(
                    found,
                    &before[o],
                    &after[n],
                    &pointer,
                    &["title", "description"],
                );
                let (was, is) = (required(&before[o]), required(&after[n]));
                let (kind, severity, message) = match (was, is) {
                    (false, true) => (
                        ChangeKind::PromptArgumentMadeRequired,
                        Severity::Breaking,
                        format!("argument `{name}` is now required"),
                    ),
                    (true, false) => (
                        ChangeKind::PromptArgumentMadeOptional,
                        Severity::Compatible,
                        format!("argument `{name}` is now optional"),
                    ),
                    _ => continue,
                };
                found.push(
                    kind,
                    severity,
                    format!("{pointer}/required"),
                    message,
                    Some(&Value::Bool(was)),
                    Some(&Value::Bool(is)),
                );
            }
            (None, Some(n)) => {
                let (kind, severity, message) = if required(&after[n]) {
                    (
                        ChangeKind::RequiredPromptArgumentAdded,
                        Severity::Breaking,
                        format!(
                            "required argument `{name}` added: clients that do not give it \
                             are refused"
                        ),
                    )
                } else {
                    (
                        ChangeKind::OptionalPromptArgumentAdded,
                        Severity::Compatible,
                        format!("optional argument `{name}` added"),
                    )
                };
                found.push(
                    kind,
                    severity,
                    format!("/arguments/{n}"),
                    message,
                    None,
                    Some(&after[n]),
                );
            }
            // Prompts have no schema to say unknown arguments are welcome, and SDKs differ:
            // a client that gives it may be refused, or have it ignored.
            (Some(o), None) => found.push(
                ChangeKind::PromptArgumentRemoved,
                Severity::Breaking,
                format!("/arguments/{o}"),
                format!("argument `{name}` removed: clients that give it may be refused"),
                Some(&before[o]),
                None,
            ),
            (None, None) => {}
        }
    }
}

/// Whether a capability (or a flag of one) is offered: present, and not `false` or `null`.
fn offered(value: Option<&Value>) -> bool {
    value.is_some_and(|value| !matches!(value, Value::Null | Value::Bool(false)))
}

/// The capabilities, member by member and into each object: `tools`, `tools.listChanged`,
/// `resources.subscribe`, `experimental.x`, ...
fn capabilities(found: &mut Found<'_>, old: &Value, new: &Value, pointer: &str) {
    let empty = Map::new();
    let before = old.as_object().unwrap_or(&empty);
    let after = new.as_object().unwrap_or(&empty);
    let names: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    for name in names {
        let at = format!("{pointer}/{}", escape(name));
        let path = at.trim_start_matches('/').replace('/', ".");
        let (was, is) = (before.get(name), after.get(name));
        match (offered(was), offered(is)) {
            (true, false) => found.push(
                ChangeKind::CapabilityRemoved,
                Severity::Breaking,
                at,
                format!("capability `{path}` dropped"),
                was,
                is,
            ),
            (false, true) => found.push(
                ChangeKind::CapabilityAdded,
                Severity::Compatible,
                at,
                format!("capability `{path}` added"),
                was,
                is,
            ),
            (true, true) => {
                if let (Some(was @ Value::Object(_)), Some(is @ Value::Object(_))) = (was, is) {
                    capabilities(found, was, is, &at);
                }
            }
            (false, false) => {}
        }
    }
}
