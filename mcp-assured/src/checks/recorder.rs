//! Writes down each check as it ends, timed.

use std::time::Instant;

use crate::report::{Entry, Report, Status};

/// A suite's report in the making. The checks run one after another, so each is timed from
/// the end of the one before.
pub(super) struct Recorder {
    suite: &'static str,
    report: Report,
    lap: Instant,
}

impl Recorder {
    pub(super) fn new(suite: &'static str) -> Recorder {
        Recorder {
            suite,
            report: Report::default(),
            lap: Instant::now(),
        }
    }

    fn push(&mut self, name: &str, status: Status, message: impl Into<String>) {
        let mut entry = Entry::new(self.suite, name, status, message);
        let now = Instant::now();
        entry.duration = Some(now - self.lap);
        self.lap = now;
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
