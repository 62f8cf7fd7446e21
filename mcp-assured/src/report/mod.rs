//! What a run of checks or tests found: one [`Report`] of [`Entry`]s, each passed, failed or
//! skipped with a message, written as text ([`Display`](std::fmt::Display), [`Report::text`]),
//! JSON (`Serialize`) or JUnit XML ([`Report::junit`], the `junit` feature).
//!
//! [`McpClient::check`][check], [`check_parity`][check_parity] and
//! [`McpClient::run_server_tests`][run_server_tests] (the `checks` feature) each return one, its
//! entries in the suite [`checks::SUITE`][suite], [`checks::PARITY_SUITE`][parity_suite] or
//! [`server_tests::SUITE`][server_suite]; reports extend one another, so one report can hold
//! them all, as `mcp-assured check` does.
//!
//! ```
//! use mcp_assured::report::{Entry, Report, Status};
//!
//! let mut report = Report::default();
//! report.push(Entry::new("protocol-checks", "ping", Status::Passed, "answered"));
//! report.push(Entry::new(
//!     "protocol-checks",
//!     "errors.unknown_method",
//!     Status::Failed,
//!     "expected JSON-RPC -32601, got: -32603",
//! ));
//! assert_eq!(
//!     report.to_string(),
//!     "PASS ping: answered\n\
//!      FAIL errors.unknown_method: expected JSON-RPC -32601, got: -32603\n\
//!      1 passed, 1 failed, 0 skipped"
//! );
//! assert_eq!(report.entry("ping").unwrap().status, Status::Passed);
//! assert!(!report.is_success());
//! ```
// A link's target depends on the features: the item here, or its page on docs.rs.
#![doc = ""]
#![cfg_attr(feature = "checks", doc = "[check]: super::McpClient::check")]
#![cfg_attr(
    not(feature = "checks"),
    doc = "[check]: https://docs.rs/mcp-assured/latest/mcp_assured/struct.McpClient.html#method.check"
)]
#![cfg_attr(
    feature = "checks",
    doc = "[check_parity]: super::checks::check_parity"
)]
#![cfg_attr(
    not(feature = "checks"),
    doc = "[check_parity]: https://docs.rs/mcp-assured/latest/mcp_assured/checks/fn.check_parity.html"
)]
#![cfg_attr(
    feature = "checks",
    doc = "[run_server_tests]: super::McpClient::run_server_tests"
)]
#![cfg_attr(
    not(feature = "checks"),
    doc = "[run_server_tests]: https://docs.rs/mcp-assured/latest/mcp_assured/struct.McpClient.html#method.run_server_tests"
)]
#![cfg_attr(feature = "checks", doc = "[suite]: super::checks::SUITE")]
#![cfg_attr(
    not(feature = "checks"),
    doc = "[suite]: https://docs.rs/mcp-assured/latest/mcp_assured/checks/constant.SUITE.html"
)]
#![cfg_attr(
    feature = "checks",
    doc = "[parity_suite]: super::checks::PARITY_SUITE"
)]
#![cfg_attr(
    not(feature = "checks"),
    doc = "[parity_suite]: https://docs.rs/mcp-assured/latest/mcp_assured/checks/constant.PARITY_SUITE.html"
)]
#![cfg_attr(feature = "checks", doc = "[server_suite]: super::server_tests::SUITE")]
#![cfg_attr(
    not(feature = "checks"),
    doc = "[server_suite]: https://docs.rs/mcp-assured/latest/mcp_assured/server_tests/constant.SUITE.html"
)]

mod clause;
pub(crate) mod finding;
mod json;
mod junit;
pub(crate) mod subject;
mod text;

use std::{fmt, time::Duration};

use serde::Serialize;
use serde_json::Value;

pub use self::{
    clause::{Clause, Level},
    finding::{Finding, FindingKind, Reproduction, finding_of, findings},
    junit::Junit,
    subject::{SubjectKind, SubjectRef},
    text::{EntryText, Text},
};

