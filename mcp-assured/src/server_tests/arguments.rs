//! Arguments that satisfy a JSON Schema, for calling a tool that needs some: each required
//! property gets the simplest value of its type (a `default`, `const`, the first `enum`
//! value, the minimum, `"mcp-assured"`, ...).

use serde_json::{Map, Value, json};

/// A value valid against `schema`, as far as a simple reading of it goes.
pub fn valid_value(schema: &Value) -> Value {
    if let Some(value) = schema.get("default").or_else(|| schema.get("const")) {
        return value.clone();
    }
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(first) = ["anyOf", "oneOf", "allOf"].iter().find_map(|key| {
        schema
            .get(*key)
            .and_then(Value::as_array)
            .and_then(|s| s.first())
    }) {
        return valid_value(first);
    }
    let kind = match schema.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|kind| *kind != "null")
            .unwrap_or("null"),
        _ if schema.get("properties").is_some() => "object",
        _ => "string",
    };
    match kind {
        "object" => valid_object(schema),
        "array" => {
            let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            let item = schema
                .get("items")
                .map(valid_value)
                .unwrap_or(json!("mcp-assured"));
            Value::Array((0..min).map(|_| item.clone()).collect())
        }
        "integer" => json!(number_at_least(schema).ceil() as i64),
        "number" => json!(number_at_least(schema)),
        "boolean" => json!(true),
        "null" => Value::Null,
        _ => {
            let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0);
            let text = "mcp-assured".to_owned();
            json!(if (text.len() as u64) < min {
                "x".repeat(min as usize)
            } else {
                text
            })
        }
    }
}

/// An object with every required property.
pub fn valid_object(schema: &Value) -> Value {
    let properties = schema.get("properties").and_then(Value::as_object);
    let mut object = Map::new();
    for name in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        let property = properties
            .and_then(|p| p.get(name))
            .cloned()
            .unwrap_or(json!({}));
        object.insert(name.to_owned(), valid_value(&property));
    }
    Value::Object(object)
}

fn number_at_least(schema: &Value) -> f64 {
    match (
        schema.get("minimum").and_then(Value::as_f64),
        schema.get("exclusiveMinimum").and_then(Value::as_f64),
    ) {
        (Some(min), _) => min,
        (None, Some(min)) => min + 1.0,
        (None, None) => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_required_properties_only() {
        let schema = json!({
            "type": "object",
            "properties": {
                "echo": {"type": "string"},
                "count": {"type": "integer", "minimum": 2},
                "mode": {"enum": ["fast", "slow"]},
                "optional": {"type": "string"},
            },
            "required": ["echo", "count", "mode"],
        });
        assert_eq!(
            valid_object(&schema),
            json!({"echo": "mcp-assured", "count": 2, "mode": "fast"})
        );
    }
}
