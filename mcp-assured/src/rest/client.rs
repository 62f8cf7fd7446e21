//! [`RestClient`]: the REST surface of a hybrid server, over reqwest.

use std::{fmt, time::Duration};

use reqwest::{Method, RequestBuilder, Response, StatusCode, header, header::HeaderMap};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::results::rest::{Execution, ExecutionContext, RestTool, RestToolList, excerpt};
use crate::{
    credentials::Credentials,
    error::{Error, Result},
    transport::{describe_request_error, http::connect_failed},
};

/// The header that carries the REST protocol version, both ways.
pub const VERSION_HEADER: &str = "X-MCP-Version";

/// How much longer than a `context.timeout` the client waits, so that the server's
/// `TIMEOUT_ERROR` arrives before the client gives up.
const CONTEXT_TIMEOUT_MARGIN: Duration = Duration::from_secs(5);

/// A client of a hybrid server's REST tool endpoints: `GET /mcp/tools` and
/// `POST /mcp/tools/{name}/execute`. Made by [`McpAssured::rest`](crate::McpAssured::rest).
///
/// Every answer that is a REST envelope is returned, `success: false` included (as an
/// [`Execution`] with its [`error_code`](Execution::error_code)); anything else (an HTML error
/// page, a body that is not JSON, a 413 or 429 without an envelope, no answer in time) is an
/// [`Error`] naming what came back.
#[derive(Clone)]
pub struct RestClient {
    pub(super) http: reqwest::Client,
    pub(super) base: String,
    pub(super) credentials: Credentials,
    /// `credentials` as headers, made once.
    pub(super) headers: HeaderMap,
    pub(super) protocol_version: String,
    pub(super) timeout: Duration,
}

impl fmt::Debug for RestClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RestClient")
            .field("base", &self.base)
            .field("credentials", &self.credentials)
            .field("protocol_version", &self.protocol_version)
            .field("timeout", &self.timeout)
            .finish()
    }
}

#[derive(Deserialize)]
struct ToolListBody {
    #[serde(default)]
    version: Option<String>,
    tools: Vec<RestTool>,
}

impl RestClient {
    /// The base URL, e.g. `http://127.0.0.1:8080` (the endpoints are below `/mcp/tools`).
    pub fn base_uri(&self) -> &str {
        &self.base
    }

    /// The `X-MCP-Version` sent with every request.
    pub fn protocol_version(&self) -> &str {
        &self.protocol_version
    }

    /// A client like this one whose requests time out after `timeout`.
    #[must_use]
    pub fn with_timeout(&self, timeout: Duration) -> RestClient {
        RestClient {
            timeout,
            ..self.clone()
        }
    }

    /// The credentials sent with every request.
    pub fn credentials(&self) -> &Credentials {
        &self.credentials
    }

    /// A client like this one sending `credentials` instead of its own.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`](crate::Error::InvalidInput) for a header that HTTP cannot
    /// carry.
    pub fn with_credentials(&self, credentials: Credentials) -> Result<RestClient> {
        Ok(RestClient {
            headers: credentials.header_map()?,
            credentials,
            ..self.clone()
        })
    }

    /// `GET /mcp/tools`.
    ///
    /// # Errors
    ///
    /// If the server cannot be reached, does not answer in time, or answers with anything
    /// but a `200` and a `{"tools": [..]}` body.
    pub async fn list_tools(&self) -> Result<RestToolList> {
        let request = "GET /mcp/tools";
        let response = self
            .send(
                request,
                self.request(Method::GET, "/mcp/tools", self.timeout),
                self.timeout,
            )
            .await?;
        let status = response.status();
        let protocol_version = header_text(&response, VERSION_HEADER);
        let retry_after = header_text(&response, header::RETRY_AFTER.as_str());
        let (body, content_type) = self.body(request, response, self.timeout).await?;
        if !status.is_success() {
            return Err(http_error(
                request,
                status,
                retry_after,
                content_type,
                &body,
            ));
        }
        let json = parse_json(request, status, content_type.as_deref(), &body)?;
        let list: ToolListBody =
            serde_json::from_value(json.clone()).map_err(|error| Error::UnexpectedResponse {
                method: request.to_owned(),
                detail: format!(
                    "{error}; expected {{\"tools\": [..]}}, got {}",
                    excerpt(&json.to_string())
                ),
            })?;
        Ok(RestToolList {
            version: list.version,
            tools: list.tools,
            protocol_version,
        })
    }

    /// Alias of [`list_tools`](Self::list_tools), under the name the hybrid server
    /// protocol's client libraries use (`discoverTools`, `discover_tools`).
    ///
    /// # Errors
    ///
    /// As [`list_tools`](Self::list_tools).
    pub async fn discover_tools(&self) -> Result<RestToolList> {
        self.list_tools().await
    }

