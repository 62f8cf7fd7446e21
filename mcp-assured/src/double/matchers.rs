//! What a [`Mock`](super::Mock) answers: conditions on the method, the tool, prompt or
//! resource, the arguments, and the headers and credentials of a request.
//!
//! Every function here returns a [`Match`]; combine them with [`Mock::given`](super::Mock::given)
//! and [`.and(..)`](super::MockBuilder::and). A closure `Fn(&McpRequest) -> bool` is a matcher too.

use std::fmt;

use base64::Engine as _;
use serde_json::Value;

use super::request::McpRequest;

/// A condition on a request.
pub trait Match: Send + Sync + 'static {
    /// Whether `request` meets it.
    fn matches(&self, request: &McpRequest) -> bool;

    /// What it asks for, in words, for failure messages: `tool "search"`.
    fn describe(&self) -> String {
        "a predicate".to_owned()
    }

    /// The tool, prompt or resource it names, so the double can list it (see
    /// [`MockServer`](super::MockServer)'s advertised surface).
    fn names(&self) -> Option<Named> {
        None
    }
}

/// Something a matcher names, to be listed by `tools/list`, `prompts/list` or
/// `resources/list` unless declared otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Named {
    /// A tool, by name.
    Tool(String),
    /// A prompt, by name.
    Prompt(String),
    /// A resource, by URI.
    Resource(String),
}

impl<F> Match for F
where
    F: Fn(&McpRequest) -> bool + Send + Sync + 'static,
{
    fn matches(&self, request: &McpRequest) -> bool {
        self(request)
    }
}

impl fmt::Debug for dyn Match {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

/// A matcher built from a predicate and its description.
struct Described<P> {
    predicate: P,
    description: String,
    names: Option<Named>,
}

impl<P> Match for Described<P>
where
    P: Fn(&McpRequest) -> bool + Send + Sync + 'static,
{
    fn matches(&self, request: &McpRequest) -> bool {
        (self.predicate)(request)
    }

    fn describe(&self) -> String {
        self.description.clone()
    }

    fn names(&self) -> Option<Named> {
        self.names.clone()
    }
}

fn described(
    description: String,
    predicate: impl Fn(&McpRequest) -> bool + Send + Sync + 'static,
) -> Described<impl Fn(&McpRequest) -> bool + Send + Sync + 'static> {
    Described {
        predicate,
        description,
        names: None,
    }
}

/// The JSON-RPC method, exactly: `method("tools/list")`.
pub fn method(method: impl Into<String>) -> impl Match {
    let method = method.into();
    described(format!("method {method}"), move |request| {
        request.method == method
    })
}

/// A call of this tool (`tools/call` with this `name`); the double lists the tool.
pub fn tool(name: impl Into<String>) -> impl Match {
    let name = name.into();
    Described {
        description: format!("tool {name:?}"),
        names: Some(Named::Tool(name.clone())),
        predicate: move |request: &McpRequest| {
            request.method == "tools/call" && request.params["name"] == name.as_str()
        },
    }
}

/// A `prompts/get` of this prompt; the double lists the prompt.
pub fn prompt(name: impl Into<String>) -> impl Match {
    let name = name.into();
    Described {
        description: format!("prompt {name:?}"),
        names: Some(Named::Prompt(name.clone())),
        predicate: move |request: &McpRequest| {
            request.method == "prompts/get" && request.params["name"] == name.as_str()
        },
    }
}

/// A `resources/read` of this URI; the double lists the resource.
pub fn resource(uri: impl Into<String>) -> impl Match {
    let uri = uri.into();
    Described {
        description: format!("resource {uri:?}"),
        names: Some(Named::Resource(uri.clone())),
        predicate: move |request: &McpRequest| {
            request.method == "resources/read" && request.params["uri"] == uri.as_str()
        },
    }
}

/// The arguments are exactly `expected` (JSON equality; no arguments is `{}`).
pub fn arguments(expected: Value) -> impl Match {
    described(format!("arguments {expected}"), move |request| {
        normalized(request.arguments()) == expected
    })
}

/// The arguments contain `expected`: every property of it is there with an equal value,
/// objects compared the same way at every depth (arrays exactly).
pub fn arguments_include(expected: Value) -> impl Match {
    described(format!("arguments including {expected}"), move |request| {
        includes(request.arguments(), &expected)
    })
}

/// The value at a JSON pointer into the arguments equals `expected`:
/// `argument("/filter/limit", json!(10))`.
pub fn argument(pointer: impl Into<String>, expected: Value) -> impl Match {
    let pointer = pointer.into();
    described(format!("argument {pointer} = {expected}"), move |request| {
        request.arguments().pointer(&pointer) == Some(&expected)
    })
}

