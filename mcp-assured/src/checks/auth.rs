//! The checks of a server that asks for authorization (answers a request without
//! credentials with 401), as MCP's authorization spec (2025-11-25) and the RFCs it names
//! ask: the challenge names the protected resource metadata (RFC 9728), that document names
//! authorization servers whose metadata (RFC 8414) offers PKCE with S256, and tokens that
//! are not good are refused. For a server that answers without credentials, they skip.

use http::Method;
use serde_json::{Value, json};

use super::{
    CheckOptions,
    http_probe::{Exchange, Probe, Read, is_loopback},
    recorder::Recorder,
};
use crate::client::McpClient;

/// The names of these checks, in the order they run.
pub(super) const NAMES: [&str; 4] = [
    "auth.challenge",
    "auth.protected_resource_metadata",
    "auth.authorization_server_metadata",
    "auth.tokens_refused",
];

/// A token no authorization server issued.
const MADE_UP_TOKEN: &str = "mcp-assured-made-up-token";

pub(super) async fn check(client: &McpClient, options: &CheckOptions, report: &mut Recorder) {
    let Some(access) = client.diagnostics().http.get() else {
        for name in NAMES {
            report.skip(name, "the server is not reached over HTTP");
        }
        return;
    };
    let probe = Probe::new(access, client.timeout());
    let challenge = match knock(&probe, None).await {
        Ok(exchange) if exchange.status == 401 => exchange,
        Ok(exchange) => {
            let why = format!(
                "the server does not ask for authorization: a request without credentials got \
                 HTTP {}",
                exchange.status
            );
            for name in NAMES {
                report.skip(name, why.clone());
            }
            return;
        }
        Err(error) => {
            report.fail(
                "auth.challenge",
                format!("a request without credentials failed: {error}"),
            );
            for name in &NAMES[1..] {
                report.skip(name, "see auth.challenge");
            }
            return;
        }
    };
    let servers = match challenge_and_metadata(&probe, &challenge, report).await {
        Discovery::Found(document) => protected_resource_metadata(&probe, &document, report),
        Discovery::Unreadable(why) => {
            report.fail(
                "auth.protected_resource_metadata",
                format!(
                    "expected a protected resource metadata document (RFC 9728) named in the \
                     challenge's `resource_metadata` or at the well-known URI; {why}"
                ),
            );
            None
        }
        Discovery::NotOffered(why) => {
            report.skip("auth.protected_resource_metadata", why.clone());
            report.skip("auth.authorization_server_metadata", why);
            return tokens_refused(&probe, options, report).await;
        }
    };
    match servers {
        Some(issuer) => authorization_server_metadata(&probe, &issuer, report).await,
        None => report.skip(
            "auth.authorization_server_metadata",
            "no authorization server named (see auth.protected_resource_metadata)",
        ),
    }
    tokens_refused(&probe, options, report).await;
}

/// A request as a client starts with: over streamable HTTP an `initialize`, over HTTP+SSE
/// the event stream's `GET`; with `token` as bearer, or no credentials at all.
async fn knock(probe: &Probe, token: Option<&str>) -> Result<Exchange, String> {
    let bearer = token.map(|token| format!("Bearer {token}"));
    let headers = [("authorization", bearer.as_deref())];
    if probe.is_sse() {
        let mut headers = headers.to_vec();
        headers.push(("accept", Some("text/event-stream")));
        return probe
            .send(Method::GET, probe.url(), &headers, None, Read::Headers)
            .await;
    }
    let initialize = json!({
        "jsonrpc": "2.0",
        "id": "mcp-assured/check-auth",
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "mcp-assured-checks", "version": env!("CARGO_PKG_VERSION")},
        },
    });
    let exchange = probe.post(&initialize, &headers).await?;
    // Accepted by mistake: end the session it opened.
    if let Some(session) = exchange
        .header("mcp-session-id")
        .filter(|_| exchange.is_success())
    {
        let end = [
            ("authorization", bearer.as_deref()),
            ("mcp-session-id", Some(session)),
        ];
        let _ = probe
            .send(Method::DELETE, probe.url(), &end, None, Read::Body)
            .await;
    }
    Ok(exchange)
}

