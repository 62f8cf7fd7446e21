//! A string that never shows itself in `Debug` or `Display` output.

use std::fmt;

/// A credential (a token, a password, an API key header value).
///
/// Its `Debug` and `Display` print `<redacted>`, so builders, errors and logs can be printed
/// without leaking it.
///
/// ```
/// use mcp_assured::Secret;
/// let token = Secret::new("s3cr3t");
/// assert_eq!(format!("{token:?}"), "Secret(<redacted>)");
/// assert_eq!(token.expose(), "s3cr3t");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a credential.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The credential itself; only for the code that sends it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Secret::new(value)
    }
}

impl From<&String> for Secret {
    fn from(value: &String) -> Self {
        Secret::new(value)
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Secret(value)
    }
}
