//! `strict-openai` and `strict-anthropic`: whether a tool's input schema is accepted by an
//! LLM provider's strict mode, in which the provider compiles the schema into a grammar and
//! refuses what its subset of JSON Schema does not have. A client that turns strict mode on
//! (OpenAI's Agents SDK does for MCP tools whose schema allows it) drops or rejects the
//! others. The server is valid MCP either way: these findings warn unless the profile is
//! named ([`Lint::profile`](super::Lint::profile)), and each says what to change.
//!
//! Sources, as published in 2026:
//! - OpenAI, "Structured Outputs › Supported schemas" (platform.openai.com/docs/guides/
//!   structured-outputs#supported-schemas), which function calling's `strict: true` uses:
//!   the root is an object and not `anyOf`; every object has `additionalProperties: false`;
//!   every property is in `required` (optional is a union with `null`); the supported
//!   keywords (strings: `pattern`, `format` of date-time, time, date, duration, email,
//!   hostname, ipv4, ipv6, uuid; numbers: `multipleOf`, `minimum`, `maximum`,
//!   `exclusiveMinimum`, `exclusiveMaximum`; arrays: `minItems`, `maxItems`) and not
//!   `allOf`, `not`, `dependentRequired`, `dependentSchemas`, `if`/`then`/`else`; at most
//!   5,000 properties, 10 levels of nesting, 1,000 enum values; function names of
//!   `a-z A-Z 0-9 _ -`, at most 64 characters. `default` is refused in a strict schema
//!   ("'default' is not permitted", openai/openai-agents-python#4390).
//! - Anthropic, "Structured outputs › JSON Schema limitations" (platform.claude.com/docs/
//!   en/build-with-claude/structured-outputs#json-schema-limitations), which strict tool use
//!   uses: every object has `additionalProperties: false`; no numeric constraints
//!   (`minimum`, `maximum`, `multipleOf`, exclusive bounds), no string length constraints
//!   (`minLength`, `maxLength`), no array constraints but `minItems` of 0 or 1; enums of
//!   primitives only; formats date-time, time, date, duration, email, hostname, uri, ipv4,
//!   ipv6, uuid; no recursive schemas; at most 20 strict tools, 24 optional parameters and
//!   16 parameters with `anyOf` or type arrays in one request.

use serde_json::{Map, Value};

use super::{Finding, rules, walk::escape};

/// The provider whose strict mode a schema is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Provider {
    OpenAi,
    Anthropic,
}

const OPENAI_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];
const ANTHROPIC_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];
const OPENAI_REFUSED: &[&str] = &[
    "allOf",
    "not",
    "dependentRequired",
    "dependentSchemas",
    "if",
    "then",
    "else",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
    "minLength",
    "maxLength",
    "default",
];
const ANTHROPIC_REFUSED: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "maxItems",
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "uniqueItems",
    "contains",
];

/// What a walk of one tool's schema found, and counts the limits need.
struct Walk<'a> {
    provider: Provider,
    subject: &'a str,
    found: Vec<Finding>,
    properties: usize,
    enum_values: usize,
    deepest: usize,
    optional: usize,
    unions: usize,
}