/// A parameter of a `WWW-Authenticate: Bearer ...` challenge.
fn challenge_parameter(challenge: &str, name: &str) -> Option<String> {
    let (_, rest) = challenge.split_once(char::is_whitespace)?;
    let mut rest = rest.trim_start();
    while !rest.is_empty() {
        let (key, after) = rest.split_once('=')?;
        let after = after.trim_start();
        let (value, tail) = if let Some(quoted) = after.strip_prefix('"') {
            let end = quoted.find('"')?;
            (&quoted[..end], &quoted[end + 1..])
        } else {
            let end = after.find(',').unwrap_or(after.len());
            (after[..end].trim(), &after[end..])
        };
        if key.trim().eq_ignore_ascii_case(name) {
            return Some(value.to_owned());
        }
        rest = tail.trim_start().trim_start_matches(',').trim_start();
    }
    None
}

/// The well-known URIs of the protected resource metadata of `url` (RFC 9728 §3.1): with
/// the path inserted, then at the root.
fn well_known_resource_metadata(url: &reqwest::Url) -> Vec<String> {
    let origin = url.origin().ascii_serialization();
    let path = url.path().trim_end_matches('/');
    let mut uris = Vec::new();
    if !path.is_empty() {
        uris.push(format!(
            "{origin}/.well-known/oauth-protected-resource{path}"
        ));
    }
    uris.push(format!("{origin}/.well-known/oauth-protected-resource"));
    uris
}

/// Where the protected resource metadata was found, if it was.
enum Discovery {
    /// Its URL and the document.
    Found((String, Value)),
    /// Named, or looked for, and not readable: a failure.
    Unreadable(String),
    /// Neither named nor at the well-known URIs: the server offers no OAuth (a pre-shared
    /// token, say), or has no challenge at all; why, for the checks that skip.
    NotOffered(String),
}

/// `auth.challenge`: the 401 has a `WWW-Authenticate` challenge (HTTP asks for one), which
/// names the protected resource metadata as MCP authorization asks (RFC 9728 §5.1). Without
/// `resource_metadata` and without metadata at the well-known URIs, the server takes tokens
/// OAuth clients cannot discover how to get (a pre-shared token): a warning.
async fn challenge_and_metadata(
    probe: &Probe,
    challenge: &Exchange,
    report: &mut Recorder,
) -> Discovery {
    const NAME: &str = "auth.challenge";
    let header = challenge.header("www-authenticate").map(str::to_owned);
    let named = header
        .as_deref()
        .and_then(|header| challenge_parameter(header, "resource_metadata"));
    if let Some(url) = &named {
        report.pass(NAME, format!("Bearer challenge names {url}"));
        return match fetch_json(probe, url).await {
            Ok(document) => Discovery::Found((url.clone(), document)),
            Err(error) => Discovery::Unreadable(format!(
                "the challenge names {url}, but it cannot be read: {error}"
            )),
        };
    }
    let mut tried = Vec::new();
    let mut found = None;
    let uris = probe
        .url()
        .parse::<reqwest::Url>()
        .map(|url| well_known_resource_metadata(&url))
        .unwrap_or_default();
    for uri in uris {
        match fetch_json(probe, &uri).await {
            Ok(document) => {
                found = Some((uri, document));
                break;
            }
            Err(error) => tried.push(error),
        }
    }
    let Some(header) = header else {
        report.fail(
            NAME,
            "expected the 401 to carry a `WWW-Authenticate` challenge (HTTP requires one; MCP \
             authorization's is `Bearer resource_metadata=\"<URL of the protected resource \
             metadata>\"`, RFC 9728 §5.1), which is how a client learns how to authorize; it \
             has none",
        );
        return match found {
            Some(found) => Discovery::Found(found),
            None => Discovery::NotOffered("no challenge to follow (see auth.challenge)".into()),
        };
    };
    match found {
        Some((uri, document)) => {
            report.warn(
                NAME,
                format!(
                    "`WWW-Authenticate: {header}` names no `resource_metadata`; clients find \
                     the metadata at the well-known {uri}, which 2025-11-25 allows, but not \
                     every client looks there"
                ),
            );
            Discovery::Found((uri, document))
        }
        None => {
            report.warn(
                NAME,
                format!(
                    "`WWW-Authenticate: {header}` names no `resource_metadata`, and no \
                     protected resource metadata is at the well-known URIs: the server takes a \
                     token OAuth clients cannot discover how to get (a pre-shared token); MCP \
                     authorization names its metadata (RFC 9728). Looked at: {}",
                    tried.join("; ")
                ),
            );
            Discovery::NotOffered(
                "the server offers no OAuth: no protected resource metadata (see auth.challenge)"
                    .into(),
            )
        }
    }
}

