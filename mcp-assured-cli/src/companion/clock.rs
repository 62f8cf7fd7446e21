//! Wall-clock timestamps for answers (ISO 8601 with time zone) and monotonic durations.

use std::time::Instant;

use chrono::{DateTime, SecondsFormat, Utc};

/// A wall-clock instant, shown as `2026-11-22T10:15:30.123Z`.
pub(crate) type Timestamp = DateTime<Utc>;

pub(crate) fn now() -> Timestamp {
    Utc::now()
}

pub(crate) fn iso(timestamp: Timestamp) -> String {
    timestamp.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Whole milliseconds since `start`, from the monotonic clock.
pub(crate) fn millis_since(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}
