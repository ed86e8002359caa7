//! Grouped bar charts as self-contained SVG, for `placemat report`.
//!
//! Written by hand rather than with a plotting crate: the output is a few dozen
//! rectangles and labels, must be byte-for-byte deterministic (the report is
//! regenerated and diffed), and needs no fonts at build time.

use std::fmt::Write;

/// A colour per series (colour-blind-safe palette of Okabe & Ito, 2008).
const PALETTE: [&str; 8] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"];

/// Escapes text for SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
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
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="Helvetica, Arial, sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="{}" y="20" font-size="14" font-weight="bold">{}</text>"#, left, esc(title));
    for (g, name) in groups.iter().enumerate() {
        let y0 = top + g as f64 * group_h;
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            left - 6.0,
            y0 + bar_h * series.len() as f64 / 2.0 + 4.0,
            esc(name)
        );
        for (i, v) in values[g].iter().enumerate() {
            let y = y0 + i as f64 * bar_h;
            let w = (v * scale).max(0.5);
            let _ = writeln!(
                s,
                r#"<rect x="{left:.1}" y="{y:.1}" width="{w:.1}" height="{:.1}" fill="{}"/>"#,
                bar_h - 1.0,
                PALETTE[i % PALETTE.len()]
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
        esc(axis)
    );
    let lx = left + plot_w + 60.0;
    for (i, name) in series.iter().enumerate() {
        let y = top + i as f64 * 16.0;
        let _ = writeln!(
            s,
            r#"<rect x="{lx:.1}" y="{y:.1}" width="12" height="12" fill="{}"/>"#,
            PALETTE[i % PALETTE.len()]
        );
        let _ = writeln!(s, r#"<text x="{:.1}" y="{:.1}">{}</text>"#, lx + 17.0, y + 10.0, esc(name));
    }
    s.push_str("</svg>\n");
    s
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
