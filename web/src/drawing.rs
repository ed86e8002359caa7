//! A codec's automaton drawn as SVG, laid out here: states in columns by
//! their distance from the start states, one arrow per pair of states
//! labelled with the units that take it (byte ranges, their classes in the
//! tooltip), and the path an input takes drawn over it. The numbers are the
//! state numbers `placemat trace` prints.
//!
//! ```
//! let utf8 = placemat_variants::registry::find("utf8").unwrap();
//! let svg = placemat_web::drawing::svg(&utf8.dfa(), "a\u{E9}".as_bytes());
//! assert!(svg.starts_with("<svg"));
//! // UTF-8's eight live states, and the path 1 → 1 → 2 → 1.
//! assert_eq!(svg.matches("<circle class=\"state").count(), 8);
//! assert!(svg.contains(r#"data-edge="1-2" class="edge on""#));
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use placemat_codec::dfa::{Dfa, DEAD};
use placemat_codec::DynCodec;
use serde_json::json;

use crate::wire::Answer;

/// The most states drawn: a larger automaton is described, not drawn.
pub const MAX_DRAWN: usize = 150;

const RADIUS: f64 = 18.0;
const COLUMN: f64 = 170.0;
const ROW: f64 = 76.0;
const MARGIN: f64 = 60.0;

/// The live states' successors (numbered as the trace numbers them), in
/// the order found from the start states.
fn successors(dfa: &Dfa<&[u32], &[u64]>) -> (Vec<usize>, BTreeMap<usize, Vec<usize>>) {
    let stride = dfa.class_count();
    let mut order: Vec<usize> = (0..dfa.contexts()).map(|c| dfa.start_of(c) / stride).collect();
    let mut next: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut i = 0;
    while i < order.len() {
        let s = order[i];
        let mut to: Vec<usize> = (0..=255u8).map(|u| dfa.transition(s * stride, u).next / stride).collect();
        to.retain(|&t| t != DEAD);
        to.dedup();
        to.sort_unstable();
        to.dedup();
        for &t in &to {
            if !order.contains(&t) {
                order.push(t);
            }
        }
        next.insert(s, to);
        i += 1;
    }
    (order, next)
}

/// States in columns: a state's column is the longest path to it from a
/// start state, over the transitions that neither end a sequence (into a
/// start state) nor close a loop; within a column, states sit near the
/// states they are entered from.
fn columns(dfa: &Dfa<&[u32], &[u64]>) -> Vec<Vec<usize>> {
    let stride = dfa.class_count();
    let (order, next) = successors(dfa);
    let forward = |s: usize| -> Vec<usize> {
        next[&s].iter().copied().filter(|&t| t != s && !dfa.is_boundary(t * stride)).collect()
    };
    // Depth-first from the start states: the post-order, and the edges back
    // into the path (loops), which the layering skips.
    let (mut post, mut back) = (Vec::new(), BTreeSet::new());
    let mut seen: BTreeSet<usize> = BTreeSet::new();
    for &root in order.iter().filter(|&&s| dfa.is_boundary(s * stride)) {
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        let mut on_path: BTreeSet<usize> = BTreeSet::from([root]);
        seen.insert(root);
        while let Some(&mut (s, ref mut k)) = stack.last_mut() {
            let succ = forward(s);
            if let Some(&t) = succ.get(*k) {
                *k += 1;
                if on_path.contains(&t) {
                    back.insert((s, t));
                } else if seen.insert(t) {
                    on_path.insert(t);
                    stack.push((t, 0));
                }
            } else {
                post.push(s);
                on_path.remove(&s);
                stack.pop();
            }
        }
    }
    let mut column: BTreeMap<usize, usize> = BTreeMap::new();
    for &s in post.iter().rev() {
        let c = *column.entry(s).or_insert(0);
        for t in forward(s).into_iter().filter(|&t| !back.contains(&(s, t))) {
            let e = column.entry(t).or_insert(0);
            *e = (*e).max(c + 1);
        }
    }
    let width = column.values().max().map_or(1, |&m| m + 1);
    let mut columns: Vec<Vec<usize>> = vec![Vec::new(); width];
    for &s in &order {
        columns[column[&s]].push(s);
    }
    // Each column ordered by the mean row of the states it is entered from.
    for c in 1..width {
        let row_of: BTreeMap<usize, f64> =
            columns[..c].iter().flat_map(|col| col.iter().enumerate().map(|(r, &s)| (s, r as f64))).collect();
        let key = |s: usize| {
            let rows: Vec<f64> = row_of.iter().filter(|(p, _)| next[p].contains(&s)).map(|(_, &r)| r).collect();
            if rows.is_empty() {
                f64::MAX
            } else {
                rows.iter().sum::<f64>() / rows.len() as f64
            }
        };
        columns[c].sort_by(|&a, &b| key(a).total_cmp(&key(b)));
    }
    columns
}

