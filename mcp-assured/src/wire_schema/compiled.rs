//! A revision's bundled schema, read once, its definitions compiled as messages need them.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, OnceLock, PoisonError},
};

use serde_json::{Value, json};

use super::{REVISIONS, WireViolation};

/// The bundled schemas, in the order of [`REVISIONS`].
const SOURCES: [&str; 4] = [
    include_str!("schemas/2025-03-26.json"),
    include_str!("schemas/2025-06-18.json"),
    include_str!("schemas/2025-11-25.json"),
    include_str!("schemas/2026-07-28.json"),
];

/// Unions of messages, which name every method: a message is held to its own definition.
const UNIONS: [&str; 8] = [
    "ClientRequest",
    "ClientNotification",
    "ClientResult",
    "ClientMessage",
    "ServerRequest",
    "ServerNotification",
    "ServerResult",
    "ServerMessage",
];

/// How much of the schema's description of a property a violation quotes, in characters.
const WORDS_LIMIT: usize = 500;

pub(super) struct Compiled {
    pub(super) revision: &'static str,
    document: Value,
    /// `$defs` (2020-12 schemas) or `definitions` (draft-07 ones).
    defs_key: &'static str,
    /// The definition of each method's request or notification.
    pub(super) method_defs: HashMap<String, String>,
    /// The definition of the result of each request's method.
    pub(super) result_defs: HashMap<String, String>,
    /// The definition of an error response by its code, where the schema has one.
    pub(super) error_defs: HashMap<i64, String>,
    validators: Mutex<HashMap<String, Arc<jsonschema::Validator>>>,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("revision", &self.revision)
            .finish_non_exhaustive()
    }
}

