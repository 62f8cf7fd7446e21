//! Numbers in structured output are written the way JavaScript writes them: `15`, not `15.0`,
//! so a client sees the same JSON from this server as from a TypeScript one, and snapshots
//! and `json!` comparisons need no float literals.

use serde::Serializer;

/// Largest magnitude below which every integer is exactly representable as `f64`.
const EXACT_INTEGER_LIMIT: f64 = 9_007_199_254_740_992.0; // 2^53

pub(super) fn serialize<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if value.fract() == 0.0 && value.abs() < EXACT_INTEGER_LIMIT {
        // Exact: `value` is a whole number within i64's range.
        serializer.serialize_i64(*value as i64)
    } else {
        serializer.serialize_f64(*value)
    }
}
