//! A bug a fuzz run found (`crate::fuzz`): what kind, where, the smallest input that shows it, what came
//! back, and how to see it again from the shell or in a test.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Entry, Report};

/// What kind of bug a finding is.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "json-schema", schemars(rename = "FuzzFindingKind"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FindingKind {
    /// The server process exited, or the connection dropped, during the call.
    Crash,
    /// No answer within the per-call timeout.
    Hang,
    /// Valid input was answered with a JSON-RPC error (any code: -32603, 0, -32602 ...).
    #[serde(rename = "jsonrpc_error")]
    ErrorOnValidInput,
    /// Something came back that is not an answer: junk, an HTTP error, a result without its
    /// method's fields.
    BrokenAnswer,
    /// The answer shows the server's internals: a stack trace, an absolute source path.
    LeakedInternals,
    /// A tool with an `outputSchema` returned no `structuredContent`, or one that breaks it.
    OutputSchema,
    /// Invalid input was served as if it were valid.
    AcceptedInvalid,
    /// Invalid input was answered with an error other than -32602 (Invalid params) or an
    /// `isError` result: the server failed on it rather than refused it.
    InternalError,
    /// A property of the author's did not hold.
    Property,
    /// Valid input crashed the tool, and the server's SDK answered the crash as a tool
    /// error (`isError`): its text is an SDK's crash form (`Error executing tool <name>`,
    /// `Cannot read properties of undefined`, ...), or the server wrote a stack trace to
    /// stderr while it ran. The forms: `mcp_assured::fuzz` docs, "A crash answered as a
    /// tool error".
    CrashAsToolError,
    /// The answer breaks the official JSON schema of the revision spoken (a 2026-07-28
    /// result without `resultType`, say), which the SDKs' clients refuse.
    WireSchema,
    /// No answer within the cap on a call's time (six per-call timeouts), though the server
    /// kept sending progress about it: slow, not hung. Or a hang excused: of a subject that
    /// reported progress on other calls (slow by design), or of an open-world tool answered
    /// when sent again alone (its outside world was slow). A warning (strict fails it).
    Slow,
}

impl FindingKind {
    /// Every kind, in the order a call's answer is judged.
    pub const ALL: [FindingKind; 12] = [
        FindingKind::Crash,
        FindingKind::Slow,
        FindingKind::CrashAsToolError,
        FindingKind::WireSchema,
        FindingKind::Hang,
        FindingKind::BrokenAnswer,
        FindingKind::ErrorOnValidInput,
        FindingKind::InternalError,
        FindingKind::AcceptedInvalid,
        FindingKind::LeakedInternals,
        FindingKind::OutputSchema,
        FindingKind::Property,
    ];

    /// Its name in entries, JSON and regression files: `crash`, `jsonrpc_error`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::Crash => "crash",
            FindingKind::Hang => "hang",
            FindingKind::ErrorOnValidInput => "jsonrpc_error",
            FindingKind::BrokenAnswer => "broken_answer",
            FindingKind::LeakedInternals => "leaked_internals",
            FindingKind::OutputSchema => "output_schema",
            FindingKind::AcceptedInvalid => "accepted_invalid",
            FindingKind::InternalError => "internal_error",
            FindingKind::Property => "property",
            FindingKind::CrashAsToolError => "crash_as_tool_error",
            FindingKind::WireSchema => "wire_schema",
            FindingKind::Slow => "slow",
        }
    }

    /// The kind named `name` (see [`as_str`](Self::as_str)).
    pub fn parse(name: &str) -> Option<FindingKind> {
        FindingKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == name)
    }
}

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One bug: the input that shows it, shrunk as far as it still does, and what came back.
/// Each fuzz entry that failed or warned carries one as `details.finding`; [`findings`]
/// reads them back.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "json-schema", schemars(rename = "FuzzFinding"))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Finding {
    /// What kind of bug.
    pub kind: FindingKind,
    /// `tool`, `template` or `prompt`.
    pub subject: String,
    /// The tool's or prompt's name, or the template's URI template.
    pub name: String,
    /// The run's seed: the same seed (`.seed(n)`, `--seed n`) generates the same inputs.
    pub seed: u64,
    /// The smallest input found that still shows the bug.
    pub arguments: Value,
    /// The input that first showed it, before shrinking.
    pub found_with: Value,
    /// How many smaller inputs were tried while shrinking.
    pub shrink_steps: u32,
    /// For invalid input: how it was made invalid, e.g. "required property `id` dropped".
    pub mutation: Option<String>,
    /// For [`FindingKind::Property`]: the property's name.
    pub property: Option<String>,
    /// What happened, in a sentence.
    pub what: String,
    /// What came back for the smallest input: the result, the error, or `null`.
    pub answer: Value,
    /// How many generated inputs showed the same kind of bug.
    pub occurrences: u32,
    /// Found by replaying the regression file, not by generation.
    pub replayed: bool,
    /// How to see it again.
    pub reproduce: Reproduction,
    /// Seen only with other calls in flight: the shrunk input, sent again alone (one call
    /// in flight), was answered as it should be. Reported as a warning naming both inputs,
    /// not blamed on this subject (another call's answer may have been taken for its own).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub concurrent_only: bool,
}

/// The command line and the test that show a finding again.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reproduction {
    /// `mcp-assured call …` (or `read`, `prompt`) against the same server; `None` for a
    /// server in the test's process.
    pub command: Option<String>,
    /// A `#[mcp_test]` that fails while the bug is there.
    pub test: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} in {} `{}` with {}: {}",
            self.kind,
            self.subject,
            self.name,
            compact(&self.arguments),
            self.what
        )
    }
}

/// Every finding in `report`, in order.
///
/// ```
/// use mcp_assured::report::{Report, findings};
/// assert!(findings(&Report::default()).is_empty());
/// ```
pub fn findings(report: &Report) -> Vec<Finding> {
    report.entries().iter().filter_map(finding_of).collect()
}

/// The finding an entry carries, if it does.
pub fn finding_of(entry: &Entry) -> Option<Finding> {
    serde_json::from_value(entry.details.get("finding")?.clone()).ok()
}

/// JSON on one line, as regression files and messages show inputs.
pub(crate) fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
