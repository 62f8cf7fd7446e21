//! How far a fuzz run is, for a progress bar ([`Fuzz::progress`](super::Fuzz::progress)).

use std::time::Duration;

/// How often [`Fuzz::progress`](super::Fuzz::progress) is told how far the run is.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// How far a fuzz run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct FuzzProgress {
    /// Since the run began.
    pub elapsed: Duration,
    /// Calls sent so far: generated inputs, shrinking, replays, confirmations.
    pub calls: u64,
    /// Failures seen so far, each kind once per subject, before shrinking (a failure seen
    /// only among other calls may yet be let go).
    pub failures: u64,
    /// Subjects (tools, templates, prompts) being fuzzed.
    pub subjects: usize,
    /// Of which finished.
    pub subjects_done: usize,
    /// Generated inputs the run plans to send: valid and invalid, per subject.
    pub planned_inputs: u64,
    /// The time budget, when one was set.
    pub time_budget: Option<Duration>,
}

impl FuzzProgress {
    /// The time budget left, when one was set.
    pub fn time_left(&self) -> Option<Duration> {
        self.time_budget
            .map(|budget| budget.saturating_sub(self.elapsed))
    }
}