    /// `POST /mcp/tools/{name}/execute` with `params`.
    ///
    /// # Errors
    ///
    /// As [`execute_with`](Self::execute_with).
    pub async fn execute(&self, name: &str, params: Value) -> Result<Execution> {
        self.execute_with(name, params, None).await
    }

    /// Alias of [`execute`](Self::execute), under the name the hybrid server protocol's
    /// client libraries use (`executeTool`, `execute_tool`).
    ///
    /// # Errors
    ///
    /// As [`execute_with`](Self::execute_with).
    pub async fn execute_tool(&self, name: &str, params: Value) -> Result<Execution> {
        self.execute(name, params).await
    }

    /// `POST /mcp/tools/{name}/execute` with `params` and an optional `context`.
    ///
    /// With a `context.timeout`, this request may take the context's timeout plus 5 s when
    /// that is longer than the client's [timeout](super::RestClientBuilder::timeout), so that
    /// the server's own `TIMEOUT_ERROR` comes back rather than a client-side
    /// [`Error::Timeout`], even when both timeouts are equal.
    ///
    /// # Errors
    ///
    /// If `params` is not an object; if the server cannot be reached or does not answer in
    /// time ([`Error::Timeout`]); if the answer is not a REST envelope: not JSON
    /// ([`Error::Undecodable`]), JSON of another shape ([`Error::UnexpectedResponse`]), or an
    /// error status without an envelope, such as a proxy's 413 or 429 ([`Error::Http`], with
    /// the status, `Retry-After` and the body).
    pub async fn execute_with(
        &self,
        name: &str,
        params: Value,
        context: Option<ExecutionContext>,
    ) -> Result<Execution> {
        params_are_an_object(name, &params)?;
        let request = format!("POST /mcp/tools/{name}/execute");
        // The server answers `TIMEOUT_ERROR` at the context's timeout: wait a margin past it.
        let timeout = match context.as_ref().and_then(|context| context.timeout) {
            Some(millis) => self
                .timeout
                .max(Duration::from_millis(millis).saturating_add(CONTEXT_TIMEOUT_MARGIN)),
            None => self.timeout,
        };
        let mut body = json!({ "params": params });
        if let Some(context) = context {
            body["context"] = serde_json::to_value(context).unwrap_or(Value::Null);
        }
        let path = format!("/mcp/tools/{}/execute", encode_segment(name));
        let response = self
            .send(
                &request,
                self.request(Method::POST, &path, timeout).json(&body),
                timeout,
            )
            .await?;
        let status = response.status();
        let protocol_version = header_text(&response, VERSION_HEADER);
        let retry_after = header_text(&response, header::RETRY_AFTER.as_str());
        let (text, content_type) = self.body(&request, response, timeout).await?;
        let decoded = serde_json::from_str::<Value>(&text)
            .map_err(|error| not_json(&request, status, content_type.as_deref(), &text, &error))
            .and_then(|json| Execution::from_envelope(name, status.as_u16(), json));
        let mut execution = match decoded {
            Ok(execution) => execution,
            // An error status without an envelope (a proxy's page, say) is an HTTP error.
            Err(_) if !status.is_success() => {
                return Err(http_error(
                    &request,
                    status,
                    retry_after,
                    content_type,
                    &text,
                ));
            }
            Err(error) => return Err(error),
        };
        execution.protocol_version = protocol_version;
        execution.retry_after = retry_after;
        Ok(execution)
    }

