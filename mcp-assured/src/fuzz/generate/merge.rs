//! Two schemas as one (`allOf`, `$ref` beside other keywords, `if` with `then`): types and
//! enums intersected, bounds tightened, `multipleOf`s combined, properties and required
//! names united, subschemas that meet nested as `allOf` for the compiler to merge in turn.
//! A merge that no value can satisfy is an error saying why.

use serde_json::{Map, Value, json};

use super::decimal::Decimal;

/// Past this many combinations, two `anyOf`s are not multiplied out; values that miss the
/// second are then filtered.
const MAX_PRODUCT: usize = 16;

type Schema = Map<String, Value>;

/// One schema admitting what both `a` and `b` admit.
pub(super) fn merge(a: &Schema, b: &Schema) -> Result<Schema, String> {
    let mut merged = modernized(a);
    let theirs = modernized(b);
    restrict_to_closed(&mut merged, &theirs)?;
    let mut theirs_restricted = theirs.clone();
    restrict_to_closed(&mut theirs_restricted, &merged)?;
    for (key, their) in theirs_restricted {
        let Some(our) = merged.get(&key) else {
            merged.insert(key, their);
            continue;
        };
        let value = match key.as_str() {
            "type" => intersect_types(our, &their)?,
            "enum" => intersect_enums(our, &their)?,
            "const" if *our != their => return Err(format!("`const` {our} and {their} differ")),
            "minimum" | "exclusiveMinimum" | "minLength" | "minItems" | "minProperties"
            | "minContains" => extreme(our, &their, true),
            "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" | "maxProperties"
            | "maxContains" => extreme(our, &their, false),
            "multipleOf" => least_common_multiple(our, &their)?,
            "uniqueItems" => json!(our == &json!(true) || their == json!(true)),
            "pattern" => union_list(our, &their),
            "required" => union_list(our, &their),
            "properties" | "patternProperties" | "dependentSchemas" => {
                merge_named(our, &their, both)
            }
            "dependentRequired" => merge_named(our, &their, union_list),
            "items"
            | "additionalProperties"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "contains"
            | "propertyNames" => both(our, &their),
            "prefixItems" => pairwise(our, &their),
            "anyOf" | "oneOf" => distribute(our, &their),
            "not" => json!({"anyOf": [our, their]}),
            _ => our.clone(),
        };
        merged.insert(key, value);
    }
    Ok(merged)
}

/// `schema` in 2020-12 form: draft-04 boolean exclusive bounds become numbers, draft-07
/// tuple `items` become `prefixItems`, `dependencies` split into its two successors.
pub(super) fn modernized(schema: &Schema) -> Schema {
    let mut modern = schema.clone();
    for (inclusive, exclusive) in [
        ("minimum", "exclusiveMinimum"),
        ("maximum", "exclusiveMaximum"),
    ] {
        match modern.get(exclusive) {
            Some(Value::Bool(true)) => {
                let bound = modern.remove(inclusive);
                modern.remove(exclusive);
                if let Some(bound) = bound {
                    modern.insert(exclusive.to_owned(), bound);
                }
            }
            Some(Value::Bool(false)) => {
                modern.remove(exclusive);
            }
            _ => {}
        }
    }
    if let Some(Value::Array(tuple)) = modern.get("items").cloned() {
        modern.insert("prefixItems".to_owned(), Value::Array(tuple));
        match modern.remove("additionalItems") {
            Some(rest) => modern.insert("items".to_owned(), rest),
            None => modern.remove("items"),
        };
    }
    if let Some(Value::Object(dependencies)) = modern.remove("dependencies") {
        for (name, dependency) in dependencies {
            let keyword = if dependency.is_array() {
                "dependentRequired"
            } else {
                "dependentSchemas"
            };
            let entry = modern
                .entry(keyword)
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(entries) = entry {
                entries.insert(name, dependency);
            }
        }
    }
    modern
}

/// When `closed` forbids properties it does not declare, `other`'s extra properties go (and
/// are an error if required).
fn restrict_to_closed(other: &mut Schema, closed: &Schema) -> Result<(), String> {
    if closed.get("additionalProperties") != Some(&Value::Bool(false))
        || closed.contains_key("patternProperties")
    {
        return Ok(());
    }
    let allowed = |name: &str| {
        closed
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|properties| properties.contains_key(name))
    };
    if let Some(Value::Array(required)) = other.get("required")
        && let Some(name) = required
            .iter()
            .filter_map(Value::as_str)
            .find(|n| !allowed(n))
    {
        return Err(format!(
            "property `{name}` is required by one schema and forbidden by another's additionalProperties: false"
        ));
    }
    if let Some(Value::Object(properties)) = other.get_mut("properties") {
        properties.retain(|name, _| allowed(name));
    }
    Ok(())
}

