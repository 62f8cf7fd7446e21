//! A load run: the figures overall and per tool, the thresholds, the throughput over time,
//! each tool's latency histogram and percentile curve, and the errors apart.

use std::{fmt::Write as _, time::Duration};

use super::{
    escape::escape,
    svg::{self, Plot, Series},
};
use crate::load::{LoadReport, Stats};

/// A latency in the unit that reads best: `850 µs`, `12.3 ms`, `2.50 s`.
fn latency(duration: Duration) -> String {
    let micros = duration.as_secs_f64() * 1e6;
    if micros < 1000.0 {
        format!("{micros:.0} µs")
    } else if micros < 1e6 {
        format!("{:.1} ms", micros / 1000.0)
    } else {
        format!("{:.2} s", micros / 1e6)
    }
}

fn figures_row(name: &str, stats: &Stats) -> String {
    format!(
        "<tr><td><code>{}</code></td><td class=\"number\">{}</td><td class=\"number\">{}</td>\
         <td class=\"number\">{:.1}</td><td class=\"number\">{}</td><td class=\"number\">{}</td>\
         <td class=\"number\">{}</td><td class=\"number\">{}</td><td class=\"number\">{}</td></tr>\n",
        escape(name),
        stats.calls,
        stats.errors,
        stats.throughput,
        latency(stats.latency.p50),
        latency(stats.latency.p90),
        latency(stats.latency.p99),
        latency(stats.latency.p999),
        latency(stats.latency.max),
    )
}

/// The percentile curve's x: how many nines (0 at the median's left end, 1 at p90, 2 at
/// p99, …), so that the tail gets the room it deserves.
fn nines(percentile: f64) -> f64 {
    let rest = (1.0 - percentile / 100.0).max(1e-5);
    -rest.log10()
}

fn histogram(tool: &str, stats: &Stats) -> String {
    let bars: Vec<(String, f64, String)> = stats
        .distribution
        .buckets
        .iter()
        .map(|bucket| {
            (
                latency(bucket.to),
                bucket.count as f64,
                format!(
                    "{} – {}: {} calls",
                    latency(bucket.from),
                    latency(bucket.to),
                    bucket.count
                ),
            )
        })
        .collect();
    let title = format!("{tool}: latency histogram");
    svg::bars(
        &Plot {
            kind: "histogram",
            title: &title,
            x_label: "latency (upper edge of each bucket)",
            y_label: "calls",
        },
        &bars,
        &|count| format!("{count:.0}"),
    )
}

fn percentile_curve(tool: &str, stats: &Stats) -> String {
    let points: Vec<(f64, f64)> = stats
        .distribution
        .percentiles
        .iter()
        .map(|point| {
            (
                nines(point.percentile),
                point.latency.as_secs_f64() * 1000.0,
            )
        })
        .collect();
    let ticks: Vec<(f64, String)> = [50.0, 90.0, 99.0, 99.9, 99.99, 100.0]
        .into_iter()
        .map(|percentile| (nines(percentile), format!("p{percentile}")))
        .collect();
    let title = format!("{tool}: latency by percentile");
    svg::lines(
        &Plot {
            kind: "percentiles",
            title: &title,
            x_label: "percentile",
            y_label: "latency (ms)",
        },
        &[Series {
            name: "latency",
            colour: "#0969da",
            points,
        }],
        &ticks,
        &|ms| format!("{ms:.2} ms"),
    )
}

fn throughput(report: &LoadReport) -> String {
    let mut calls = Vec::new();
    let mut errors = Vec::new();
    let mut previous = Duration::ZERO;
    for interval in &report.timeline {
        let length = (interval.end - previous).as_secs_f64();
        previous = interval.end;
        if length <= 0.0 {
            continue;
        }
        let at = interval.end.as_secs_f64();
        calls.push((at, interval.calls as f64 / length));
        errors.push((at, interval.errors as f64 / length));
    }
    let end = report.window.as_secs_f64();
    let ticks: Vec<(f64, String)> = (0..=4)
        .map(|step| {
            let at = end * f64::from(step) / 4.0;
            (at, format!("{at:.1} s"))
        })
        .collect();
    svg::lines(
        &Plot {
            kind: "throughput",
            title: "Throughput over time",
            x_label: "time since the measured window began",
            y_label: "calls per second",
        },
        &[
            Series {
                name: "calls/s answered",
                colour: "#0969da",
                points: calls,
            },
            Series {
                name: "errors/s",
                colour: "#cf222e",
                points: errors,
            },
        ],
        &ticks,
        &|rate| format!("{rate:.0}/s"),
    )
}

