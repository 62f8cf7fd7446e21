//! SARIF 2.1.0, the format code scanning reads (GitHub's among others): a report's failures
//! and warnings as results, each with a stable rule id, a level, a message, where it is
//! (the server and the tool, prompt or resource; a file where there is one) and
//! `partialFingerprints`, so that the same finding is the same alert from one run to the
//! next and a fixed one closes.
//!
//! Every report turns into one: [`Report::to_sarif`] (checks, server tests, fuzz runs, load
//! runs through [`LoadReport::to_report`]), [`LintReport::to_sarif`][lint],
//! [`Changes::to_sarif`][diff] and [`CoverageReport::to_sarif`] (what a suite never
//! exercised, as notes). Passing and skipped entries are not results.
//!
//! ```
//! use mcp_assured::report::{Entry, Report, Status};
//!
//! let report = Report::from_iter([
//!     Entry::new("protocol-checks", "ping", Status::Passed, "answered"),
//!     Entry::new("protocol-checks", "errors.unknown_method", Status::Failed, "got -32603"),
//! ]);
//! let sarif = report.to_sarif().server("weather").artifact("mcp.json").to_json();
//! let result = &sarif["runs"][0]["results"][0];
//! assert_eq!(result["ruleId"], "errors.unknown_method");
//! assert_eq!(result["level"], "error");
//! assert_eq!(
//!     result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
//!     "mcp.json"
//! );
//! assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 1, "a pass is no result");
//! ```
//!
//! # Identity across runs
//!
//! A result's `partialFingerprints["mcpAssured/v1"]` hashes what the finding is, never what
//! changes from run to run: the rule id, the server's name (not its URL or port), the
//! subject (a tool, prompt, resource or template, by name) and, for a lint finding, where in
//! the definition. A fuzz finding's fingerprint leaves its input out: the same bug found
//! with another seed, or shrunk to another input, is the same alert.
//!
//! # Code scanning
//!
//! GitHub's code scanning refuses a result without a file (`expected at least one location`),
//! and a server's findings are about a server, not a line: [`Sarif::artifact`] names the
//! repository file every result points to when it has none of its own (the command line
//! takes the config file, the `--pinned` or `--regressions` file or the old snapshot, or
//! `--sarif-artifact FILE`). The Action's `sarif` input writes the file and uploads it with
//! `github/codeql-action/upload-sarif`.
//!
//! [`Report::to_sarif`]: crate::report::Report::to_sarif
//! [`LoadReport::to_report`]: crate::load::LoadReport::to_report
//! [`CoverageReport::to_sarif`]: crate::coverage::CoverageReport::to_sarif
#![cfg_attr(feature = "lint", doc = "[lint]: crate::lint::LintReport::to_sarif")]
#![cfg_attr(
    not(feature = "lint"),
    doc = "[lint]: https://docs.rs/mcp-assured/latest/mcp_assured/lint/struct.LintReport.html#method.to_sarif"
)]
#![cfg_attr(feature = "diff", doc = "[diff]: crate::diff::Changes::to_sarif")]
#![cfg_attr(
    not(feature = "diff"),
    doc = "[diff]: https://docs.rs/mcp-assured/latest/mcp_assured/diff/struct.Changes.html#method.to_sarif"
)]

mod coverage;
#[cfg(feature = "diff")]
mod diff;
mod fingerprint;
#[cfg(feature = "lint")]
mod lint;
mod log;
mod report;

pub use self::log::{Level, Rule, SarifResult, Subject};

use std::{fmt, io, path::Path};

use serde_json::{Map, Value};

/// The URI of the schema a SARIF log names (`$schema`): the OASIS standard's, errata 01.
pub const SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The key of mcp-assured's fingerprint in each result's `partialFingerprints`.
pub const FINGERPRINT_KEY: &str = "mcpAssured/v1";

/// One SARIF log of one run: the rules its results use and the results, written by
/// [`to_json`](Self::to_json), [`Display`](fmt::Display) (pretty JSON) or
/// [`write`](Self::write).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sarif {
    rules: Vec<Rule>,
    results: Vec<SarifResult>,
    server: Option<String>,
    artifact: Option<String>,
    category: Option<String>,
    properties: Map<String, Value>,
    notes: Vec<String>,
}

