//! JSON comparisons for assertions: numbers compare by value (`15` equals `15.0`, as they do in
//! JSON), and a subset check for "contains".

use serde_json::Value;

use super::failure::{AssertionError, Failure};

/// The value at `pointer` in `json`, the `what` of tool `tool`, [`equal`]s `expected`; else
/// the headline of the failure (the caller adds the facts that show the JSON).
pub(crate) fn check_at(
    what: &str,
    tool: &str,
    json: &Value,
    pointer: &str,
    expected: &Value,
) -> Result<(), String> {
    match json.pointer(pointer) {
        Some(actual) if equal(expected, actual) => Ok(()),
        Some(actual) => Err(format!(
            "Expected `{pointer}` in the {what} of tool `{tool}` to be {expected}, but it is {actual}."
        )),
        None => Err(format!(
            "Expected the {what} of tool `{tool}` to have a value at `{pointer}`, but there is none."
        )),
    }
}

/// `actual`, the `what` of tool `tool`, [`equal`]s `expected`; the failure shows a diff.
pub(crate) fn expect_equal(
    what: &str,
    tool: &str,
    expected: &Value,
    actual: &Value,
) -> Result<(), AssertionError> {
    if equal(expected, actual) {
        return Ok(());
    }
    Failure::new(format!(
        "Expected the {what} of tool `{tool}` to equal the expected JSON."
    ))
    .fact("tool", tool)
    .diff(expected, actual)
    .err()
}

/// Equal as JSON values, numbers compared numerically.
pub(crate) fn equal(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Number(e), Value::Number(a)) => match (e.as_i64(), a.as_i64()) {
            (Some(e), Some(a)) => e == a,
            _ => e.as_f64() == a.as_f64(),
        },
        (Value::Array(e), Value::Array(a)) => {
            e.len() == a.len() && e.iter().zip(a).all(|(e, a)| equal(e, a))
        }
        (Value::Object(e), Value::Object(a)) => {
            e.len() == a.len() && e.iter().all(|(k, e)| a.get(k).is_some_and(|a| equal(e, a)))
        }
        _ => expected == actual,
    }
}

/// `actual` contains `expected`: every key of an expected object is in the actual object with
/// a containing value; every element of an expected array is contained in some element of the
/// actual array; scalars are [`equal`].
pub(crate) fn contains(actual: &Value, expected: &Value) -> bool {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => e
            .iter()
            .all(|(k, e)| a.get(k).is_some_and(|a| contains(a, e))),
        (Value::Array(e), Value::Array(a)) => e.iter().all(|e| a.iter().any(|a| contains(a, e))),
        _ => equal(expected, actual),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value() {
        assert!(equal(&json!(15), &json!(15.0)));
        assert!(!equal(&json!(15), &json!(15.5)));
        assert!(equal(&json!({"t": [1, 2]}), &json!({"t": [1.0, 2.0]})));
    }

    #[test]
    fn subsets() {
        let actual = json!({"city": "London", "temperature": 15, "tags": ["a", "b"]});
        assert!(contains(&actual, &json!({"temperature": 15.0})));
        assert!(contains(&actual, &json!({"tags": ["b"]})));
        assert!(!contains(&actual, &json!({"city": "Paris"})));
        assert!(!contains(&actual, &json!({"wind": 3})));
    }
}
