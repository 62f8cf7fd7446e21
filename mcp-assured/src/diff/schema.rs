//! Two JSON Schemas compared keyword by keyword, local `$ref`s expanded, each difference a
//! change whose severity depends on which way values flow: a tool's input is what clients
//! send (a narrowing breaks them), its output what they receive (a widening does).

use std::{borrow::Cow, collections::BTreeSet};

use serde_json::{Map, Value};

use super::{
    change::{ChangeKind, Severity},
    found::Found,
};

/// Which way the values a schema describes flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Direction {
    /// Clients send them: tool arguments.
    Input,
    /// Clients receive them: structured content.
    Output,
}

/// How a change moves the set of values a schema accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effect {
    Narrows,
    Widens,
    /// Some values lost, others gained, or a change we cannot tell.
    Both,
    /// Text and defaults: no value is accepted or refused because of it.
    Neutral,
}

impl Effect {
    fn of(kind: ChangeKind) -> Effect {
        use ChangeKind::*;
        match kind {
            TypeNarrowed | EnumAdded | EnumValueRemoved | ConstAdded | BoundTightened
            | PatternAdded | FormatAdded | AlternativeRemoved => Effect::Narrows,
            TypeWidened | EnumRemoved | EnumValueAdded | ConstRemoved | BoundLoosened
            | PatternRemoved | FormatRemoved | AlternativeAdded => Effect::Widens,
            TypeChanged | ConstChanged | BoundChanged | PatternChanged | FormatChanged
            | SchemaChanged => Effect::Both,
            _ => Effect::Neutral,
        }
    }
}

impl Direction {
    /// Breaking when the change takes away what a client of this direction relies on.
    fn severity(self, effect: Effect) -> Severity {
        match (self, effect) {
            (Direction::Input, Effect::Narrows | Effect::Both)
            | (Direction::Output, Effect::Widens | Effect::Both) => Severity::Breaking,
            _ => Severity::Compatible,
        }
    }
}

/// Where in the schema: the JSON pointer (prefixed with the schema's own, `/inputSchema`),
/// and the argument or property path for sentences (`address.zip`, `tags[]`).
#[derive(Debug, Clone)]
pub(super) struct At {
    pointer: String,
    label: String,
}

impl At {
    pub(super) fn root(pointer: &str) -> At {
        At {
            pointer: pointer.to_owned(),
            label: String::new(),
        }
    }

    fn keyword(&self, keyword: &str) -> String {
        format!("{}/{keyword}", self.pointer)
    }

    fn property(&self, name: &str) -> At {
        At {
            pointer: format!("{}/properties/{}", self.pointer, escape(name)),
            label: match self.label.as_str() {
                "" => name.to_owned(),
                parent => format!("{parent}.{name}"),
            },
        }
    }

    fn nested(&self, keyword: &str, label_suffix: &str) -> At {
        At {
            pointer: self.keyword(keyword),
            label: format!("{}{label_suffix}", self.label),
        }
    }

    fn index(&self, keyword: &str, index: usize) -> At {
        At {
            pointer: format!("{}/{keyword}/{index}", self.pointer),
            label: self.label.clone(),
        }
    }
}

/// A JSON pointer token: `~` and `/` escaped.
pub(super) fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Every JSON Schema type, what a schema without `type` allows.
const ALL_TYPES: [&str; 7] = [
    "array", "boolean", "integer", "null", "number", "object", "string",
];

/// Bounds a larger value makes stricter, then those a smaller value does.
const LOWER_BOUNDS: [&str; 6] = [
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
    "minContains",
];
const UPPER_BOUNDS: [&str; 6] = [
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
    "maxContains",
];

/// Keywords that say nothing about which values are accepted; beside `anyOf`/`oneOf`
/// alone, they leave a schema a plain union of alternatives.
const ANNOTATIONS: [&str; 12] = [
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$schema",
    "$id",
    "$defs",
    "definitions",
];

/// Keywords that constrain values but are not classified: any difference in them is a
/// [`ChangeKind::SchemaChanged`].
const UNCLASSIFIED: [&str; 16] = [
    "$ref",
    "$dynamicRef",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "patternProperties",
    "propertyNames",
    "contains",
    "unevaluatedItems",
    "additionalItems",
    "contentMediaType",
    "contentEncoding",
];

/// How many `$ref`s in a row are followed before giving up on a chain.
const MAX_REF_HOPS: usize = 32;