/// How an entry ended.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// It did what was checked.
    Passed,
    /// It did not; the entry's message says exactly what is wrong.
    Failed,
    /// It does not apply (a capability the server does not offer, no arguments given, a test
    /// that skipped every check, ...).
    Skipped,
    /// It works, with something to know (a capability the protocol deprecates, say); no
    /// failure.
    Warned,
}

/// One check or test and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The group it belongs to, e.g. `protocol-checks` (a JUnit test suite).
    pub suite: String,
    /// e.g. `tools.input_schemas` or `mcp.test.protocol`.
    pub name: String,
    /// How it ended.
    pub status: Status,
    /// What was found: for a failure, exactly what is wrong.
    pub message: String,
    /// What is wrong beside the verdict, written after the message: for a server test, its
    /// malformed `testMetadata`.
    pub problems: Vec<String>,
    /// What explains it, as JSON, `null` when there is nothing more: for a server test, its
    /// `tool` (with its `testMetadata`), the `arguments` it was called with and the `result`
    /// it returned.
    pub details: Value,
    /// How long it took, when measured.
    pub duration: Option<Duration>,
    /// The specification's sentence a check tests, whose keyword graded it: a MUST broken
    /// fails, a SHOULD broken warns. `None` for entries that test no sentence (a server's
    /// own tests).
    pub clause: Option<Clause>,
}

impl Entry {
    /// An entry with no problems, details, duration or clause.
    pub fn new(
        suite: impl Into<String>,
        name: impl Into<String>,
        status: Status,
        message: impl Into<String>,
    ) -> Entry {
        Entry {
            suite: suite.into(),
            name: name.into(),
            status,
            message: message.into(),
            problems: Vec::new(),
            details: Value::Null,
            duration: None,
            clause: None,
        }
    }

    /// A warning made a failure, as strict mode judges it.
    fn fail_if_warned(&mut self) {
        if self.status == Status::Warned {
            self.status = Status::Failed;
            self.message = format!("{FAILED_BY_STRICT}{}", self.message);
        }
    }

    /// The message with each problem after it in brackets, as text and JUnit show it.
    fn message_with_problems(&self) -> String {
        let mut message = self.message.clone();
        for problem in &self.problems {
            message.push_str(&format!(" [{problem}]"));
        }
        message
    }
}

/// What begins the message of a warning that strict mode failed.
pub(crate) const FAILED_BY_STRICT: &str = "(a warning, failed by strict) ";

/// Every entry, in the order they ran.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    entries: Vec<Entry>,
}

impl Report {
    /// Adds `entry` at the end.
    pub fn push(&mut self, entry: Entry) {
        self.entries.push(entry);
    }

    /// Every entry, in the order they ran.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The first entry called `name`.
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|entry| entry.name == name)
    }

    fn count(&self, status: Status) -> usize {
        self.entries
            .iter()
            .filter(|entry| entry.status == status)
            .count()
    }

    /// How many entries passed.
    pub fn passed(&self) -> usize {
        self.count(Status::Passed)
    }

    /// How many entries failed.
    pub fn failed(&self) -> usize {
        self.count(Status::Failed)
    }

    /// How many entries were skipped.
    pub fn skipped(&self) -> usize {
        self.count(Status::Skipped)
    }

    /// How many entries passed with a warning.
    pub fn warned(&self) -> usize {
        self.count(Status::Warned)
    }

    /// Nothing failed (skipped entries are no failure).
    pub fn is_success(&self) -> bool {
        self.failed() == 0
    }

    /// The report as strict mode judges it: every warning fails, its message beginning
    /// `(a warning, failed by strict)`. What `--strict` does to every command's report
    /// (checks, server tests, parity, fuzz findings and the fuzz run's own warnings), and
    /// `CheckOptions::strict` and `Fuzz::strict` to theirs.
    ///
    /// ```
    /// use mcp_assured::report::{Entry, Report, Status};
    ///
    /// let report = Report::from_iter([Entry::new("demo", "slow", Status::Warned, "took 2 s")]);
    /// assert!(report.is_success());
    /// let strict = report.strictly();
    /// assert!(!strict.is_success());
    /// assert_eq!(strict.entries()[0].message, "(a warning, failed by strict) took 2 s");
    /// ```
    pub fn strictly(mut self) -> Report {
        for entry in &mut self.entries {
            entry.fail_if_warned();
        }
        self
    }

    /// The counts, as the last line of the text and the `summary` of the JSON.
    pub fn summary(&self) -> Summary {
        Summary {
            total: self.entries.len(),
            passed: self.passed(),
            failed: self.failed(),
            skipped: self.skipped(),
            warned: self.warned(),
            all_passed: self.is_success(),
        }
    }
}

