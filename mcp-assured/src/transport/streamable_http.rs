//! Streamable HTTP, the current MCP HTTP transport: rmcp's client, configured for testing.

use rmcp::transport::{
    StreamableHttpClientTransport, streamable_http_client::StreamableHttpClientTransportConfig,
};

use super::http::{Auth, HttpSettings};
use crate::Error;

pub(crate) fn transport(
    url: &str,
    settings: &HttpSettings,
) -> Result<StreamableHttpClientTransport<reqwest::Client>, Error> {
    let mut without_bearer = settings.clone();
    let mut config = StreamableHttpClientTransportConfig::with_uri(url);
    // rmcp sends a bearer token itself; everything else travels as a custom header.
    if let Some(Auth::Bearer(token)) = &settings.auth {
        config = config.auth_header(token.expose());
        without_bearer.auth = None;
    }
    // A harness reports an expired session instead of silently starting a new one.
    let config = config
        .custom_headers(without_bearer.header_map()?)
        .reinit_on_expired_session(false);
    Ok(StreamableHttpClientTransport::from_config(config))
}
