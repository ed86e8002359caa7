//! The one SVG chart writer of the reports: horizontal grouped bar charts as
//! self-contained SVG text, with one palette ([`PALETTE`]) and one escaping
//! function ([`escape`]). Two layouts: [`bars`] for `placemat report`'s figures
//! (`papers/comparison/*.svg`), [`bar_chart`] for `bench-report`'s
//! (`papers/figures/*.svg`, with `n/a` for a missing measurement).
//!
//! Written by hand rather than with a plotting crate: the output is a few dozen
//! rectangles and labels, must be byte-for-byte deterministic (the reports are
//! regenerated and diffed), and needs no fonts at build time.
//!
//! ```
//! use placemat_cli::report::chart::bar_chart;
//! let svg = bar_chart(
//!     "decode, GB/s",
//!     "cargo run --release -p placemat-benches --bin bench-report",
//!     &["russian".to_string()],
//!     &[("table".to_string(), vec![Some(1.5)]), ("branching".to_string(), vec![None])],
//! );
//! assert!(svg.starts_with("<svg"));
//! assert!(svg.contains("1.50"));
//! assert!(svg.contains("n/a"));
//! ```

use std::fmt::Write;

/// A colour per series, the `i`-th series taking colour `i` modulo 8
/// (colour-blind-safe palette of Okabe & Ito, 2008).
pub const PALETTE: [&str; 8] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"];

/// The colour of series `i`.
fn colour(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// Escapes text for SVG (element text and attribute values).
///
/// ```
/// assert_eq!(placemat_cli::report::chart::escape(r#"a<b & "c">"#), "a&lt;b &amp; &quot;c&quot;&gt;");
/// ```
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The opening `<svg>` tag; `width` and `height` as they are to be written.
fn open(s: &mut String, width: &str, height: &str, font_family: &str) {
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{font_family}" font-size="11">"#
    );
}

/// The white background.
fn background(s: &mut String) {
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
}

