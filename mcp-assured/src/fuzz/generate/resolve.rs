//! `$ref`s within the one schema a server sends: JSON pointers (`#/$defs/..`,
//! `#/definitions/..`, any `#/..`), anchors and embedded `$id`s. A server's schema cannot
//! make us fetch anything, so a reference that leaves the document is unsupported.

use serde_json::{Map, Value};

use super::Unsupported;

/// The keywords that point at another schema; `$dynamicRef` and `$recursiveRef` are read as
/// plain references, which is what they mean unless a schema is extended from outside.
const REFERENCE_KEYWORDS: [&str; 3] = ["$ref", "$dynamicRef", "$recursiveRef"];

/// A referenced schema and where it is, for messages.
#[derive(Debug)]
pub(super) struct Target<'a> {
    pub(super) schema: &'a Value,
    pub(super) at: String,
}

/// The reference in `schema`, if any, with the keyword that holds it.
pub(super) fn reference_of(schema: &Map<String, Value>) -> Option<(&'static str, &str)> {
    REFERENCE_KEYWORDS
        .iter()
        .find_map(|keyword| Some((*keyword, schema.get(*keyword)?.as_str()?)))
}

/// `token` as one JSON pointer segment (`~` and `/` escaped).
pub(super) fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The pointer to `token` under `at`.
pub(super) fn child(at: &str, token: impl AsRef<str>) -> String {
    format!("{at}/{}", escape(token.as_ref()))
}

/// The schema `reference` points at; `at` is where the reference is, for the error.
pub(super) fn resolve<'a>(
    root: &'a Value,
    reference: &str,
    at: &str,
) -> Result<Target<'a>, Unsupported> {
    let (base, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    let resource = if base.is_empty() || Some(base) == root_id(root) {
        Target {
            schema: root,
            at: String::new(),
        }
    } else {
        find(root, String::new(), &|schema| {
            schema.get("$id").and_then(Value::as_str).is_some_and(|id| {
                let id = id.trim_end_matches('#');
                id == base || id.ends_with(&format!("/{base}"))
            })
        })
        .ok_or_else(|| {
            Unsupported::new(
                at,
                format!("remote $ref `{reference}` is not supported: only references within the schema are"),
            )
        })?
    };
    let fragment = percent_encoding::percent_decode_str(fragment).decode_utf8_lossy();
    let missing = || Unsupported::new(at, format!("$ref `{reference}` points at nothing"));
    if fragment.is_empty() {
        Ok(resource)
    } else if fragment.starts_with('/') {
        let schema = resource.schema.pointer(&fragment).ok_or_else(missing)?;
        Ok(Target {
            schema,
            at: format!("{}{fragment}", resource.at),
        })
    } else {
        let hash_id = format!("#{fragment}");
        find(resource.schema, resource.at, &|schema| {
            ["$anchor", "$dynamicAnchor"]
                .iter()
                .any(|keyword| schema.get(*keyword).and_then(Value::as_str) == Some(&fragment))
                || schema.get("$id").and_then(Value::as_str) == Some(&hash_id)
        })
        .ok_or_else(missing)
    }
}

fn root_id(root: &Value) -> Option<&str> {
    Some(root.get("$id")?.as_str()?.trim_end_matches('#'))
}

/// The first schema under `schema` (itself included) that `wanted` accepts.
fn find<'a>(
    schema: &'a Value,
    at: String,
    wanted: &dyn Fn(&Map<String, Value>) -> bool,
) -> Option<Target<'a>> {
    match schema {
        Value::Object(map) if wanted(map) => Some(Target { schema, at }),
        Value::Object(map) => map
            .iter()
            .find_map(|(key, value)| find(value, child(&at, key), wanted)),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(index, value)| find(value, child(&at, index.to_string()), wanted)),
        _ => None,
    }
}
