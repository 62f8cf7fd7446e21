//! The weather API the tools call: `GET {base}/weather`, `/forecast`, `/alerts/{region}`,
//! its answers kept for a while by an [`AnswerCache`] when the client has one.

use std::{error::Error as _, fmt, sync::Arc, time::Duration};

use serde_json::Value;

use crate::cache::AnswerCache;

/// How long the API may take to answer.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// How much of an error body a message quotes.
const BODY_EXCERPT: usize = 200;

/// A client of the weather API at one base URL.
#[derive(Debug, Clone)]
pub struct WeatherApi {
    base_url: String,
    http: reqwest::Client,
    /// The most bytes one answer may have: a tool's `maxMemory`.
    max_body: usize,
    /// Answers kept for a while, shared by every clone.
    cache: Arc<AnswerCache>,
}

/// Why a call to the weather API failed, worded for the model reading the tool result.
#[derive(Debug)]
pub enum ApiError {
    /// Nothing answered at the API's address.
    Unreachable { url: String, reason: String },
    /// The API took longer than the request timeout.
    Timeout { url: String },
    /// The API answered with an error status.
    Status {
        url: String,
        status: u16,
        body: String,
    },
    /// The API answered 2xx with a body that is not the JSON expected.
    BadBody { url: String, reason: String },
    /// The answer is larger than the calling tool's `maxMemory` allows it to hold.
    TooLarge { url: String, limit: usize },
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The router contract's words for a backend that refused the connection.
            ApiError::Unreachable { url, reason } if reason == "connection refused" => {
                write!(f, "Connection refused: {url} (the weather API)")
            }
            ApiError::Unreachable { url, reason } => {
                write!(f, "weather API unreachable at {url}: {reason}")
            }
            ApiError::Timeout { url } => write!(
                f,
                "weather API at {url} did not answer within {} s",
                REQUEST_TIMEOUT.as_secs()
            ),
            ApiError::Status { url, status, body } => {
                write!(f, "weather API answered {status} for {url}: {body}")
            }
            ApiError::BadBody { url, reason } => {
                write!(f, "weather API sent an unexpected body for {url}: {reason}")
            }
            ApiError::TooLarge { url, limit } => write!(
                f,
                "the weather API's answer for {url} is larger than the {limit} bytes this tool may hold (its maxMemory)"
            ),
        }
    }
}

impl std::error::Error for ApiError {}

impl WeatherApi {
    /// A client of the API at `base_url` (with or without a trailing `/`), which asks the
    /// API every time (see [`with_cache`](Self::with_cache)).
    pub fn new(base_url: impl Into<String>) -> Self {
        let base_url = base_url.into().trim_end_matches('/').to_owned();
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .build()
            .unwrap_or_default();
        Self {
            base_url,
            http,
            max_body: usize::MAX,
            cache: Arc::new(AnswerCache::off()),
        }
    }

    /// The same API, answering from `cache` what it holds (see [`crate::cache`]).
    #[must_use]
    pub fn with_cache(self, cache: AnswerCache) -> Self {
        Self {
            cache: Arc::new(cache),
            ..self
        }
    }

    /// The answers it keeps.
    pub fn cache(&self) -> &AnswerCache {
        &self.cache
    }

    /// The same API, refusing any answer over `bytes` (a tool's `maxMemory`).
    #[must_use]
    pub fn with_max_body(&self, bytes: usize) -> Self {
        Self {
            max_body: bytes,
            ..self.clone()
        }
    }

