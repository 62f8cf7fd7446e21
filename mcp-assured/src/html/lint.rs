//! Lint findings by category, under a heading naming the server (or servers) linted: for
//! each, a table of the rule, its severity, the subject, where in the definition, what was
//! found and what to change; and the surface's cost in tokens.

use std::fmt::Write as _;

use super::escape::escape;
use crate::lint::{LintReport, Severity};

fn severity_class(severity: Severity) -> &'static str {
    match severity {
        Severity::Fail => "fail",
        Severity::Warn => "warn",
        Severity::Info => "info",
    }
}

pub(super) fn section(report: &LintReport) -> String {
    let heading = match report.linted() {
        Some(servers) => format!("What the model sees: lint of {}", escape(&servers)),
        None => "What the model sees: lint".to_owned(),
    };
    let mut html = format!(
        "<section id=\"lint\">\n<h2>{heading}</h2>\n<p class=\"counts\">\
         <span class=\"fail\">{} failed</span>, <span class=\"warn\">{} warned</span>, {} \
         noted; the surface costs {} tokens ({})</p>\n",
        report.count(Severity::Fail),
        report.count(Severity::Warn),
        report.count(Severity::Info),
        report.tokens.total,
        escape(report.tokens.encoding),
    );
    let mut categories = Vec::new();
    for finding in &report.findings {
        if !categories.contains(&finding.category) {
            categories.push(finding.category);
        }
    }
    if categories.is_empty() {
        html.push_str("<p>No finding.</p>\n");
    }
    for category in categories {
        let name = category.as_str();
        let _ = write!(
            html,
            "<h3 id=\"category-{name}\">{name}</h3>\n<table class=\"findings\">\n<thead><tr>\
             <th>Severity</th><th>Rule</th><th>Subject</th><th>Where</th><th>What was found</th>\
             <th>What to change</th></tr></thead>\n<tbody>\n"
        );
        for finding in report
            .findings
            .iter()
            .filter(|finding| finding.category == category)
        {
            let class = severity_class(finding.severity);
            let subject = match &finding.server {
                Some(server) => format!("{} ({})", finding.subject, server),
                None => finding.subject.clone(),
            };
            let _ = writeln!(
                html,
                "<tr class=\"row-{class}\"><td class=\"verdict {class}\">{severity}</td>\
                 <td><code>{rule}</code></td><td>{subject}</td><td><code>{location}</code></td>\
                 <td>{message}</td><td>{fix}</td></tr>",
                severity = finding.severity,
                rule = escape(finding.rule),
                subject = escape(&subject),
                location = escape(&finding.location),
                message = escape(&finding.message),
                fix = escape(&finding.fix),
            );
        }
        html.push_str("</tbody>\n</table>\n");
    }
    if !report.tokens.tools.is_empty() {
        html.push_str(
            "<h3>Tokens per tool</h3>\n<table class=\"tokens\">\n<thead><tr><th>Tool</th>\
             <th class=\"number\">Tokens</th></tr></thead>\n<tbody>\n",
        );
        for (tool, tokens) in &report.tokens.tools {
            let _ = writeln!(
                html,
                "<tr><td><code>{}</code></td><td class=\"number\">{tokens}</td></tr>",
                escape(tool)
            );
        }
        html.push_str("</tbody>\n</table>\n");
    }
    html.push_str("</section>\n");
    html
}
