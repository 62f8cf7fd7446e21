//! The words a check tests: the specification's sentence, its RFC 2119 keyword, where it
//! stands. A check fails only for a [`Level::Must`] or [`Level::MustNot`] broken; anything
//! else broken is a warning (or a failure under `strict`).

use std::fmt;

use serde::Serialize;

/// How much the specification asks: the keyword of the sentence a check tests.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Level {
    /// MUST (or REQUIRED, SHALL): broken, the check fails.
    #[serde(rename = "MUST")]
    Must,
    /// MUST NOT (or SHALL NOT): broken, the check fails.
    #[serde(rename = "MUST NOT")]
    MustNot,
    /// SHOULD (or RECOMMENDED): broken, the check warns.
    #[serde(rename = "SHOULD")]
    Should,
    /// SHOULD NOT (or NOT RECOMMENDED): broken, the check warns.
    #[serde(rename = "SHOULD NOT")]
    ShouldNot,
    /// The text states no keyword (an example, a table, a classification), or what is
    /// tested is common practice beyond the text: broken, the check warns.
    #[serde(rename = "no keyword")]
    NoKeyword,
}

impl Level {
    /// Whether breaking it is a failure: MUST and MUST NOT.
    pub fn is_requirement(self) -> bool {
        matches!(self, Level::Must | Level::MustNot)
    }

    /// The keyword as the specification writes it, or `no keyword`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::MustNot => "MUST NOT",
            Level::Should => "SHOULD",
            Level::ShouldNot => "SHOULD NOT",
            Level::NoKeyword => "no keyword",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One sentence of a specification that a check tests.
///
/// ```
/// use mcp_assured::report::{Clause, Level};
///
/// const OUTPUT: Clause = Clause {
///     level: Level::Must,
///     spec: "MCP 2025-11-25",
///     section: "Server › Tools › Output Schema",
///     url: "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema",
///     text: "Servers MUST provide structured results that conform to this schema.",
/// };
/// assert!(OUTPUT.level.is_requirement());
/// assert_eq!(
///     OUTPUT.to_string(),
///     "MUST, MCP 2025-11-25 › Server › Tools › Output Schema: \"Servers MUST provide \
///      structured results that conform to this schema.\" \
///      (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema)"
/// );
/// ```
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Clause {
    /// Its keyword, which grades a check that finds it broken.
    pub level: Level,
    /// The specification and its revision: `MCP 2025-11-25`, `JSON-RPC 2.0`, `RFC 9110`.
    pub spec: &'static str,
    /// Where it stands, e.g. `Server › Resources › Error Handling`.
    pub section: &'static str,
    /// A link to that place.
    pub url: &'static str,
    /// The sentence, quoted (shortened with `…`).
    pub text: &'static str,
}

impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, {} › {}: \"{}\" ({})",
            self.level, self.spec, self.section, self.text, self.url
        )
    }
}
