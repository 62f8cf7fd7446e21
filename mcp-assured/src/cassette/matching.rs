//! Which recorded interaction answers a request: [`Matching`], [`Cassette::answer`], and
//! [`NoMatch`], the miss that names the closest recorded request.

use std::{collections::BTreeSet, fmt};

use serde_json::Value;

use super::{
    Cassette, Interaction,
    redact::{REDACTED, redact},
    subject,
};

/// How many differences a [`NoMatch`] shows.
const SHOWN_DIFFERENCES: usize = 8;
/// How many characters of a JSON value a message shows.
const SHOWN_VALUE: usize = 60;
/// How many characters of a request's params a message shows.
const SHOWN_PARAMS: usize = 200;

/// What a request and a recorded one must share for the recorded answer to be given.
///
/// By default ([`Matching::new`]): the method, and the params as JSON values, which holds the
/// tool's or prompt's `name`, the resource's `uri`, the `arguments`, and a page's `cursor`
/// (a replayed server hands out the recorded cursors, so a client sends them back). Never
/// compared: the request's id (not in the params), and `_meta`, with its `progressToken`
/// and, on 2026-07-28, the client's metadata. A recorded `"<redacted>"` agrees with any
/// value (a secret was there). Numbers agree by value (`1` and `1.0`).
///
/// Looser: [`ignoring_arguments`](Self::ignoring_arguments) compares the method and the
/// name or URI alone; [`method_only`](Self::method_only) the method alone. And
/// [`ignore`](Self::ignore) leaves out a field that changes from run to run (a timestamp, a
/// request id of the application's) by its JSON pointer within the params.
///
/// ```
/// use mcp_assured::cassette::Matching;
/// let matching = Matching::new().ignore("/arguments/requestedAt");
/// let lenient = Matching::ignoring_arguments();
/// # drop((matching, lenient));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Matching {
    on: On,
    ignored: Vec<String>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum On {
    #[default]
    Params,
    Subject,
    Method,
}

impl Matching {
    /// The method, and the params but `_meta` (name or URI, arguments, cursor).
    pub fn new() -> Self {
        Matching::default()
    }

    /// The method and the tool's or prompt's name or the resource's URI; arguments are not
    /// compared.
    pub fn ignoring_arguments() -> Self {
        Matching {
            on: On::Subject,
            ignored: Vec::new(),
        }
    }

    /// The method alone.
    pub fn method_only() -> Self {
        Matching {
            on: On::Method,
            ignored: Vec::new(),
        }
    }

    /// Leaves out the field at `pointer` (a JSON pointer within the params, e.g.
    /// `/arguments/timestamp`) on both sides before the params are compared.
    pub fn ignore(mut self, pointer: impl Into<String>) -> Self {
        self.ignored.push(pointer.into());
        self
    }

    /// `params` as compared: without `_meta` and the ignored fields, `{}` for none.
    fn comparable(&self, params: &Value) -> Value {
        let mut params = match params {
            Value::Null => Value::Object(Default::default()),
            other => other.clone(),
        };
        if let Some(entries) = params.as_object_mut() {
            entries.remove("_meta");
        }
        for pointer in &self.ignored {
            remove_at(&mut params, pointer);
        }
        params
    }

    fn matches(&self, recorded: &Interaction, method: &str, params: &Value, asked: &Value) -> bool {
        recorded.method == method
            && match self.on {
                On::Method => true,
                On::Subject => recorded.subject() == subject(params),
                On::Params => agree(&self.comparable(&recorded.params), asked),
            }
    }

    fn describe(&self) -> String {
        let mut what = match self.on {
            On::Params => "method, name or URI, and arguments".to_owned(),
            On::Subject => "method, and name or URI".to_owned(),
            On::Method => "method".to_owned(),
        };
        if !self.ignored.is_empty() && self.on == On::Params {
            what.push_str(&format!(", ignoring {}", self.ignored.join(", ")));
        }
        what
    }
}

/// Removes the value at `pointer` (an array item becomes `null`, so that the others keep
/// their places).
fn remove_at(value: &mut Value, pointer: &str) {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return;
    };
    let last = last.replace("~1", "/").replace("~0", "~");
    match value.pointer_mut(parent) {
        Some(Value::Object(entries)) => {
            entries.remove(&last);
        }
        Some(Value::Array(items)) => {
            if let Some(item) = last.parse::<usize>().ok().and_then(|at| items.get_mut(at)) {
                *item = Value::Null;
            }
        }
        _ => {}
    }
}