impl Walk<'_> {
    fn rule(
        &self,
        openai: &'static rules::Rule,
        anthropic: &'static rules::Rule,
    ) -> &'static rules::Rule {
        match self.provider {
            Provider::OpenAi => openai,
            Provider::Anthropic => anthropic,
        }
    }

    fn push(&mut self, rule: &'static rules::Rule, at: &str, message: String) {
        self.found.push(rule.finding(self.subject, at, message));
    }

    fn schema(&mut self, schema: &Value, at: &str, depth: usize) {
        let Some(members) = schema.as_object() else {
            return;
        };
        self.keywords(members, at);
        if is_object(members) {
            // Levels of nesting are objects inside objects: the root is the first.
            self.deepest = self.deepest.max(depth);
            self.object(members, at, depth);
        }
        if let Some(values) = members.get("enum").and_then(Value::as_array) {
            self.enum_values += values.len();
            if self.provider == Provider::Anthropic
                && values.iter().any(|v| v.is_object() || v.is_array())
            {
                self.push(
                    &rules::ANTHROPIC_KEYWORD,
                    &format!("{at}/enum"),
                    "an enum of objects or arrays: strict tool use takes enums of strings, numbers, booleans and null".into(),
                );
            }
        }
        if let Some(format) = members.get("format").and_then(Value::as_str) {
            let known = match self.provider {
                Provider::OpenAi => OPENAI_FORMATS,
                Provider::Anthropic => ANTHROPIC_FORMATS,
            };
            if !known.contains(&format) {
                let rule = self.rule(&rules::OPENAI_KEYWORD, &rules::ANTHROPIC_KEYWORD);
                self.push(
                    rule,
                    &format!("{at}/format"),
                    format!("`format: {format}` is not among the formats strict mode supports ({}): drop it, or describe the format in `description`", known.join(", ")),
                );
            }
        }
        // OpenAI's strict mode takes recursive schemas; Anthropic's does not.
        if self.provider == Provider::Anthropic
            && members.get("$ref").and_then(Value::as_str) == Some("#")
        {
            self.push(
                &rules::ANTHROPIC_KEYWORD,
                &format!("{at}/$ref"),
                "a recursive schema (`$ref: \"#\"`): strict tool use refuses recursion".into(),
            );
        }
        if self.provider == Provider::Anthropic
            && (members.contains_key("anyOf") || members.get("type").is_some_and(Value::is_array))
        {
            self.unions += 1;
        }
        for (key, nested) in members {
            match key.as_str() {
                "items" | "additionalProperties" | "not" => self.schema(
                    nested,
                    &format!("{at}/{key}"),
                    depth + usize::from(key == "items"),
                ),
                "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                    for (index, item) in nested.as_array().into_iter().flatten().enumerate() {
                        self.schema(item, &format!("{at}/{key}/{index}"), depth);
                    }
                }
                "$defs" | "definitions" => {
                    for (name, item) in nested.as_object().into_iter().flatten() {
                        self.schema(item, &format!("{at}/{key}/{}", escape(name)), depth);
                    }
                }
                _ => {}
            }
        }
    }

    fn keywords(&mut self, members: &Map<String, Value>, at: &str) {
        let refused = match self.provider {
            Provider::OpenAi => OPENAI_REFUSED,
            Provider::Anthropic => ANTHROPIC_REFUSED,
        };
        let rule = self.rule(&rules::OPENAI_KEYWORD, &rules::ANTHROPIC_KEYWORD);
        for keyword in refused {
            if members.contains_key(*keyword) {
                self.push(
                    rule,
                    &format!("{at}/{keyword}"),
                    format!("`{keyword}` is not in strict mode's subset of JSON Schema: drop it, or say it in `description`"),
                );
            }
        }
        if self.provider == Provider::Anthropic
            && members
                .get("minItems")
                .and_then(Value::as_u64)
                .is_some_and(|n| n > 1)
        {
            self.push(
                rule,
                &format!("{at}/minItems"),
                "`minItems` above 1: strict tool use takes 0 or 1 only".into(),
            );
        }
    }

    fn object(&mut self, members: &Map<String, Value>, at: &str, depth: usize) {
        let closed = members.get("additionalProperties") == Some(&Value::Bool(false));
        if !closed {
            let rule = self.rule(&rules::OPENAI_CLOSED, &rules::ANTHROPIC_CLOSED);
            self.push(
                rule,
                at,
                format!(
                    "the object at `{}` is open: add `\"additionalProperties\": false`",
                    display(at)
                ),
            );
        }
        let required: Vec<&str> = members
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let Some(properties) = members.get("properties").and_then(Value::as_object) else {
            return;
        };
        self.properties += properties.len();
        for (name, property) in properties {
            let property_at = format!("{at}/properties/{}", escape(name));
            if !required.contains(&name.as_str()) {
                self.optional += 1;
                if self.provider == Provider::OpenAi {
                    self.push(
                        &rules::OPENAI_ALL_REQUIRED,
                        &property_at,
                        format!(
                            "`{name}` is optional; strict mode requires every property: make `{name}` required and nullable (`\"type\": [{}, \"null\"]`)",
                            type_of(property)
                        ),
                    );
                }
            }
            self.schema(property, &property_at, depth + 1);
        }
    }
}

fn is_object(members: &Map<String, Value>) -> bool {
    match members.get("type") {
        Some(Value::String(kind)) => kind == "object",
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "object"),
        None => members.contains_key("properties"),
        _ => false,
    }
}

fn type_of(schema: &Value) -> String {
    match schema.get("type") {
        Some(Value::String(kind)) => format!("\"{kind}\""),
        _ => "…".to_owned(),
    }
}

fn display(pointer: &str) -> &str {
    if pointer.is_empty() { "/" } else { pointer }
}

/// What one provider's strict mode refuses in one tool.
pub(crate) fn tool_findings(
    provider: Provider,
    subject: &str,
    tool: &Value,
) -> (Vec<Finding>, usize, usize) {
    let mut walk = Walk {
        provider,
        subject,
        found: Vec::new(),
        properties: 0,
        enum_values: 0,
        deepest: 0,
        optional: 0,
        unions: 0,
    };
    let schema = tool.get("inputSchema").unwrap_or(&Value::Null);
    if provider == Provider::OpenAi {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
        let fits = !name.is_empty()
            && name.len() <= 64
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !fits {
            walk.push(
                &rules::OPENAI_NAME,
                "/name",
                format!("`{name}` is not a function name OpenAI takes (a-z, A-Z, 0-9, `_`, `-`; at most 64): clients rename it, or refuse it"),
            );
        }
        if schema.get("anyOf").is_some() || !schema.as_object().is_some_and(is_object) {
            walk.push(
                &rules::OPENAI_ROOT,
                "/inputSchema",
                "the input schema's root is not a plain object schema (`\"type\": \"object\"`, no `anyOf`)".into(),
            );
        }
    }
    walk.schema(schema, "/inputSchema", 1);
    if provider == Provider::OpenAi {
        let limits = [
            (
                walk.properties > 5000,
                format!("{} properties (at most 5,000)", walk.properties),
            ),
            (
                walk.deepest > 10,
                format!("{} levels of nesting (at most 10)", walk.deepest),
            ),
            (
                walk.enum_values > 1000,
                format!("{} enum values (at most 1,000)", walk.enum_values),
            ),
        ];
        for (over, what) in limits {
            if over {
                walk.push(
                    &rules::OPENAI_LIMITS,
                    "/inputSchema",
                    format!("the schema has {what}"),
                );
            }
        }
    }
    (walk.found, walk.optional, walk.unions)
}

