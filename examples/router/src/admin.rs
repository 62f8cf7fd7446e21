//! The router's admin API (`ROUTER_ADMIN_ADDR`): HTTP tools registered, listed and removed
//! at run time, the router contract's `registerTool`. The MCP client hears
//! `notifications/tools/list_changed` after each change.
//!
//! | request | answer |
//! | --- | --- |
//! | `POST /tools` with an [`HttpToolConfig`] as JSON (`{"name", "uri", "method"?, "description"?, "inputSchema"?}`) | `201 {"registered": name, "replaced": bool}`; `400 {"error": ..}` for a config that is wrong |
//! | `GET /tools` | `200 [HttpToolConfig, ...]` |
//! | `DELETE /tools/{name}` | `204`; `404 {"error": ..}` when there is no such tool |
//!
//! [`AdminClient`] is its client, as a test uses it.

use std::net::SocketAddr;

use axum::{
    Json, Router,
    extract::{Path, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::{delete, post},
};
use serde_json::json;

use crate::http_tool::{HttpToolConfig, HttpTools};

/// Starts the admin API on `address` (`127.0.0.1:0` for any free port); returns the address
/// it listens on. It runs until the process ends.
///
/// # Errors
///
/// The address could not be bound.
pub async fn serve(address: &str, tools: HttpTools) -> std::io::Result<SocketAddr> {
    let listener = tokio::net::TcpListener::bind(address).await?;
    let bound = listener.local_addr()?;
    let app = Router::new()
        .route("/tools", post(register).get(list))
        .route("/tools/{name}", delete(remove))
        .with_state(tools);
    tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, app).await {
            eprintln!("router: the admin API stopped: {error}");
        }
    });
    Ok(bound)
}

fn refused(status: StatusCode, message: String) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

async fn register(State(tools): State<HttpTools>, Json(config): Json<HttpToolConfig>) -> Response {
    if let Some(problem) = config.problem() {
        return refused(StatusCode::BAD_REQUEST, problem);
    }
    let name = config.name.clone();
    let replaced = tools.register(config).await;
    (
        StatusCode::CREATED,
        Json(json!({ "registered": name, "replaced": replaced })),
    )
        .into_response()
}

async fn list(State(tools): State<HttpTools>) -> Json<Vec<HttpToolConfig>> {
    Json(tools.all().await)
}

async fn remove(State(tools): State<HttpTools>, Path(name): Path<String>) -> Response {
    if tools.remove(&name).await {
        StatusCode::NO_CONTENT.into_response()
    } else {
        refused(
            StatusCode::NOT_FOUND,
            format!("no HTTP tool `{name}` is registered"),
        )
    }
}

/// A client of the admin API at `base` (`http://127.0.0.1:8081`).
///
/// ```no_run
/// # async fn demo() -> Result<(), String> {
/// use router::{AdminClient, HttpToolConfig};
///
/// let admin = AdminClient::new("http://127.0.0.1:8081");
/// admin
///     .register_tool(HttpToolConfig::new("weather-api", "http://127.0.0.1:9000/weather"))
///     .await?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct AdminClient {
    base: String,
    http: reqwest::Client,
}

impl AdminClient {
    /// A client of the admin API at `base`.
    pub fn new(base: impl Into<String>) -> AdminClient {
        AdminClient {
            base: base.into().trim_end_matches('/').to_owned(),
            http: reqwest::Client::new(),
        }
    }

    /// Registers `config` (replacing a tool of the same name).
    ///
    /// # Errors
    ///
    /// The API could not be reached, or refused the config, with its reason.
    pub async fn register_tool(&self, config: HttpToolConfig) -> Result<(), String> {
        let answer = self
            .http
            .post(format!("{}/tools", self.base))
            .json(&config)
            .send()
            .await
            .map_err(|error| format!("the admin API at {} is unreachable: {error}", self.base))?;
        expect(answer, StatusCode::CREATED).await
    }

    /// Removes tool `name`.
    ///
    /// # Errors
    ///
    /// The API could not be reached, or there is no such tool.
    pub async fn remove_tool(&self, name: &str) -> Result<(), String> {
        let answer = self
            .http
            .delete(format!("{}/tools/{name}", self.base))
            .send()
            .await
            .map_err(|error| format!("the admin API at {} is unreachable: {error}", self.base))?;
        expect(answer, StatusCode::NO_CONTENT).await
    }

    /// Every registered tool.
    ///
    /// # Errors
    ///
    /// The API could not be reached, or answered something else.
    pub async fn tools(&self) -> Result<Vec<HttpToolConfig>, String> {
        self.http
            .get(format!("{}/tools", self.base))
            .send()
            .await
            .map_err(|error| format!("the admin API at {} is unreachable: {error}", self.base))?
            .json()
            .await
            .map_err(|error| format!("the admin API's list is not JSON: {error}"))
    }
}

/// `Ok` when `answer` has status `wanted`, else its status and body.
async fn expect(answer: reqwest::Response, wanted: StatusCode) -> Result<(), String> {
    let status = answer.status();
    if status.as_u16() == wanted.as_u16() {
        return Ok(());
    }
    let body = answer.text().await.unwrap_or_default();
    Err(format!("the admin API answered {status}: {body}"))
}
