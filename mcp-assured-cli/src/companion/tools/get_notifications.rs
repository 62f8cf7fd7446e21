//! `get_notifications`: what the server sent on its own since the last look.

use std::sync::atomic::Ordering;

use chrono::{DateTime, Utc};
use mcp_assured::model::Tool;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Call, define, on_connection};
use crate::companion::{
    answer::Answer,
    clock::{iso, now},
};

on_connection!(Args);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// Which connection to use; the default one when omitted.
    connection: Option<String>,
    /// Show every notification since connecting, not only those not shown before.
    #[serde(default)]
    all: bool,
}

pub(crate) fn definition() -> Tool {
    define::<Args>(
        "get_notifications",
        "Returns the notifications the connected server sent since the last call (or all of \
         them with `all: true`): log messages, progress, resource updates, list changes, in \
         arrival order, each with its method, complete params and when it arrived.",
        true,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let (args, connection) = match call.prepare::<Args>().await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    let all = connection.client.notifications();
    let seen = usize::try_from(
        connection
            .notifications_seen
            .swap(all.len() as u64, Ordering::Relaxed),
    )
    .unwrap_or(usize::MAX);
    let shown = if args.all {
        &all[..]
    } else {
        &all[seen.min(all.len())..]
    };
    let notifications: Vec<Value> = shown
        .iter()
        .map(|notification| {
            json!({
                "method": notification.method,
                "params": notification.params,
                "received_at": iso(DateTime::<Utc>::from(notification.received_at)),
            })
        })
        .collect();
    call.answer()
        .connection(&connection)
        .field("notifications", notifications)
        .meta("count", shown.len())
        .meta("total_since_connected", all.len())
        .meta("retrieved_at", iso(now()))
        .counted(&connection)
}