/// One comparison of two schemas, the old and new documents being the roots `$ref`s
/// resolve against.
pub(super) struct Walk<'a, 'f> {
    direction: Direction,
    roots: [&'a Value; 2],
    found: &'f mut Found<'a>,
    /// The `$ref` pairs being expanded, innermost last: met again, a recursive schema has
    /// been compared all the way round.
    expanding: Vec<(String, String)>,
}

impl<'a, 'f> Walk<'a, 'f> {
    /// Compares `old` with `new`, whose pointer in the item is `pointer` (`/inputSchema`).
    pub(super) fn compare(
        found: &'f mut Found<'a>,
        direction: Direction,
        pointer: &str,
        old: &'a Value,
        new: &'a Value,
    ) {
        let mut walk = Walk {
            direction,
            roots: [old, new],
            found,
            expanding: Vec::new(),
        };
        walk.node(old, new, &At::root(pointer));
    }

    /// `argument `a.b`` or `output property `a.b``, or the schema itself at the root.
    fn subject(&self, at: &At) -> String {
        match (self.direction, at.label.as_str()) {
            (Direction::Input, "") => "the input schema".to_owned(),
            (Direction::Output, "") => "the output schema".to_owned(),
            (Direction::Input, label) => format!("argument `{label}`"),
            (Direction::Output, label) => format!("output property `{label}`"),
        }
    }

    /// A change of values, breaking or not by its effect in this direction.
    fn value_change(
        &mut self,
        kind: ChangeKind,
        pointer: String,
        message: String,
        old: Option<&Value>,
        new: Option<&Value>,
    ) {
        let severity = self.direction.severity(Effect::of(kind));
        self.found.push(kind, severity, pointer, message, old, new);
    }

    fn node(&mut self, old: &Value, new: &Value, at: &At) {
        let (old, old_ref) = resolve(self.roots[0], old);
        let (new, new_ref) = resolve(self.roots[1], new);
        let expanding = old_ref.is_some() || new_ref.is_some();
        if expanding {
            let pair = (old_ref.unwrap_or_default(), new_ref.unwrap_or_default());
            if self.expanding.contains(&pair) {
                return;
            }
            self.expanding.push(pair);
        }
        let (old, new) = (as_schema(&old), as_schema(&new));
        self.annotations(&old, &new, at);
        match (union(&old), union(&new)) {
            (None, None) => self.keywords(&old, &new, at),
            (old_union, new_union) => {
                let old_branches = branches(old_union, &old, at);
                let new_branches = branches(new_union, &new, at);
                self.alternatives(&old_branches, &new_branches);
            }
        }
        if expanding {
            self.expanding.pop();
        }
    }

    /// Titles, descriptions and defaults: compatible, reported so that they are seen.
    fn annotations(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &At) {
        for keyword in ["title", "description", "default"] {
            let (before, after) = (old.get(keyword), new.get(keyword));
            if before == after {
                continue;
            }
            let kind = match keyword {
                "default" => ChangeKind::DefaultChanged,
                _ => ChangeKind::DescriptionChanged,
            };
            let message = format!("{}: {keyword} changed", self.subject(at));
            self.found.push(
                kind,
                Severity::Compatible,
                at.keyword(keyword),
                message,
                before,
                after,
            );
        }
    }