/// The title, in bold at the top, starting at `x`.
fn title(s: &mut String, x: f64, text: &str) {
    let _ = writeln!(s, r#"<text x="{x}" y="20" font-size="14" font-weight="bold">{}</text>"#, escape(text));
}

/// A horizontal grouped bar chart: one group per entry of `groups`, one bar per
/// series in each, `values[group][series]`. Bars are labelled with their value
/// (`decimals` places); `axis` names the unit.
pub fn bars(
    title: &str,
    axis: &str,
    groups: &[String],
    series: &[String],
    values: &[Vec<f64>],
    decimals: usize,
) -> String {
    let bar_h = 11.0;
    let gap = 10.0;
    let left = 130.0;
    let plot_w = 520.0;
    let legend_w = 150.0;
    let top = 40.0;
    let group_h = bar_h * series.len() as f64 + gap;
    let height = top + group_h * groups.len() as f64 + 40.0;
    let width = left + plot_w + 60.0 + legend_w;
    let max = values.iter().flatten().copied().fold(0.0f64, f64::max).max(1e-9);
    let scale = plot_w / max;
    let mut s = String::new();
    open(&mut s, &format!("{width:.0}"), &format!("{height:.0}"), "Helvetica, Arial, sans-serif");
    background(&mut s);
    self::title(&mut s, left, title);
    for (g, name) in groups.iter().enumerate() {
        let y0 = top + g as f64 * group_h;
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            left - 6.0,
            y0 + bar_h * series.len() as f64 / 2.0 + 4.0,
            escape(name)
        );
        for (i, v) in values[g].iter().enumerate() {
            let y = y0 + i as f64 * bar_h;
            let w = (v * scale).max(0.5);
            let _ = writeln!(
                s,
                r#"<rect x="{left:.1}" y="{y:.1}" width="{w:.1}" height="{:.1}" fill="{}"/>"#,
                bar_h - 1.0,
                colour(i)
            );
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" font-size="9">{v:.decimals$}</text>"#,
                left + w + 3.0,
                y + bar_h - 2.5
            );
        }
    }
    let axis_y = top + group_h * groups.len() as f64;
    let _ = writeln!(s, r#"<line x1="{left}" y1="{top}" x2="{left}" y2="{axis_y:.1}" stroke="black"/>"#);
    let _ = writeln!(
        s,
        r#"<line x1="{left}" y1="{axis_y:.1}" x2="{:.1}" y2="{axis_y:.1}" stroke="black"/>"#,
        left + plot_w
    );
    for k in 0..=4 {
        let x = left + plot_w * k as f64 / 4.0;
        let _ = writeln!(
            s,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle" font-size="9">{:.2}</text>"#,
            axis_y + 13.0,
            max * k as f64 / 4.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        left + plot_w / 2.0,
        axis_y + 30.0,
        escape(axis)
    );
    let lx = left + plot_w + 60.0;
    for (i, name) in series.iter().enumerate() {
        let y = top + i as f64 * 16.0;
        let _ = writeln!(s, r#"<rect x="{lx:.1}" y="{y:.1}" width="12" height="12" fill="{}"/>"#, colour(i));
        let _ = writeln!(s, r#"<text x="{:.1}" y="{:.1}">{}</text>"#, lx + 17.0, y + 10.0, escape(name));
    }
    s.push_str("</svg>\n");
    s
}

/// [`bar_chart`]'s layout: bar height, gap between blocks, left margin (labels),
/// plot width and top margin (title), in pixels.
const BAR: f64 = 13.0;
const GAP: f64 = 10.0;
const LEFT: f64 = 190.0;
const PLOT: f64 = 520.0;
const TOP: f64 = 40.0;

/// A chart with one block of bars per category (a corpus) and one bar per series
/// (an implementation or codec) in each block; missing values show as `n/a`.
/// `source` (the regenerating command) is written into the SVG as a comment.
pub fn bar_chart(title: &str, source: &str, categories: &[String], series: &[(String, Vec<Option<f64>>)]) -> String {
    let max = series.iter().flat_map(|(_, v)| v.iter().flatten()).fold(0.0f64, |a, &b| a.max(b));
    let scale = if max > 0.0 { PLOT / (max * 1.12) } else { 1.0 };
    let block = BAR * series.len() as f64 + GAP;
    let legend_rows = series.len().div_ceil(4) as f64;
    let height = TOP + block * categories.len() as f64 + 20.0 + 16.0 * legend_rows + 10.0;
    let width = LEFT + PLOT + 80.0;
    let mut s = String::new();
    open(&mut s, &width.to_string(), &height.to_string(), "sans-serif");
    let _ = writeln!(s, "<!-- generated by: {} -->", escape(source).replace("--", "- -"));
    background(&mut s);
    self::title(&mut s, 10.0, title);
    for (ci, cat) in categories.iter().enumerate() {
        let y0 = TOP + ci as f64 * block;
        let mid = y0 + BAR * series.len() as f64 / 2.0 + 4.0;
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{mid}" text-anchor="end" font-weight="bold">{}</text>"#,
            LEFT - 80.0,
            escape(cat)
        );
        for (si, (name, values)) in series.iter().enumerate() {
            let y = y0 + si as f64 * BAR;
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" text-anchor="end" fill="dimgray">{}</text>"#,
                LEFT - 4.0,
                y + BAR - 3.0,
                escape(name)
            );
            bar_or_na(&mut s, values.get(ci).copied().flatten(), y, scale, colour(si));
        }
    }
    let axis_y = TOP + block * categories.len() as f64;
    let _ = writeln!(s, r#"<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{axis_y}" stroke="black"/>"#);
    for (si, (name, _)) in series.iter().enumerate() {
        let x = 10.0 + (si % 4) as f64 * 190.0;
        let y = axis_y + 20.0 + (si / 4) as f64 * 16.0;
        let _ = writeln!(s, r#"<rect x="{x}" y="{}" width="10" height="10" fill="{}"/>"#, y - 9.0, colour(si));
        let _ = writeln!(s, r#"<text x="{}" y="{y}">{}</text>"#, x + 14.0, escape(name));
    }
    s.push_str("</svg>\n");
    s
}

/// One bar of [`bar_chart`] at height `y` with its value, or `n/a`.
fn bar_or_na(s: &mut String, value: Option<f64>, y: f64, scale: f64, colour: &str) {
    match value {
        Some(v) => {
            let w = (v * scale).max(0.5);
            let _ = writeln!(s, r#"<rect x="{LEFT}" y="{y}" width="{w:.1}" height="{}" fill="{colour}"/>"#, BAR - 2.0);
            let _ = writeln!(s, r#"<text x="{:.1}" y="{}">{v:.2}</text>"#, LEFT + w + 3.0, y + BAR - 3.0);
        }
        None => {
            let _ = writeln!(s, r#"<text x="{}" y="{}" fill="gray">n/a</text>"#, LEFT + 3.0, y + BAR - 3.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_rectangle_per_bar_and_legend_entry() {
        let svg = bars(
            "t",
            "units",
            &["a".into(), "b".into()],
            &["x".into(), "y<z".into(), "w".into()],
            &[vec![1.0, 2.0, 3.0], vec![0.0, 1.5, 4.0]],
            1,
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        // Background, 6 bars, 3 legend boxes.
        assert_eq!(svg.matches("<rect").count(), 1 + 6 + 3);
        assert!(svg.contains(">4.0<") && svg.contains("y&lt;z"));
        assert_eq!(
            svg,
            bars(
                "t",
                "units",
                &["a".into(), "b".into()],
                &["x".into(), "y<z".into(), "w".into()],
                &[vec![1.0, 2.0, 3.0], vec![0.0, 1.5, 4.0]],
                1
            )
        );
    }
}
