//! Credentials and headers shared by the two HTTP transports.

use std::collections::HashMap;

use base64::Engine as _;
use http::{HeaderName, HeaderValue, header::AUTHORIZATION};

use crate::{Error, Secret};

/// What a refused TCP connection means to the person running the test.
pub(crate) const CONNECTION_REFUSED: &str =
    "nothing is listening there (connection refused); is the server running on that port?";

/// How the client authenticates to an HTTP server.
#[derive(Debug, Clone)]
pub(crate) enum Auth {
    Bearer(Secret),
    Basic { user: String, password: Secret },
}

/// Everything the HTTP transports add to each request.
#[derive(Debug, Clone, Default)]
pub(crate) struct HttpSettings {
    pub(crate) auth: Option<Auth>,
    /// Header values are treated as secrets: API keys travel in headers.
    pub(crate) headers: Vec<(String, Secret)>,
}

impl HttpSettings {
    /// The headers to send, `Authorization` included, each marked sensitive so reqwest and
    /// http never print them.
    pub(crate) fn header_map(&self) -> Result<HashMap<HeaderName, HeaderValue>, Error> {
        let mut map = HashMap::new();
        for (name, value) in &self.headers {
            let header_name = HeaderName::try_from(name.as_str()).map_err(|e| {
                Error::invalid(
                    "header name",
                    format!("`{name}` is not a valid header name: {e}"),
                )
            })?;
            map.insert(header_name, sensitive(value.expose(), name)?);
        }
        if let Some(value) = self.authorization()? {
            map.insert(AUTHORIZATION, value);
        }
        Ok(map)
    }

    /// The `Authorization` header value, if credentials were given.
    pub(crate) fn authorization(&self) -> Result<Option<HeaderValue>, Error> {
        let value = match &self.auth {
            None => return Ok(None),
            Some(Auth::Bearer(token)) => format!("Bearer {}", token.expose()),
            Some(Auth::Basic { user, password }) => {
                let pair = format!("{user}:{}", password.expose());
                format!(
                    "Basic {}",
                    base64::engine::general_purpose::STANDARD.encode(pair)
                )
            }
        };
        sensitive(&value, "Authorization").map(Some)
    }
}

fn sensitive(value: &str, name: &str) -> Result<HeaderValue, Error> {
    let mut value = HeaderValue::from_str(value).map_err(|_| {
        Error::invalid(
            "header value",
            format!("the value of `{name}` has characters a header cannot carry"),
        )
    })?;
    value.set_sensitive(true);
    Ok(value)
}

/// The HTTP status at the start of rmcp's "HTTP 401 Unauthorized: ..." messages.
pub(crate) fn status_in_message(message: &str) -> Option<u16> {
    let rest = message.split("HTTP ").nth(1)?;
    rest.get(..3)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_auth_is_base64_and_sensitive() {
        let settings = HttpSettings {
            auth: Some(Auth::Basic {
                user: "aladdin".into(),
                password: Secret::new("opensesame"),
            }),
            headers: vec![("X-Api-Key".into(), Secret::new("k"))],
        };
        let map = settings.header_map().unwrap();
        let auth = &map[&AUTHORIZATION];
        assert_eq!(auth, "Basic YWxhZGRpbjpvcGVuc2VzYW1l");
        assert!(auth.is_sensitive());
        assert!(map[&HeaderName::from_static("x-api-key")].is_sensitive());
        assert!(!format!("{settings:?}").contains("opensesame"));
    }

    #[test]
    fn finds_the_status_in_rmcp_messages() {
        assert_eq!(status_in_message("HTTP 401 Unauthorized: nope"), Some(401));
        assert_eq!(
            status_in_message("unexpected server response: HTTP 500 Internal Server Error: x"),
            Some(500)
        );
        assert_eq!(status_in_message("no status"), None);
    }
}
