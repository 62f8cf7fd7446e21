//! Why a schema cannot be fuzzed: a part of it admits no value we can generate.

use std::fmt;

/// A part of a schema no value can be generated for, e.g. `false`, a remote `$ref` or an
/// `allOf` whose branches contradict each other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported {
    /// A JSON pointer into the schema (`""` for the whole schema).
    pub at: String,
    /// Why nothing can be generated there.
    pub reason: String,
}

impl Unsupported {
    pub(super) fn new(at: impl Into<String>, reason: impl Into<String>) -> Unsupported {
        Unsupported {
            at: at.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.at.is_empty() { "/" } else { &self.at };
        write!(
            f,
            "cannot generate values for the schema at {at}: {}",
            self.reason
        )
    }
}

impl std::error::Error for Unsupported {}