/// Whether a recorded value and an asked one are the same JSON, a recorded
/// [`REDACTED`] agreeing with anything and numbers by value.
fn agree(recorded: &Value, asked: &Value) -> bool {
    match (recorded, asked) {
        (Value::String(secret), _) if secret == REDACTED => true,
        (Value::Number(a), Value::Number(b)) => a == b || a.as_f64() == b.as_f64(),
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(key, a)| b.get(key).is_some_and(|b| agree(a, b)))
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| agree(a, b))
        }
        (a, b) => a == b,
    }
}

/// Where a recorded value and an asked one differ, a line each, by JSON pointer.
fn differences(recorded: &Value, asked: &Value, at: &str, found: &mut Vec<String>) {
    match (recorded, asked) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for key in keys {
                let here = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
                match (a.get(key), b.get(key)) {
                    (Some(a), Some(b)) => differences(a, b, &here, found),
                    (Some(a), None) => {
                        found.push(format!("{here}: recorded {}, not asked", shown(a)))
                    }
                    (None, Some(b)) => {
                        found.push(format!("{here}: asked {}, not recorded", shown(b)))
                    }
                    (None, None) => {}
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (index, (a, b)) in a.iter().zip(b).enumerate() {
                differences(a, b, &format!("{at}/{index}"), found);
            }
        }
        (a, b) if !agree(a, b) => {
            let at = if at.is_empty() { "params" } else { at };
            found.push(format!("{at}: recorded {}, asked {}", shown(a), shown(b)));
        }
        _ => {}
    }
}

/// A JSON value for a message, cut short.
fn shown(value: &Value) -> String {
    cut(&value.to_string(), SHOWN_VALUE)
}

