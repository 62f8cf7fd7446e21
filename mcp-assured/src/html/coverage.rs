//! A [`CoverageReport`]: the tallies below their thresholds first, then for each server what
//! was never exercised, by name (what a reader acts on), what was exercised but not listed,
//! the tallies, each tool's calls and outcomes, and the notifications that came.

use std::fmt::Write as _;

use super::escape::escape;
use crate::coverage::report::{CoverageReport, ServerReport, Shortfall, Tally};

/// The shortfalls' section (when there is one), then one section per server.
pub(super) fn sections(report: &CoverageReport, below: &[Shortfall]) -> Vec<String> {
    let mut sections = Vec::new();
    if !below.is_empty() {
        sections.push(shortfalls(below));
    }
    for server in &report.servers {
        let missed: Vec<&str> = below
            .iter()
            .filter(|shortfall| shortfall.server == server.server)
            .map(|shortfall| shortfall.tally.as_str())
            .collect();
        sections.push(server_section(server, &missed));
    }
    sections
}

fn shortfalls(below: &[Shortfall]) -> String {
    let mut html = format!(
        "<section id=\"coverage-below\">\n<h2>Below the thresholds ({})</h2>\n<ul class=\"shortfalls\">\n",
        below.len()
    );
    for shortfall in below {
        let _ = writeln!(
            html,
            "<li class=\"fail\">{}</li>",
            escape(&shortfall.to_string())
        );
    }
    html.push_str("</ul>\n</section>\n");
    html
}

/// One server's section; `missed` names its tallies below their thresholds.
fn server_section(server: &ServerReport, missed: &[&str]) -> String {
    let records = if server.records == 1 {
        "record"
    } else {
        "records"
    };
    let mut html = format!(
        "<section class=\"coverage\" id=\"{id}\">\n<h2>Coverage of {name} ({count} {records})</h2>\n",
        id = escape(&anchor(&server.server.to_string())),
        name = escape(&server.server.to_string()),
        count = server.records,
    );
    html.push_str(&never_exercised(server));
    html.push_str(&not_listed(server));
    html.push_str(&tallies(server, missed));
    html.push_str(&tools(server));
    html.push_str(&notifications(server));
    html.push_str("</section>\n");
    html
}

/// `coverage-<server>`, with no whitespace (an id cannot hold any).
fn anchor(server: &str) -> String {
    let words: Vec<&str> = server.split_whitespace().collect();
    format!("coverage-{}", words.join("-"))
}

/// What was listed and never exercised: tools never called, then the arguments, values and
/// outcomes of the tools called (a tool never called is one item, not one per argument),
/// prompts, resources and templates.
fn never_exercised(server: &ServerReport) -> String {
    let uncovered = &server.uncovered;
    let mut items = Vec::new();
    for tool in &uncovered.tools {
        items.push(format!("tool <code>{}</code>: never called", escape(tool)));
    }
    for argument in uncovered
        .arguments
        .iter()
        .filter(|a| uncovered.called(&a.tool))
    {
        items.push(format!(
            "argument <code>{}</code> of <code>{}</code>: never sent",
            escape(&argument.argument),
            escape(&argument.tool)
        ));
    }
    for value in uncovered
        .values
        .iter()
        .filter(|v| uncovered.called(&v.tool))
    {
        items.push(format!(
            "value <code>{}</code> of <code>{}.{}</code>: never sent",
            escape(&value.value.to_string()),
            escape(&value.tool),
            escape(&value.argument)
        ));
    }
    for outcome in uncovered
        .outcomes
        .iter()
        .filter(|o| uncovered.called(&o.tool))
    {
        items.push(format!(
            "tool <code>{}</code>: {} never seen",
            escape(&outcome.tool),
            escape(&outcome.outcome.to_string())
        ));
    }
    for prompt in &uncovered.prompts {
        items.push(format!("prompt <code>{}</code>: never got", escape(prompt)));
    }
    for resource in &uncovered.resources {
        items.push(format!(
            "resource <code>{}</code>: never read",
            escape(resource)
        ));
    }
    for template in &uncovered.templates {
        items.push(format!(
            "template <code>{}</code>: no URI of it read",
            escape(template)
        ));
    }
    let mut html = String::from("<h3>Never exercised</h3>\n");
    if items.is_empty() {
        html.push_str("<p class=\"passed\">Everything listed was exercised.</p>\n");
    } else {
        list(&mut html, "uncovered", &items);
    }
    html
}