/// The value at a JSON pointer into the request's params equals `expected`:
/// `param("/_meta/progressToken", json!(1))`.
pub fn param(pointer: impl Into<String>, expected: Value) -> impl Match {
    let pointer = pointer.into();
    described(format!("param {pointer} = {expected}"), move |request| {
        request.params.pointer(&pointer) == Some(&expected)
    })
}

/// The request came with this HTTP header and value (the name case-insensitive). Never
/// matches over stdio, which has no headers.
pub fn header(name: impl Into<String>, value: impl Into<String>) -> impl Match {
    let (name, value) = (name.into(), value.into());
    described(format!("header {name}"), move |request| {
        request.header(&name) == Some(value.as_str())
    })
}

/// The request came with `Authorization: Bearer <token>`. The token is not printed.
pub fn bearer_token(token: impl Into<String>) -> impl Match {
    let expected = format!("Bearer {}", token.into());
    described("a bearer token".to_owned(), move |request| {
        request.header("authorization") == Some(expected.as_str())
    })
}

/// The request came with HTTP basic auth for this user and password (not printed).
pub fn basic_auth(user: impl Into<String>, password: impl Into<String>) -> impl Match {
    let encoded = base64::engine::general_purpose::STANDARD.encode(format!(
        "{}:{}",
        user.into(),
        password.into()
    ));
    let expected = format!("Basic {encoded}");
    described("basic auth".to_owned(), move |request| {
        request.header("authorization") == Some(expected.as_str())
    })
}

/// Any request whose `predicate` holds, described as `description` in failure messages.
pub fn predicate(
    description: impl Into<String>,
    predicate: impl Fn(&McpRequest) -> bool + Send + Sync + 'static,
) -> impl Match {
    described(description.into(), predicate)
}

/// Arguments as compared: none is `{}`.
fn normalized(arguments: &Value) -> Value {
    if arguments.is_null() {
        Value::Object(Default::default())
    } else {
        arguments.clone()
    }
}

/// Whether `actual` has every property of `expected`, recursively.
fn includes(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Object(actual), Value::Object(expected)) => expected.iter().all(|(key, value)| {
            actual
                .get(key)
                .is_some_and(|present| includes(present, value))
        }),
        (Value::Null, Value::Object(expected)) => expected.is_empty(),
        _ => actual == expected,
    }
}

/// The matchers of a mock, described together.
pub(crate) struct Matchers(pub(crate) Vec<Box<dyn Match>>);

impl Matchers {
    pub(crate) fn matches(&self, request: &McpRequest) -> bool {
        self.0.iter().all(|matcher| matcher.matches(request))
    }

    pub(crate) fn names(&self) -> Vec<Named> {
        self.0
            .iter()
            .filter_map(|matcher| matcher.names())
            .collect()
    }
}

impl fmt::Debug for Matchers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string())
    }
}

impl fmt::Display for Matchers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let described: Vec<String> = self.0.iter().map(|matcher| matcher.describe()).collect();
        f.write_str(&described.join(" and "))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn call(name: &str, arguments: Value) -> McpRequest {
        McpRequest::new(
            "tools/call",
            json!({"name": name, "arguments": arguments}),
            vec![("authorization".into(), "Bearer s3cret".into())],
        )
    }

    #[test]
    fn a_tool_matches_its_calls_only() {
        let search = tool("search");
        assert!(search.matches(&call("search", json!({}))));
        assert!(!search.matches(&call("fetch", json!({}))));
        assert_eq!(search.names(), Some(Named::Tool("search".into())));
    }

    #[test]
    fn partial_arguments_match_at_every_depth() {
        let request = call(
            "search",
            json!({"q": "rust", "filter": {"limit": 3, "lang": "en"}}),
        );
        assert!(arguments_include(json!({"filter": {"limit": 3}})).matches(&request));
        assert!(!arguments_include(json!({"filter": {"limit": 4}})).matches(&request));
        assert!(!arguments(json!({"q": "rust"})).matches(&request));
        assert!(argument("/filter/lang", json!("en")).matches(&request));
    }

    #[test]
    fn no_arguments_are_an_empty_object() {
        let request = McpRequest::new("tools/call", json!({"name": "noop"}), vec![]);
        assert!(arguments(json!({})).matches(&request));
        assert!(arguments_include(json!({})).matches(&request));
    }

    #[test]
    fn credentials_match_without_being_described() {
        let request = call("search", json!({}));
        assert!(bearer_token("s3cret").matches(&request));
        assert!(!bearer_token("other").matches(&request));
        assert!(!bearer_token("s3cret").describe().contains("s3cret"));
        assert!(header("Authorization", "Bearer s3cret").matches(&request));
    }
}
