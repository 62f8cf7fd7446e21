//! The user agent of the authorization-code flow, headless: fetch the authorization URL,
//! follow its redirects until one goes to the redirect URI, and take the code from there. A
//! test authorization server approves at once; anything else (a login page, an error, a
//! redirect loop) is the authorization step failing, said plainly.

use reqwest::{StatusCode, Url, header};

use super::{Failure, excerpt};
use crate::{error::AuthorizationStep, transport::describe_request_error};

/// How many redirects the authorization endpoint may make before reaching the redirect URI.
const MAX_REDIRECTS: usize = 10;

/// Follows `authorization_url` to `redirect_uri`; returns the URL redirected to, with the
/// code and state.
pub(super) async fn follow(
    http: &reqwest::Client,
    authorization_url: &str,
    redirect_uri: &str,
) -> Result<String, Failure> {
    let failed = |reason: String| Failure::new(AuthorizationStep::Authorization, reason);
    let target = Url::parse(redirect_uri).map_err(|e| {
        failed(format!(
            "the redirect URI `{redirect_uri}` is not a URL: {e}"
        ))
    })?;
    let mut current = Url::parse(authorization_url).map_err(|e| {
        failed(format!(
            "the authorization URL `{authorization_url}` is not a URL: {e}"
        ))
    })?;
    for _ in 0..=MAX_REDIRECTS {
        if is_redirect_uri(&current, &target) {
            return callback(current, redirect_uri);
        }
        // A code meant for another address is not fetched: that would hand it over.
        if current
            .query_pairs()
            .any(|(name, _)| name == "code" || name == "error")
        {
            return Err(failed(format!(
                "the authorization server redirected to {} with a code or an error, but \
                 the redirect URI is {redirect_uri}",
                without_query(&current)
            )));
        }
        let response = http.get(current.clone()).send().await.map_err(|e| {
            failed(format!(
                "{}: {}",
                without_query(&current),
                describe_request_error(&e.without_url())
            ))
        })?;
        let status = response.status();
        if status.is_redirection() {
            let location = response
                .headers()
                .get(header::LOCATION)
                .and_then(|value| value.to_str().ok())
                .ok_or_else(|| {
                    failed(format!(
                        "{} answered {status} without a Location",
                        without_query(&current)
                    ))
                })?;
            current = current.join(location).map_err(|e| {
                failed(format!(
                    "a redirect to `{location}`, which is not a URL: {e}"
                ))
            })?;
            continue;
        }
        return Err(failed(stopped(response, &current, redirect_uri).await));
    }
    Err(failed(format!(
        "more than {MAX_REDIRECTS} redirects from the authorization endpoint without reaching \
         {redirect_uri}: a redirect loop, last at {}",
        without_query(&current)
    )))
}

/// What the test's `authorize_with` function returned: the redirect URL, or only the code,
/// which then gets the state of `authorization_url`.
pub(super) fn callback_from_answer(
    answer: &str,
    authorization_url: &str,
    redirect_uri: &str,
) -> Result<String, Failure> {
    let answer = answer.trim();
    // A URL is the redirect (which must carry a code); anything else is the code itself.
    if let Ok(url) = Url::parse(answer)
        && matches!(url.scheme(), "http" | "https")
    {
        return callback(url, redirect_uri);
    }
    let failed = |reason: String| Failure::new(AuthorizationStep::Authorization, reason);
    let state = Url::parse(authorization_url)
        .ok()
        .and_then(|url| {
            url.query_pairs()
                .find(|(name, _)| name == "state")
                .map(|(_, state)| state.into_owned())
        })
        .ok_or_else(|| failed("the authorization URL has no state".to_owned()))?;
    let mut url = Url::parse(redirect_uri).map_err(|e| {
        failed(format!(
            "the redirect URI `{redirect_uri}` is not a URL: {e}"
        ))
    })?;
    url.query_pairs_mut()
        .append_pair("code", answer)
        .append_pair("state", &state);
    Ok(url.to_string())
}

