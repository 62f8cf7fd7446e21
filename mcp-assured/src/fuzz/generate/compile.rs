//! JSON Schema to [`Ir`]: what each schema object means for generation, with errors that say
//! where and why nothing can be generated.
//!
//! Combinators are rewritten into plain nodes: `allOf` (and `$ref` beside other keywords in
//! 2019-09 and later) merges into one schema, `anyOf`/`oneOf` become a choice of each branch
//! merged with its siblings, `if`/`then`/`else` a choice of "if and then" or "else",
//! `dependentSchemas` a choice of "present with its schema" or "absent". `not` is left to the
//! final validation. References compile once per target, which is what keeps recursive
//! schemas finite.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::Unsupported;
use super::ir::{Additional, Array, INFINITE, Id, Ir, Kind, Node, Object, Property};
use super::merge::{merge, modernized};
use super::numbers::Numbers;
use super::pattern::{self, Matcher};
use super::resolve::{self, Target, child};
use super::strings::Strings;

/// Keywords that constrain values; a schema with none of them admits anything.
const CONSTRAINTS: &[&str] = &[
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "format",
    "items",
    "prefixItems",
    "additionalItems",
    "maxItems",
    "minItems",
    "uniqueItems",
    "contains",
    "maxContains",
    "minContains",
    "unevaluatedItems",
    "maxProperties",
    "minProperties",
    "required",
    "properties",
    "patternProperties",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
];
const NUMBER_KEYWORDS: &[&str] = &[
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
];
const STRING_KEYWORDS: &[&str] = &["maxLength", "minLength", "pattern"];
const ARRAY_KEYWORDS: &[&str] = &[
    "items",
    "prefixItems",
    "maxItems",
    "minItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedItems",
];
const OBJECT_KEYWORDS: &[&str] = &[
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
    "unevaluatedProperties",
];
/// How long the names drawn for `patternProperties` get.
const KEY_LENGTH: usize = 12;
/// Names tried first for extra properties.
const EXTRA_NAMES: &[&str] = &["extra", "note", "meta", "x_extra"];
/// More parts than this and the schema is refused rather than expanded further.
const MAX_NODES: usize = 20_000;
/// `$ref` and `allOf` hops followed while merging before a cycle is assumed.
const MAX_HOPS: usize = 32;

type Schema = Map<String, Value>;

/// `root` compiled for generation.
pub(super) fn compile(root: &Value) -> Result<Ir, Unsupported> {
    let dialect = root.get("$schema");
    let legacy = dialect.and_then(Value::as_str).is_some_and(|uri| {
        ["draft-04", "draft-06", "draft-07"]
            .iter()
            .any(|d| uri.contains(d))
    });
    let mut compiler = Compiler {
        root,
        dialect,
        legacy,
        nodes: Vec::new(),
        references: HashMap::new(),
        merged: HashMap::new(),
    };
    let root_id = compiler.schema(root, "")?;
    let mut ir = Ir {
        nodes: compiler.nodes,
        root: root_id,
    };
    ir.compute_costs();
    if ir.nodes[ir.root].cost == INFINITE {
        return Err(Unsupported::new(
            "",
            "every value would be infinitely deep: a required property or item refers back to itself",
        ));
    }
    Ok(ir)
}

struct Compiler<'a> {
    root: &'a Value,
    /// The document's `$schema`, which string checks need to treat `format` alike.
    dialect: Option<&'a Value>,
    /// Draft-07 and older, where `$ref` ignores the keywords beside it.
    legacy: bool,
    nodes: Vec<Node>,
    /// Compiled `$ref` targets by pointer, and merged schemas by content: each compiles once,
    /// later uses point at it, so recursion ends.
    references: HashMap<String, Result<Id, Unsupported>>,
    merged: HashMap<String, Result<Id, Unsupported>>,
}

/// Which memo a compilation goes through.
#[derive(Clone, Copy)]
enum Memo {
    References,
    Merged,
}

