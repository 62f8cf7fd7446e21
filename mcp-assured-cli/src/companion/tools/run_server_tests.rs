//! `run_server_tests`: the server's own `mcp.test.*` tools, run and judged.

use mcp_assured::model::Tool;
use serde_json::json;

use super::{Call, ConnectionOnly, define};
use crate::companion::{
    answer::Answer,
    clock::{iso, now},
    errors::{Operation, classify, details},
};

pub(crate) fn definition() -> Tool {
    define::<ConnectionOnly>(
        "run_server_tests",
        "Runs the connected server's own test tools (the mcp.test.* convention): discovers \
         them with their testMetadata, runs them by priority each under its own timeout with \
         arguments made from its input schema, and reports every test's status (passed, \
         failed, skipped, or warned: an optional test, priority 3, that failed), message, \
         passed/failed/skipped checks, durations and any malformed metadata or result, plus \
         the totals.",
        false,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let (_, connection) = match call.prepare::<ConnectionOnly>().await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    let started_at = now();
    let answer = call.answer().connection(&connection);
    let answer = match connection.client.run_server_tests().await {
        Ok(report) => answer
            .field("tests", json!(report.entries()))
            .field("summary", json!(report.summary()))
            .field("report", report.to_string())
            .meta("started_at", iso(started_at))
            .meta("completed_at", iso(now())),
        Err(error) => answer.error(
            classify(&error, Operation::Other),
            format!("could not list the server's test tools: {error}"),
            details(&error),
        ),
    };
    answer.counted(&connection)
}