    fn keywords(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &At) {
        self.types(old, new, at);
        self.enums(old, new, at);
        self.bounds(old, new, at);
        self.texts(old, new, at);
        self.properties(old, new, at);
        self.additional(old, new, at);
        self.items(old, new, at);
        for keyword in ["anyOf", "oneOf"] {
            match (array(old, keyword), array(new, keyword)) {
                (None, None) => {}
                (Some(before), Some(after)) => {
                    let before: Vec<(Cow<'_, Value>, At)> = before
                        .iter()
                        .enumerate()
                        .map(|(i, b)| (Cow::Borrowed(b), at.index(keyword, i)))
                        .collect();
                    let after: Vec<(Cow<'_, Value>, At)> = after
                        .iter()
                        .enumerate()
                        .map(|(i, b)| (Cow::Borrowed(b), at.index(keyword, i)))
                        .collect();
                    self.alternatives(&before, &after);
                }
                _ => self.unclassified(keyword, old, new, at),
            }
        }
        self.pairwise("allOf", old, new, at);
        self.pairwise("prefixItems", old, new, at);
        for keyword in UNCLASSIFIED {
            self.unclassified(keyword, old, new, at);
        }
    }

    fn unclassified(
        &mut self,
        keyword: &str,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        at: &At,
    ) {
        let (before, after) = (old.get(keyword), new.get(keyword));
        if before != after {
            let message = format!(
                "{}: `{keyword}` changed (not classified; review it)",
                self.subject(at)
            );
            self.value_change(
                ChangeKind::SchemaChanged,
                at.keyword(keyword),
                message,
                before,
                after,
            );
        }
    }

    /// A list of subschemas compared item by item when both have as many, else as one
    /// unclassified change.
    fn pairwise(
        &mut self,
        keyword: &str,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        at: &At,
    ) {
        match (array(old, keyword), array(new, keyword)) {
            (Some(before), Some(after)) if before.len() == after.len() => {
                for (index, (b, a)) in before.iter().zip(after).enumerate() {
                    self.node(b, a, &at.index(keyword, index));
                }
            }
            _ => self.unclassified(keyword, old, new, at),
        }
    }

    fn types(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &At) {
        let (before, after) = (types(old), types(new));
        if before == after {
            return;
        }
        let all = || ALL_TYPES.iter().map(|t| (*t).to_owned()).collect();
        let (old_types, new_types): (BTreeSet<String>, BTreeSet<String>) = (
            before.clone().unwrap_or_else(all),
            after.clone().unwrap_or_else(all),
        );
        let lost = old_types.iter().any(|t| !covers(&new_types, t));
        let gained = new_types.iter().any(|t| !covers(&old_types, t));
        let kind = match (lost, gained) {
            (false, false) => return,
            (true, false) => ChangeKind::TypeNarrowed,
            (false, true) => ChangeKind::TypeWidened,
            (true, true) => ChangeKind::TypeChanged,
        };
        let message = format!(
            "{}: type {} became {}",
            self.subject(at),
            describe_types(before.as_ref()),
            describe_types(after.as_ref())
        );
        self.value_change(
            kind,
            at.keyword("type"),
            message,
            old.get("type"),
            new.get("type"),
        );
    }

    fn enums(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &At) {
        let pointer = at.keyword("enum");
        let subject = self.subject(at);
        match (array(old, "enum"), array(new, "enum")) {
            (None, None) => {}
            (None, Some(values)) => self.value_change(
                ChangeKind::EnumAdded,
                pointer,
                format!("{subject}: now one of {}", list(values)),
                None,
                new.get("enum"),
            ),
            (Some(values), None) => self.value_change(
                ChangeKind::EnumRemoved,
                pointer,
                format!("{subject}: no longer restricted to {}", list(values)),
                old.get("enum"),
                None,
            ),
            (Some(before), Some(after)) => {
                for value in before.iter().filter(|v| !after.contains(v)) {
                    self.value_change(
                        ChangeKind::EnumValueRemoved,
                        pointer.clone(),
                        format!("{subject}: enum value {value} removed"),
                        Some(value),
                        None,
                    );
                }
                for value in after.iter().filter(|v| !before.contains(v)) {
                    self.value_change(
                        ChangeKind::EnumValueAdded,
                        pointer.clone(),
                        format!("{subject}: enum value {value} added"),
                        None,
                        Some(value),
                    );
                }
            }
        }
    }

    fn bounds(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &At) {
        let bounds = LOWER_BOUNDS
            .iter()
            .map(|k| (*k, true))
            .chain(UPPER_BOUNDS.iter().map(|k| (*k, false)));
        for (keyword, lower) in bounds {
            let (before, after) = (old.get(keyword), new.get(keyword));
            if let Some(kind) = bound_change(before, after, lower) {
                self.keyword_changed(kind, keyword, before, after, at);
            }
        }
        let (before, after) = (old.get("multipleOf"), new.get("multipleOf"));
        let kind = match (number(before), number(after)) {
            (None, Some(_)) => Some(ChangeKind::BoundTightened),
            (Some(_), None) => Some(ChangeKind::BoundLoosened),
            (Some(b), Some(a)) if b == a => None,
            // Every multiple of 6 is one of 3: a divisor of the old step loosens it.
            (Some(b), Some(a)) if is_multiple(b, a) => Some(ChangeKind::BoundLoosened),
            (Some(b), Some(a)) if is_multiple(a, b) => Some(ChangeKind::BoundTightened),
            (Some(_), Some(_)) => Some(ChangeKind::BoundChanged),
            (None, None) => None,
        };
        if let Some(kind) = kind {
            self.keyword_changed(kind, "multipleOf", before, after, at);
        }
        let unique = |map: &Map<String, Value>| map.get("uniqueItems") == Some(&Value::Bool(true));
        let kind = match (unique(old), unique(new)) {
            (false, true) => Some(ChangeKind::BoundTightened),
            (true, false) => Some(ChangeKind::BoundLoosened),
            _ => None,
        };
        if let Some(kind) = kind {
            let (before, after) = (old.get("uniqueItems"), new.get("uniqueItems"));
            self.keyword_changed(kind, "uniqueItems", before, after, at);
        }
    }

    /// A keyword's value changed: ``argument `a`: maximum 10 became 5, tightened``.
    fn keyword_changed(
        &mut self,
        kind: ChangeKind,
        keyword: &str,
        before: Option<&Value>,
        after: Option<&Value>,
        at: &At,
    ) {
        let how = match kind {
            ChangeKind::BoundTightened => ", tightened",
            ChangeKind::BoundLoosened => ", loosened",
            _ => "",
        };
        let message = format!(
            "{}: {keyword} {} became {}{how}",
            self.subject(at),
            shown(before),
            shown(after)
        );
        self.value_change(kind, at.keyword(keyword), message, before, after);
    }

    /// `pattern`, `format` and `const`: added, removed or changed.
    fn texts(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &At) {
        use ChangeKind::*;
        for (keyword, [added, removed, changed]) in [
            ("pattern", [PatternAdded, PatternRemoved, PatternChanged]),
            ("format", [FormatAdded, FormatRemoved, FormatChanged]),
            ("const", [ConstAdded, ConstRemoved, ConstChanged]),
        ] {
            let (before, after) = (old.get(keyword), new.get(keyword));
            let kind = match (before, after) {
                (None, Some(_)) => added,
                (Some(_), None) => removed,
                (Some(b), Some(a)) if b != a => changed,
                _ => continue,
            };
            self.keyword_changed(kind, keyword, before, after, at);
        }
    }

    /// `properties` and `required`: arguments (or output properties) added, removed, made
    /// required or optional, and each one's schema compared.
    fn properties(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &At) {
        let empty = Map::new();
        let old_properties = object(old, "properties").unwrap_or(&empty);
        let new_properties = object(new, "properties").unwrap_or(&empty);
        let (old_required, new_required) = (required(old), required(new));
        let names: BTreeSet<&str> = old_properties
            .keys()
            .chain(new_properties.keys())
            .map(String::as_str)
            .chain(old_required.iter().copied())
            .chain(new_required.iter().copied())
            .collect();
        let any = Value::Object(Map::new());
        for name in names {
            let child = at.property(name);
            let (before, after) = (old_properties.get(name), new_properties.get(name));
            let (was_required, is_required) =
                (old_required.contains(name), new_required.contains(name));
            let was = before.is_some() || was_required;
            let is = after.is_some() || is_required;
            match (was, is) {
                (true, true) => {
                    self.node(before.unwrap_or(&any), after.unwrap_or(&any), &child);
                    self.required_changed(was_required, is_required, &child);
                }
                (false, true) => self.property_added(is_required, after, &child),
                (true, false) => self.property_removed(forbids_unknown(new), before, &child),
                (false, false) => {}
            }
        }
    }

    fn property_added(&mut self, required: bool, schema: Option<&Value>, at: &At) {
        let (kind, severity, message) = match (self.direction, required) {
            (Direction::Input, true) => (
                ChangeKind::RequiredArgumentAdded,
                Severity::Breaking,
                format!(
                    "required argument `{}` added: clients that do not send it are refused",
                    at.label
                ),
            ),
            (Direction::Input, false) => (
                ChangeKind::OptionalArgumentAdded,
                Severity::Compatible,
                format!("optional argument `{}` added", at.label),
            ),
            (Direction::Output, _) => (
                ChangeKind::OutputPropertyAdded,
                Severity::Compatible,
                format!("output property `{}` added", at.label),
            ),
        };
        self.found
            .push(kind, severity, at.pointer.clone(), message, None, schema);
    }

    /// A removed argument breaks clients that send it only where the new schema refuses
    /// properties it does not declare; elsewhere the server ignores it, which is reported
    /// as compatible (the message says so).
    fn property_removed(&mut self, forbidden: bool, schema: Option<&Value>, at: &At) {
        let (kind, severity, message) = match (self.direction, forbidden) {
            (Direction::Input, true) => (
                ChangeKind::ArgumentRemoved,
                Severity::Breaking,
                format!(
                    "argument `{}` removed, and unknown arguments are refused: clients that \
                     send it fail",
                    at.label
                ),
            ),
            (Direction::Input, false) => (
                ChangeKind::ArgumentRemoved,
                Severity::Compatible,
                format!(
                    "argument `{}` removed; unknown arguments are allowed, so a client that \
                     sends it is not refused, but the server ignores it",
                    at.label
                ),
            ),
            (Direction::Output, _) => (
                ChangeKind::OutputPropertyRemoved,
                Severity::Breaking,
                format!(
                    "output property `{}` removed: consumers that read it fail",
                    at.label
                ),
            ),
        };
        self.found
            .push(kind, severity, at.pointer.clone(), message, schema, None);
    }

    fn required_changed(&mut self, was: bool, is: bool, at: &At) {
        let (kind, severity, message) = match (self.direction, was, is) {
            (_, true, true) | (_, false, false) => return,
            (Direction::Input, false, true) => (
                ChangeKind::ArgumentMadeRequired,
                Severity::Breaking,
                format!("argument `{}` is now required", at.label),
            ),
            (Direction::Input, true, false) => (
                ChangeKind::ArgumentMadeOptional,
                Severity::Compatible,
                format!("argument `{}` is now optional", at.label),
            ),
            (Direction::Output, true, false) => (
                ChangeKind::OutputPropertyMadeOptional,
                Severity::Breaking,
                format!(
                    "output property `{}` is no longer required: consumers may not find it",
                    at.label
                ),
            ),
            (Direction::Output, false, true) => (
                ChangeKind::OutputPropertyMadeRequired,
                Severity::Compatible,
                format!("output property `{}` is now required", at.label),
            ),
        };
        let (before, after) = (Value::Bool(was), Value::Bool(is));
        self.found.push(
            kind,
            severity,
            at.pointer.clone(),
            message,
            Some(&before),
            Some(&after),
        );
    }

    /// `additionalProperties` and `unevaluatedProperties`: forbidden or allowed, or their
    /// schemas compared. Consumers of output tolerate members they do not know, so
    /// forbidding them there is compatible.
    fn additional(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &At) {
        for keyword in ["additionalProperties", "unevaluatedProperties"] {
            let (before, after) = (old.get(keyword), new.get(keyword));
            let forbidden = |value: Option<&Value>| value == Some(&Value::Bool(false));
            let subject = self.subject(at);
            let (kind, severity, message) = match (forbidden(before), forbidden(after)) {
                (false, true) => (
                    ChangeKind::AdditionalPropertiesForbidden,
                    match self.direction {
                        Direction::Input => Severity::Breaking,
                        Direction::Output => Severity::Compatible,
                    },
                    format!("{subject}: properties it does not declare are now refused"),
                ),
                (true, false) => (
                    ChangeKind::AdditionalPropertiesAllowed,
                    Severity::Compatible,
                    format!("{subject}: properties it does not declare are now allowed"),
                ),
                _ => {
                    if before.is_some_and(Value::is_object) || after.is_some_and(Value::is_object) {
                        let any = Value::Object(Map::new());
                        self.node(
                            before.unwrap_or(&any),
                            after.unwrap_or(&any),
                            &at.nested(keyword, ".*"),
                        );
                    }
                    continue;
                }
            };
            self.found
                .push(kind, severity, at.keyword(keyword), message, before, after);
        }
    }

    /// `items`: one schema for every item (compared), or the old tuple form (pairwise).
    fn items(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &At) {
        match (old.get("items"), new.get("items")) {
            (None, None) => {}
            (Some(Value::Array(_)), _) | (_, Some(Value::Array(_))) => {
                self.pairwise("items", old, new, at)
            }
            (before, after) => {
                let any = Value::Object(Map::new());
                self.node(
                    before.unwrap_or(&any),
                    after.unwrap_or(&any),
                    &at.nested("items", "[]"),
                );
            }
        }
    }

    /// The alternatives of two unions, each with where it is: matched as the same JSON, else
    /// by the same types, else by overlapping types, else the one left on each side; the
    /// pairs compared, the rest removed or added.
    fn alternatives(&mut self, old: &[(Cow<'_, Value>, At)], new: &[(Cow<'_, Value>, At)]) {
        let old_types: Vec<BTreeSet<String>> = old
            .iter()
            .map(|(b, _)| branch_types(self.roots[0], b))
            .collect();
        let new_types: Vec<BTreeSet<String>> = new
            .iter()
            .map(|(b, _)| branch_types(self.roots[1], b))
            .collect();
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut old_free: Vec<usize> = (0..old.len()).collect();
        let mut new_free: Vec<usize> = (0..new.len()).collect();
        let alike: [&dyn Fn(usize, usize) -> bool; 3] = [
            &|o: usize, n: usize| old[o].0 == new[n].0,
            &|o: usize, n: usize| old_types[o] == new_types[n],
            &|o: usize, n: usize| !old_types[o].is_disjoint(&new_types[n]),
        ];
        for pairs_with in alike {
            old_free.retain(|&o| match new_free.iter().position(|&n| pairs_with(o, n)) {
                Some(at) => {
                    pairs.push((o, new_free.remove(at)));
                    false
                }
                None => true,
            });
        }
        if let ([o], [n]) = (old_free.as_slice(), new_free.as_slice()) {
            pairs.push((*o, *n));
            old_free.clear();
            new_free.clear();
        }
        for (o, n) in pairs {
            self.node(&old[o].0, &new[n].0, &new[n].1);
        }
        let unmatched = [
            (old_free, old, &old_types, ChangeKind::AlternativeRemoved),
            (new_free, new, &new_types, ChangeKind::AlternativeAdded),
        ];
        for (free, side, types, kind) in unmatched {
            for index in free {
                let (branch, at) = &side[index];
                let (what, before, after) = match kind {
                    ChangeKind::AlternativeRemoved => ("removed", Some(&**branch), None),
                    _ => ("added", None, Some(&**branch)),
                };
                let message = format!(
                    "{}: an alternative of type {} {what}",
                    self.subject(at),
                    describe_types(Some(&types[index]))
                );
                self.value_change(kind, at.pointer.clone(), message, before, after);
            }
        }
    }
}

/// `node` with its local `$ref`s followed (`#`, `#/$defs/..`, any `#/` pointer), sibling
/// keywords laid over the target; and the first `$ref` followed. A reference elsewhere, or
/// to nothing, is left as written.
fn resolve<'v>(root: &'v Value, node: &'v Value) -> (Cow<'v, Value>, Option<String>) {
    let mut current = Cow::Borrowed(node);
    let mut first = None;
    for _ in 0..MAX_REF_HOPS {
        let Some(reference) = current
            .get("$ref")
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            break;
        };
        let Some(target) = local_target(root, &reference) else {
            break;
        };
        let resolved = match (current.as_object(), target.as_object()) {
            (Some(node), Some(target)) if node.len() > 1 => {
                let mut merged = target.clone();
                for (key, value) in node.iter().filter(|(key, _)| *key != "$ref") {
                    merged.insert(key.clone(), value.clone());
                }
                Cow::Owned(Value::Object(merged))
            }
            _ => Cow::Borrowed(target),
        };
        first.get_or_insert(reference);
        current = resolved;
    }
    (current, first)
}

fn local_target<'v>(root: &'v Value, reference: &str) -> Option<&'v Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    let pointer = percent_encoding::percent_decode_str(pointer)
        .decode_utf8()
        .ok()?;
    root.pointer(&pointer)
}

