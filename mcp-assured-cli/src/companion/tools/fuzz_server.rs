//! `fuzz_server`: schema-driven fuzzing of the connected server's tools, resource templates
//! and prompts, each finding with its shrunk input and reproduction.

use std::time::Duration;

use mcp_assured::{fuzz, model::Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::{Call, define, on_connection};
use crate::companion::{
    answer::Answer,
    clock::{iso, now},
};

on_connection!(Args);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// Which connection to fuzz; the default one when omitted.
    connection: Option<String>,
    /// Fuzz only these tools (by name); all by default. Naming tools leaves templates and
    /// prompts out unless `templates`/`prompts` say otherwise.
    #[serde(default)]
    tools: Vec<String>,
    /// Tools to leave out.
    #[serde(default)]
    exclude_tools: Vec<String>,
    /// Valid inputs per tool, template and prompt, and as many invalid ones. Default 100.
    cases: Option<u32>,
    /// The seed inputs are generated from: the same seed generates the same inputs. A
    /// random one by default, reported in `seed`.
    seed: Option<u64>,
    /// Stop sending new inputs after this many milliseconds.
    time_budget_ms: Option<u64>,
    /// How long one call may take before it counts as a hang, in milliseconds. Default
    /// 5000 (or the connection's timeout when shorter).
    call_timeout_ms: Option<u64>,
    /// Calls in flight at once. Default 8.
    concurrency: Option<usize>,
    /// Also fuzz tools annotated destructiveHint (skipped by default). Default false.
    #[serde(default)]
    include_destructive: bool,
    /// Fuzz resource templates' variables.
    templates: Option<bool>,
    /// Fuzz prompts' arguments.
    prompts: Option<bool>,
    /// Fail the findings that only warn (an extra property accepted, a prompt serving a
    /// missing required argument). Default false.
    #[serde(default)]
    strict: bool,
}

pub(crate) fn definition() -> Tool {
    define::<Args>(
        "fuzz_server",
        "Fuzzes the connected server: generates arguments for every tool from its inputSchema \
         (valid ones, which must be served, and invalid ones, each a minimal mutation such as \
         a required property dropped or one past a bound, which must be refused), and values \
         for resource-template variables and prompt arguments, and judges every answer: \
         crash, hang (per-call timeout), JSON-RPC error on valid input, invalid input \
         accepted or answered with an internal error, leaked stack traces or source paths, \
         structuredContent missing or breaking the outputSchema. Each finding is shrunk to \
         the smallest input that still shows it and comes with the `mcp-assured call` \
         command line and a #[mcp_test] that reproduce it. Returns every entry, every \
         finding, the seed (pass it back as `seed` to rerun the same inputs) and a summary. \
         It sends many calls (tools annotated destructiveHint are skipped unless \
         include_destructive); a crashed stdio server is restarted.",
        false,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let (args, connection) = match call.prepare::<Args>().await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    // Reproductions name a configured server by its file and name: its command, filled in
    // from the environment, may hold secrets.
    let mut run = connection
        .client
        .fuzz()
        .reproduce_as(connection.command_line_target.clone())
        .include_destructive(args.include_destructive)
        .strict(args.strict);
    for tool in args.tools {
        run = run.tool(tool);
    }
    for tool in args.exclude_tools {
        run = run.exclude_tool(tool);
    }
    if let Some(cases) = args.cases {
        run = run.cases(cases);
    }
    if let Some(seed) = args.seed {
        run = run.seed(seed);
    }
    if let Some(ms) = args.time_budget_ms {
        run = run.time_budget(Duration::from_millis(ms));
    }
    if let Some(ms) = args.call_timeout_ms {
        run = run.call_timeout(Duration::from_millis(ms.max(1)));
    }
    if let Some(concurrency) = args.concurrency {
        run = run.concurrency(concurrency);
    }
    if let Some(templates) = args.templates {
        run = run.templates(templates);
    }
    if let Some(prompts) = args.prompts {
        run = run.prompts(prompts);
    }
    let started_at = now();
    let report = run.run().await;
    // A crash during the run left the connection's client closed: the connection goes on
    // with the server started again.
    let mut connection = connection;
    if connection.client.is_closed()
        && let Ok(fresh) = connection.client.reconnect().await
    {
        let renewed = connection.with_client(fresh);
        call.replace(renewed).await;
        if let Ok(current) = call.connection(Some(&connection.name)).await {
            connection = current;
        }
    }
    let seed = report
        .entry("fuzz.run")
        .and_then(|entry| entry.details.get("seed").cloned());
    call.answer()
        .connection(&connection)
        .field("seed", json!(seed))
        .field("findings", json!(fuzz::findings(&report)))
        .field("entries", json!(report.entries()))
        .field("summary", json!(report.summary()))
        .field("report", report.to_string())
        .meta("started_at", iso(started_at))
        .meta("completed_at", iso(now()))
        .counted(&connection)
}