impl Compiled {
    /// The compiled schema of `revision`, read on first use.
    pub(super) fn of(revision: &str) -> Option<&'static Compiled> {
        static COMPILED: [OnceLock<Compiled>; 4] = [const { OnceLock::new() }; 4];
        let at = REVISIONS.iter().position(|known| *known == revision)?;
        Some(COMPILED[at].get_or_init(|| Compiled::read(REVISIONS[at], SOURCES[at])))
    }

    fn read(revision: &'static str, source: &str) -> Compiled {
        // The bundled file is held to the official one by the tests: reading it cannot fail.
        let mut document: Value = serde_json::from_str(source).expect("a bundled schema is JSON");
        let defs_key = if document.get("$defs").is_some() {
            "$defs"
        } else {
            "definitions"
        };
        patch_number_bounds(revision, &mut document, defs_key);
        let mut method_defs = HashMap::new();
        let mut result_defs = HashMap::new();
        let mut error_defs = HashMap::new();
        let defs = document[defs_key].as_object().cloned().unwrap_or_default();
        for (name, definition) in &defs {
            if UNIONS.contains(&name.as_str()) {
                continue;
            }
            let properties = &definition["properties"];
            if let Some(method) = properties["method"]["const"].as_str() {
                method_defs.insert(method.to_owned(), name.clone());
                if let Some(base) = name.strip_suffix("Request") {
                    let result = format!("{base}Result");
                    if defs.contains_key(&result) {
                        result_defs.insert(method.to_owned(), result);
                    }
                }
            }
            for part in properties["error"]["allOf"]
                .as_array()
                .into_iter()
                .flatten()
            {
                if let Some(code) = part["properties"]["code"]["const"].as_i64() {
                    error_defs.insert(code, name.clone());
                }
            }
        }
        Compiled {
            revision,
            document,
            defs_key,
            method_defs,
            result_defs,
            error_defs,
            validators: Mutex::default(),
        }
    }

    fn has(&self, definition: &str) -> bool {
        self.document[self.defs_key].get(definition).is_some()
    }

    /// The first of `names` the schema defines (the envelopes were renamed across
    /// revisions), else the last.
    fn first_of<'a>(&self, names: &[&'a str]) -> &'a str {
        names
            .iter()
            .find(|name| self.has(name))
            .copied()
            .unwrap_or(names[names.len() - 1])
    }

    pub(super) fn validator(&self, definition: &str) -> Option<Arc<jsonschema::Validator>> {
        let mut validators = self
            .validators
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(validator) = validators.get(definition) {
            return Some(validator.clone());
        }
        let root = json!({
            "$schema": self.document["$schema"],
            self.defs_key: self.document[self.defs_key],
            "$ref": format!("#/{}/{definition}", self.defs_key),
        });
        let validator = jsonschema::options()
            .should_validate_formats(true)
            // As the conformance suite: base64 is not checked character by character.
            .with_format("byte", |_: &str| true)
            .build(&root)
            .inspect_err(|error| {
                tracing::warn!(%error, definition, "mcp-assured: a schema definition did not compile")
            })
            .ok()?;
        let validator = Arc::new(validator);
        validators.insert(definition.to_owned(), validator.clone());
        Some(validator)
    }

    pub(super) fn violations(
        &self,
        message: &Value,
        answering: Option<&str>,
    ) -> Vec<WireViolation> {
        if let Value::Array(batch) = message {
            let mut found: Vec<WireViolation> = batch
                .iter()
                .enumerate()
                .flat_map(|(at, message)| {
                    self.violations(message, answering)
                        .into_iter()
                        .map(move |mut violation| {
                            violation.pointer = format!("/{at}{}", violation.pointer);
                            violation
                        })
                })
                .collect();
            let whole = self.hold(message, "JSONRPCMessage", "batch", "");
            if found.is_empty() && !whole.is_empty() {
                found.push(WireViolation {
                    message: "a batch (an array of messages) is not a message in this revision"
                        .to_owned(),
                    ..whole.into_iter().next().expect("not empty")
                });
            }
            return found;
        }
        let method = message.get("method").and_then(Value::as_str);
        if let Some(method) = method {
            let definition = match self.method_defs.get(method) {
                Some(definition) => definition.as_str(),
                None if message.get("id").is_some() => "JSONRPCRequest",
                None => "JSONRPCNotification",
            };
            return self.hold(message, definition, method, "");
        }
        let label = answering.unwrap_or("response");
        if let Some(error) = message.get("error").filter(|error| !error.is_null()) {
            let by_code = error["code"]
                .as_i64()
                .and_then(|code| self.error_defs.get(&code));
            let definition = match by_code {
                Some(definition) => definition.as_str(),
                None => self.first_of(&["JSONRPCErrorResponse", "JSONRPCError"]),
            };
            return self.hold(message, definition, label, "");
        }
        if let Some(result) = message.get("result") {
            let found = self.held_result(result, answering, label);
            if !found.is_empty() {
                return found;
            }
            let envelope = self.first_of(&["JSONRPCResultResponse", "JSONRPCResponse"]);
            return self.hold(message, envelope, label, "");
        }
        vec![WireViolation {
            revision: self.revision.to_owned(),
            method: label.to_owned(),
            definition: "JSONRPCMessage".to_owned(),
            pointer: String::new(),
            message: "not a JSON-RPC request, notification or response (no method, result or \
                      error)"
                .to_owned(),
            schema_says: None,
        }]
    }

    pub(super) fn result_violations(&self, result: &Value, method: &str) -> Vec<WireViolation> {
        self.held_result(result, Some(method), method)
    }

    /// A result held to its own definition: the result of the method it answers, or
    /// `InputRequiredResult` (a task's result is an extension's, held to nothing here).
    fn held_result(
        &self,
        result: &Value,
        answering: Option<&str>,
        label: &str,
    ) -> Vec<WireViolation> {
        let own = match result.get("resultType").and_then(Value::as_str) {
            Some("input_required") if self.has("InputRequiredResult") => {
                Some("InputRequiredResult")
            }
            Some("task") => None,
            _ => answering
                .and_then(|method| self.result_defs.get(method))
                .map(String::as_str),
        };
        match own {
            Some(own) => self.hold(result, own, label, "/result"),
            None => Vec::new(),
        }
    }

    /// Every violation of `definition` by `value`, found at `prefix` of the message.
    fn hold(
        &self,
        value: &Value,
        definition: &str,
        method: &str,
        prefix: &str,
    ) -> Vec<WireViolation> {
        let Some(validator) = self.validator(definition) else {
            return Vec::new();
        };
        validator
            .iter_errors(value)
            .map(|error| {
                let property = match error.kind() {
                    jsonschema::error::ValidationErrorKind::Required { property } => {
                        property.as_str().map(str::to_owned)
                    }
                    _ => None,
                };
                WireViolation {
                    revision: self.revision.to_owned(),
                    method: method.to_owned(),
                    definition: definition.to_owned(),
                    pointer: format!("{prefix}{}", error.instance_path().as_str()),
                    message: error.to_string(),
                    schema_says: self.words_at(error.schema_path().as_str(), property.as_deref()),
                }
            })
            .collect()
    }

    /// The schema's description of what `keyword_path` (a keyword's place in the document)
    /// checks: the missing property's, for `required`; the checked value's otherwise.
    fn words_at(&self, keyword_path: &str, missing: Option<&str>) -> Option<String> {
        let holder = keyword_path
            .rsplit_once('/')
            .map_or("", |(holder, _)| holder);
        let node = self.document.pointer(holder)?;
        let described = match missing {
            Some(property) => node["properties"][property]["description"].as_str(),
            None => node["description"].as_str(),
        }?;
        let words = described.split_whitespace().collect::<Vec<_>>().join(" ");
        Some(if words.chars().count() > WORDS_LIMIT {
            let cut: String = words.chars().take(WORDS_LIMIT).collect();
            format!("{cut}…")
        } else {
            words
        })
    }
}

/// The 2025-06-18 and 2025-11-25 schemas type an elicitation number's `minimum`, `maximum`
/// and `default` as integers where the TypeScript schema they are made from says `number`;
/// the conformance suite loosens them alike, so `1.5` is no violation.
fn patch_number_bounds(revision: &str, document: &mut Value, defs_key: &str) {
    if revision != "2025-06-18" && revision != "2025-11-25" {
        return;
    }
    let properties = &mut document[defs_key]["NumberSchema"]["properties"];
    for key in ["minimum", "maximum", "default"] {
        if let Some(bound) = properties.get_mut(key)
            && bound["type"] == "integer"
        {
            bound["type"] = json!("number");
        }
    }
}