/// What was exercised but never listed, when anything was.
fn not_listed(server: &ServerReport) -> String {
    let unlisted = &server.unlisted;
    if unlisted.is_empty() {
        return String::new();
    }
    let mut items = Vec::new();
    for tool in &unlisted.tools {
        items.push(format!(
            "tool <code>{}</code>: called but not listed",
            escape(tool)
        ));
    }
    for argument in &unlisted.arguments {
        items.push(format!(
            "argument <code>{}</code> of <code>{}</code>: sent but not in its input schema",
            escape(&argument.argument),
            escape(&argument.tool)
        ));
    }
    for prompt in &unlisted.prompts {
        items.push(format!(
            "prompt <code>{}</code>: got but not listed",
            escape(prompt)
        ));
    }
    for uri in &unlisted.resources {
        items.push(format!(
            "resource <code>{}</code>: read but neither listed nor of a listed template",
            escape(uri)
        ));
    }
    let mut html = String::from("<h3>Exercised but not listed</h3>\n");
    list(&mut html, "unlisted", &items);
    html
}

fn list(html: &mut String, class: &str, items: &[String]) {
    let _ = writeln!(html, "<ul class=\"{class}\">");
    for item in items {
        let _ = writeln!(html, "<li>{item}</li>");
    }
    html.push_str("</ul>\n");
}

/// Each tally, covered of listed and in percent; a tally below its threshold in `missed`.
fn tallies(server: &ServerReport, missed: &[&str]) -> String {
    let mut html = String::from(
        "<h3>Tallies</h3>\n<table class=\"tallies\">\n<thead><tr><th>What</th>\
         <th class=\"number\">Covered</th><th class=\"number\">Percent</th></tr></thead>\n<tbody>\n",
    );
    for (name, tally) in server.tallies() {
        let class = if missed.contains(&name) {
            " class=\"row-failed failed\""
        } else {
            ""
        };
        let _ = writeln!(
            html,
            "<tr{class}><td>{name}</td>{}</tr>",
            tally_cells(tally)
        );
    }
    html.push_str("</tbody>\n</table>\n");
    if !server.never_listed.is_empty() {
        let _ = writeln!(
            html,
            "<p>Never listed by any record: {}.</p>",
            escape(&server.never_listed.join(", "))
        );
    }
    html
}

fn tally_cells(tally: Tally) -> String {
    match tally.percent {
        Some(percent) => format!(
            "<td class=\"number\">{}/{}</td><td class=\"number\">{percent:.1}%</td>",
            tally.covered, tally.total
        ),
        None => "<td class=\"number\" colspan=\"2\">none listed</td>".to_owned(),
    }
}

/// Each tool listed or called: its calls, how they were answered, and its structured
/// outputs against its output schema.
fn tools(server: &ServerReport) -> String {
    let mut html = String::from("<h3>Tools</h3>\n");
    if server.tool_calls.is_empty() {
        html.push_str("<p>No tool listed or called.</p>\n");
        return html;
    }
    html.push_str(
        "<table class=\"tools\">\n<thead><tr><th>Tool</th><th class=\"number\">Calls</th>\
         <th class=\"number\">Success</th><th class=\"number\">isError</th>\
         <th class=\"number\">JSON-RPC errors</th><th class=\"number\">Output valid</th>\
         <th class=\"number\">Output invalid</th><th class=\"number\">Output unchecked</th>\
         <th>Arguments sent (of the calls; the listed values)</th></tr></thead>\n<tbody>\n",
    );
    for row in &server.tool_calls {
        let unlisted = if row.listed { "" } else { " (not listed)" };
        let invalid = if row.output.invalid > 0 {
            " failed"
        } else {
            ""
        };
        let _ = writeln!(
            html,
            "<tr><td><code>{name}</code>{unlisted}</td><td class=\"number\">{calls}</td>\
             <td class=\"number\">{success}</td><td class=\"number\">{is_error}</td>\
             <td class=\"number\">{protocol}</td><td class=\"number\">{valid}</td>\
             <td class=\"number{invalid}\">{invalid_count}</td><td class=\"number\">{unchecked}</td>\
             <td>{arguments}</td></tr>",
            name = escape(&row.name),
            calls = row.calls,
            success = row.outcomes.success,
            is_error = row.outcomes.is_error,
            protocol = row.outcomes.protocol_error,
            valid = row.output.valid,
            invalid_count = row.output.invalid,
            unchecked = row.output.unchecked,
            arguments = escape(&row.arguments_sent()),
        );
    }
    html.push_str("</tbody>\n</table>\n");
    html
}