/// The redirect back: the code, or the authorization server's refusal.
fn callback(url: Url, redirect_uri: &str) -> Result<String, Failure> {
    let find = |wanted: &str| {
        url.query_pairs()
            .find(|(name, _)| name == wanted)
            .map(|(_, value)| value.into_owned())
    };
    if let Some(error) = find("error") {
        let description = find("error_description")
            .map(|text| format!(" ({text})"))
            .unwrap_or_default();
        return Err(Failure::new(
            AuthorizationStep::Authorization,
            format!(
                "the authorization server redirected to {redirect_uri} with error `{error}`{description}"
            ),
        ));
    }
    if find("code").is_none() {
        return Err(Failure::new(
            AuthorizationStep::Authorization,
            format!("the authorization server redirected to {redirect_uri} without a code"),
        ));
    }
    Ok(url.to_string())
}

/// Whether `url` is the redirect URI (its query aside). On a loopback host any port is
/// the redirect URI's, as RFC 8252 (7.3) has authorization servers allow.
fn is_redirect_uri(url: &Url, redirect_uri: &Url) -> bool {
    let loopback = matches!(
        redirect_uri.host_str(),
        Some("127.0.0.1" | "localhost" | "[::1]")
    );
    url.scheme() == redirect_uri.scheme()
        && url.host_str() == redirect_uri.host_str()
        && (loopback || url.port_or_known_default() == redirect_uri.port_or_known_default())
        && url.path() == redirect_uri.path()
}

/// Why the authorization endpoint's answer is not a redirect to the redirect URI.
async fn stopped(response: reqwest::Response, at: &Url, redirect_uri: &str) -> String {
    let status = response.status();
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .map(|text| format!(" ({text})"))
        .unwrap_or_default();
    let body = response.text().await.unwrap_or_default();
    let what = if status == StatusCode::OK {
        "a page (a login or consent form?)".to_owned()
    } else {
        format!("HTTP {status}")
    };
    format!(
        "{} answered {what}{content_type} instead of redirecting to {redirect_uri}: {}",
        without_query(at),
        excerpt(body.trim())
    )
}

/// A URL without its query, which may carry a code or a state.
fn without_query(url: &Url) -> String {
    let mut url = url.clone();
    url.set_query(None);
    url.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_alone_gets_the_state_of_the_authorization_url() {
        let callback = callback_from_answer(
            "abc",
            "https://as.example/authorize?client_id=c&state=xyz",
            "http://127.0.0.1/callback",
        )
        .unwrap();
        assert_eq!(callback, "http://127.0.0.1/callback?code=abc&state=xyz");
        let whole = callback_from_answer(
            "http://127.0.0.1/callback?code=c1&state=s1",
            "https://as.example/authorize?state=other",
            "http://127.0.0.1/callback",
        )
        .unwrap();
        assert_eq!(whole, "http://127.0.0.1/callback?code=c1&state=s1");
    }

    #[test]
    fn an_error_redirect_is_the_authorization_step_failing() {
        let failure = callback_from_answer(
            "http://127.0.0.1/callback?error=access_denied&error_description=no",
            "https://as.example/authorize?state=s",
            "http://127.0.0.1/callback",
        )
        .unwrap_err();
        assert_eq!(failure.step, AuthorizationStep::Authorization);
        assert!(
            failure.reason.contains("`access_denied` (no)"),
            "{}",
            failure.reason
        );
    }

    #[test]
    fn the_redirect_uri_matches_whatever_the_query() {
        let target = Url::parse("http://127.0.0.1/callback").unwrap();
        let yes = Url::parse("http://127.0.0.1:80/callback?code=1").unwrap();
        let loopback_port = Url::parse("http://127.0.0.1:8080/callback?code=1").unwrap();
        let other_path = Url::parse("http://127.0.0.1/elsewhere?code=1").unwrap();
        assert!(is_redirect_uri(&yes, &target));
        assert!(is_redirect_uri(&loopback_port, &target));
        assert!(!is_redirect_uri(&other_path, &target));
        let remote = Url::parse("https://app.example/callback").unwrap();
        let other_port = Url::parse("https://app.example:8443/callback?code=1").unwrap();
        assert!(!is_redirect_uri(&other_port, &remote));
    }
}
