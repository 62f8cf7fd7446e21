//! `wire.schema`: every message the server sent during the checks (and before them, from
//! `initialize` or `server/discover` on) held to the official JSON schema of the revision
//! the connection speaks, as the official conformance suite's `wire-schema-valid` holds
//! them. Run last, so it sees the answers to every other check's requests.

use super::{
    clauses::{WIRE_SCHEMA, by},
    recorder::Recorder,
};
use crate::{
    client::McpClient,
    wire_schema::{REVISIONS, WireViolation},
};

pub(super) const NAME: &str = "wire.schema";

/// How many distinct violations the message lists; the details hold them all.
const LISTED: usize = 12;

pub(super) fn check(client: &McpClient, report: &mut Recorder) {
    let revision = client.protocol_version();
    if !REVISIONS.contains(&revision) {
        report.skip(
            NAME,
            format!(
                "no official schema is bundled for protocol {revision} (only {})",
                REVISIONS.join(", ")
            ),
        );
        return;
    }
    let tally = client.wire_tally();
    let not_kept = if tally.not_kept == 0 {
        String::new()
    } else {
        format!(
            " ({} earlier messages were not kept: more came than wait to be held)",
            tally.not_kept
        )
    };
    if tally.violations.is_empty() {
        report.pass(
            NAME,
            format!(
                "{} messages the server sent conform to the {revision} schema{not_kept}",
                tally.held
            ),
        );
        return;
    }
    let lines = listing(&tally.violations);
    let messages: std::collections::BTreeSet<_> = tally
        .violations
        .iter()
        .map(|violation| violation.method.as_str())
        .collect();
    let details = serde_json::to_value(&tally.violations).unwrap_or_default();
    report.broke_with(
        NAME,
        by(report.revision(), &WIRE_SCHEMA),
        format!(
            "{} violations of the {revision} schema in the server's messages ({}; {} messages \
             held{not_kept}); the official SDKs' clients refuse such messages:{}",
            tally.violations.len(),
            messages.into_iter().collect::<Vec<_>>().join(", "),
            tally.held,
            lines
        ),
        details,
    );
}

/// One line per distinct violation, with how many times it came, and under the first that
/// has them, the schema's words (said once, however many violations share them).
fn listing(violations: &[WireViolation]) -> String {
    let mut distinct: Vec<(&WireViolation, usize)> = Vec::new();
    for violation in violations {
        let same = distinct.iter_mut().find(|(seen, _)| {
            (&seen.method, &seen.definition, &seen.pointer, &seen.message)
                == (
                    &violation.method,
                    &violation.definition,
                    &violation.pointer,
                    &violation.message,
                )
        });
        match same {
            Some((_, count)) => *count += 1,
            None => distinct.push((violation, 1)),
        }
    }
    let mut said: Vec<&str> = Vec::new();
    let mut lines = String::new();
    for (violation, count) in distinct.iter().take(LISTED) {
        let pointer = if violation.pointer.is_empty() {
            "/"
        } else {
            &violation.pointer
        };
        let times = if *count > 1 {
            format!(" (×{count})")
        } else {
            String::new()
        };
        lines.push_str(&format!(
            "\n  - {} at {pointer}: {} ({}){times}",
            violation.method, violation.message, violation.definition
        ));
        if let Some(words) = &violation.schema_says
            && !said.contains(&words.as_str())
        {
            said.push(words);
            lines.push_str(&format!("\n    the schema says: {words}"));
        }
    }
    if distinct.len() > LISTED {
        lines.push_str(&format!(
            "\n  - ... and {} more kinds (all in the entry's details)",
            distinct.len() - LISTED
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violation(method: &str, pointer: &str, words: Option<&str>) -> WireViolation {
        WireViolation {
            revision: "2026-07-28".into(),
            method: method.into(),
            definition: "CallToolResult".into(),
            pointer: pointer.into(),
            message: "\"resultType\" is a required property".into(),
            schema_says: words.map(Into::into),
        }
    }

    #[test]
    fn the_same_violation_is_listed_once_with_a_count_and_the_schema_speaks_once() {
        let words = Some("Servers implementing this protocol version MUST include this field.");
        let listed = listing(&[
            violation("tools/call", "/result", words),
            violation("tools/list", "/result", words),
            violation("tools/call", "/result", words),
        ]);
        assert_eq!(
            listed,
            "\n  - tools/call at /result: \"resultType\" is a required property (CallToolResult) (×2)\
             \n    the schema says: Servers implementing this protocol version MUST include this field.\
             \n  - tools/list at /result: \"resultType\" is a required property (CallToolResult)"
        );
    }
}
