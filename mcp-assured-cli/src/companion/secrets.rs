//! Credentials in a tool's arguments (`bearer_token`, `client_secret`, `headers`, `env`) never
//! come back in an answer: not in the echoed arguments, and not inside a parse error that
//! quotes a value.

use rmcp::model::JsonObject;
use serde_json::Value;

/// The argument names whose values are credentials or may hold them.
const SECRET_ARGUMENTS: [&str; 4] = ["bearer_token", "client_secret", "headers", "env"];

/// What replaces a secret.
const REDACTED: &str = "[redacted]";

/// Secrets shorter than this are replaced only where quoted (`"abc"`), so that a one-letter
/// value does not blot out the rest of a message.
const SHORTEST_BARE: usize = 4;

/// `args` with the values of every credential argument replaced (an object keeps its keys).
pub(crate) fn redact_arguments(args: &JsonObject) -> JsonObject {
    args.iter()
        .map(|(name, value)| {
            let value = if SECRET_ARGUMENTS.contains(&name.as_str()) {
                redact_value(value)
            } else {
                value.clone()
            };
            (name.clone(), value)
        })
        .collect()
}

fn redact_value(value: &Value) -> Value {
    match value {
        Value::Object(entries) => Value::Object(
            entries
                .iter()
                .map(|(key, value)| (key.clone(), redact_value(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(redact_value).collect()),
        _ => Value::from(REDACTED),
    }
}

/// `text` with every value found in `args`' credential arguments replaced: quoted as serde
/// quotes it in a type error (`string "…"`, ``integer `1234` ``), and bare.
pub(crate) fn scrub(text: &str, args: &JsonObject) -> String {
    let mut secrets = Vec::new();
    for name in SECRET_ARGUMENTS {
        if let Some(value) = args.get(name) {
            values_in(value, &mut secrets);
        }
    }
    // Longest first, so that a secret containing another is replaced whole.
    secrets.sort_by_key(|secret| std::cmp::Reverse(secret.len()));
    let mut text = text.to_owned();
    for secret in secrets {
        text = text.replace(&format!("{secret:?}"), &format!("{REDACTED:?}"));
        text = text.replace(&format!("`{secret}`"), &format!("`{REDACTED}`"));
        if secret.len() >= SHORTEST_BARE {
            text = text.replace(&secret, REDACTED);
        }
    }
    text
}

/// `url` without a user and password (`http://user:pass@host/mcp` → `http://host/mcp`):
/// the client sends them as basic auth, and the answers show the URL.
pub(crate) fn without_userinfo(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|at| at + 3) else {
        return url.to_owned();
    };
    let rest = &url[scheme_end..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{}{}", &url[..scheme_end], &rest[at + 1..]),
        None => url.to_owned(),
    }
}

fn values_in(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::String(text) if !text.is_empty() => found.push(text.clone()),
        Value::String(_) | Value::Null => {}
        // A number or a boolean is quoted by serde too (`invalid type: integer `1234``).
        Value::Number(_) | Value::Bool(_) => found.push(value.to_string()),
        Value::Object(entries) => entries.values().for_each(|value| values_in(value, found)),
        Value::Array(items) => items.iter().for_each(|value| values_in(value, found)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> JsonObject {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn credential_values_are_replaced_and_the_rest_kept() {
        let args = object(json!({
            "url": "http://127.0.0.1:1/mcp",
            "bearer_token": "tok-123456",
            "headers": {"X-Api-Key": "key-abcdef"},
            "env": {"TOKEN": "env-secret", "DEPTH": 3},
        }));
        assert_eq!(
            Value::Object(redact_arguments(&args)),
            json!({
                "url": "http://127.0.0.1:1/mcp",
                "bearer_token": "[redacted]",
                "headers": {"X-Api-Key": "[redacted]"},
                "env": {"TOKEN": "[redacted]", "DEPTH": "[redacted]"},
            })
        );
    }

    #[test]
    fn a_url_is_shown_without_its_user_and_password() {
        assert_eq!(
            without_userinfo("http://ada:p@ss@127.0.0.1:1/mcp?x=a@b"),
            "http://127.0.0.1:1/mcp?x=a@b"
        );
        assert_eq!(
            without_userinfo("http://127.0.0.1:1/a@b"),
            "http://127.0.0.1:1/a@b"
        );
        assert_eq!(without_userinfo("not a url"), "not a url");
    }

    #[test]
    fn a_quoted_or_bare_secret_is_scrubbed_from_a_message() {
        let args = object(json!({
            "headers": "X-Api-Key: key-\"abcdef\"",
            "bearer_token": "abc",
        }));
        let message =
            r#"invalid type: string "X-Api-Key: key-\"abcdef\"", expected a map; abc in "abc""#;
        assert_eq!(
            scrub(message, &args),
            r#"invalid type: string "[redacted]", expected a map; abc in "[redacted]""#
        );
        let number = object(json!({"env": {"PIN": 987654}}));
        assert_eq!(
            scrub("invalid type: integer `987654`, expected a string", &number),
            "invalid type: integer `[redacted]`, expected a string"
        );
        let bare = object(json!({"bearer_token": "tok-123456"}));
        assert_eq!(
            scrub("token tok-123456 refused", &bare),
            "token [redacted] refused"
        );
    }
}
