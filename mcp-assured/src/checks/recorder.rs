//! Writes down each check as it ends, timed.

use std::time::Instant;

use crate::report::{Entry, Report, Status};

/// A suite's report in the making. The checks run one after another, so each is timed from
/// the end of the one before.
pub(super) struct Recorder {
    suite: &'static str,
    report: Report,
    lap: Instant,
    progress: Option<super::Progress>,
    /// Checks reported as skipped whatever they found: names, or prefixes ending in `*`.
    skipping: Vec<String>,
}

impl Recorder {
    pub(super) fn new(suite: &'static str, progress: Option<super::Progress>) -> Recorder {
        Recorder {
            suite,
            report: Report::default(),
            lap: Instant::now(),
            progress,
            skipping: Vec::new(),
        }
    }

    /// Reports the checks `patterns` name as skipped, with what they found.
    pub(super) fn skipping(mut self, patterns: &[String]) -> Recorder {
        self.skipping = patterns.to_vec();
        self
    }

    fn push(&mut self, name: &str, status: Status, message: impl Into<String>) {
        let mut message = message.into();
        let mut status = status;
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
        let now = Instant::now();
        entry.duration = Some(now - self.lap);
        self.lap = now;
        if let Some(progress) = &self.progress {
            progress(&entry);
        }
        self.report.push(entry);
    }

    pub(super) fn pass(&mut self, name: &str, message: impl Into<String>) {
        self.push(name, Status::Passed, message);
    }

    pub(super) fn fail(&mut self, name: &str, message: impl Into<String>) {
        self.push(name, Status::Failed, message);
    }

    pub(super) fn warn(&mut self, name: &str, message: impl Into<String>) {
        self.push(name, Status::Warned, message);
    }

    pub(super) fn skip(&mut self, name: &str, message: impl Into<String>) {
        self.push(name, Status::Skipped, message);
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