fn cut(text: &str, most: usize) -> String {
    match text.char_indices().nth(most) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// A request for a message: its method and params, cut short.
fn request(method: &str, params: &Value) -> String {
    if params.as_object().is_some_and(|p| p.is_empty()) || params.is_null() {
        format!("`{method}`")
    } else {
        format!("`{method}` {}", cut(&params.to_string(), SHOWN_PARAMS))
    }
}

impl Cassette {
    /// The recorded interaction that answers the request `method` with `params`, as
    /// `matching` decides; only answered interactions (a result or an error) count.
    ///
    /// When several match, they are handed out in recorded order, one per call, and the
    /// last is repeated once they run out: a `tools/call` recorded three times answers as
    /// it did the first, second and third time, then as the third forever. The count is
    /// kept per set of matching interactions; [`rewind`](Self::rewind) starts over.
    ///
    /// # Errors
    ///
    /// [`NoMatch`], naming the request and the closest recorded one (by method, then name
    /// or URI, then how many fields of the params differ) with where they differ.
    pub fn answer(
        &self,
        method: &str,
        params: &Value,
        matching: &Matching,
    ) -> Result<&Interaction, NoMatch> {
        let asked = matching.comparable(params);
        let candidates: Vec<usize> = self
            .interactions
            .iter()
            .enumerate()
            .filter(|(_, recorded)| {
                recorded.is_answered() && matching.matches(recorded, method, params, &asked)
            })
            .map(|(index, _)| index)
            .collect();
        let Some(&last) = candidates.last() else {
            return Err(self.no_match(method, params, &asked, matching));
        };
        let mut handed_out = self.handed_out();
        let count = handed_out.entry(candidates.clone()).or_default();
        let index = candidates.get(*count).copied().unwrap_or(last);
        *count = count.saturating_add(1);
        Ok(&self.interactions[index])
    }

    fn no_match(
        &self,
        method: &str,
        params: &Value,
        asked: &Value,
        matching: &Matching,
    ) -> NoMatch {
        let asked_subject = subject(params);
        // The request's secrets stay out of the message, as the recorded ones are.
        let mut shown_asked = asked.clone();
        redact(&mut shown_asked);
        let mut shown_params = params.clone();
        redact(&mut shown_params);
        let similarity = |a: Option<&str>, b: Option<&str>| match (a, b) {
            (None, None) => 1.0,
            (Some(a), Some(b)) => strsim::normalized_levenshtein(a, b),
            _ => 0.0,
        };
        let closest = self
            .interactions
            .iter()
            .enumerate()
            .filter(|(_, recorded)| recorded.is_answered())
            .map(|(index, recorded)| {
                let same_method = recorded.method == method;
                let mut found = Vec::new();
                if same_method {
                    differences(
                        &matching.comparable(&recorded.params),
                        &shown_asked,
                        "",
                        &mut found,
                    );
                }
                let rank = (
                    strsim::normalized_levenshtein(&recorded.method, method),
                    similarity(recorded.subject(), asked_subject),
                    // Fewer differences rank higher.
                    -(found.len() as f64),
                );
                (rank, index, found)
            })
            // The earliest of equals: `max_by` keeps the last, so compare the index too.
            .max_by(|(a, a_index, _), (b, b_index, _)| {
                a.partial_cmp(b)
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(b_index.cmp(a_index))
            })
            .map(|(_, index, differences)| {
                let recorded = &self.interactions[index];
                let mut params = recorded.params.clone();
                if let Some(entries) = params.as_object_mut() {
                    entries.remove("_meta");
                }
                Box::new(Closest {
                    index,
                    method: recorded.method.clone(),
                    params,
                    differences,
                })
            });
        NoMatch {
            method: method.to_owned(),
            params: shown_params,
            matching: matching.describe(),
            recorded: self.interactions.iter().filter(|i| i.is_answered()).count(),
            closest,
        }
    }
}

/// No recorded interaction answers a request: which request, and the closest recorded one.
#[derive(Debug, Clone, PartialEq)]
pub struct NoMatch {
    /// The request's method.
    pub method: String,
    /// The request's params, as asked, secrets redacted.
    pub params: Value,
    /// What had to agree, e.g. `method, name or URI, and arguments`.
    pub matching: String,
    /// How many answered interactions the cassette holds.
    pub recorded: usize,
    /// The recorded request closest to it, if the cassette holds any.
    pub closest: Option<Box<Closest>>,
}

/// The recorded request closest to one that matched none.
#[derive(Debug, Clone, PartialEq)]
pub struct Closest {
    /// Its place among the cassette's interactions.
    pub index: usize,
    /// Its method.
    pub method: String,
    /// Its params, without `_meta`.
    pub params: Value,
    /// Where its params and the request's differ, a line each (`/arguments/city: recorded
    /// "London", asked "Paris"`); none when the methods differ.
    pub differences: Vec<String>,
}

impl fmt::Display for NoMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no recorded interaction answers {} (matching {}; {} answered in the cassette)",
            request(&self.method, &self.params),
            self.matching,
            self.recorded
        )?;
        let Some(closest) = &self.closest else {
            return write!(f, "; the cassette has no answered request");
        };
        write!(
            f,
            "\nthe closest is interaction {}: {}",
            closest.index,
            request(&closest.method, &closest.params)
        )?;
        for difference in closest.differences.iter().take(SHOWN_DIFFERENCES) {
            write!(f, "\n  {difference}")?;
        }
        if closest.differences.len() > SHOWN_DIFFERENCES {
            write!(
                f,
                "\n  … and {} more",
                closest.differences.len() - SHOWN_DIFFERENCES
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for NoMatch {}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::cassette::RecordedServer;

    fn answered(method: &str, params: Value, text: &str) -> Interaction {
        let mut interaction = Interaction::new(method, params);
        interaction.result = Some(json!({"text": text}));
        interaction
    }

    fn cassette(interactions: Vec<Interaction>) -> Cassette {
        let mut cassette = Cassette::new(RecordedServer::default());
        cassette.interactions = interactions;
        cassette
    }

    fn text(interaction: &Interaction) -> &str {
        interaction.result.as_ref().unwrap()["text"]
            .as_str()
            .unwrap()
    }

    #[test]
    fn repeats_are_handed_out_in_order_then_the_last_again() {
        let call = |text| answered("tools/call", json!({"name": "roll"}), text);
        let cassette = cassette(vec![call("1"), call("2")]);
        let roll = || {
            text(
                cassette
                    .answer("tools/call", &json!({"name": "roll"}), &Matching::new())
                    .unwrap(),
            )
            .to_owned()
        };
        assert_eq!([roll(), roll(), roll()], ["1", "2", "2"]);
        cassette.rewind();
        assert_eq!(roll(), "1");
    }

    #[test]
    fn meta_ignored_fields_and_redacted_values_do_not_count() {
        let cassette = cassette(vec![
            answered("tools/list", Value::Null, "tools"),
            answered(
                "tools/call",
                json!({"name": "login", "arguments": {"user": "ada", "password": REDACTED, "at": 1}}),
                "in",
            ),
        ]);
        let matching = Matching::new().ignore("/arguments/at");
        let list = json!({"_meta": {"progressToken": 4}});
        assert_eq!(
            text(cassette.answer("tools/list", &list, &matching).unwrap()),
            "tools"
        );
        let login =
            json!({"name": "login", "arguments": {"user": "ada", "password": "pw", "at": 2.0}});
        assert_eq!(
            text(cassette.answer("tools/call", &login, &matching).unwrap()),
            "in"
        );
        assert!(
            cassette
                .answer("tools/call", &login, &Matching::new())
                .is_err()
        );
    }

    #[test]
    fn looser_matching_compares_less() {
        let cassette = cassette(vec![answered(
            "prompts/get",
            json!({"name": "greet", "arguments": {"who": "Ada"}}),
            "hi",
        )]);
        let other = json!({"name": "greet", "arguments": {"who": "Bob"}});
        assert!(
            cassette
                .answer("prompts/get", &other, &Matching::new())
                .is_err()
        );
        assert!(
            cassette
                .answer("prompts/get", &other, &Matching::ignoring_arguments())
                .is_ok()
        );
        let unknown = json!({"name": "farewell"});
        assert!(
            cassette
                .answer("prompts/get", &unknown, &Matching::ignoring_arguments())
                .is_err()
        );
        assert!(
            cassette
                .answer("prompts/get", &unknown, &Matching::method_only())
                .is_ok()
        );
    }

    #[test]
    fn a_miss_names_the_closest_recorded_request_and_how_it_differs() {
        let cassette = cassette(vec![
            answered(
                "tools/call",
                json!({"name": "weather", "arguments": {"city": "London"}}),
                "a",
            ),
            answered(
                "tools/call",
                json!({"name": "wether", "arguments": {"city": "Paris", "days": 2}}),
                "b",
            ),
            answered("tools/list", Value::Null, "c"),
        ]);
        let asked = json!({"name": "weather", "arguments": {"city": "Paris", "token": "s3cret"}});
        let miss = cassette
            .answer("tools/call", &asked, &Matching::new())
            .unwrap_err();
        let closest = miss.closest.as_ref().unwrap();
        assert_eq!(
            closest.index, 0,
            "the same name first, then the fewest differences"
        );
        assert_eq!(
            closest.differences,
            [
                r#"/arguments/city: recorded "London", asked "Paris""#,
                r#"/arguments/token: asked "<redacted>", not recorded"#,
            ]
        );
        let message = miss.to_string();
        assert!(!message.contains("s3cret"), "{message}");
        assert!(
            message.starts_with("no recorded interaction answers `tools/call` {"),
            "{message}"
        );
        assert!(message.contains(r#""token":"<redacted>""#), "{message}");
        assert!(
            message.contains(
                "(matching method, name or URI, and arguments; 3 answered in the cassette)\n\
                 the closest is interaction 0: `tools/call` {"
            ),
            "{message}"
        );
        assert!(
            message.ends_with(
                "\n  /arguments/city: recorded \"London\", asked \"Paris\"\
                 \n  /arguments/token: asked \"<redacted>\", not recorded"
            ),
            "{message}"
        );

        let other_method = cassette
            .answer("tools/lsit", &Value::Null, &Matching::new())
            .unwrap_err();
        let closest = other_method.closest.unwrap();
        assert_eq!((closest.index, closest.method.as_str()), (2, "tools/list"));
        assert!(closest.differences.is_empty());

        let empty = Cassette::new(RecordedServer::default());
        let none = empty
            .answer("ping", &Value::Null, &Matching::new())
            .unwrap_err();
        assert!(
            none.to_string()
                .ends_with("the cassette has no answered request"),
            "{none}"
        );
    }
}
