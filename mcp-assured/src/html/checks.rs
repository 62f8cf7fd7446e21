//! A report's entries as a table: each verdict, the check, its grade (the keyword of the
//! specification's sentence it tests), what was found, and the sentence with its link.

use std::fmt::Write as _;

use super::escape::escape;
use crate::report::{Entry, Report, Status};

/// `PASS`, `FAIL`, `WARN` or `SKIP`, and the class that colours it.
pub(super) fn verdict(status: Status) -> (&'static str, &'static str) {
    match status {
        Status::Passed => ("PASS", "passed"),
        Status::Failed => ("FAIL", "failed"),
        Status::Warned => ("WARN", "warned"),
        Status::Skipped => ("SKIP", "skipped"),
    }
}

/// The table, under a heading with the counts, one table per suite in the order they ran.
pub(super) fn section(report: &Report) -> String {
    let summary = report.summary();
    let mut html = String::new();
    let _ = write!(
        html,
        "<section id=\"verdicts\">\n<h2>Verdicts</h2>\n<p class=\"counts\">{} passed, \
         <span class=\"failed\">{} failed</span>, <span class=\"warned\">{} warned</span>, \
         {} skipped</p>\n",
        summary.passed, summary.failed, summary.warned, summary.skipped
    );
    let mut suites: Vec<&str> = Vec::new();
    for entry in report {
        if !suites.contains(&entry.suite.as_str()) {
            suites.push(&entry.suite);
        }
    }
    for suite in suites {
        let _ = write!(
            html,
            "<h3>{}</h3>\n<table class=\"entries\">\n<thead><tr><th>Verdict</th><th>Check</th>\
             <th>Grade</th><th>What was found</th><th>The specification's words</th></tr></thead>\n<tbody>\n",
            escape(suite)
        );
        for entry in report.entries().iter().filter(|entry| entry.suite == suite) {
            html.push_str(&row(entry));
        }
        html.push_str("</tbody>\n</table>\n");
    }
    html.push_str("</section>\n");
    html
}

fn row(entry: &Entry) -> String {
    let (word, class) = verdict(entry.status);
    let mut found = escape(&entry.message).replace('\n', "<br>");
    for problem in &entry.problems {
        let _ = write!(found, " <em>[{}]</em>", escape(problem));
    }
    if let Some(duration) = entry.duration {
        let _ = write!(
            found,
            " <small>({:.1} ms)</small>",
            duration.as_secs_f64() * 1000.0
        );
    }
    let (grade, words) = match &entry.clause {
        Some(clause) => (
            escape(clause.level.as_str()),
            format!(
                "<a href=\"{}\">{} › {}</a><blockquote>{}</blockquote>",
                escape(clause.url),
                escape(clause.spec),
                escape(clause.section),
                escape(clause.text)
            ),
        ),
        None => (String::new(), String::new()),
    };
    format!(
        "<tr class=\"row-{class}\" id=\"{id}\"><td class=\"verdict {class}\">{word}</td>\
         <td><code>{name}</code></td><td>{grade}</td><td>{found}</td><td>{words}</td></tr>\n",
        id = escape(&format!("{}-{}", entry.suite, entry.name)),
        name = escape(&entry.name),
    )
}