/// A run of units of one class: the class, the first unit, the last.
type Run = (usize, u8, u8);

/// The runs of units that go from state `from` to state `to`, by `(from, to)`.
fn labels(dfa: &Dfa<&[u32], &[u64]>) -> BTreeMap<(usize, usize), Vec<Run>> {
    let stride = dfa.class_count();
    let mut edges: BTreeMap<(usize, usize), Vec<Run>> = BTreeMap::new();
    for s in 1..dfa.state_count() {
        for u in 0..=255u8 {
            let t = dfa.transition(s * stride, u);
            if t.next == DEAD {
                continue;
            }
            let runs = edges.entry((s, t.next / stride)).or_default();
            match runs.last_mut() {
                Some((class, _, hi)) if *class == t.class && u > 0 && *hi == u - 1 => *hi = u,
                _ => runs.push((t.class, u, u)),
            }
        }
    }
    edges
}

/// The pairs of states the walk over `input` takes (from the start state,
/// again from it after an error, as lossy decoding restarts).
fn path(dfa: &Dfa<&[u32], &[u64]>, input: &[u8]) -> (BTreeSet<(usize, usize)>, BTreeSet<usize>) {
    let stride = dfa.class_count();
    let (mut state, mut edges, mut states) = (dfa.start(), BTreeSet::new(), BTreeSet::new());
    states.insert(state / stride);
    for &u in input {
        let mut next = dfa.transition(state, u).next;
        if next == DEAD && !dfa.is_boundary(state) {
            state = dfa.start();
            next = dfa.transition(state, u).next;
        }
        if next == DEAD {
            state = dfa.start();
            continue;
        }
        edges.insert((state / stride, next / stride));
        states.insert(next / stride);
        state = next;
    }
    (edges, states)
}

fn ranges_text(runs: &[Run]) -> String {
    let mut merged: Vec<(u8, u8)> = Vec::new();
    for &(_, lo, hi) in runs {
        match merged.last_mut() {
            Some((_, h)) if lo > 0 && *h == lo - 1 => *h = hi,
            _ => merged.push((lo, hi)),
        }
    }
    let text: Vec<String> = merged
        .iter()
        .map(|&(lo, hi)| if lo == hi { format!("{lo:02X}") } else { format!("{lo:02X}-{hi:02X}") })
        .collect();
    match text.len() {
        0..=3 => text.join(","),
        n => format!("{},… ({n} ranges)", text[..2].join(",")),
    }
}

