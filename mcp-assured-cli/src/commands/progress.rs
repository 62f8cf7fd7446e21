//! Progress on long runs (`fuzz`, `bench`, `check --load`, `record`): a bar or a spinner on
//! stderr, drawn by `indicatif`, only when stderr is a terminal and `--quiet` was not given,
//! so that stdout (text, `--json`) and files (`--sarif`, `--html`, `--junit`) never hold it
//! and a CI log never fills with redraws.

use std::{
    io::IsTerminal as _,
    sync::atomic::{AtomicBool, Ordering},
    time::Duration,
};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Set by `--quiet`: no progress at all.
static QUIET: AtomicBool = AtomicBool::new(false);

/// `--quiet` was given: no command draws progress.
pub(crate) fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether progress is drawn: stderr is a terminal and `--quiet` was not given.
fn wanted() -> bool {
    !QUIET.load(Ordering::Relaxed) && std::io::stderr().is_terminal()
}

/// A progress bar or spinner on stderr, or nothing (see the module). Cloning shares it; the
/// last clone dropped clears it.
#[derive(Debug, Clone)]
pub(crate) struct Live {
    bar: Option<ProgressBar>,
}

impl Live {
    /// A bar of `length` steps, labelled `label`, or nothing when progress is not wanted.
    pub(crate) fn bar(label: &str, length: u64) -> Live {
        Live::with(label, Some(length))
    }

    /// Nothing: for a run that is not long.
    pub(crate) fn none() -> Live {
        Live { bar: None }
    }

    /// A spinner labelled `label`, for a run of no known length.
    pub(crate) fn spinner(label: &str) -> Live {
        Live::with(label, None)
    }

    fn with(label: &str, length: Option<u64>) -> Live {
        if !wanted() {
            return Live { bar: None };
        }
        let bar = match length {
            Some(length) => {
                ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::stderr())
                    .with_style(
                        ProgressStyle::with_template(
                            "{prefix:.bold} [{elapsed_precise}] {wide_bar} {percent:>3}% {msg}",
                        )
                        .expect("a valid template"),
                    )
            }
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
                ProgressStyle::with_template("{prefix:.bold} {spinner} [{elapsed_precise}] {msg}")
                    .expect("a valid template"),
            ),
        };
        bar.set_prefix(label.to_owned());
        bar.enable_steady_tick(Duration::from_millis(120));
        Live { bar: Some(bar) }
    }

    /// Moves the bar to `position` of `length`, saying `message`.
    pub(crate) fn show(&self, position: u64, length: Option<u64>, message: String) {
        if let Some(bar) = &self.bar {
            if let Some(length) = length {
                bar.set_length(length);
            }
            bar.set_position(position);
            bar.set_message(message);
        }
    }

    /// Whether anything is drawn (stderr is a terminal, and no `--quiet`).
    pub(crate) fn is_drawn(&self) -> bool {
        self.bar.is_some()
    }

    /// Says `message` without moving.
    pub(crate) fn say(&self, message: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(message);
        }
    }

    /// Runs `print` with the bar out of the way, for a line on stdout while it is drawn.
    pub(crate) fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    /// Clears it: the run is over.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `12 s` or `1 min 5 s`: time left, as a bar's message says it.
pub(crate) fn duration(left: Duration) -> String {
    let seconds = left.as_secs();
    if seconds >= 60 {
        format!("{} min {} s", seconds / 60, seconds % 60)
    } else {
        format!("{seconds} s")
    }
}