/// A report's counts; its JSON is `{"total", "passed", "failed", "skipped", "all_passed"}`
/// (and `"warned"` when there are warnings) and its text `N passed, N failed, N skipped`
/// (`, N warned`).
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Every entry.
    pub total: usize,
    /// Entries that passed.
    pub passed: usize,
    /// Entries that failed.
    pub failed: usize,
    /// Entries that were skipped.
    pub skipped: usize,
    /// Entries that passed with a warning (not counted in `passed`).
    #[serde(skip_serializing_if = "is_zero")]
    pub warned: usize,
    /// Nothing failed (see [`Report::is_success`]).
    pub all_passed: bool,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        )?;
        if self.warned > 0 {
            write!(f, ", {} warned", self.warned)?;
        }
        Ok(())
    }
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

impl Extend<Entry> for Report {
    fn extend<I: IntoIterator<Item = Entry>>(&mut self, entries: I) {
        self.entries.extend(entries);
    }
}

impl FromIterator<Entry> for Report {
    fn from_iter<I: IntoIterator<Item = Entry>>(entries: I) -> Report {
        Report {
            entries: entries.into_iter().collect(),
        }
    }
}

impl IntoIterator for Report {
    type Item = Entry;
    type IntoIter = std::vec::IntoIter<Entry>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a> IntoIterator for &'a Report {
    type Item = &'a Entry;
    type IntoIter = std::slice::Iter<'a, Entry>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The report each renderer's tests write: two suites, every status, an entry with
    /// problems, details and a duration, and one with an empty message.
    pub(super) fn sample() -> Report {
        let mut slow = Entry::new(
            "server-tests",
            "mcp.test.slow",
            Status::Failed,
            "no answer within 200 ms",
        );
        slow.problems = vec!["no testMetadata".into()];
        slow.details = serde_json::json!({"arguments": {"echo": "hi"}});
        slow.duration = Some(Duration::from_millis(250));
        let mut ping = Entry::new("protocol-checks", "ping", Status::Passed, "answered");
        ping.duration = Some(Duration::from_millis(3));
        let not_advertised = "resources are not advertised";
        [
            slow,
            ping,
            Entry::new(
                "protocol-checks",
                "errors.unknown_resource",
                Status::Skipped,
                not_advertised,
            ),
            Entry::new("server-tests", "mcp.test.quiet", Status::Passed, ""),
        ]
        .into_iter()
        .collect()
    }

    #[test]
    fn counts_each_status() {
        let report = sample();
        assert_eq!(
            report.summary(),
            Summary {
                total: 4,
                passed: 2,
                failed: 1,
                skipped: 1,
                warned: 0,
                all_passed: false
            }
        );
        assert_eq!(
            (report.passed(), report.failed(), report.skipped()),
            (2, 1, 1)
        );
        assert_eq!(
            report.summary().to_string(),
            "2 passed, 1 failed, 1 skipped"
        );
        assert!(!report.is_success());
    }

    #[test]
    fn skipped_entries_are_no_failure() {
        let mut report = Report::default();
        assert!(report.is_success());
        report.push(Entry::new("s", "a", Status::Skipped, "not advertised"));
        assert!(report.is_success());
        assert!(report.summary().all_passed);
    }