/// Anthropic's limits on one request's strict tools, over a whole server: findings about the
/// server itself.
pub(crate) fn anthropic_request_limits(
    tools: usize,
    optional: usize,
    unions: usize,
) -> Vec<Finding> {
    let mut found = Vec::new();
    for (count, limit, what) in [
        (tools, 20, "tools"),
        (optional, 24, "optional parameters"),
        (unions, 16, "parameters with `anyOf` or a type array"),
    ] {
        if count > limit {
            found.push(rules::ANTHROPIC_LIMITS.finding(
                "the server",
                "",
                format!(
                    "{count} {what} across its tools; strict tool use takes at most {limit} in one request: a client sends a subset strict, or none"
                ),
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn rules_of(provider: Provider, tool: &Value) -> Vec<(&'static str, String)> {
        tool_findings(provider, "tool `t`", tool)
            .0
            .into_iter()
            .map(|finding| (finding.rule, finding.location))
            .collect()
    }

    #[test]
    fn a_strict_schema_passes_both_providers() {
        let tool = json!({"name": "get_weather", "inputSchema": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "The city."},
                "unit": {"type": ["string", "null"], "enum": ["C", "F", null]}
            },
            "required": ["city", "unit"],
            "additionalProperties": false
        }});
        assert_eq!(rules_of(Provider::OpenAi, &tool), []);
        assert_eq!(rules_of(Provider::Anthropic, &tool), []);
    }

    #[test]
    fn an_optional_property_and_an_open_object_fail_openai_with_the_fix() {
        let tool = json!({"name": "search", "inputSchema": {
            "type": "object",
            "properties": {"q": {"type": "string"}, "limit": {"type": "integer", "default": 10}},
            "required": ["q"]
        }});
        let found = tool_findings(Provider::OpenAi, "tool `search`", &tool).0;
        let rules: Vec<&str> = found.iter().map(|finding| finding.rule).collect();
        assert_eq!(
            rules,
            [
                "strict-openai.closed-object",
                "strict-openai.all-required",
                "strict-openai.keyword"
            ]
        );
        assert!(
            found[1].message.contains(
                "make `limit` required and nullable (`\"type\": [\"integer\", \"null\"]`)"
            ),
            "{}",
            found[1].message
        );
        // Anthropic takes optional properties and defaults; it wants the object closed.
        assert_eq!(
            rules_of(Provider::Anthropic, &tool),
            [("strict-anthropic.closed-object", "/inputSchema".to_owned())]
        );
    }

    #[test]
    fn numeric_and_length_constraints_fail_anthropic_only_where_openai_supports_them() {
        let tool = json!({"name": "page", "inputSchema": {
            "type": "object",
            "properties": {"n": {"type": "integer", "minimum": 1}, "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2}},
            "required": ["n", "tags"],
            "additionalProperties": false
        }});
        assert_eq!(rules_of(Provider::OpenAi, &tool), []);
        assert_eq!(
            rules_of(Provider::Anthropic, &tool),
            [
                (
                    "strict-anthropic.keyword",
                    "/inputSchema/properties/n/minimum".to_owned()
                ),
                (
                    "strict-anthropic.keyword",
                    "/inputSchema/properties/tags/minItems".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn recursion_is_refused_by_anthropic_only() {
        let tool = json!({"name": "tree", "inputSchema": {
            "type": "object",
            "properties": {"child": {"$ref": "#"}},
            "required": ["child"],
            "additionalProperties": false
        }});
        assert_eq!(rules_of(Provider::OpenAi, &tool), []);
        assert_eq!(
            rules_of(Provider::Anthropic, &tool),
            [(
                "strict-anthropic.keyword",
                "/inputSchema/properties/child/$ref".to_owned()
            )]
        );
    }

    #[test]
    fn openai_names_and_roots() {
        let tool = json!({"name": "admin.list", "inputSchema": {"anyOf": [{"type": "object"}]}});
        let rules: Vec<&str> = rules_of(Provider::OpenAi, &tool)
            .into_iter()
            .map(|(rule, _)| rule)
            .collect();
        assert!(rules.contains(&"strict-openai.name"), "{rules:?}");
        assert!(rules.contains(&"strict-openai.root"), "{rules:?}");
    }

    #[test]
    fn anthropic_request_limits_name_the_server() {
        assert!(anthropic_request_limits(20, 24, 16).is_empty());
        let found = anthropic_request_limits(21, 30, 0);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].subject, "the server");
    }
}