impl Compiler<'_> {
    fn push(&mut self, kind: Kind) -> Id {
        self.nodes.push(Node {
            kind,
            cost: INFINITE,
        });
        self.nodes.len() - 1
    }

    fn schema(&mut self, schema: &Value, at: &str) -> Result<Id, Unsupported> {
        if self.nodes.len() > MAX_NODES {
            return Err(Unsupported::new(
                at,
                format!("the schema expands to more than {MAX_NODES} parts"),
            ));
        }
        match schema {
            Value::Bool(true) => Ok(self.push(Kind::Any)),
            Value::Bool(false) => Err(Unsupported::new(at, "`false` admits no value")),
            Value::Object(map) => self.object_schema(&modernized(map), at),
            _ => Err(Unsupported::new(
                at,
                "a schema must be an object or a boolean",
            )),
        }
    }

    fn object_schema(&mut self, map: &Schema, at: &str) -> Result<Id, Unsupported> {
        if let Some((keyword, reference)) = resolve::reference_of(map) {
            let mut siblings = map.clone();
            siblings.remove(keyword);
            if self.legacy || !constrains(&siblings) {
                let target = resolve::resolve(self.root, reference, &child(at, keyword))?;
                return self.reference(target);
            }
            let merged = self.prepare(&Value::Object(map.clone()), at, 0)?;
            return self.merged(merged, at);
        }
        if map.contains_key("allOf") {
            let merged = self.prepare(&Value::Object(map.clone()), at, 0)?;
            return self.merged(merged, at);
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(keyword) {
                let mut base = map.clone();
                base.remove(keyword);
                let branches = branches
                    .iter()
                    .enumerate()
                    .map(|(index, branch)| {
                        (
                            branch.clone(),
                            child(&child(at, keyword), index.to_string()),
                        )
                    })
                    .collect();
                return self.choice(&base, branches, &child(at, keyword));
            }
        }
        if map.contains_key("if") {
            return self.condition(map, at);
        }
        if let Some(Value::Object(dependents)) = map.get("dependentSchemas")
            && let Some((name, dependent)) = dependents.iter().next()
        {
            return self.dependent(map, name, dependent, at);
        }
        self.flat(map, at)
    }

    /// A `$ref` target, compiled once.
    fn reference(&mut self, target: Target<'_>) -> Result<Id, Unsupported> {
        self.memoized(Memo::References, target.at.clone(), |compiler| {
            compiler.schema(target.schema, &target.at)
        })
    }

    /// A merged schema, compiled once per content.
    fn merged(&mut self, merged: Schema, at: &str) -> Result<Id, Unsupported> {
        let merged = Value::Object(merged);
        self.memoized(Memo::Merged, merged.to_string(), |compiler| {
            compiler.schema(&merged, at)
        })
    }

    /// Compiles through a memo: a repeat (or a cycle back while compiling) gets a reference
    /// to the first compilation.
    fn memoized(
        &mut self,
        memo: Memo,
        key: String,
        compile: impl FnOnce(&mut Self) -> Result<Id, Unsupported>,
    ) -> Result<Id, Unsupported> {
        let table = match memo {
            Memo::References => &self.references,
            Memo::Merged => &self.merged,
        };
        if let Some(known) = table.get(&key) {
            let target = known.clone()?;
            return Ok(self.push(Kind::Ref(target)));
        }
        let slot = self.push(Kind::Any);
        self.table(memo).insert(key.clone(), Ok(slot));
        match compile(self) {
            Ok(compiled) => {
                self.nodes[slot].kind = Kind::Ref(compiled);
                Ok(slot)
            }
            Err(error) => {
                self.table(memo).insert(key, Err(error.clone()));
                Err(error)
            }
        }
    }

    fn table(&mut self, memo: Memo) -> &mut HashMap<String, Result<Id, Unsupported>> {
        match memo {
            Memo::References => &mut self.references,
            Memo::Merged => &mut self.merged,
        }
    }

    /// `schema` as one map with its top-level `$ref` and `allOf` merged in.
    fn prepare(&self, schema: &Value, at: &str, hops: usize) -> Result<Schema, Unsupported> {
        if hops > MAX_HOPS {
            return Err(Unsupported::new(at, "`$ref`s or `allOf`s merge in a cycle"));
        }
        let mut map = match schema {
            Value::Bool(true) => return Ok(Schema::new()),
            Value::Bool(false) => return Err(Unsupported::new(at, "`false` admits no value")),
            Value::Object(map) => modernized(map),
            _ => {
                return Err(Unsupported::new(
                    at,
                    "a schema must be an object or a boolean",
                ));
            }
        };
        if let Some((keyword, reference)) = resolve::reference_of(&map) {
            let target = resolve::resolve(self.root, reference, &child(at, keyword))?;
            let resolved = self.prepare(target.schema, &target.at, hops + 1)?;
            map.remove(keyword);
            map = if self.legacy {
                resolved
            } else {
                merge(&resolved, &map).map_err(|reason| Unsupported::new(at, reason))?
            };
        }
        if let Some(Value::Array(branches)) = map.remove("allOf") {
            let all_of = child(at, "allOf");
            for (index, branch) in branches.iter().enumerate() {
                let prepared =
                    self.prepare(branch, &child(&all_of, index.to_string()), hops + 1)?;
                map = merge(&map, &prepared).map_err(|reason| Unsupported::new(&all_of, reason))?;
            }
        }
        Ok(map)
    }

    /// One node per branch that can be generated; the first error if none can. Branches are
    /// merged with `base` when it constrains anything, and compiled as they are otherwise,
    /// so a branch that is a bare `$ref` stays a reference.
    fn choice(
        &mut self,
        base: &Schema,
        branches: Vec<(Value, String)>,
        at: &str,
    ) -> Result<Id, Unsupported> {
        let constrained = constrains(base);
        let mut ids = Vec::new();
        let mut first_error = None;
        for (branch, branch_at) in branches {
            let compiled = if constrained {
                self.prepare(&branch, &branch_at, 0)
                    .and_then(|prepared| {
                        merge(base, &prepared)
                            .map_err(|reason| Unsupported::new(&branch_at, reason))
                    })
                    .and_then(|merged| self.merged(merged, &branch_at))
            } else {
                self.schema(&branch, &branch_at)
            };
            match compiled {
                Ok(id) => ids.push(id),
                Err(error) => {
                    first_error.get_or_insert(error);
                }
            }
        }
        match (ids.len(), first_error) {
            (0, Some(error)) => Err(error),
            (0, None) => Err(Unsupported::new(at, "no branch to choose from")),
            (1, _) => Ok(ids[0]),
            _ => Ok(self.push(Kind::Choice(ids))),
        }
    }

    /// `if`/`then`/`else` as a choice: values meeting `if` and `then`, or values meeting
    /// `else` (which the final validation keeps from meeting `if`).
    fn condition(&mut self, map: &Schema, at: &str) -> Result<Id, Unsupported> {
        let mut base = map.clone();
        let condition = base.remove("if").unwrap_or(json!(true));
        let then = base.remove("then");
        let otherwise = base.remove("else");
        if then.is_none() && otherwise.is_none() {
            return self.object_schema(&base, at);
        }
        let when = json!({"allOf": [condition, then.unwrap_or(json!(true))]});
        let branches = vec![
            (when, child(at, "then")),
            (otherwise.unwrap_or(json!(true)), child(at, "else")),
        ];
        let base = Value::Object(base);
        let branches = branches
            .into_iter()
            .map(|(branch, branch_at)| (json!({"allOf": [base, branch]}), branch_at))
            .collect();
        self.choice(&Schema::new(), branches, at)
    }

    /// The first of `dependentSchemas` as a choice: the property present with its dependent
    /// schema, or the property absent.
    fn dependent(
        &mut self,
        map: &Schema,
        name: &str,
        dependent: &Value,
        at: &str,
    ) -> Result<Id, Unsupported> {
        let mut rest = map.clone();
        if let Some(Value::Object(dependents)) = rest.get_mut("dependentSchemas") {
            dependents.remove(name);
            if dependents.is_empty() {
                rest.remove("dependentSchemas");
            }
        }
        let present = json!({"allOf": [rest, {"required": [name]}, dependent]});
        let mut absent = rest.clone();
        let required_here = absent
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|required| required.contains(&json!(name)));
        if let Some(Value::Object(properties)) = absent.get_mut("properties") {
            properties.remove(name);
        }
        let mut branches = vec![(present, child(&child(at, "dependentSchemas"), name))];
        if !required_here {
            branches.push((Value::Object(absent), at.to_owned()));
        }
        self.choice(&Schema::new(), branches, at)
    }

    /// A schema without combinators: a constant, an enum, or one node per type.
    fn flat(&mut self, map: &Schema, at: &str) -> Result<Id, Unsupported> {
        if let Some(value) = map.get("const") {
            return Ok(self.push(Kind::Const(value.clone())));
        }
        let declared = declared_types(map);
        if let Some(Value::Array(values)) = map.get("enum") {
            let kept: Vec<Value> = values
                .iter()
                .filter(|value| declared.as_ref().is_none_or(|types| has_type(types, value)))
                .cloned()
                .collect();
            if kept.is_empty() {
                return Err(Unsupported::new(
                    child(at, "enum"),
                    "no enum value has an allowed type",
                ));
            }
            return Ok(self.push(Kind::Enum(kept)));
        }
        let types = declared.unwrap_or_else(|| inferred_types(map));
        if types.is_empty() {
            return Ok(self.push(Kind::Any));
        }
        let mut ids = Vec::new();
        let mut first_error = None;
        for name in &types {
            match self.typed(map, name, at) {
                Ok(id) => ids.push(id),
                Err(error) => {
                    first_error.get_or_insert(error);
                }
            }
        }
        match (ids.len(), first_error) {
            (0, Some(error)) => Err(error),
            (1, _) => Ok(ids[0]),
            _ => Ok(self.push(Kind::Choice(ids))),
        }
    }

    fn typed(&mut self, map: &Schema, name: &str, at: &str) -> Result<Id, Unsupported> {
        let kind = match name {
            "null" => Kind::Null,
            "boolean" => Kind::Boolean,
            "integer" => Kind::Number(Numbers::read(map, true, at)?),
            "number" => Kind::Number(Numbers::read(map, false, at)?),
            "string" => Kind::String(Strings::read(map, self.dialect, at)?),
            "array" => Kind::Array(self.array(map, at)?),
            "object" => Kind::Object(self.object(map, at)?),
            other => {
                return Err(Unsupported::new(
                    child(at, "type"),
                    format!("unknown type `{other}`"),
                ));
            }
        };
        Ok(self.push(kind))
    }

    fn array(&mut self, map: &Schema, at: &str) -> Result<Array, Unsupported> {
        let count = |keyword| map.get(keyword).and_then(Value::as_u64);
        let mut max = count("maxItems");
        let mut prefix = Vec::new();
        if let Some(Value::Array(items)) = map.get("prefixItems") {
            for (index, item) in items.iter().enumerate() {
                if *item == Value::Bool(false) {
                    max = Some(max.map_or(index as u64, |max| max.min(index as u64)));
                    break;
                }
                prefix
                    .push(self.schema(item, &child(&child(at, "prefixItems"), index.to_string()))?);
            }
        }
        let rest = match map.get("items") {
            Some(Value::Bool(false)) => {
                let length = prefix.len() as u64;
                max = Some(max.map_or(length, |max| max.min(length)));
                None
            }
            Some(items) => Some(self.schema(items, &child(at, "items"))?),
            None => None,
        };
        let min = count("minItems").unwrap_or(0);
        if max.is_some_and(|max| max < min) {
            return Err(Unsupported::new(
                at,
                format!(
                    "minItems {min} exceeds the {} items allowed",
                    max.unwrap_or(0)
                ),
            ));
        }
        let contains = match map.get("contains") {
            Some(contains) if count("minContains") != Some(0) => {
                let needed = count("minContains").unwrap_or(1);
                let schema = match (map.get("items"), prefix.is_empty()) {
                    (Some(items), true) => json!({"allOf": [items, contains]}),
                    _ => contains.clone(),
                };
                Some((self.schema(&schema, &child(at, "contains"))?, needed))
            }
            _ => None,
        };
        Ok(Array {
            prefix,
            rest,
            min,
            max,
            unique: map.get("uniqueItems") == Some(&Value::Bool(true)),
            contains,
        })
    }

    fn object(&mut self, map: &Schema, at: &str) -> Result<Object, Unsupported> {
        let empty = Schema::new();
        let declared = map
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let patterns: Vec<(&String, &Value, Option<Matcher>)> = map
            .get("patternProperties")
            .and_then(Value::as_object)
            .unwrap_or(&empty)
            .iter()
            .map(|(pattern, schema)| (pattern, schema, Matcher::new(pattern)))
            .collect();
        let matching = |name: &str| -> Vec<&Value> {
            patterns
                .iter()
                .filter(|(_, _, matcher)| matcher.as_ref().is_some_and(|m| m.matches(name)))
                .map(|(_, schema, _)| *schema)
                .collect()
        };
        let mut required: Vec<String> = map
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|name| Some(name.as_str()?.to_owned()))
            .collect();
        // Best effort on `dependentRequired`: a declared property's dependencies are always
        // present, so whether it is present or not, they are there.
        if let Some(Value::Object(dependencies)) = map.get("dependentRequired") {
            for (name, needed) in dependencies {
                if declared.contains_key(name) || required.contains(name) {
                    required.extend(
                        needed
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(|n| Some(n.as_str()?.to_owned())),
                    );
                }
            }
        }
        let mut seen = Vec::new();
        required.retain(|name| {
            let first = !seen.contains(name);
            seen.push(name.clone());
            first
        });
        let additional_schema = map.get("additionalProperties");
        let closed = additional_schema == Some(&Value::Bool(false))
            || map.get("unevaluatedProperties") == Some(&Value::Bool(false));
        let mut properties = Vec::new();
        let names = required.iter().map(|name| (name.clone(), true)).chain(
            declared
                .keys()
                .filter(|n| !required.contains(n))
                .map(|n| (n.clone(), false)),
        );
        for (name, is_required) in names {
            let property_at = child(&child(at, "properties"), &name);
            let own = match declared.get(&name) {
                Some(schema) => schema.clone(),
                None => {
                    let from_patterns = matching(&name);
                    match (from_patterns.is_empty(), additional_schema) {
                        (false, _) => json!(true),
                        (true, Some(Value::Bool(false))) => {
                            return Err(Unsupported::new(
                                child(at, "required"),
                                format!(
                                    "required property `{name}` is not allowed by additionalProperties: false"
                                ),
                            ));
                        }
                        (true, Some(schema)) => schema.clone(),
                        (true, None) => json!(true),
                    }
                }
            };
            if own == Value::Bool(false) {
                if is_required {
                    return Err(Unsupported::new(
                        property_at,
                        "a required property whose schema is `false`",
                    ));
                }
                continue;
            }
            let from_patterns = matching(&name);
            let schema = if from_patterns.is_empty() {
                own
            } else {
                json!({"allOf": std::iter::once(&own).chain(from_patterns).collect::<Vec<_>>()})
            };
            properties.push(Property {
                id: self.schema(&schema, &property_at)?,
                name,
                required: is_required,
            });
        }
        let additional = match additional_schema {
            Some(Value::Bool(false)) => Additional::Forbidden,
            Some(schema @ Value::Object(_)) => {
                Additional::Schema(self.schema(schema, &child(at, "additionalProperties"))?)
            }
            _ => Additional::Free,
        };
        // Pattern properties only add optional extras, so one that cannot be generated is
        // simply never added.
        let mut pattern_properties = Vec::new();
        for (pattern, schema, _) in &patterns {
            let pattern_at = child(&child(at, "patternProperties"), pattern);
            if let Ok(id) = self.schema(schema, &pattern_at) {
                pattern_properties.push((pattern::translate(pattern, KEY_LENGTH), id));
            }
        }
        let min_properties = map
            .get("minProperties")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let max_properties = map.get("maxProperties").and_then(Value::as_u64);
        let forced = required.len() as u64;
        if max_properties.is_some_and(|max| max < forced.max(min_properties)) {
            return Err(Unsupported::new(
                child(at, "maxProperties"),
                "fewer properties allowed than required",
            ));
        }
        let free = |name: &str| {
            !declared.contains_key(name)
                && !required.iter().any(|r| r == name)
                && matching(name).is_empty()
        };
        let wanted = (min_properties as usize)
            .saturating_sub(properties.len())
            .max(EXTRA_NAMES.len());
        let extra_names: Vec<String> = EXTRA_NAMES
            .iter()
            .map(|name| (*name).to_owned())
            .chain((0..).map(|index| format!("extra_{index}")))
            .filter(|name| free(name))
            .take(wanted)
            .collect();
        Ok(Object {
            properties,
            additional,
            closed,
            pattern_properties,
            extra_names,
            min_properties,
            max_properties,
        })
    }
}