/// Reads a JSON object at `url`, without credentials.
async fn fetch_json(probe: &Probe, url: &str) -> Result<Value, String> {
    let exchange = probe.get_document(url).await?;
    if exchange.status != 200 {
        return Err(format!("GET {url} got {}", exchange.describe()));
    }
    match exchange.json() {
        Some(document @ Value::Object(_)) => Ok(document),
        _ => Err(format!(
            "GET {url} is not a JSON object: {}",
            exchange.describe()
        )),
    }
}

/// Whether `url` may serve authorization: HTTPS, or HTTP on a loopback address.
fn secure_enough(url: &str) -> bool {
    url.parse::<reqwest::Url>()
        .is_ok_and(|url| url.scheme() == "https" || (url.scheme() == "http" && is_loopback(&url)))
}

/// Whether the server at `server_url` is the resource `resource` names: the same URL, or
/// one under it (a trailing slash aside).
fn names_the_server(resource: &str, server_url: &str) -> bool {
    let resource = resource.trim_end_matches('/');
    let server = server_url.trim_end_matches('/');
    server == resource
        || server
            .strip_prefix(resource)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// `auth.protected_resource_metadata`: the document names this server as its `resource`
/// and at least one authorization server. Returns the first authorization server.
fn protected_resource_metadata(
    probe: &Probe,
    (url, document): &(String, Value),
    report: &mut Recorder,
) -> Option<String> {
    const NAME: &str = "auth.protected_resource_metadata";
    let mut problems = Vec::new();
    match document.get("resource").and_then(Value::as_str) {
        None => problems.push("no `resource`".to_owned()),
        Some(resource) if !names_the_server(resource, probe.url()) => problems.push(format!(
            "`resource` is {resource:?}, not this server ({})",
            probe.url()
        )),
        Some(_) => {}
    }
    let servers: Vec<&str> = document
        .get("authorization_servers")
        .and_then(Value::as_array)
        .map(|servers| servers.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if servers.is_empty() {
        problems.push("no `authorization_servers`".to_owned());
    }
    for server in &servers {
        if !secure_enough(server) {
            problems.push(format!(
                "authorization server {server} is not HTTPS (nor HTTP on a loopback address)"
            ));
        }
    }
    if problems.is_empty() {
        report.pass(
            NAME,
            format!(
                "{url}: resource {}, authorization servers {servers:?}",
                document["resource"]
            ),
        );
        servers.first().map(|server| (*server).to_owned())
    } else {
        report.fail(
            NAME,
            format!(
                "expected {url} to name this server as `resource` and at least one \
                 authorization server in `authorization_servers` (RFC 9728 §2); {}: {document}",
                problems.join("; ")
            ),
        );
        None
    }
}

/// The URIs of `issuer`'s metadata, in the order MCP (2025-11-25) has clients try them.
fn authorization_server_metadata_uris(issuer: &str) -> Vec<String> {
    let Ok(url) = issuer.parse::<reqwest::Url>() else {
        return Vec::new();
    };
    let origin = url.origin().ascii_serialization();
    let path = url.path().trim_end_matches('/');
    if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    }
}

/// `auth.authorization_server_metadata`: the first authorization server's metadata is
/// found, its `issuer` is that server, it has the authorization and token endpoints, and
/// it offers PKCE with S256.
async fn authorization_server_metadata(probe: &Probe, issuer: &str, report: &mut Recorder) {
    const NAME: &str = "auth.authorization_server_metadata";
    let uris = authorization_server_metadata_uris(issuer);
    let mut tried = Vec::new();
    let mut found = None;
    for uri in &uris {
        match fetch_json(probe, uri).await {
            Ok(document) => {
                found = Some((uri.clone(), document));
                break;
            }
            Err(error) => tried.push(error),
        }
    }
    let Some((uri, document)) = found else {
        return report.fail(
            NAME,
            format!(
                "expected the metadata of authorization server {issuer} (RFC 8414 or OpenID \
                 Connect Discovery) at one of {uris:?}; {}",
                tried.join("; ")
            ),
        );
    };
    let mut problems = Vec::new();
    match document.get("issuer").and_then(Value::as_str) {
        Some(named) if named.trim_end_matches('/') == issuer.trim_end_matches('/') => {}
        named => problems.push(format!("`issuer` is {named:?}, not {issuer:?}")),
    }
    for endpoint in ["authorization_endpoint", "token_endpoint"] {
        match document.get(endpoint).and_then(Value::as_str) {
            None => problems.push(format!("no `{endpoint}`")),
            Some(url) if !secure_enough(url) => problems.push(format!(
                "`{endpoint}` {url} is not HTTPS (nor HTTP on a loopback address)"
            )),
            Some(_) => {}
        }
    }
    let methods = document.get("code_challenge_methods_supported");
    let s256 = methods
        .and_then(Value::as_array)
        .is_some_and(|methods| methods.iter().any(|m| m == "S256"));
    if !s256 {
        problems.push(format!(
            "`code_challenge_methods_supported` is {}, without \"S256\" (MCP clients must \
             refuse an authorization server that does not offer PKCE with S256)",
            methods.map_or("missing".to_owned(), Value::to_string)
        ));
    }
    if problems.is_empty() {
        report.pass(NAME, format!("{uri}: endpoints, PKCE S256"));
    } else {
        report.fail(
            NAME,
            format!(
                "expected the authorization server metadata at {uri} to name {issuer} as \
                 `issuer`, give the authorization and token endpoints and offer PKCE with \
                 S256; {}",
                problems.join("; ")
            ),
        );
    }
}

/// `auth.tokens_refused`: a token nobody issued gets 401, and so do the expired token and
/// the token for another audience when [`CheckOptions`] gives them.
async fn tokens_refused(probe: &Probe, options: &CheckOptions, report: &mut Recorder) {
    const NAME: &str = "auth.tokens_refused";
    let mut tokens = vec![("a made-up token", MADE_UP_TOKEN.to_owned())];
    if let Some(token) = &options.expired_token {
        tokens.push(("the expired token", token.expose().to_owned()));
    }
    if let Some(token) = &options.other_audience_token {
        tokens.push(("the token for another audience", token.expose().to_owned()));
    }
    let mut refused = Vec::new();
    let mut problems = Vec::new();
    for (what, token) in &tokens {
        match knock(probe, Some(token)).await {
            Ok(exchange) if exchange.status == 401 => refused.push(*what),
            // What came back may echo the token: never shown.
            Ok(exchange) => problems.push(format!("{what} got HTTP {}", exchange.status)),
            Err(error) => {
                problems.push(format!("{what}: {}", error.replace(token.as_str(), "***")))
            }
        }
    }
    let untried: Vec<&str> = [
        (options.expired_token.is_none(), "an expired token (CheckOptions::expired_token, --expired-token)"),
        (
            options.other_audience_token.is_none(),
            "a token for another audience (CheckOptions::other_audience_token, --other-audience-token)",
        ),
    ]
    .into_iter()
    .filter_map(|(missing, what)| missing.then_some(what))
    .collect();
    let mut note = String::new();
    if !untried.is_empty() {
        note = format!("; not tried, not given: {}", untried.join(", "));
    }
    if problems.is_empty() {
        report.pass(
            NAME,
            format!("refused with 401: {}{note}", refused.join(", ")),
        );
    } else {
        report.fail(
            NAME,
            format!(
                "expected HTTP 401 for a bearer token the server must not accept; {}{note}",
                problems.join("; ")
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_challenge_parameters() {
        let challenge =
            r#"Bearer realm="mcp", resource_metadata="https://a.example/prm", scope=read"#;
        assert_eq!(
            challenge_parameter(challenge, "resource_metadata").as_deref(),
            Some("https://a.example/prm")
        );
        assert_eq!(
            challenge_parameter(challenge, "scope").as_deref(),
            Some("read")
        );
        assert_eq!(challenge_parameter("Bearer", "scope"), None);
    }

    #[test]
    fn well_known_uris_keep_the_path() {
        let url = "https://a.example/tenant/mcp".parse().unwrap();
        assert_eq!(
            well_known_resource_metadata(&url),
            [
                "https://a.example/.well-known/oauth-protected-resource/tenant/mcp",
                "https://a.example/.well-known/oauth-protected-resource",
            ]
        );
        assert_eq!(
            authorization_server_metadata_uris("https://as.example/tenant1"),
            [
                "https://as.example/.well-known/oauth-authorization-server/tenant1",
                "https://as.example/.well-known/openid-configuration/tenant1",
                "https://as.example/tenant1/.well-known/openid-configuration",
            ]
        );
    }

    #[test]
    fn a_resource_names_its_server_or_a_parent() {
        assert!(names_the_server(
            "https://a.example/mcp",
            "https://a.example/mcp/"
        ));
        assert!(names_the_server(
            "https://a.example",
            "https://a.example/mcp"
        ));
        assert!(!names_the_server(
            "https://a.example/mc",
            "https://a.example/mcp"
        ));
        assert!(!names_the_server(
            "https://b.example/mcp",
            "https://a.example/mcp"
        ));
    }
}