impl Sarif {
    /// An empty log: no rules, no results (a clean run).
    pub fn new() -> Sarif {
        Sarif::default()
    }

    /// Adds `result`, and its rule unless a result added before uses it.
    pub fn push(&mut self, rule: Rule, result: SarifResult) {
        if !self.rules.iter().any(|known| known.id == rule.id) {
            self.rules.push(rule);
        }
        self.results.push(result);
    }

    /// The results of `other` after these (one log of `check` and its `--pinned` entry, say).
    pub fn extend(&mut self, other: Sarif) {
        for result in other.results {
            let rule = other
                .rules
                .iter()
                .find(|rule| rule.id == result.rule_id)
                .cloned()
                .expect("every result's rule is in its log");
            self.push(rule, result);
        }
        self.server = self.server.take().or(other.server);
        self.artifact = self.artifact.take().or(other.artifact);
        self.category = self.category.take().or(other.category);
        for (key, value) in other.properties {
            self.properties.entry(key).or_insert(value);
        }
        self.notes.extend(other.notes);
    }

    /// The run's category, `runs[0].automationDetails.id` (`mcp-assured/check/`): code
    /// scanning keeps one set of alerts per tool and category, so that the logs of
    /// `check`, `fuzz` and `lint` uploaded together do not replace one another's. A
    /// category ends with `/`; one without is given one.
    pub fn category(mut self, category: impl Into<String>) -> Sarif {
        let mut category = category.into();
        if !category.ends_with('/') {
            category.push('/');
        }
        self.category = Some(category);
        self
    }

    /// The server the results are about, by the name it gives itself (`serverInfo.name`):
    /// the outermost logical location of each result, and part of its fingerprint.
    pub fn server(mut self, name: impl Into<String>) -> Sarif {
        self.server = Some(name.into());
        self
    }

    /// The name the results are about, as [`server`](Self::server) set it.
    pub fn server_name(&self) -> Option<&str> {
        self.server.as_deref()
    }

    /// A property of the run as a whole, in `runs[0].properties` (`servers`, say: the
    /// names of the two sides of a diff).
    pub fn property(mut self, key: impl Into<String>, value: impl Into<Value>) -> Sarif {
        self.properties.insert(key.into(), value.into());
        self
    }

    /// A sentence about the run as a whole rather than a result (the two sides of a diff
    /// name different servers, say): a `note` of `runs[0].invocations[0]
    /// .toolExecutionNotifications`.
    pub fn note(mut self, text: impl Into<String>) -> Sarif {
        self.notes.push(text.into());
        self
    }

    /// The file every result without one of its own points to, as a path relative to the
    /// repository's root (`mcp.json`, `tests/surface.json`): code scanning refuses a result
    /// without one.
    pub fn artifact(mut self, path: impl AsRef<Path>) -> Sarif {
        self.artifact = Some(uri_of(path.as_ref()));
        self
    }

    /// Points each result that has no file of its own to `path`, for good: unlike
    /// [`artifact`](Self::artifact), it stays with the results when this log
    /// [extends](Self::extend) another (`check --pinned`'s entry points to the pinned file,
    /// the checks to the config file).
    pub fn located_at(mut self, path: impl AsRef<Path>) -> Sarif {
        let uri = uri_of(path.as_ref());
        for result in &mut self.results {
            result.artifact.get_or_insert_with(|| uri.clone());
        }
        self
    }

    /// Every result, in order.
    pub fn results(&self) -> &[SarifResult] {
        &self.results
    }

    /// The rules the results use, each once, in the order first used.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The log as JSON: `{"$schema", "version": "2.1.0", "runs": [{"tool", "results"}]}`.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(log::build(self)).expect("a SARIF log serialises")
    }

    /// Writes the log to `path` as pretty JSON.
    ///
    /// # Errors
    ///
    /// The file could not be written.
    pub fn write(&self, path: impl AsRef<Path>) -> io::Result<()> {
        std::fs::write(path, self.to_string())
    }
}

impl fmt::Display for Sarif {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string_pretty(&self.to_json()).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

/// A path as a SARIF URI reference: forward slashes, no leading `./`.
fn uri_of(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    text.trim_start_matches("./").to_owned()
}

#[cfg(test)]
mod tests;
