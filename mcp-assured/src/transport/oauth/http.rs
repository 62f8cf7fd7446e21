//! The HTTP client rmcp's OAuth runs on: the connection's TLS settings and a timeout, and
//! each operation's redirect policy honoured. Discovery follows a few redirects; token,
//! registration and refresh requests follow none, so that a code, a verifier or a secret is
//! never re-sent to wherever a redirect points.

use futures::StreamExt as _;
use rmcp::transport::{
    OAuthHttpClient, OAuthHttpClientError, OAuthHttpClientFuture, OAuthHttpRedirectPolicy,
    OAuthHttpRequest,
};

/// The largest response body read, as rmcp's own client limits it.
const MAX_BODY_BYTES: usize = 1024 * 1024;

/// How many redirects a discovery request follows.
const MAX_REDIRECTS: usize = 5;

/// Two reqwest clients, alike but for redirects.
#[derive(Debug, Clone)]
pub(super) struct OAuthHttp {
    follow: reqwest::Client,
    stop: reqwest::Client,
}

impl OAuthHttp {
    /// `build` makes a client from a redirect policy.
    pub(super) fn new<E>(
        build: impl Fn(reqwest::redirect::Policy) -> Result<reqwest::Client, E>,
    ) -> Result<Self, E> {
        Ok(OAuthHttp {
            follow: build(reqwest::redirect::Policy::limited(MAX_REDIRECTS))?,
            stop: build(reqwest::redirect::Policy::none())?,
        })
    }

    /// The client that follows redirects, for the harness's own discovery requests.
    pub(super) fn following(&self) -> &reqwest::Client {
        &self.follow
    }
}

impl OAuthHttpClient for OAuthHttp {
    fn execute(&self, request: OAuthHttpRequest) -> OAuthHttpClientFuture<'_> {
        Box::pin(async move {
            let client = match request.redirect_policy {
                OAuthHttpRedirectPolicy::Stop => &self.stop,
                _ => &self.follow,
            };
            let request = reqwest::Request::try_from(request.request)
                .map_err(|error| Box::new(error) as OAuthHttpClientError)?;
            let response = client
                .execute(request)
                .await
                .map_err(|error| Box::new(error.without_url()) as OAuthHttpClientError)?;
            let mut answer = http::Response::builder()
                .status(response.status())
                .version(response.version());
            for (name, value) in response.headers() {
                answer = answer.header(name, value);
            }
            let mut body = Vec::new();
            let mut chunks = response.bytes_stream();
            while let Some(chunk) = chunks.next().await {
                let chunk = chunk.map_err(|error| Box::new(error) as OAuthHttpClientError)?;
                if body.len() + chunk.len() > MAX_BODY_BYTES {
                    return Err(
                        format!("the response body is larger than {MAX_BODY_BYTES} bytes").into(),
                    );
                }
                body.extend_from_slice(&chunk);
            }
            answer
                .body(body)
                .map_err(|error| Box::new(error) as OAuthHttpClientError)
        })
    }
}
