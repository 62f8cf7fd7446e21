//! [`Runner`]: runs one tool call the way both faces do: permissions, payload size, a place
//! among `maxConcurrency`, the hooks, the tool under its time limit with its memory cap.

use std::{collections::BTreeMap, sync::Arc, time::Duration};

use rmcp::model::{CallToolResult, JsonObject};
use serde_json::json;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::{Grant, OnConcurrencyLimit, Policies, Refusal, ToolPolicy, code};
use crate::{
    api::WeatherApi,
    tools::{
        self, ToolContext,
        hooks::{Call, Face, ToolHooks},
    },
};

/// One call to run.
#[derive(Debug)]
pub struct Request<'a> {
    /// The tool's MCP name.
    pub tool: &'a str,
    /// Its arguments.
    pub params: JsonObject,
    /// Which face it came in through.
    pub face: Face,
    /// What the caller may do.
    pub grant: Grant,
    /// The request's size in bytes (REST: the body; MCP: the arguments as JSON).
    pub payload_bytes: usize,
    /// The caller's own time limit (REST `context.timeout`), if shorter than the tool's.
    pub timeout: Option<Duration>,
    /// Where progress and streamed items go.
    pub context: ToolContext,
}

/// Runs tool calls under their policies; one per server, shared by both faces (so
/// `maxConcurrency` counts the calls of both).
pub struct Runner {
    api: Arc<WeatherApi>,
    policies: Policies,
    places: BTreeMap<String, Arc<Semaphore>>,
    hooks: Vec<Arc<dyn ToolHooks>>,
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("api", &self.api)
            .field("policies", &self.policies)
            .field("server_hooks", &self.hooks.len())
            .finish()
    }
}

impl Runner {
    /// Runs calls to `api` under `policies`, with the server-wide `hooks` after each tool's own.
    pub fn new(api: Arc<WeatherApi>, policies: Policies, hooks: Vec<Arc<dyn ToolHooks>>) -> Self {
        let places = policies
            .iter()
            .map(|(name, policy)| {
                let places = usize::try_from(policy.limits.max_concurrency).unwrap_or(usize::MAX);
                (
                    name.to_owned(),
                    Arc::new(Semaphore::new(places.min(Semaphore::MAX_PERMITS))),
                )
            })
            .collect();
        Self {
            api,
            policies,
            places,
            hooks,
        }
    }

    /// The policies calls run under.
    pub fn policies(&self) -> &Policies {
        &self.policies
    }

    /// The API the tools call.
    pub fn api(&self) -> Arc<WeatherApi> {
        Arc::clone(&self.api)
    }

    /// Runs `request`: `Err` for a call refused or timed out (with its code), `Ok` with the
    /// tool's result otherwise, a tool error included (the protocol's `EXECUTION_ERROR`).
    ///
    /// # Errors
    ///
    /// The [`Refusal`]: permissions missing, payload too large, no place, refused by a
    /// `before_execute` hook, or over the time limit.
    pub async fn run(&self, request: Request<'_>) -> Result<CallToolResult, Refusal> {
        let Request {
            tool,
            params,
            face,
            grant,
            payload_bytes,
            timeout,
            context,
        } = request;
        let call = Call {
            tool,
            params: &params,
            face,
        };
        let policy = self.policies.of(tool);
        let outcome = self
            .run_call(&call, &policy, &grant, payload_bytes, timeout, context)
            .await;
        match &outcome {
            Ok(result) if result.is_error != Some(true) => {
                for hooks in self.hooks_of(tool) {
                    hooks.after_execute(&call, result).await;
                }
            }
            Ok(result) => {
                let failure = Refusal::execution(text_of(result));
                for hooks in self.hooks_of(tool) {
                    hooks.on_error(&call, &failure).await;
                }
            }
            Err(refusal) => {
                for hooks in self.hooks_of(tool) {
                    hooks.on_error(&call, refusal).await;
                }
            }
        }
        outcome
    }

