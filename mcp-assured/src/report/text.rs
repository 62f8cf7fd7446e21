//! The text form of a report: a line per entry (`PASS`, `FAIL`, `WARN` or `SKIP`, its name,
//! its message and any problems in brackets; under a failure or warning, indented, the
//! clause it breaks), then the counts.

use std::fmt;

use anstyle::{AnsiColor, Style};

use super::{Entry, Report, Status};

/// A report as text, optionally with coloured labels; see [`Report::text`].
#[derive(Debug, Clone, Copy)]
#[must_use = "a Text does nothing until it is displayed"]
pub struct Text<'a> {
    report: &'a Report,
    colour: bool,
}

impl Report {
    /// The report as text, as its [`Display`](fmt::Display) writes it, with the option of
    /// coloured labels:
    ///
    /// ```
    /// use mcp_assured::report::{Entry, Report, Status};
    ///
    /// let report: Report = [Entry::new("protocol-checks", "ping", Status::Passed, "answered")]
    ///     .into_iter()
    ///     .collect();
    /// assert_eq!(
    ///     report.text().colour(true).to_string(),
    ///     "\x1b[1m\x1b[32mPASS\x1b[0m ping: answered\n1 passed, 0 failed, 0 skipped"
    /// );
    /// ```
    pub fn text(&self) -> Text<'_> {
        Text {
            report: self,
            colour: false,
        }
    }
}

impl Text<'_> {
    /// Labels in bold green, red and yellow (ANSI escapes): for a terminal, unless
    /// `NO_COLOR` is set.
    pub fn colour(mut self, colour: bool) -> Self {
        self.colour = colour;
        self
    }
}

impl fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for entry in self.report {
            writeln!(f, "{}", entry.text().colour(self.colour))?;
        }
        write!(f, "{}", self.report.summary())
    }
}

/// One entry as a line of text, optionally with a coloured label; see [`Entry::text`].
#[derive(Debug, Clone, Copy)]
#[must_use = "an EntryText does nothing until it is displayed"]
pub struct EntryText<'a> {
    entry: &'a Entry,
    colour: bool,
}

impl Entry {
    /// The entry as the line a report's text has for it, to print each check as it ends:
    ///
    /// ```
    /// use mcp_assured::report::{Entry, Status};
    ///
    /// let entry = Entry::new("protocol-checks", "ping", Status::Passed, "answered");
    /// assert_eq!(entry.text().to_string(), "PASS ping: answered");
    /// assert_eq!(
    ///     entry.text().colour(true).to_string(),
    ///     "\x1b[1m\x1b[32mPASS\x1b[0m ping: answered"
    /// );
    /// ```
    pub fn text(&self) -> EntryText<'_> {
        EntryText {
            entry: self,
            colour: false,
        }
    }
}

impl EntryText<'_> {
    /// The label in bold green, red, yellow or magenta (ANSI escapes).
    pub fn colour(mut self, colour: bool) -> Self {
        self.colour = colour;
        self
    }
}

impl fmt::Display for EntryText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (label, colour) = match self.entry.status {
            Status::Passed => ("PASS", AnsiColor::Green),
            Status::Failed => ("FAIL", AnsiColor::Red),
            Status::Skipped => ("SKIP", AnsiColor::Yellow),
            Status::Warned => ("WARN", AnsiColor::Magenta),
        };
        if self.colour {
            let style = Style::new().bold().fg_color(Some(colour.into()));
            write!(f, "{style}{label}{style:#}")?;
        } else {
            f.write_str(label)?;
        }
        write!(
            f,
            " {}: {}",
            self.entry.name,
            self.entry.message_with_problems()
        )?;
        // What a failure or warning breaks, on a line of its own under it.
        match (&self.entry.clause, self.entry.status) {
            (Some(clause), Status::Failed | Status::Warned) => write!(f, "\n     {clause}"),
            _ => Ok(()),
        }
    }
}

/// The text without colours.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.text().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Report, tests::sample};

    #[test]
    fn a_line_per_entry_then_the_counts() {
        assert_eq!(
            sample().to_string(),
            "FAIL mcp.test.slow: no answer within 200 ms [no testMetadata]\n\
             PASS ping: answered\n\
             SKIP errors.unknown_resource: resources are not advertised\n\
             PASS mcp.test.quiet: \n\
             2 passed, 1 failed, 1 skipped"
        );
    }

    #[test]
    fn colours_only_the_labels() {
        assert_eq!(
            sample().text().colour(true).to_string(),
            "\x1b[1m\x1b[31mFAIL\x1b[0m mcp.test.slow: no answer within 200 ms [no testMetadata]\n\
             \x1b[1m\x1b[32mPASS\x1b[0m ping: answered\n\
             \x1b[1m\x1b[33mSKIP\x1b[0m errors.unknown_resource: resources are not advertised\n\
             \x1b[1m\x1b[32mPASS\x1b[0m mcp.test.quiet: \n\
             2 passed, 1 failed, 1 skipped"
        );
        assert_eq!(
            sample().text().colour(false).to_string(),
            sample().to_string()
        );
    }

    #[test]
    fn an_empty_report_is_its_counts() {
        assert_eq!(
            Report::default().to_string(),
            "0 passed, 0 failed, 0 skipped"
        );
    }
}
