//! Each fuzz finding a report carries, in full: its kind and subject, the verdict, the
//! shrunk input (and the one it was found with), what came back, and how to see it again
//! from the shell and in a test.

use std::fmt::Write as _;

use super::{
    checks::verdict,
    escape::{escape, json},
};
use crate::report::{Report, finding_of};

/// The findings' section, or `None` when the report carries none.
pub(super) fn section(report: &Report) -> Option<String> {
    let findings: Vec<_> = report
        .entries()
        .iter()
        .filter_map(|entry| finding_of(entry).map(|finding| (entry, finding)))
        .collect();
    if findings.is_empty() {
        return None;
    }
    let mut html = format!(
        "<section id=\"findings\">\n<h2>Fuzz findings ({})</h2>\n",
        findings.len()
    );
    for (number, (entry, finding)) in findings.iter().enumerate() {
        let (word, class) = verdict(entry.status);
        let _ = write!(
            html,
            "<article class=\"finding finding-{class}\" id=\"finding-{n}\">\n\
             <h3><span class=\"verdict {class}\">{word}</span> {n}. <code>{kind}</code> in {subject} \
             <code>{name}</code></h3>\n<p>{what}</p>\n\
             <h4>Smallest input</h4>\n<pre class=\"input\">{arguments}</pre>\n",
            n = number + 1,
            kind = escape(finding.kind.as_str()),
            subject = escape(&finding.subject),
            name = escape(&finding.name),
            what = escape(&finding.what),
            arguments = json(&finding.arguments),
        );
        if finding.found_with != finding.arguments {
            let _ = write!(
                html,
                "<p>Found with (shrunk in {} steps):</p>\n<pre>{}</pre>\n",
                finding.shrink_steps,
                json(&finding.found_with)
            );
        }
        if let Some(mutation) = &finding.mutation {
            let _ = writeln!(html, "<p>Made invalid: {}</p>", escape(mutation));
        }
        if let Some(property) = &finding.property {
            let _ = writeln!(html, "<p>Property: {}</p>", escape(property));
        }
        let _ = write!(
            html,
            "<h4>What came back</h4>\n<pre class=\"answer\">{}</pre>\n<p>Seed {}; {} generated \
             input{} showed it{}.</p>\n",
            json(&finding.answer),
            finding.seed,
            finding.occurrences,
            if finding.occurrences == 1 { "" } else { "s" },
            if finding.replayed {
                "; replayed from the regression file"
            } else {
                ""
            },
        );
        if let Some(command) = &finding.reproduce.command {
            let _ = write!(
                html,
                "<h4>Reproduce from the shell</h4>\n<pre class=\"command\">{}</pre>\n",
                escape(command)
            );
        }
        let _ = write!(
            html,
            "<h4>Reproduce in a test</h4>\n<pre class=\"test\">{}</pre>\n</article>\n",
            escape(&finding.reproduce.test)
        );
    }
    html.push_str("</section>\n");
    Some(html)
}
