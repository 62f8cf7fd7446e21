//! Which values a cassette never holds: those under keys that name secrets.

use serde_json::Value;

/// What a secret is written as.
pub const REDACTED: &str = "<redacted>";

/// The endings of keys that name secrets, once lowercased and stripped of `-`, `_` and `.`.
const SECRET_ENDINGS: [&str; 12] = [
    "token",
    "password",
    "passwd",
    "passphrase",
    "secret",
    "apikey",
    "accesskey",
    "privatekey",
    "authorization",
    "cookie",
    "credential",
    "credentials",
];

/// Keys with those endings that the protocol itself uses for values that are no secret.
const NOT_SECRETS: [&str; 2] = ["progresstoken", "pagetoken"];

/// Whether a value under `key` is a secret, and so written as [`REDACTED`] in a cassette.
///
/// The rule: `key`, lowercased and stripped of `-`, `_` and `.`, ends with `token`,
/// `password`, `passwd`, `passphrase`, `secret`, `apikey`, `accesskey`, `privatekey`,
/// `authorization`, `cookie` or `credential(s)`; except MCP's own `progressToken` and
/// pagination's `pageToken`/`nextPageToken`. So `token`, `accessToken`, `refresh_token`,
/// `client_secret`, `X-Api-Key`, `apiKey`, `DB_PASSWORD`, `Authorization`, `Set-Cookie` and
/// `awsCredentials` are secrets; `maxTokens`, `tokenizer`, `secretName` and `progressToken`
/// are not.
///
/// ```
/// use mcp_assured::cassette::is_secret_key;
/// assert!(is_secret_key("api_key") && is_secret_key("X-Auth-Token") && is_secret_key("Cookie"));
/// assert!(!is_secret_key("maxTokens") && !is_secret_key("progressToken"));
/// ```
pub fn is_secret_key(key: &str) -> bool {
    let folded: String = key
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .collect();
    SECRET_ENDINGS.iter().any(|ending| folded.ends_with(ending))
        && !NOT_SECRETS.iter().any(|ending| folded.ends_with(ending))
}

/// `value` with every value under a [secret key](is_secret_key), at any depth, replaced by
/// [`REDACTED`] (an object or array there is replaced whole; a `null` is kept, it hides
/// nothing). Secrets elsewhere (inside a text, a URL) are not found.
///
/// ```
/// use mcp_assured::cassette::redact;
/// use serde_json::json;
/// let mut params = json!({"name": "deploy", "arguments": {"env": "prod", "apiToken": "t-123"}});
/// redact(&mut params);
/// assert_eq!(params, json!({"name": "deploy", "arguments": {"env": "prod", "apiToken": "<redacted>"}}));
/// ```
pub fn redact(value: &mut Value) {
    match value {
        Value::Object(entries) => {
            for (key, value) in entries.iter_mut() {
                if is_secret_key(key) {
                    if !value.is_null() {
                        *value = Value::from(REDACTED);
                    }
                } else {
                    redact(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn keys_that_name_secrets() {
        for key in [
            "token",
            "accessToken",
            "refresh_token",
            "client_secret",
            "X-Api-Key",
            "apiKey",
            "DB_PASSWORD",
            "Authorization",
            "proxy-authorization",
            "Set-Cookie",
            "awsCredentials",
            "private_key",
        ] {
            assert!(is_secret_key(key), "{key}");
        }
        for key in [
            "maxTokens",
            "inputTokens",
            "tokenizer",
            "secretName",
            "progressToken",
            "nextPageToken",
            "nextCursor",
            "name",
        ] {
            assert!(!is_secret_key(key), "{key}");
        }
    }

    #[test]
    fn redacts_at_any_depth_and_whole() {
        let mut value = json!({
            "arguments": {"headers": [{"Authorization": "Bearer x"}], "password": {"a": 1}},
            "_meta": {"progressToken": 3},
            "token": null,
        });
        redact(&mut value);
        assert_eq!(
            value,
            json!({
                "arguments": {"headers": [{"Authorization": "<redacted>"}], "password": "<redacted>"},
                "_meta": {"progressToken": 3},
                "token": null,
            })
        );
    }
}