/// A schema as an object: `true` is `{}`, `false` is `{"not": {}}`.
fn as_schema(value: &Value) -> Cow<'_, Map<String, Value>> {
    match value {
        Value::Object(map) => Cow::Borrowed(map),
        Value::Bool(false) => {
            let mut map = Map::new();
            map.insert("not".to_owned(), Value::Object(Map::new()));
            Cow::Owned(map)
        }
        _ => Cow::Owned(Map::new()),
    }
}

/// The alternatives of a schema that is only a union: `anyOf` or `oneOf` beside nothing but
/// annotations.
fn union(map: &Map<String, Value>) -> Option<(&'static str, &Vec<Value>)> {
    let keyword = ["anyOf", "oneOf"]
        .into_iter()
        .find(|keyword| map.get(*keyword).is_some_and(Value::is_array))?;
    let alone = map
        .keys()
        .all(|key| key == keyword || ANNOTATIONS.contains(&key.as_str()));
    let branches = map.get(keyword)?.as_array()?;
    alone.then_some((keyword, branches))
}

/// A side's alternatives with where each is: a union's own, or the schema as its only one
/// (its annotations left out, compared already).
fn branches<'m>(
    union: Option<(&'static str, &'m Vec<Value>)>,
    schema: &Map<String, Value>,
    at: &At,
) -> Vec<(Cow<'m, Value>, At)> {
    match union {
        Some((keyword, branches)) => branches
            .iter()
            .enumerate()
            .map(|(index, branch)| (Cow::Borrowed(branch), at.index(keyword, index)))
            .collect(),
        None => {
            let plain: Map<String, Value> = schema
                .iter()
                .filter(|(key, _)| !ANNOTATIONS.contains(&key.as_str()))
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect();
            vec![(Cow::Owned(Value::Object(plain)), at.clone())]
        }
    }
}