/// Whether `schema` constrains values at all.
fn constrains(schema: &Schema) -> bool {
    schema.keys().any(|key| CONSTRAINTS.contains(&key.as_str()))
}

/// The `type` keyword as a list. (OpenAPI's `nullable` is not JSON Schema: validators
/// ignore it, so generation does too.)
fn declared_types(map: &Schema) -> Option<Vec<String>> {
    match map.get("type")? {
        Value::String(name) => Some(vec![name.clone()]),
        Value::Array(names) => Some(
            names
                .iter()
                .filter_map(|n| Some(n.as_str()?.to_owned()))
                .collect(),
        ),
        _ => None,
    }
}

/// The types a schema without `type` is about, from its keywords (`properties` means an
/// object); none means any value.
fn inferred_types(map: &Schema) -> Vec<String> {
    let known_format = map
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|format| super::formats::strategy(format).is_some());
    [
        ("object", OBJECT_KEYWORDS),
        ("array", ARRAY_KEYWORDS),
        ("string", STRING_KEYWORDS),
        ("number", NUMBER_KEYWORDS),
    ]
    .iter()
    .filter(|(name, keywords)| {
        keywords.iter().any(|k| map.contains_key(*k)) || (*name == "string" && known_format)
    })
    .map(|(name, _)| (*name).to_owned())
    .collect()
}

/// Whether `value` is of one of `types`.
fn has_type(types: &[String], value: &Value) -> bool {
    types.iter().any(|name| match name.as_str() {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "integer" => value.as_f64().is_some_and(|f| f.fract() == 0.0),
        "number" => value.is_number(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => false,
    })
}