    #[test]
    fn a_warning_is_no_failure_and_is_said_in_every_form() {
        let mut report = Report::default();
        report.push(Entry::new("s", "a", Status::Passed, "fine"));
        report.push(Entry::new(
            "s",
            "b",
            Status::Warned,
            "`logging` is deprecated",
        ));
        assert!(report.is_success());
        assert_eq!((report.passed(), report.warned()), (1, 1));
        assert_eq!(
            report.to_string(),
            "PASS a: fine\nWARN b: `logging` is deprecated\n1 passed, 0 failed, 0 skipped, 1 warned"
        );
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["summary"]["warned"], 1, "{json}");
        assert_eq!(json["entries"][1]["status"], "warned", "{json}");
        #[cfg(feature = "junit")]
        {
            let xml = report.junit("r").to_string();
            assert!(
                xml.contains("<system-out>warning: `logging` is deprecated</system-out>"),
                "{xml}"
            );
            assert!(!xml.contains("<failure"), "{xml}");
        }
        let quiet: Report = [Entry::new("s", "a", Status::Passed, "")]
            .into_iter()
            .collect();
        let json = serde_json::to_value(&quiet).unwrap();
        assert_eq!(
            json["summary"].get("warned"),
            None,
            "only when there are some"
        );
    }

    #[test]
    fn a_finding_carries_its_clause_in_every_form() {
        const NAMES: Clause = Clause {
            level: Level::Should,
            spec: "MCP 2025-11-25",
            section: "Server › Tools › Tool Names",
            url: "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names",
            text: "Tool names SHOULD be unique within a server.",
        };
        let mut warned = Entry::new("protocol-checks", "tools.names", Status::Warned, "twice");
        warned.clause = Some(NAMES);
        let mut passed = Entry::new("protocol-checks", "ping", Status::Passed, "answered");
        passed.clause = Some(NAMES);
        let report: Report = [warned, passed].into_iter().collect();
        assert_eq!(
            report.to_string(),
            "WARN tools.names: twice\n     SHOULD, MCP 2025-11-25 › Server › Tools › Tool \
             Names: \"Tool names SHOULD be unique within a server.\" \
             (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names)\n\
             PASS ping: answered\n\
             1 passed, 0 failed, 0 skipped, 1 warned"
        );
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(
            json["entries"][0]["clause"],
            serde_json::json!({
                "level": "SHOULD",
                "spec": "MCP 2025-11-25",
                "section": "Server › Tools › Tool Names",
                "url": NAMES.url,
                "text": NAMES.text,
            })
        );
        #[cfg(feature = "junit")]
        {
            let xml = report.junit("r").to_string();
            assert!(
                xml.contains(r#"<property name="level" value="SHOULD"/>"#),
                "{xml}"
            );
            assert!(
                xml.contains("warning: twice\nSHOULD, MCP 2025-11-25"),
                "{xml}"
            );
        }
        assert_eq!(Level::NoKeyword.to_string(), "no keyword");
        assert!(Level::MustNot.is_requirement() && !Level::ShouldNot.is_requirement());
    }

    #[test]
    fn reports_extend_one_another_in_order() {
        let mut combined = Report::default();
        let first: Report = [Entry::new("one", "a", Status::Passed, "")]
            .into_iter()
            .collect();
        let second: Report = [Entry::new("two", "b", Status::Failed, "")]
            .into_iter()
            .collect();
        combined.extend(first);
        combined.extend(second);
        let names: Vec<(&str, &str)> = combined
            .entries()
            .iter()
            .map(|entry| (entry.suite.as_str(), entry.name.as_str()))
            .collect();
        assert_eq!(names, [("one", "a"), ("two", "b")]);
        assert_eq!(combined.entry("b").unwrap().status, Status::Failed);
        assert_eq!(combined.entry("c"), None);
    }
}