fn branch_types(root: &Value, branch: &Value) -> BTreeSet<String> {
    let (resolved, _) = resolve(root, branch);
    types(&as_schema(&resolved))
        .unwrap_or_else(|| ALL_TYPES.iter().map(|t| (*t).to_owned()).collect())
}

/// The `type` keyword as a set; `None` when absent (any type).
fn types(map: &Map<String, Value>) -> Option<BTreeSet<String>> {
    match map.get("type")? {
        Value::String(one) => Some(BTreeSet::from([one.clone()])),
        Value::Array(many) => Some(
            many.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        ),
        _ => None,
    }
}

/// Whether `types` allows every value of `type`: `number` covers `integer`.
fn covers(types: &BTreeSet<String>, r#type: &str) -> bool {
    types.contains(r#type) || (r#type == "integer" && types.contains("number"))
}

fn describe_types(types: Option<&BTreeSet<String>>) -> String {
    match types {
        None => "any".to_owned(),
        Some(types) if types.is_empty() => "none".to_owned(),
        Some(types) => types.iter().cloned().collect::<Vec<_>>().join(" | "),
    }
}

fn bound_change(before: Option<&Value>, after: Option<&Value>, lower: bool) -> Option<ChangeKind> {
    let tighter = match (before, after) {
        (None, None) => return None,
        (None, Some(_)) => true,
        (Some(_), None) => false,
        // Draft 4's exclusive bounds are flags on `minimum` and `maximum`.
        (b, a) if b.is_some_and(Value::is_boolean) || a.is_some_and(Value::is_boolean) => {
            let flag = |v: Option<&Value>| v == Some(&Value::Bool(true));
            match (flag(b), flag(a)) {
                (false, true) => true,
                (true, false) => false,
                _ => return None,
            }
        }
        (b, a) => {
            let (b, a) = (number(b)?, number(a)?);
            if a == b {
                return None;
            }
            (a > b) == lower
        }
    };
    Some(if tighter {
        ChangeKind::BoundTightened
    } else {
        ChangeKind::BoundLoosened
    })
}

fn number(value: Option<&Value>) -> Option<f64> {
    value.and_then(Value::as_f64)
}

/// Whether `value` is a whole multiple of `step`.
fn is_multiple(value: f64, step: f64) -> bool {
    if step == 0.0 {
        return false;
    }
    let quotient = value / step;
    (quotient - quotient.round()).abs() < 1e-9
}

fn array<'m>(map: &'m Map<String, Value>, keyword: &str) -> Option<&'m Vec<Value>> {
    map.get(keyword).and_then(Value::as_array)
}

fn object<'m>(map: &'m Map<String, Value>, keyword: &str) -> Option<&'m Map<String, Value>> {
    map.get(keyword).and_then(Value::as_object)
}

fn required(map: &Map<String, Value>) -> BTreeSet<&str> {
    array(map, "required")
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Whether the schema refuses properties it does not declare.
fn forbids_unknown(map: &Map<String, Value>) -> bool {
    ["additionalProperties", "unevaluatedProperties"]
        .iter()
        .any(|keyword| map.get(*keyword) == Some(&Value::Bool(false)))
}

fn list(values: &[Value]) -> String {
    let shown: Vec<String> = values.iter().map(Value::to_string).collect();
    format!("[{}]", shown.join(", "))
}

fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "none".to_owned(), Value::to_string)
}
