//! Writing reports: PASS/FAIL/SKIP coloured on a terminal (unless `NO_COLOR`), plain
//! otherwise.

use std::io::IsTerminal;

/// How a report line starts.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Mark {
    Pass,
    Fail,
    Skip,
}

pub(crate) fn colour() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

pub(crate) fn mark(mark: Mark, colour: bool) -> String {
    let (text, code) = match mark {
        Mark::Pass => ("PASS", "32"),
        Mark::Fail => ("FAIL", "31"),
        Mark::Skip => ("SKIP", "33"),
    };
    if colour {
        format!("\x1b[1;{code}m{text}\x1b[0m")
    } else {
        text.to_owned()
    }
}
