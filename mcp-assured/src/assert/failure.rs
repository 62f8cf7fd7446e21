//! How a failed check is reported: one message that states what was expected, what came, and
//! the context that explains it; a panic at the caller's line, or an [`AssertionError`] from
//! the `try_` twins.

use std::fmt;

use serde_json::Value;

/// A failed check, returned by the `try_` assertions; its message is what the panicking twin
/// would print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssertionError {
    message: String,
}

impl AssertionError {
    /// The whole failure message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for AssertionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for AssertionError {}

/// Panics with the failure, at the location of the assertion's caller.
#[track_caller]
pub(crate) fn check<T>(result: Result<T, AssertionError>) -> T {
    match result {
        Ok(value) => value,
        Err(failure) => panic!("{failure}"),
    }
}

/// Builds a failure message: a headline, then `name=value` facts and fenced blocks.
#[derive(Debug)]
pub(crate) struct Failure {
    text: String,
}

impl Failure {
    pub(crate) fn new(headline: impl fmt::Display) -> Self {
        Failure {
            text: headline.to_string(),
        }
    }

    /// A one-line fact, e.g. `tool=weather`.
    pub(crate) fn fact(mut self, name: &str, value: impl fmt::Display) -> Self {
        self.text.push_str(&format!("\n{name}={value}"));
        self
    }

    /// A multi-line value in a fence, e.g. the content a tool returned.
    pub(crate) fn block(mut self, name: &str, value: impl fmt::Display) -> Self {
        self.text.push_str(&format!("\n{name}=```{value}```"));
        self
    }

    /// Pretty JSON in a fence.
    pub(crate) fn json(self, name: &str, value: &Value) -> Self {
        self.block(name, pretty(value))
    }

    /// A line-by-line diff of two JSON values.
    pub(crate) fn diff(mut self, expected: &Value, actual: &Value) -> Self {
        let (expected, actual) = (pretty(expected), pretty(actual));
        self.text.push_str(&format!(
            "\ndiff (< expected, > actual):\n{}",
            pretty_assertions::StrComparison::new(&expected, &actual)
        ));
        self
    }

    pub(crate) fn err<T>(self) -> Result<T, AssertionError> {
        Err(AssertionError { message: self.text })
    }
}

pub(crate) fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

/// `a, b, c`, or `nothing` for an empty list.
pub(crate) fn listing<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() {
        return "nothing".to_owned();
    }
    items
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The candidate closest to `wanted`, if it is close enough to be a likely typo.
pub(crate) fn did_you_mean<'a>(wanted: &str, candidates: &'a [String]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (strsim::jaro_winkler(wanted, c), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_read_top_down() {
        let failure = Failure::new("Expected x.")
            .fact("tool", "weather")
            .block("content", "boom")
            .err::<()>()
            .unwrap_err();
        assert_eq!(
            failure.message(),
            "Expected x.\ntool=weather\ncontent=```boom```"
        );
    }

    #[test]
    fn diffs_mark_both_sides() {
        let failure = Failure::new("Not equal.")
            .diff(&json!({"a": 1}), &json!({"a": 2}))
            .err::<()>()
            .unwrap_err();
        assert!(
            failure.message().contains("diff (< expected, > actual)"),
            "{failure}"
        );
        assert!(failure.message().contains('1') && failure.message().contains('2'));
    }

    #[test]
    fn suggests_close_names_only() {
        let names = vec!["weather".to_owned(), "echo".to_owned()];
        assert_eq!(did_you_mean("weathr", &names), Some("weather"));
        assert_eq!(did_you_mean("zzz", &names), None);
    }
}
