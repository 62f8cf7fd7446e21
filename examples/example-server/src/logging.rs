//! The session's log level (`logging/setLevel`) and which messages pass it.
#![expect(
    deprecated,
    reason = "MCP logging is deprecated by SEP-2577 but still part of 2025-11-25, which clients speak"
)]

use std::sync::{Mutex, PoisonError};

use rmcp::model::LoggingLevel;

/// MCP's levels and their names on the wire, least severe first (syslog order, RFC 5424).
/// rmcp's enum implements neither `Ord` nor `Display`.
const LEVELS: [(LoggingLevel, &str); 8] = [
    (LoggingLevel::Debug, "debug"),
    (LoggingLevel::Info, "info"),
    (LoggingLevel::Notice, "notice"),
    (LoggingLevel::Warning, "warning"),
    (LoggingLevel::Error, "error"),
    (LoggingLevel::Critical, "critical"),
    (LoggingLevel::Alert, "alert"),
    (LoggingLevel::Emergency, "emergency"),
];

/// The minimum level the client asked for. Until it asks, every message is sent.
#[derive(Debug, Default)]
pub(crate) struct LogLevel(Mutex<Option<LoggingLevel>>);

impl LogLevel {
    pub(crate) fn set(&self, level: LoggingLevel) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(level);
    }

    /// `Err` carries the minimum level when `level` is below it.
    pub(crate) fn check(&self, level: LoggingLevel) -> Result<(), LoggingLevel> {
        match *self.0.lock().unwrap_or_else(PoisonError::into_inner) {
            Some(minimum) if severity(level) < severity(minimum) => Err(minimum),
            _ => Ok(()),
        }
    }
}

pub(crate) fn name(level: LoggingLevel) -> &'static str {
    LEVELS[severity(level)].1
}

/// The schema of a level argument: an inline string enum. schemars would otherwise
/// reference rmcp's type and flag it `deprecated`.
pub(crate) fn level_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "string",
        "enum": LEVELS.map(|(_, name)| name),
    })
}

fn severity(level: LoggingLevel) -> usize {
    LEVELS
        .iter()
        .position(|(listed, _)| *listed == level)
        .expect("every level is listed")
}
