//! Plots as inline SVG, drawn here (no script, nothing fetched): a bar chart for a histogram
//! and a line chart for a curve or a series over time, each with its axes, tick labels and a
//! `<title>` on every bar and point giving its exact value.

use std::fmt::Write as _;

use super::escape::escape;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 300.0;
const LEFT: f64 = 84.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 28.0;
const BOTTOM: f64 = 56.0;

/// What a plot is about: its kind (a CSS class, `histogram`), title and axes.
pub(super) struct Plot<'a> {
    pub(super) kind: &'a str,
    pub(super) title: &'a str,
    pub(super) x_label: &'a str,
    pub(super) y_label: &'a str,
}

/// One line of a line chart: its points, its colour and its name.
pub(super) struct Series<'a> {
    pub(super) name: &'a str,
    pub(super) colour: &'a str,
    pub(super) points: Vec<(f64, f64)>,
}

fn open(plot: &Plot<'_>) -> String {
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot {kind}\" viewBox=\"0 0 {WIDTH} \
         {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" role=\"img\" aria-label=\"{title}\">\
         <title>{title}</title>\
         <text x=\"{cx}\" y=\"18\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"600\">{title}</text>\
         <text x=\"{cx}\" y=\"{xl}\" text-anchor=\"middle\" font-size=\"12\">{x_label}</text>\
         <text x=\"14\" y=\"{cy}\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 14 {cy})\">{y_label}</text>\
         <line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{bottom}\" stroke=\"#57606a\"/>\
         <line x1=\"{LEFT}\" y1=\"{bottom}\" x2=\"{right}\" y2=\"{bottom}\" stroke=\"#57606a\"/>",
        kind = escape(plot.kind),
        title = escape(plot.title),
        x_label = escape(plot.x_label),
        y_label = escape(plot.y_label),
        cx = (LEFT + WIDTH - RIGHT) / 2.0,
        cy = (TOP + HEIGHT - BOTTOM) / 2.0,
        xl = HEIGHT - 8.0,
        bottom = HEIGHT - BOTTOM,
        right = WIDTH - RIGHT,
    );
    svg
}

/// Ticks on the y axis at 0, half and the top, labelled.
fn y_ticks(svg: &mut String, top: f64, label: &dyn Fn(f64) -> String) {
    for share in [0.0, 0.5, 1.0] {
        let y = HEIGHT - BOTTOM - share * (HEIGHT - BOTTOM - TOP);
        let _ = write!(
            svg,
            "<line x1=\"{x1}\" y1=\"{y:.1}\" x2=\"{LEFT}\" y2=\"{y:.1}\" stroke=\"#57606a\"/>\
             <text x=\"{tx}\" y=\"{ty:.1}\" text-anchor=\"end\" font-size=\"11\">{text}</text>",
            x1 = LEFT - 4.0,
            tx = LEFT - 6.0,
            ty = y + 4.0,
            text = escape(&label(top * share)),
        );
    }
}

/// A bar per `(label, value, tooltip)`, labels under the bars (every few when many).
pub(super) fn bars(
    plot: &Plot<'_>,
    bars: &[(String, f64, String)],
    value_label: &dyn Fn(f64) -> String,
) -> String {
    let mut svg = open(plot);
    let top = bars.iter().map(|bar| bar.1).fold(0.0, f64::max).max(1.0);
    y_ticks(&mut svg, top, value_label);
    let span = WIDTH - LEFT - RIGHT;
    let slot = span / bars.len().max(1) as f64;
    let every = bars.len().div_ceil(8).max(1);
    for (index, (label, value, tooltip)) in bars.iter().enumerate() {
        let height = value / top * (HEIGHT - BOTTOM - TOP);
        let x = LEFT + index as f64 * slot;
        let _ = write!(
            svg,
            "<rect class=\"bar\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{height:.1}\" \
             fill=\"#0969da\"><title>{tooltip}</title></rect>",
            y = HEIGHT - BOTTOM - height,
            w = (slot - 2.0).max(1.0),
            tooltip = escape(tooltip),
        );
        if index % every == 0 {
            let _ = write!(
                svg,
                "<text x=\"{tx:.1}\" y=\"{ty}\" text-anchor=\"middle\" font-size=\"10\">{label}</text>",
                tx = x + slot / 2.0,
                ty = HEIGHT - BOTTOM + 14.0,
                label = escape(label),
            );
        }
    }
    svg.push_str("</svg>");
    svg
}

/// Lines through each series' points, with `x_ticks` labelled under the x axis; x and y from
/// 0 (x from the first tick) to their largest value.
pub(super) fn lines(
    plot: &Plot<'_>,
    series: &[Series<'_>],
    x_ticks: &[(f64, String)],
    y_label: &dyn Fn(f64) -> String,
) -> String {
    let mut svg = open(plot);
    let all = series.iter().flat_map(|s| s.points.iter());
    let (x_max, y_max) = all.fold((0.0_f64, 0.0_f64), |(x, y), point| {
        (x.max(point.0), y.max(point.1))
    });
    let x_min = x_ticks.first().map_or(0.0, |tick| tick.0.min(0.0));
    let x_max = x_ticks.iter().map(|tick| tick.0).fold(x_max, f64::max);
    let (x_span, y_top) = ((x_max - x_min).max(f64::EPSILON), y_max.max(f64::EPSILON));
    y_ticks(&mut svg, y_top, y_label);
    let at = |(x, y): (f64, f64)| {
        (
            LEFT + (x - x_min) / x_span * (WIDTH - LEFT - RIGHT),
            HEIGHT - BOTTOM - y / y_top * (HEIGHT - BOTTOM - TOP),
        )
    };
    for (value, label) in x_ticks {
        let (x, _) = at((*value, 0.0));
        let _ = write!(
            svg,
            "<line x1=\"{x:.1}\" y1=\"{b}\" x2=\"{x:.1}\" y2=\"{b4}\" stroke=\"#57606a\"/>\
             <text x=\"{x:.1}\" y=\"{ty}\" text-anchor=\"middle\" font-size=\"10\">{label}</text>",
            b = HEIGHT - BOTTOM,
            b4 = HEIGHT - BOTTOM + 4.0,
            ty = HEIGHT - BOTTOM + 16.0,
            label = escape(label),
        );
    }
    for (index, line) in series.iter().enumerate() {
        let path: Vec<String> = line
            .points
            .iter()
            .map(|&point| {
                let (x, y) = at(point);
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let _ = write!(
            svg,
            "<polyline class=\"series\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" \
             points=\"{points}\"><title>{name}</title></polyline>\
             <text x=\"{lx}\" y=\"{ly}\" font-size=\"11\" fill=\"{colour}\">{name}</text>",
            colour = escape(line.colour),
            points = path.join(" "),
            name = escape(line.name),
            lx = LEFT + 8.0,
            ly = TOP + 12.0 + index as f64 * 14.0,
        );
        for &point in &line.points {
            let (x, y) = at(point);
            let _ = write!(
                svg,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"2.5\" fill=\"{colour}\"><title>{value}</title></circle>",
                colour = escape(line.colour),
                value = escape(&y_label(point.1)),
            );
        }
    }
    svg.push_str("</svg>");
    svg
}