    /// `POST /mcp/tools/{name}/execute` with `params`, asking for a stream
    /// (`Accept: application/x-ndjson`): the tool's progress and items as they come, then its
    /// envelope. A server that answers one plain envelope (a refusal before the tool ran, or
    /// no streaming at all) gives a stream with no lines
    /// ([`is_streamed`](super::ExecutionStream::is_streamed) is `false`).
    ///
    /// ```no_run
    /// # async fn run(rest: mcp_assured::rest::RestClient) -> mcp_assured::Result<()> {
    /// use mcp_assured::rest::StreamEvent;
    /// use serde_json::json;
    ///
    /// let mut stream = rest
    ///     .execute_streaming("weather_report", json!({"cities": ["London", "Oslo"]}))
    ///     .await?;
    /// while let Some(event) = stream.next().await? {
    ///     if let StreamEvent::Item(city) = event {
    ///         println!("{city}"); // as soon as the server wrote it
    ///     }
    /// }
    /// let done = stream.finish().await?;
    /// assert!(done.execution.success);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// If `params` is not an object, or the server cannot be reached or sends no status
    /// within the timeout; lines are read with [`ExecutionStream::next`](super::ExecutionStream::next).
    pub async fn execute_streaming(
        &self,
        name: &str,
        params: Value,
    ) -> Result<super::ExecutionStream> {
        params_are_an_object(name, &params)?;
        let request = format!("POST /mcp/tools/{name}/execute (streamed)");
        let path = format!("/mcp/tools/{}/execute", encode_segment(name));
        let started = std::time::Instant::now();
        // The whole stream may take long; each line is timed by the stream.
        let response = tokio::time::timeout(
            self.timeout,
            self.http
                .request(Method::POST, format!("{}{path}", self.base))
                .header(VERSION_HEADER, &self.protocol_version)
                .header(
                    header::ACCEPT,
                    format!("{}, application/json", super::stream::NDJSON),
                )
                .headers(self.headers.clone())
                .json(&json!({ "params": params }))
                .send(),
        )
        .await
        .map_err(|_| Error::Timeout {
            method: request.clone(),
            timeout: self.timeout,
            stderr_tail: None,
        })?
        .map_err(|error| self.failed(&request, &error, self.timeout))?;
        Ok(super::ExecutionStream::new(
            name,
            request,
            response,
            started,
            self.timeout,
        ))
    }

    fn request(&self, method: Method, path: &str, timeout: Duration) -> RequestBuilder {
        self.http
            .request(method, format!("{}{path}", self.base))
            .header(VERSION_HEADER, &self.protocol_version)
            .header(header::ACCEPT, "application/json")
            .timeout(timeout)
            .headers(self.headers.clone())
    }

    async fn send(
        &self,
        request: &str,
        builder: RequestBuilder,
        timeout: Duration,
    ) -> Result<Response> {
        builder
            .send()
            .await
            .map_err(|error| self.failed(request, &error, timeout))
    }

    async fn body(
        &self,
        request: &str,
        response: Response,
        timeout: Duration,
    ) -> Result<(String, Option<String>)> {
        let content_type = header_text(&response, header::CONTENT_TYPE.as_str());
        let text = response
            .text()
            .await
            .map_err(|error| self.failed(request, &error, timeout))?;
        Ok((text, content_type))
    }

    fn failed(&self, request: &str, error: &reqwest::Error, timeout: Duration) -> Error {
        if error.is_timeout() {
            Error::Timeout {
                method: request.to_owned(),
                timeout,
                stderr_tail: None,
            }
        } else if error.is_connect() {
            connect_failed(&self.base, error)
        } else {
            Error::Transport {
                method: Some(request.to_owned()),
                status: error.status().map(|status| status.as_u16()),
                reason: describe_request_error(error),
            }
        }
    }
}

fn header_text(response: &Response, name: &str) -> Option<String> {
    response
        .headers()
        .get(name)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
}

fn parse_json(
    request: &str,
    status: StatusCode,
    content_type: Option<&str>,
    text: &str,
) -> Result<Value> {
    serde_json::from_str(text)
        .map_err(|error| not_json(request, status, content_type, text, &error))
}

fn not_json(
    request: &str,
    status: StatusCode,
    content_type: Option<&str>,
    text: &str,
    error: &serde_json::Error,
) -> Error {
    Error::Undecodable {
        line: excerpt(text),
        reason: format!(
            "HTTP {status} with content type {} is not JSON: {error}",
            content_type.unwrap_or("(none)")
        ),
        method: Some(request.to_owned()),
        stderr_tail: None,
    }
}

fn http_error(
    request: &str,
    status: StatusCode,
    retry_after: Option<String>,
    content_type: Option<String>,
    body: &str,
) -> Error {
    Error::Http {
        request: request.to_owned(),
        status: status.as_u16(),
        retry_after,
        content_type,
        body: excerpt(body),
    }
}

/// `params` for `name` must be a JSON object.
fn params_are_an_object(name: &str, params: &Value) -> Result<()> {
    if params.is_object() {
        return Ok(());
    }
    Err(Error::invalid(
        format!("params for `{name}`"),
        format!(
            "they must be a JSON object, not `{}`",
            excerpt(&params.to_string())
        ),
    ))
}

/// `name` as one path segment: characters outside the unreserved set percent-encoded.
fn encode_segment(name: &str) -> String {
    let mut encoded = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::encode_segment;

    #[test]
    fn tool_names_are_one_path_segment() {
        assert_eq!(encode_segment("get_weather"), "get_weather");
        assert_eq!(encode_segment("a/b c"), "a%2Fb%20c");
        assert_eq!(encode_segment("mcp.test.x"), "mcp.test.x");
    }
}