/// The automaton of `dfa` as SVG, with the path `input` takes.
pub fn svg(dfa: &Dfa<&[u32], &[u64]>, input: &[u8]) -> String {
    let columns = columns(dfa);
    let mut at: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    for (c, states) in columns.iter().enumerate() {
        for (r, &s) in states.iter().enumerate() {
            at.insert(s, (MARGIN + c as f64 * COLUMN, MARGIN + r as f64 * ROW));
        }
    }
    let tallest = columns.iter().map(Vec::len).max().unwrap_or(1) as f64;
    // Arrows over skipped columns rise above the first row.
    let above = 26.0 * columns.len() as f64;
    let (width, height) = (2.0 * MARGIN + (columns.len() - 1) as f64 * COLUMN, 2.0 * MARGIN + tallest * ROW);
    let (on_edges, on_states) = path(dfa, input);
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="automaton" width="{}" height="{}" viewBox="-20 {} {} {}">"#,
        width + 20.0,
        height + above,
        -above,
        width + 20.0,
        height + above
    );
    s.push_str(r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>"#);
    for ((from, to), runs) in labels(dfa) {
        let (Some(&a), Some(&b)) = (at.get(&from), at.get(&to)) else { continue };
        let classes: Vec<String> = runs.iter().map(|&(c, lo, hi)| format!("c{c} {lo:02X}-{hi:02X}")).collect();
        let class = if on_edges.contains(&(from, to)) { "edge on" } else { "edge" };
        let (d, label) = edge_geometry(a, b, (to == from, b.0 <= a.0));
        let _ = write!(
            s,
            r#"<g data-edge="{from}-{to}" class="{class}"><title>{from} → {to}: {}</title><path d="{d}" marker-end="url(#arrow)"/><text x="{:.0}" y="{:.0}">{}</text></g>"#,
            classes.join(", "),
            label.0,
            label.1,
            ranges_text(&runs)
        );
    }
    let stride = dfa.class_count();
    for (&state, &(x, y)) in &at {
        let boundary = dfa.is_boundary(state * stride);
        let class = if on_states.contains(&state) { "state on" } else { "state" };
        let _ = write!(s, r#"<g data-state="{state}"><circle class="{class}" cx="{x}" cy="{y}" r="{RADIUS}"/>"#);
        if boundary {
            let _ = write!(s, r#"<circle class="ring" cx="{x}" cy="{y}" r="{}"/>"#, RADIUS - 4.0);
        }
        let _ = write!(s, r#"<text x="{x}" y="{}">{state}</text></g>"#, y + 5.0);
    }
    s.push_str("</svg>");
    s
}

/// The path of an arrow from `a` to `b` and where its label goes: a loop
/// above a state, a curve forward, or a curve below the states back to an
/// earlier column.
fn edge_geometry(a: (f64, f64), b: (f64, f64), (own, back): (bool, bool)) -> (String, (f64, f64)) {
    let r = RADIUS;
    if own {
        let (x, y) = a;
        let d = format!(
            "M{},{} C{},{} {},{} {},{}",
            x - 7.0,
            y - r,
            x - 30.0,
            y - r - 46.0,
            x + 30.0,
            y - r - 46.0,
            x + 7.0,
            y - r
        );
        return (d, (x, y - r - 40.0));
    }
    if back {
        let drop = 34.0 + (a.0 - b.0).abs() * 0.12;
        let low = a.1.max(b.1) + r + drop;
        let d = format!("M{},{} C{},{} {},{} {},{}", a.0, a.1 + r, a.0, low, b.0, low, b.0, b.1 + r);
        return (d, ((a.0 + b.0) / 2.0, low - drop * 0.2));
    }
    let mid = (a.0 + b.0) / 2.0;
    let span = ((b.0 - a.0) / COLUMN).round();
    if span > 1.0 {
        // Over the columns between, not through their states.
        let top = a.1.min(b.1) - 26.0 * span;
        let d = format!("M{},{} C{},{} {},{} {},{}", a.0, a.1 - r, a.0 + 30.0, top, b.0 - 30.0, top, b.0, b.1 - r);
        return (d, (mid, top + 14.0));
    }
    let d = format!("M{},{} C{},{} {},{} {},{}", a.0 + r, a.1, mid, a.1, mid, b.1, b.0 - r, b.1);
    (d, (mid, (a.1 + b.1) / 2.0 - 6.0))
}

/// The `trace` request: the trace as `placemat trace` prints it, and the drawing.
pub fn answer(codec: &dyn DynCodec, bytes: &[u8]) -> Answer {
    let name = codec.info().name.to_string();
    let trace = placemat_cli::inspect::trace(codec, &name, bytes).map_err(|e| e.to_string())?;
    let dfa = codec.dfa();
    let live = dfa.state_count() - 1;
    let svg = (live <= MAX_DRAWN).then(|| svg(&dfa, bytes));
    Ok(json!({ "trace": trace, "svg": svg, "classes": dfa.class_count(), "states": dfa.state_count() }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use placemat_variants::registry;

    #[test]
    fn every_built_in_automaton_is_drawn_with_each_live_state_once() {
        for codec in registry::all() {
            let dfa = codec.dfa();
            let drawn = svg(&dfa, b"");
            let columns = columns(&dfa);
            let states: BTreeSet<usize> = columns.iter().flatten().copied().collect();
            assert_eq!(states.len(), columns.iter().map(Vec::len).sum::<usize>(), "{}", codec.info().name);
            assert_eq!(drawn.matches(r#"<circle class="state"#).count(), states.len(), "{}", codec.info().name);
            assert!(!states.contains(&DEAD), "{}", codec.info().name);
        }
    }

    #[test]
    fn the_path_of_an_error_restarts_from_the_start_state() {
        let utf8 = registry::find("utf8").unwrap();
        let (edges, _) = path(&utf8.dfa(), b"\xC3\x41");
        // C3 leads to state 2; 41 cannot follow it and is read again from 1.
        assert_eq!(edges, BTreeSet::from([(1, 2), (1, 1)]));
    }

    #[test]
    fn labels_merge_runs_and_shorten_long_lists() {
        assert_eq!(ranges_text(&[(1, 0x80, 0x8F), (2, 0x90, 0xBF)]), "80-BF");
        let many: Vec<Run> = (0..5u8).map(|i| (usize::from(i), i * 4, i * 4)).collect();
        assert_eq!(ranges_text(&many), "00,04,… (5 ranges)");
    }
}