fn errors_table(html: &mut String, report: &LoadReport) {
    let mut rows = String::new();
    for tool in &report.tools {
        for error in &tool.stats.errors_by_kind {
            let _ = writeln!(
                rows,
                "<tr><td><code>{}</code></td><td>{}</td><td class=\"number\">{}</td><td>{}</td></tr>",
                escape(&tool.name),
                escape(&error.kind.to_string()),
                error.count,
                escape(&error.example)
            );
        }
    }
    if rows.is_empty() {
        html.push_str("<p>No call failed.</p>\n");
        return;
    }
    let _ = write!(
        html,
        "<p>Failed calls are counted apart: their latency (p50 {}, max {}) is not in the plots.</p>\n\
         <table class=\"errors\">\n<thead><tr><th>Tool</th><th>How it failed</th>\
         <th class=\"number\">Calls</th><th>The first message</th></tr></thead>\n<tbody>\n{rows}</tbody>\n</table>\n",
        latency(report.failed_latency.p50),
        latency(report.failed_latency.max),
    );
}

pub(super) fn section(report: &LoadReport) -> String {
    let mut html = format!(
        "<section id=\"load\">\n<h2>Load run</h2>\n<p>{}</p>\n",
        escape(&report.summary())
    );
    html.push_str(
        "<table class=\"figures\">\n<thead><tr><th>Tool</th><th class=\"number\">Calls</th>\
         <th class=\"number\">Errors</th><th class=\"number\">Calls/s</th><th class=\"number\">p50</th>\
         <th class=\"number\">p90</th><th class=\"number\">p99</th><th class=\"number\">p99.9</th>\
         <th class=\"number\">Max</th></tr></thead>\n<tbody>\n",
    );
    html.push_str(&figures_row("all", &report.overall));
    for tool in &report.tools {
        html.push_str(&figures_row(&tool.name, &tool.stats));
    }
    html.push_str("</tbody>\n</table>\n");
    if !report.thresholds.is_empty() {
        html.push_str(
            "<h3>Thresholds</h3>\n<table class=\"thresholds\">\n<thead><tr><th>Verdict</th>\
             <th>Threshold</th><th>Limit</th><th>Measured</th></tr></thead>\n<tbody>\n",
        );
        for verdict in &report.thresholds {
            let (word, class) = if verdict.passed {
                ("PASS", "passed")
            } else {
                ("FAIL", "failed")
            };
            let _ = writeln!(
                html,
                "<tr class=\"row-{class}\"><td class=\"verdict {class}\">{word}</td><td><code>{}</code></td>\
                 <td>{}</td><td>{}</td></tr>",
                escape(verdict.name),
                escape(&verdict.limit),
                escape(&verdict.measured)
            );
        }
        html.push_str("</tbody>\n</table>\n");
    }
    let _ = write!(
        html,
        "<h3>Throughput over time</h3>\n<figure>{}<figcaption>Calls answered per second in each \
         slice of the measured window, and of them, errors per second.</figcaption></figure>\n",
        throughput(report)
    );
    for tool in &report.tools {
        let _ = writeln!(
            html,
            "<h3>Latency of <code>{}</code></h3>",
            escape(&tool.name)
        );
        if tool.stats.distribution.buckets.is_empty() {
            html.push_str("<p>No call succeeded: there is no latency to plot.</p>\n");
            continue;
        }
        let _ = writeln!(
            html,
            "<div class=\"plots\"><figure>{}<figcaption>Calls that succeeded, by latency, in \
             log-spaced buckets.</figcaption></figure><figure>{}<figcaption>The latency each \
             percentile of calls stayed within.</figcaption></figure></div>",
            histogram(&tool.name, &tool.stats),
            percentile_curve(&tool.name, &tool.stats),
        );
    }
    html.push_str("<h3>Errors</h3>\n");
    errors_table(&mut html, report);
    if report.sessions_lost > 0 {
        let _ = writeln!(
            html,
            "<p class=\"failed\">{} session(s) lost their connection during the run.</p>",
            report.sessions_lost
        );
    }
    for skipped in &report.skipped_tools {
        let _ = writeln!(
            html,
            "<p class=\"skipped\">Not called: <code>{}</code>: {}</p>",
            escape(&skipped.name),
            escape(&skipped.reason)
        );
    }
    html.push_str("</section>\n");
    html
}
