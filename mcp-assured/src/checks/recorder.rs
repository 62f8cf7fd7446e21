//! Writes down each check as it ends, timed, graded by the clause it tests: a MUST broken
//! fails, anything else broken warns (fails under `strict`).

use std::time::Instant;

use super::clauses::{self, Revision};
use crate::report::{Clause, Entry, FAILED_BY_STRICT, Report, Status};

/// A suite's report in the making. The checks run one after another, so each is timed from
/// the end of the one before.
pub(super) struct Recorder {
    suite: &'static str,
    report: Report,
    lap: Instant,
    progress: Option<super::Progress>,
    /// Checks reported as skipped whatever they found: names, or prefixes ending in `*`.
    skipping: Vec<String>,
    /// The revision spoken, which chooses each check's clause.
    revision: Revision,
    /// Warnings are failures.
    strict: bool,
}

impl Recorder {
    pub(super) fn new(suite: &'static str, progress: Option<super::Progress>) -> Recorder {
        Recorder {
            suite,
            report: Report::default(),
            lap: Instant::now(),
            progress,
            skipping: Vec::new(),
            revision: Revision::Handshake,
            strict: false,
        }
    }

    /// Grades by the clauses of the revision `protocol_version`.
    pub(super) fn speaking(mut self, protocol_version: &str) -> Recorder {
        self.revision = Revision::of(protocol_version);
        self
    }

    /// Makes every warning a failure.
    pub(super) fn strict(mut self, strict: bool) -> Recorder {
        self.strict = strict;
        self
    }

    /// The revision the checks grade by.
    pub(super) fn revision(&self) -> Revision {
        self.revision
    }

    /// Reports the checks `patterns` name as skipped, with what they found.
    pub(super) fn skipping(mut self, patterns: &[String]) -> Recorder {
        self.skipping = patterns.to_vec();
        self
    }

    fn push(
        &mut self,
        name: &str,
        status: Status,
        message: impl Into<String>,
        clause: Option<Clause>,
    ) {
        self.push_with(name, status, message, clause, serde_json::Value::Null);
    }

    fn push_with(
        &mut self,
        name: &str,
        status: Status,
        message: impl Into<String>,
        clause: Option<Clause>,
        details: serde_json::Value,
    ) {
        let mut message = message.into();
        let mut status = status;
        if status == Status::Warned && self.strict {
            message = format!("{FAILED_BY_STRICT}{message}");
            status = Status::Failed;
        }
        if status != Status::Skipped && self.skipping.iter().any(|pattern| matches(pattern, name)) {
            let found = match status {
                Status::Passed => "PASS",
                Status::Failed => "FAIL",
                _ => "WARN",
            };
            message = format!("skipped on request; it found: {found} {message}");
            status = Status::Skipped;
        }
        let mut entry = Entry::new(self.suite, name, status, message);
        entry.clause = clause;
        entry.details = details;
        let now = Instant::now();
        entry.duration = Some(now - self.lap);
        self.lap = now;
        if let Some(progress) = &self.progress {
            progress(&entry);
        }
        self.report.push(entry);
    }

    /// The ground of check `name`: the clause it tests, or a rule of ours.
    fn ground(&self, name: &str) -> Option<Clause> {
        clauses::of(name, self.revision).or_else(|| crate::rules::of_check(name))
    }

    /// The check passed: what it tests is kept.
    pub(super) fn pass(&mut self, name: &str, message: impl Into<String>) {
        let clause = self.ground(name);
        self.push(name, Status::Passed, message, clause);
    }

    /// The check found its clause broken: a failure for a MUST, else a warning.
    pub(super) fn fail(&mut self, name: &str, message: impl Into<String>) {
        match self.ground(name) {
            Some(clause) => self.broke(name, clause, message),
            None => self.push(name, Status::Failed, message, None),
        }
    }

    /// The check found `clause` broken (one of several it tests): a failure for a MUST,
    /// else a warning.
    pub(super) fn broke(&mut self, name: &str, clause: Clause, message: impl Into<String>) {
        self.broke_with(name, clause, message, serde_json::Value::Null);
    }

    /// [`broke`](Self::broke), with what explains it as JSON in the entry's details.
    pub(super) fn broke_with(
        &mut self,
        name: &str,
        clause: Clause,
        message: impl Into<String>,
        details: serde_json::Value,
    ) {
        let status = if clause.level.is_requirement() {
            Status::Failed
        } else {
            Status::Warned
        };
        self.push_with(name, status, message, Some(clause), details);
    }

    /// Something to know that breaks no requirement (a deprecated capability, say): a
    /// warning, with the check's clause unless that is a MUST it does not break.
    pub(super) fn warn(&mut self, name: &str, message: impl Into<String>) {
        let clause = self
            .ground(name)
            .filter(|clause| !clause.level.is_requirement());
        self.push(name, Status::Warned, message, clause);
    }

    pub(super) fn skip(&mut self, name: &str, message: impl Into<String>) {
        self.push(name, Status::Skipped, message, None);
    }

    pub(super) fn finish(self) -> Report {
        self.report
    }
}

/// Whether `pattern` names the check `name`: the same name, or a prefix ending in `*`
/// (`http.*`, `*`).
pub(super) fn matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}