/// The server's notifications, by method.
fn notifications(server: &ServerReport) -> String {
    let mut html = String::from("<h3>Notifications seen</h3>\n");
    if server.notifications.is_empty() {
        html.push_str("<p>None came.</p>\n");
        return html;
    }
    html.push_str(
        "<table class=\"notifications\">\n<thead><tr><th>Method</th>\
         <th class=\"number\">Count</th></tr></thead>\n<tbody>\n",
    );
    for (method, count) in &server.notifications {
        let _ = writeln!(
            html,
            "<tr><td><code>{}</code></td><td class=\"number\">{count}</td></tr>",
            escape(method)
        );
    }
    html.push_str("</tbody>\n</table>\n");
    html
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::{
        coverage::{
            Coverage,
            record::{Record, ServerCoverage, ServerId, ToolSurface},
            report::Thresholds,
        },
        html::HtmlReport,
    };

    /// A server of two tools, one called (without its enum's second value, never with an
    /// `isError` result, and with an argument it does not list), a tool called but not
    /// listed, a prompt never got, and a notification.
    fn report() -> crate::coverage::report::CoverageReport {
        let mut record = ServerCoverage::new(ServerId {
            name: "weather<x>".into(),
            version: "1.0.0".into(),
        });
        let forecast = json!({"name": "forecast", "inputSchema": {"type": "object", "properties": {
            "city": {"type": "string"},
            "units": {"enum": ["metric", "imperial"]},
        }}});
        let alerts = json!({"name": "alerts", "inputSchema": {"type": "object", "properties": {
            "region": {"type": "string"},
        }}});
        record.listed.tools = Some(
            [
                ("forecast".to_owned(), ToolSurface::from_tool(&forecast)),
                ("alerts".to_owned(), ToolSurface::from_tool(&alerts)),
            ]
            .into(),
        );
        record.listed.prompts = Some(["summary".to_owned()].into());
        let call = record.exercised.tools.entry("forecast".into()).or_default();
        call.calls = 2;
        call.outcomes.success = 2;
        call.arguments.entry("city".into()).or_default().present = 2;
        let units = call.arguments.entry("units".into()).or_default();
        units.present = 1;
        units.values.insert("\"metric\"".into(), 1);
        call.arguments.entry("days".into()).or_default().present = 1;
        let hidden = record.exercised.tools.entry("debug".into()).or_default();
        hidden.calls = 1;
        hidden.outcomes.protocol_error = 1;
        record
            .exercised
            .notifications
            .insert("notifications/message".into(), 3);
        Coverage::from_records([Record::new(vec![record])]).report()
    }

    fn page() -> String {
        let report = report();
        let below = report.below(&Thresholds {
            tools: Some(100.0),
            ..Thresholds::default()
        });
        HtmlReport::new("mcp-assured coverage")
            .coverage(&report, &below)
            .render()
    }

    /// Where `needle` first is in `page`, which must hold it.
    #[track_caller]
    fn at(page: &str, needle: &str) -> usize {
        page.find(needle)
            .unwrap_or_else(|| panic!("no {needle:?} in:\n{page}"))
    }

    #[test]
    fn the_uncovered_come_first_then_the_tallies_tools_and_notifications() {
        let page = page();
        let order = [
            "<h2>Below the thresholds (1)</h2>",
            "<section class=\"coverage\" id=\"coverage-weather&lt;x&gt;-1.0.0\">",
            "<h2>Coverage of weather&lt;x&gt; 1.0.0 (1 record)</h2>",
            "<h3>Never exercised</h3>",
            "<h3>Exercised but not listed</h3>",
            "<h3>Tallies</h3>",
            "<h3>Tools</h3>",
            "<h3>Notifications seen</h3>",
        ];
        let places: Vec<usize> = order.iter().map(|needle| at(&page, needle)).collect();
        assert!(
            places.windows(2).all(|pair| pair[0] < pair[1]),
            "sections out of order {places:?}:\n{page}"
        );
    }

    #[test]
    fn never_exercised_names_tools_never_called_before_the_arguments_values_and_outcomes() {
        let page = page();
        let order = [
            "<li>tool <code>alerts</code>: never called</li>",
            "<li>value <code>&quot;imperial&quot;</code> of <code>forecast.units</code>: never sent</li>",
            "<li>tool <code>forecast</code>: an isError result never seen</li>",
            "<li>prompt <code>summary</code>: never got</li>",
            "<li>tool <code>debug</code>: called but not listed</li>",
            "<li>argument <code>days</code> of <code>forecast</code>: sent but not in its input schema</li>",
        ];
        let places: Vec<usize> = order.iter().map(|needle| at(&page, needle)).collect();
        assert!(
            places.windows(2).all(|pair| pair[0] < pair[1]),
            "items out of order {places:?}:\n{page}"
        );
        // A tool never called is one item, not one per argument of it.
        assert!(!page.contains("<code>region</code>"), "{page}");
    }

    #[test]
    fn each_tally_is_covered_of_listed_in_percent_or_none_listed() {
        let page = page();
        assert!(
            page.contains(
                "<tr class=\"row-failed failed\"><td>tools</td><td class=\"number\">1/2</td>\
                 <td class=\"number\">50.0%</td></tr>"
            ),
            "{page}"
        );
        assert!(
            page.contains(
                "<tr><td>values</td><td class=\"number\">1/2</td><td class=\"number\">50.0%</td></tr>"
            ),
            "{page}"
        );
        assert!(
            page.contains(
                "<tr><td>resources</td><td class=\"number\" colspan=\"2\">none listed</td></tr>"
            ),
            "{page}"
        );
        assert!(
            page.contains("<li class=\"fail\">weather&lt;x&gt; 1.0.0: tools covered 50.0%"),
            "{page}"
        );
        assert!(
            page.contains("Never listed by any record: resources, templates."),
            "{page}"
        );
    }

    #[test]
    fn each_tool_row_counts_calls_outcomes_and_outputs_and_notifications_by_method() {
        let page = page();
        assert!(
            page.contains(
                "<tr><td><code>debug</code> (not listed)</td><td class=\"number\">1</td>\
                 <td class=\"number\">0</td><td class=\"number\">0</td><td class=\"number\">1</td>"
            ),
            "{page}"
        );
        assert!(
            page.contains(
                "<tr><td><code>forecast</code></td><td class=\"number\">2</td><td class=\"number\">2</td>"
            ),
            "{page}"
        );
        assert!(
            page.contains(
                "<tr><td><code>notifications/message</code></td><td class=\"number\">3</td></tr>"
            ),
            "{page}"
        );
        // Each argument as sent of the calls, the listed values counted.
        assert!(
            page.contains("<td>city 2/2, days 1/2, units 1/2 (&quot;metric&quot;×1 &quot;imperial&quot;×0)</td>"),
            "{page}"
        );
    }

    #[test]
    fn without_a_threshold_missed_there_is_no_shortfall_list() {
        let page = HtmlReport::new("mcp-assured coverage")
            .coverage(&report(), &[])
            .render();
        assert!(!page.contains("Below the thresholds"), "{page}");
        assert!(!page.contains("row-failed"), "{page}");
        assert!(!page.contains("<script"), "{page}");
    }
}
