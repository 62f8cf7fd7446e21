//! The last pass of shrinking, on the JSON itself: what proptest's trees shrink one step at
//! a time (a long string one character at a time, a large number by halves of what it was
//! drawn from) is cut here by halves of the value (delta debugging): chunks of strings and
//! arrays removed, properties dropped, numbers searched toward zero. Every candidate keeps
//! the input what it was (valid stays valid against the schema, invalid stays invalid), and
//! is kept only when it still fails the same way.

use std::future::Future;

use futures::future::join_all;

use serde_json::{Number, Value};

/// Where a value sits in the input: object keys and array indices.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// Every path in `value`, parents before children.
fn paths(value: &Value) -> Vec<Vec<Step>> {
    fn walk(value: &Value, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
        out.push(here.clone());
        match value {
            Value::Object(fields) => {
                for (key, child) in fields {
                    here.push(Step::Key(key.clone()));
                    walk(child, here, out);
                    here.pop();
                }
            }
            Value::Array(items) => {
                for (index, child) in items.iter().enumerate() {
                    here.push(Step::Index(index));
                    walk(child, here, out);
                    here.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, &mut Vec::new(), &mut out);
    out
}

fn at<'a>(value: &'a Value, path: &[Step]) -> Option<&'a Value> {
    path.iter().try_fold(value, |value, step| match step {
        Step::Key(key) => value.get(key),
        Step::Index(index) => value.get(index),
    })
}

fn replaced(value: &Value, path: &[Step], new: Value) -> Value {
    let mut copy = value.clone();
    let mut slot = &mut copy;
    for step in path {
        slot = match step {
            Step::Key(key) => &mut slot[key.as_str()],
            Step::Index(index) => &mut slot[*index],
        };
    }
    *slot = new;
    copy
}

/// Smaller versions of `value`, most radical first.
fn smaller(value: &Value) -> Vec<Value> {
    match value {
        Value::Object(fields) => fields
            .keys()
            .map(|key| {
                let mut fewer = fields.clone();
                fewer.remove(key);
                Value::Object(fewer)
            })
            .collect(),
        Value::Array(items) => chunks_removed(items.len())
            .map(|(start, end)| {
                Value::Array(
                    items[..start]
                        .iter()
                        .chain(&items[end..])
                        .cloned()
                        .collect(),
                )
            })
            .collect(),
        Value::String(text) => {
            let chars: Vec<char> = text.chars().collect();
            let mut out: Vec<Value> = chunks_removed(chars.len())
                .map(|(start, end)| {
                    Value::String(chars[..start].iter().chain(&chars[end..]).collect())
                })
                .collect();
            // Then each character made plain, for short strings.
            if chars.len() <= 16 {
                for index in 0..chars.len() {
                    if chars[index] != 'a' {
                        let mut plain = chars.clone();
                        plain[index] = 'a';
                        out.push(Value::String(plain.into_iter().collect()));
                    }
                }
            }
            out
        }
        Value::Number(number) => toward_zero(number),
        Value::Bool(true) => vec![Value::Bool(false)],
        _ => Vec::new(),
    }
}

/// The ranges to remove from a sequence of `len`: halves, then quarters, ... then single
/// elements.
fn chunks_removed(len: usize) -> impl Iterator<Item = (usize, usize)> {
    let mut sizes = Vec::new();
    let mut size = len;
    while size > 0 {
        sizes.push(size);
        size /= 2;
    }
    sizes.into_iter().flat_map(move |size| {
        (0..len.div_ceil(size)).map(move |chunk| (chunk * size, ((chunk + 1) * size).min(len)))
    })
}

/// 0; then powers of two up from 1 (toward the number's sign), which find where a
/// failure begins when it grows with the number (a delay, a size); then the number's distance
/// to zero halved, which closes in on the boundary from above.
fn toward_zero(number: &Number) -> Vec<Value> {
    let (magnitude, negative) = if let Some(n) = number.as_i64() {
        (i128::from(n).unsigned_abs(), n < 0)
    } else if let Some(n) = number.as_u64() {
        (u128::from(n), false)
    } else {
        let n = number.as_f64().unwrap_or_default();
        let mut out = vec![Value::from(0)];
        if n.trunc() != n && n.is_finite() {
            out.extend(Number::from_f64(n.trunc()).map(Value::Number));
        }
        return out;
    };
    if magnitude == 0 {
        return Vec::new();
    }
    let signed = |m: u128| -> Value {
        if negative {
            i64::try_from(m)
                .map(|m| Value::from(-m))
                .unwrap_or(Value::Null)
        } else {
            u64::try_from(m).map(Value::from).unwrap_or(Value::Null)
        }
    };
    let mut out = vec![Value::from(0)];
    let mut power = 1u128;
    while power < magnitude {
        out.push(signed(power));
        power *= 2;
    }
    let mut step = magnitude / 2;
    while step != 0 {
        out.push(signed(magnitude - step));
        step /= 2;
    }
    out.retain(|value| !value.is_null());
    out
}

/// Shrinks `value` while `fails` says a candidate still fails, trying at most `budget`
/// candidates that `keeps` (the input stays what it was), `width` of them at a time (the
/// first in order that fails is taken, as one at a time would have it, and handed to
/// `taken`); returns the smallest and how many were tried.
///
/// More than one at a time pays when a failing candidate costs a wait (a hang, judged by a
/// timeout): a batch costs one wait, not one each.
pub(crate) async fn polish<F, Fut>(
    mut value: Value,
    budget: u32,
    keeps: impl Fn(&Value) -> bool,
    width: usize,
    mut fails: F,
    mut taken: impl FnMut(&Value),
) -> (Value, u32)
where
    F: FnMut(Value) -> Fut,
    Fut: Future<Output = bool>,
{
    let width = width.max(1);
    let mut tried = 0;
    'again: loop {
        let mut batch: Vec<Value> = Vec::with_capacity(width);
        let mut out_of_budget = false;
        let paths = paths(&value);
        let mut paths = paths.iter();
        loop {
            // Fill the batch from the candidates in order, then try it.
            let mut exhausted = false;
            while batch.len() < width && !out_of_budget {
                let Some(path) = paths.next() else {
                    exhausted = true;
                    break;
                };
                let Some(here) = at(&value, path) else {
                    continue;
                };
                for candidate in smaller(here) {
                    let whole = replaced(&value, path, candidate);
                    if whole == value || !keeps(&whole) {
                        continue;
                    }
                    if tried + batch.len() as u32 >= budget {
                        out_of_budget = true;
                        break;
                    }
                    batch.push(whole);
                }
            }
            // A path's candidates may overfill the batch: the rest wait for the next one.
            let rest = if batch.len() > width {
                batch.split_off(width)
            } else {
                Vec::new()
            };
            if batch.is_empty() {
                return (value, tried);
            }
            tried += batch.len() as u32;
            let verdicts = join_all(batch.iter().cloned().map(&mut fails)).await;
            if let Some(first) = verdicts.iter().position(|&failed| failed) {
                value = batch.swap_remove(first);
                taken(&value);
                continue 'again;
            }
            batch = rest;
            if (exhausted || out_of_budget) && batch.is_empty() {
                return (value, tried);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn shrink(value: Value, fails: impl Fn(&Value) -> bool) -> (Value, u32) {
        let keeps = |_: &Value| true;
        let polished = polish(
            value,
            200,
            keeps,
            1,
            |candidate| {
                let result = fails(&candidate);
                async move { result }
            },
            |_| {},
        );
        futures::executor::block_on(polished)
    }

    #[test]
    fn a_long_string_is_cut_to_the_character_that_fails() {
        let long = format!("{}ë{}", "x".repeat(70), "y".repeat(40));
        let (smallest, tried) = shrink(json!({"query": long, "limit": 7}), |v| {
            v["query"].as_str().is_some_and(|q| !q.is_ascii())
        });
        assert_eq!(smallest, json!({"query": "ë"}));
        assert!(tried < 60, "{tried}");
    }

    #[test]
    fn candidates_tried_together_shrink_to_what_one_at_a_time_does() {
        let long = format!("{}ë{}", "x".repeat(70), "y".repeat(40));
        let input = json!({"query": long, "limit": 7});
        let fails = |v: &Value| v["query"].as_str().is_some_and(|q| !q.is_ascii());
        let keeps = |_: &Value| true;
        let mut taken = Vec::new();
        let (together, _) = futures::executor::block_on(polish(
            input.clone(),
            200,
            keeps,
            8,
            |c| {
                let result = fails(&c);
                async move { result }
            },
            |value| taken.push(value.clone()),
        ));
        assert_eq!(
            taken.last(),
            Some(&together),
            "the last taken is the smallest"
        );
        let (alone, _) = shrink(input, fails);
        assert_eq!(together, alone);
        assert_eq!(together, json!({"query": "ë"}));
    }

    #[test]
    fn numbers_are_searched_down_to_the_boundary() {
        let (smallest, _) = shrink(json!({"a": 9007199254740992i64, "b": 3}), |v| {
            v["a"].as_i64().unwrap_or(0) + v["b"].as_i64().unwrap_or(0) >= 1000
        });
        assert_eq!(smallest, json!({"a": 1000}));
    }

    #[test]
    fn a_failure_that_grows_with_a_number_is_found_from_below() {
        let (smallest, tried) = shrink(json!({"delay_ms": 9223372036854775807i64}), |v| {
            v["delay_ms"].as_i64().unwrap_or(0) > 2000
        });
        assert_eq!(smallest, json!({"delay_ms": 2001}));
        assert!(tried < 100, "{tried}");
    }

    #[test]
    fn arrays_lose_chunks_and_candidates_that_change_the_input_are_not_tried() {
        let keeps = |v: &Value| v["items"].as_array().is_some_and(|items| items.len() == 5);
        let (smallest, _) = futures::executor::block_on(polish(
            json!({"items": ["abc", "d", "éé", "", "zz"]}),
            100,
            keeps,
            1,
            |_| async { true },
            |_| {},
        ));
        assert_eq!(smallest, json!({"items": ["", "", "", "", ""]}));
    }
}