    async fn run_call(
        &self,
        call: &Call<'_>,
        policy: &ToolPolicy,
        grant: &Grant,
        payload_bytes: usize,
        timeout: Option<Duration>,
        context: ToolContext,
    ) -> Result<CallToolResult, Refusal> {
        let tool = call.tool;
        let missing = grant.missing(&policy.permissions);
        if !missing.is_empty() {
            return Err(Refusal::new(
                code::PERMISSION,
                format!(
                    "`{tool}` needs the permission{} {}, which the token does not grant",
                    if missing.len() == 1 { "" } else { "s" },
                    missing.join(", ")
                ),
                json!({
                    "required": policy.permissions,
                    "missing": missing,
                    "granted": grant.describe(),
                }),
            ));
        }
        let limits = &policy.limits;
        if payload_bytes > limits.payload_bytes() {
            return Err(Refusal::new(
                code::VALIDATION,
                format!(
                    "the request is {payload_bytes} bytes, over `{tool}`'s maxPayloadSize of {} MB ({} bytes); it was not run",
                    limits.max_payload_size,
                    limits.payload_bytes()
                ),
                json!({
                    "maxPayloadSize": limits.max_payload_size,
                    "size": payload_bytes,
                }),
            ));
        }
        let _place = self.place(tool, policy).await?;
        for hooks in self.hooks_of(tool) {
            hooks.before_execute(call).await?;
        }
        let (limit, by_caller) = match timeout {
            Some(timeout) if timeout < limits.execution_time() => (timeout, true),
            _ => (limits.execution_time(), false),
        };
        let api = self.api.with_max_body(limits.memory_bytes());
        let run = tools::call(&api, tool, call.params.clone(), &context);
        match tokio::time::timeout(limit, run).await {
            Ok(Some(result)) => Ok(result),
            Ok(None) => Err(Refusal::execution(format!("no tool `{tool}`"))),
            Err(_) => Err(Refusal::new(
                code::TIMEOUT,
                format!(
                    "`{tool}` took longer than {} ms ({})",
                    limit.as_millis(),
                    if by_caller {
                        "the caller's context.timeout"
                    } else {
                        "its maxExecutionTime"
                    }
                ),
                json!({
                    "maxExecutionTime": limits.max_execution_time,
                    "timeout": u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
                }),
            )),
        }
    }

    /// A place among the tool's `maxConcurrency`: at once, or after waiting, as it declares.
    async fn place(
        &self,
        tool: &str,
        policy: &ToolPolicy,
    ) -> Result<Option<OwnedSemaphorePermit>, Refusal> {
        let Some(places) = self.places.get(tool) else {
            return Ok(None);
        };
        let limits = &policy.limits;
        match limits.on_concurrency_limit {
            OnConcurrencyLimit::Wait => Ok(Arc::clone(places).acquire_owned().await.ok()),
            OnConcurrencyLimit::Reject => match Arc::clone(places).try_acquire_owned() {
                Ok(place) => Ok(Some(place)),
                Err(_) => Err(Refusal::new(
                    code::RATE_LIMIT,
                    format!(
                        "`{tool}` is already running {} time{} at once, its maxConcurrency; try again when one ends",
                        limits.max_concurrency,
                        if limits.max_concurrency == 1 { "" } else { "s" }
                    ),
                    json!({
                        "maxConcurrency": limits.max_concurrency,
                        "onConcurrencyLimit": "reject",
                    }),
                )),
            },
        }
    }

    /// The tool's own hooks, then the server's.
    fn hooks_of(&self, tool: &str) -> impl Iterator<Item = &dyn ToolHooks> {
        std::iter::once(tools::hooks(tool)).chain(self.hooks.iter().map(|hooks| &**hooks))
    }
}

/// The text of every text block of `result`, one a line.
pub(crate) fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|text| text.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}