fn type_names(types: &Value) -> Vec<&str> {
    match types {
        Value::String(name) => vec![name.as_str()],
        Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn intersect_types(ours: &Value, theirs: &Value) -> Result<Value, String> {
    let theirs_names = type_names(theirs);
    let mut common: Vec<&str> = Vec::new();
    for name in type_names(ours) {
        let shared = if theirs_names.contains(&name) {
            Some(name)
        } else if name == "number" && theirs_names.contains(&"integer")
            || name == "integer" && theirs_names.contains(&"number")
        {
            Some("integer")
        } else {
            None
        };
        if let Some(shared) = shared.filter(|s| !common.contains(s)) {
            common.push(shared);
        }
    }
    match common.as_slice() {
        [] => Err(format!("types {ours} and {theirs} have nothing in common")),
        [one] => Ok(json!(one)),
        _ => Ok(json!(common)),
    }
}

fn intersect_enums(ours: &Value, theirs: &Value) -> Result<Value, String> {
    let (Some(ours_values), Some(theirs_values)) = (ours.as_array(), theirs.as_array()) else {
        return Ok(ours.clone());
    };
    let common: Vec<Value> = ours_values
        .iter()
        .filter(|v| theirs_values.contains(v))
        .cloned()
        .collect();
    if common.is_empty() {
        return Err(format!("enums {ours} and {theirs} share no value"));
    }
    Ok(Value::Array(common))
}

/// The larger (`larger`) or smaller of two numbers.
fn extreme(ours: &Value, theirs: &Value, larger: bool) -> Value {
    let (Some(a), Some(b)) = (Decimal::of_value(ours), Decimal::of_value(theirs)) else {
        return ours.clone();
    };
    if (b > a) == larger {
        theirs.clone()
    } else {
        ours.clone()
    }
}

fn least_common_multiple(ours: &Value, theirs: &Value) -> Result<Value, String> {
    let (Some(a), Some(b)) = (Decimal::of_value(ours), Decimal::of_value(theirs)) else {
        return Ok(ours.clone());
    };
    a.lcm(b)
        .and_then(Decimal::to_json)
        .ok_or_else(|| format!("no common multiple of {ours} and {theirs} in range"))
}

/// Both lists' entries, once each (`required`, patterns).
fn union_list(ours: &Value, theirs: &Value) -> Value {
    let as_list = |value: &Value| match value {
        Value::Array(items) => items.clone(),
        other => vec![other.clone()],
    };
    let mut list = as_list(ours);
    for entry in as_list(theirs) {
        if !list.contains(&entry) {
            list.push(entry);
        }
    }
    Value::Array(list)
}

/// Two subschemas that must both hold: `false` wins, `true` gives way, the rest nest.
fn both(ours: &Value, theirs: &Value) -> Value {
    match (ours, theirs) {
        (Value::Bool(false), _) | (_, Value::Bool(true)) => ours.clone(),
        (_, Value::Bool(false)) | (Value::Bool(true), _) => theirs.clone(),
        _ if ours == theirs => ours.clone(),
        _ => json!({"allOf": [ours, theirs]}),
    }
}

/// Two maps of named entries, shared names combined with `combine`.
fn merge_named(ours: &Value, theirs: &Value, combine: fn(&Value, &Value) -> Value) -> Value {
    let (Value::Object(ours), Value::Object(theirs)) = (ours, theirs) else {
        return ours.clone();
    };
    let mut merged = ours.clone();
    for (name, their) in theirs {
        let value = match merged.get(name) {
            Some(our) => combine(our, their),
            None => their.clone(),
        };
        merged.insert(name.clone(), value);
    }
    Value::Object(merged)
}

fn pairwise(ours: &Value, theirs: &Value) -> Value {
    let (Some(ours), Some(theirs)) = (ours.as_array(), theirs.as_array()) else {
        return ours.clone();
    };
    let longest = ours.len().max(theirs.len());
    let items: Vec<Value> = (0..longest)
        .map(|index| match (ours.get(index), theirs.get(index)) {
            (Some(a), Some(b)) => both(a, b),
            (Some(one), None) | (None, Some(one)) => one.clone(),
            (None, None) => json!(true),
        })
        .collect();
    Value::Array(items)
}

/// `(a1 | a2) & (b1 | b2)` as `a1&b1 | a1&b2 | a2&b1 | a2&b2`, when that stays small.
fn distribute(ours: &Value, theirs: &Value) -> Value {
    let (Some(ours), Some(theirs)) = (ours.as_array(), theirs.as_array()) else {
        return ours.clone();
    };
    if ours.len() * theirs.len() > MAX_PRODUCT {
        return Value::Array(ours.clone());
    }
    let product: Vec<Value> = ours
        .iter()
        .flat_map(|a| theirs.iter().map(move |b| both(a, b)))
        .collect();
    Value::Array(product)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn merged(a: Value, b: Value) -> Result<Value, String> {
        merge(a.as_object().unwrap(), b.as_object().unwrap()).map(Value::Object)
    }

    #[test]
    fn intersects_and_tightens() {
        let result = merged(
            json!({"type": ["number", "null"], "minimum": 1, "properties": {"a": {"type": "string"}}, "required": ["a"]}),
            json!({"type": "integer", "minimum": 5, "maximum": 9, "properties": {"a": {"maxLength": 3}, "b": {}}, "required": ["b"]}),
        )
        .unwrap();
        assert_eq!(result["type"], json!("integer"));
        assert_eq!(result["minimum"], json!(5));
        assert_eq!(result["maximum"], json!(9));
        assert_eq!(result["required"], json!(["a", "b"]));
        assert_eq!(
            result["properties"]["a"],
            json!({"allOf": [{"type": "string"}, {"maxLength": 3}]})
        );
    }

    #[test]
    fn contradictions_are_errors() {
        assert!(merged(json!({"type": "string"}), json!({"type": "integer"})).is_err());
        assert!(merged(json!({"const": 1}), json!({"const": 2})).is_err());
        assert!(
            merged(
                json!({"properties": {"a": {}}, "additionalProperties": false}),
                json!({"required": ["b"]})
            )
            .is_err()
        );
    }

    #[test]
    fn modernizes_older_drafts() {
        let modern = modernized(
            json!({"minimum": 3, "exclusiveMinimum": true, "items": [{}, {}], "additionalItems": false})
                .as_object()
                .unwrap(),
        );
        assert_eq!(
            Value::Object(modern),
            json!({"exclusiveMinimum": 3, "prefixItems": [{}, {}], "items": false})
        );
    }
}
