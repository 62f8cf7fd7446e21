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
}

impl Recorder {
    pub(super) fn new(suite: &'static str, progress: Option<super::Progress>) -> Recorder {
        Recorder {
            suite,
            report: Report::default(),
            lap: Instant::now(),
            progress,
        }
    }

    fn push(&mut self, name: &str, status: Status, message: impl Into<String>) {
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