    /// The API's base URL.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// `GET {base}/{segments..}?{query}`, parsed as JSON. Path segments are percent-encoded.
    /// An answer the cache holds for the same URL comes from there (held to `maxMemory` all
    /// the same); a 2xx JSON answer from the API is kept in it, nothing else is.
    ///
    /// # Errors
    ///
    /// An [`ApiError`] saying what went wrong.
    pub async fn get_json(
        &self,
        segments: &[&str],
        query: &[(&str, String)],
    ) -> Result<Value, ApiError> {
        let mut url =
            reqwest::Url::parse(&self.base_url).map_err(|error| ApiError::Unreachable {
                url: self.base_url.clone(),
                reason: format!("invalid base URL: {error}"),
            })?;
        if let Ok(mut path) = url.path_segments_mut() {
            path.pop_if_empty().extend(segments);
        }
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query);
        }
        let shown = url.to_string();
        if let Some(hit) = self.cache.get(&shown) {
            if hit.bytes > self.max_body {
                return Err(ApiError::TooLarge {
                    url: shown,
                    limit: self.max_body,
                });
            }
            return Ok(hit.value);
        }
        let response = self.http.get(url).send().await.map_err(|error| {
            if error.is_timeout() {
                ApiError::Timeout { url: shown.clone() }
            } else {
                ApiError::Unreachable {
                    url: shown.clone(),
                    reason: connect_reason(&error),
                }
            }
        })?;
        let status = response.status();
        let body = self.read_body(response, &shown).await?;
        if !status.is_success() {
            return Err(ApiError::Status {
                url: shown,
                status: status.as_u16(),
                body: body.chars().take(BODY_EXCERPT).collect(),
            });
        }
        let value = serde_json::from_str(&body).map_err(|error| ApiError::BadBody {
            url: shown.clone(),
            reason: format!("not JSON ({error})"),
        })?;
        self.cache.put(&shown, &value, body.len());
        Ok(value)
    }
}

impl WeatherApi {
    /// The body as text, read chunk by chunk so that an answer over `max_body` is refused
    /// before it is held whole.
    async fn read_body(
        &self,
        mut response: reqwest::Response,
        url: &str,
    ) -> Result<String, ApiError> {
        let too_large = || ApiError::TooLarge {
            url: url.to_owned(),
            limit: self.max_body,
        };
        if response.content_length().is_some_and(|length| {
            usize::try_from(length).map_or(true, |length| length > self.max_body)
        }) {
            return Err(too_large());
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|error| ApiError::BadBody {
            url: url.to_owned(),
            reason: error.to_string(),
        })? {
            if body.len() + chunk.len() > self.max_body {
                return Err(too_large());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(String::from_utf8_lossy(&body).into_owned())
    }
}

/// "connection refused" when that is what happened, else the innermost cause.
fn connect_reason(error: &reqwest::Error) -> String {
    let mut source = error.source();
    let mut innermost = error.to_string();
    while let Some(cause) = source {
        if let Some(io) = cause.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::ConnectionRefused
        {
            return "connection refused".to_owned();
        }
        innermost = cause.to_string();
        source = cause.source();
    }
    innermost
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_closed_port_is_connection_refused() {
        let port = mcp_assured::fixture::free_port().unwrap();
        let api = WeatherApi::new(format!("http://127.0.0.1:{port}/"));
        let error = api.get_json(&["weather"], &[]).await.unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("Connection refused: http://127.0.0.1:{port}/weather (the weather API)")
        );
    }

    /// An answer from the cache is held to the calling tool's `maxMemory` as one from the
    /// API is (nothing listens at the URL: the answer can only come from the cache).
    #[tokio::test]
    async fn a_cached_answer_over_max_memory_is_refused() {
        let port = mcp_assured::fixture::free_port().unwrap();
        let api = WeatherApi::new(format!("http://127.0.0.1:{port}"))
            .with_cache(AnswerCache::new(Duration::from_secs(60), 4));
        let url = format!("http://127.0.0.1:{port}/weather?city=Oslo");
        api.cache()
            .put(&url, &serde_json::json!({"temperature": 2}), 6000);
        let query = [("city", "Oslo".to_owned())];
        let hit = api.with_max_body(6000).get_json(&["weather"], &query).await;
        assert_eq!(hit.unwrap(), serde_json::json!({"temperature": 2}));
        let error = api
            .with_max_body(5000)
            .get_json(&["weather"], &query)
            .await
            .unwrap_err();
        assert!(
            matches!(error, ApiError::TooLarge { limit: 5000, .. }),
            "{error}"
        );
    }

    #[tokio::test]
    async fn an_answer_over_max_memory_is_refused() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let _ = socket.read(&mut [0; 4096]).await;
            // Chunked, so no Content-Length announces the size.
            let chunk = format!("{:x}\r\n{}\r\n", 2000, "a".repeat(2000));
            let head = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n";
            let _ = socket.write_all(head.as_bytes()).await;
            let _ = socket.write_all(chunk.repeat(3).as_bytes()).await;
            let _ = socket.write_all(b"0\r\n\r\n").await;
        });
        let api = WeatherApi::new(url).with_max_body(5000);
        let error = api.get_json(&["weather"], &[]).await.unwrap_err();
        assert!(
            matches!(error, ApiError::TooLarge { limit: 5000, .. }),
            "{error}"
        );
    }
}
