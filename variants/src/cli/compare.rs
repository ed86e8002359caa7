//! `placemat compare`: every built-in codec (and any `--spec` description) analysed
//! on the built-in corpora, printed as one table with a column per codec and a row
//! per property.
//!
//! The formats are a contract:
//! * `table` (default) — a header line `property  <codec>…`, a dashed line, then one
//!   line per property; columns separated by two spaces, the first left-aligned,
//!   the others right-aligned;
//! * `markdown` — a GitHub table with the same rows;
//! * `csv` — RFC 4180: a header `property,<codec>,…`, then one line per property
//!   (the property's key), cells quoted only when they need it;
//! * `json` — `{"codecs": [...], "rows": [{"key", "label", "values": [...]}, ...]}`,
//!   one row per line; counts are numbers, yes/no are booleans, an unbounded
//!   quantity is the string `"infinite"`, anything else a string.
//!
//! Yes/no cells print `yes`/`no`, an undecided property `?`, an unbounded quantity `∞`.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};

use placemat_codec::DynCodec;
use placemat_compiler::analysis::{self, Analysis, Bound, Corpus, Mutation, Options, Subject, Verdict};

use super::source::{self, CodecRef};
use super::{CliError, CliResult};
use crate::{corpus, registry};

/// How `compare` prints its table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum Format {
    /// Aligned plain text.
    #[default]
    Table,
    /// A GitHub-flavoured Markdown table.
    Markdown,
    /// Comma-separated values.
    Csv,
    /// JSON.
    Json,
}

/// One cell of the comparison.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// A count.
    Int(u64),
    /// A measured ratio, printed with the row's number of decimals.
    Float(f64, usize),
    /// Yes or no.
    Bool(bool),
    /// Unbounded.
    Infinite,
    /// Anything else (`?` for an undecided property).
    Text(String),
}

impl Cell {
    fn text(&self) -> String {
        match self {
            Cell::Int(n) => n.to_string(),
            Cell::Float(x, d) => format!("{x:.d$}"),
            Cell::Bool(b) => (if *b { "yes" } else { "no" }).to_string(),
            Cell::Infinite => "∞".to_string(),
            Cell::Text(t) => t.clone(),
        }
    }

    fn json(&self) -> String {
        match self {
            Cell::Int(n) => n.to_string(),
            Cell::Float(x, d) => format!("{x:.d$}"),
            Cell::Bool(b) => b.to_string(),
            Cell::Infinite => "\"infinite\"".to_string(),
            Cell::Text(t) => json_string(t),
        }
    }

    fn is_numeric(&self) -> bool {
        matches!(self, Cell::Int(_) | Cell::Float(..) | Cell::Infinite)
    }
}

/// One property across the codecs.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// A stable identifier (CSV and JSON).
    pub key: String,
    /// What the row shows.
    pub label: String,
    /// One cell per codec.
    pub cells: Vec<Cell>,
}

/// The comparison: codecs as columns, properties as rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// Column names.
    pub codecs: Vec<String>,
    /// The rows.
    pub rows: Vec<Row>,
}

fn verdict(v: &Verdict) -> Cell {
    match v {
        Verdict::Yes => Cell::Bool(true),
        Verdict::No(_) => Cell::Bool(false),
        Verdict::Unknown(_) => Cell::Text("?".into()),
    }
}

/// The largest value of each form length, `1:7F 2:7FF …` (a `+` when an unbounded
/// model has longer forms).
fn forms_text(a: &Analysis) -> String {
    let mut lengths: Vec<(usize, String)> = Vec::new();
    for f in &a.structure.forms {
        let hi = format!("{:X}", f.hi);
        match lengths.last_mut() {
            Some((n, h)) if *n == f.units => *h = hi,
            _ => lengths.push((f.units, hi)),
        }
    }
    let mut s = lengths.iter().map(|(n, h)| format!("{n}:{h}")).collect::<Vec<_>>().join(" ");
    if a.structure.checked_units.is_some() {
        s.push_str(" +");
    }
    s
}

/// Builds the grid from analyses that ran on the same corpora.
pub fn grid(analyses: &[Analysis]) -> Grid {
    let mut rows: Vec<Row> = Vec::new();
    let mut row = |key: &str, label: &str, f: &dyn Fn(&Analysis) -> Cell| {
        rows.push(Row { key: key.into(), label: label.into(), cells: analyses.iter().map(f).collect() });
    };
    row("unit_bits", "unit (bits)", &|a| Cell::Int(a.structure.unit_bits.into()));
    row("largest_value", "largest value", &|a| match &a.structure.max {
        Some(m) => Cell::Text(format!("U+{m:04X}")),
        None => Cell::Infinite,
    });
    row("excluded", "excluded values", &|a| {
        let ex = &a.structure.excluded;
        Cell::Text(if ex.is_empty() {
            "none".into()
        } else {
            ex.iter().map(|(lo, hi)| format!("U+{lo:04X}..U+{hi:04X}")).collect::<Vec<_>>().join(" ")
        })
    });
    row("forms", "largest value per length (hex)", &|a| Cell::Text(forms_text(a)));
    row("max_units", "longest sequence (units)", &|a| match a.structure.max_units {
        Some(n) => Cell::Int(n as u64),
        None => Cell::Infinite,
    });
    row("prefix_free", "prefix-free", &|a| verdict(&a.structure.prefix_free));
    row("uniquely_decodable", "uniquely decodable", &|a| verdict(&a.structure.uniquely_decodable));
    row("ascii_transparent", "ASCII-transparent", &|a| verdict(&a.structure.ascii_transparent));
    row("fs_safe", "file-system safe (NUL, /)", &|a| verdict(&a.structure.fs_safe));
    row("order_preserving", "byte order = value order", &|a| verdict(&a.structure.order_preserving));
    row("self_sync", "self-sync: units until a boundary is certain", &|a| match &a.sync {
        Ok(s) => match s.bound {
            Bound::Units(n) => Cell::Int(n as u64),
            Bound::Unbounded => Cell::Infinite,
        },
        Err(_) => Cell::Text("?".into()),
    });
    row("realign_max", "decoder realignment, max units (sampled)", &|a| Cell::Int(a.realignment().max.into()));
    row("realign_mean", "decoder realignment, mean units (sampled)", &|a| Cell::Float(a.realignment().mean, 2));
    let corpora: Vec<String> =
        analyses.first().map(|a| a.corpora.iter().map(|c| c.size.corpus.clone()).collect()).unwrap_or_default();
    for (i, name) in corpora.iter().enumerate() {
        row(&format!("bytes_per_char_{name}"), &format!("bytes/char {name}"), &|a| {
            Cell::Float(a.corpora[i].size.units_per_value(), 3)
        });
    }
    for m in Mutation::ALL {
        let n = m.name();
        row(&format!("spread_{n}_mean"), &format!("error spread {n}: mean values"), &|a| {
            Cell::Float(a.spread(m).mean, 2)
        });
        row(&format!("spread_{n}_p99"), &format!("error spread {n}: p99"), &|a| Cell::Int(a.spread(m).p99.into()));
        row(&format!("spread_{n}_max"), &format!("error spread {n}: max"), &|a| Cell::Int(a.spread(m).max.into()));
    }
    row("dfa_classes", "automaton: unit classes", &|a| Cell::Int(a.automaton.classes as u64));
    row("dfa_states", "automaton: states", &|a| Cell::Int(a.automaton.states as u64));
    row("table_bytes", "automaton: table bytes", &|a| Cell::Int(a.automaton.table_bytes as u64));
    Grid { codecs: analyses.iter().map(|a| a.name.clone()).collect(), rows }
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Renders the grid in `format` (see the module docs).
pub fn render(grid: &Grid, format: Format) -> String {
    let mut s = String::new();
    match format {
        Format::Table => {
            let mut lines: Vec<Vec<(String, bool)>> = vec![std::iter::once(("property".to_string(), false))
                .chain(grid.codecs.iter().map(|c| (c.clone(), true)))
                .collect()];
            for r in &grid.rows {
                lines.push(
                    std::iter::once((r.label.clone(), false))
                        .chain(r.cells.iter().map(|c| (c.text(), c.is_numeric())))
                        .collect(),
                );
            }
            let cols = grid.codecs.len() + 1;
            let widths: Vec<usize> =
                (0..cols).map(|i| lines.iter().map(|l| l[i].0.chars().count()).max().unwrap_or(0)).collect();
            for (n, line) in lines.iter().enumerate() {
                let mut text = String::new();
                for (i, (cell, right)) in line.iter().enumerate() {
                    let pad = widths[i] - cell.chars().count();
                    if i > 0 {
                        text.push_str("  ");
                    }
                    if *right && i > 0 {
                        text.extend(std::iter::repeat_n(' ', pad));
                        text.push_str(cell);
                    } else {
                        text.push_str(cell);
                        text.extend(std::iter::repeat_n(' ', pad));
                    }
                }
                s.push_str(text.trim_end());
                s.push('\n');
                if n == 0 {
                    let total = widths.iter().sum::<usize>() + 2 * (cols - 1);
                    s.push_str(&"-".repeat(total));
                    s.push('\n');
                }
            }
        }
        Format::Markdown => {
            let _ = writeln!(s, "| property | {} |", grid.codecs.join(" | "));
            let _ = writeln!(s, "|---|{}", "---|".repeat(grid.codecs.len()));
            for r in &grid.rows {
                let cells: Vec<String> = r.cells.iter().map(|c| c.text().replace('|', "\\|")).collect();
                let _ = writeln!(s, "| {} | {} |", r.label, cells.join(" | "));
            }
        }
        Format::Csv => {
            let header: Vec<String> =
                std::iter::once("property".to_string()).chain(grid.codecs.iter().map(|c| csv_field(c))).collect();
            let _ = write!(s, "{}\r\n", header.join(","));
            for r in &grid.rows {
                let line: Vec<String> =
                    std::iter::once(csv_field(&r.key)).chain(r.cells.iter().map(|c| csv_field(&c.text()))).collect();
                let _ = write!(s, "{}\r\n", line.join(","));
            }
        }
        Format::Json => {
            let codecs: Vec<String> = grid.codecs.iter().map(|c| json_string(c)).collect();
            let _ = writeln!(s, "{{\"codecs\": [{}], \"rows\": [", codecs.join(", "));
            for (i, r) in grid.rows.iter().enumerate() {
                let values: Vec<String> = r.cells.iter().map(Cell::json).collect();
                let _ = writeln!(
                    s,
                    "  {{\"key\": {}, \"label\": {}, \"values\": [{}]}}{}",
                    json_string(&r.key),
                    json_string(&r.label),
                    values.join(", "),
                    if i + 1 < grid.rows.len() { "," } else { "" }
                );
            }
            s.push_str("]}\n");
        }
    }
    s
}

/// The codecs to compare: every built-in one, then each `--spec` file.
pub fn codecs(specs: &[String]) -> Result<Vec<CodecRef>, CliError> {
    let mut out: Vec<CodecRef> = registry::all().iter().map(|&c| CodecRef::Builtin(c)).collect();
    for path in specs {
        out.push(source::spec(path)?);
    }
    Ok(out)
}

/// A progress line on stderr: rewritten in place on a terminal, one line per codec
/// otherwise. Nothing goes to stdout.
pub struct Progress {
    terminal: bool,
    total: usize,
}

impl Progress {
    /// Progress over `total` codecs.
    pub fn new(total: usize) -> Self {
        Progress { terminal: std::io::stderr().is_terminal(), total }
    }

    fn stage(&self, done: usize, message: &str) {
        if self.terminal {
            eprint!("\r\x1b[2K[{}/{}] {message}", done + 1, self.total);
        }
    }

    fn finished(&self, done: usize, name: &str, seconds: f64) {
        if self.terminal {
            eprint!("\r\x1b[2K");
        }
        eprintln!("placemat: analysed {name} ({}/{}) in {seconds:.1} s", done + 1, self.total);
    }
}

/// Analyses `codecs` on the built-in corpora with the default options, reporting
/// progress on stderr.
pub fn analyse(codecs: &[&dyn DynCodec]) -> Result<Vec<Analysis>, CliError> {
    let texts = corpus::all();
    let corpora: Vec<Corpus<'_>> = texts.iter().map(|c| Corpus { name: c.name, values: &c.text }).collect();
    let progress = Progress::new(codecs.len());
    let options = Options::default();
    let mut out = Vec::new();
    for (i, &codec) in codecs.iter().enumerate() {
        let started = std::time::Instant::now();
        let subject = Subject::from_dyn(codec).map_err(|e| CliError::msg(e.to_string()))?;
        out.push(analysis::analyze(&subject, &corpora, &options, &mut |m| progress.stage(i, m)));
        progress.finished(i, subject.name(), started.elapsed().as_secs_f64());
    }
    Ok(out)
}

/// `placemat compare [--format …] [--spec FILE]…`.
pub fn run(specs: &[String], format: Format, out: &mut dyn Write) -> CliResult {
    let codecs = codecs(specs)?;
    let dyns: Vec<&dyn DynCodec> = codecs.iter().map(CodecRef::get).collect();
    let analyses = analyse(&dyns)?;
    out.write_all(render(&grid(&analyses), format).as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Grid {
        Grid {
            codecs: vec!["a".into(), "b,c".into()],
            rows: vec![
                Row { key: "max_units".into(), label: "longest".into(), cells: vec![Cell::Int(4), Cell::Infinite] },
                Row { key: "ok".into(), label: "fine".into(), cells: vec![Cell::Bool(true), Cell::Text("?".into())] },
                Row {
                    key: "ratio".into(),
                    label: "ratio".into(),
                    cells: vec![Cell::Float(1.23456, 3), Cell::Text("say \"x\"".into())],
                },
            ],
        }
    }

    #[test]
    fn table_format() {
        assert_eq!(
            render(&sample(), Format::Table),
            "property      a      b,c\n\
             ------------------------\n\
             longest       4        ∞\n\
             fine      yes    ?\n\
             ratio     1.235  say \"x\"\n"
        );
    }

    #[test]
    fn markdown_format() {
        assert_eq!(
            render(&sample(), Format::Markdown),
            "| property | a | b,c |\n|---|---|---|\n| longest | 4 | ∞ |\n| fine | yes | ? |\n| ratio | 1.235 | say \"x\" |\n"
        );
    }

    #[test]
    fn csv_format() {
        assert_eq!(
            render(&sample(), Format::Csv),
            "property,a,\"b,c\"\r\nmax_units,4,∞\r\nok,yes,?\r\nratio,1.235,\"say \"\"x\"\"\"\r\n"
        );
    }

    #[test]
    fn json_format() {
        assert_eq!(
            render(&sample(), Format::Json),
            "{\"codecs\": [\"a\", \"b,c\"], \"rows\": [\n  \
             {\"key\": \"max_units\", \"label\": \"longest\", \"values\": [4, \"infinite\"]},\n  \
             {\"key\": \"ok\", \"label\": \"fine\", \"values\": [true, \"?\"]},\n  \
             {\"key\": \"ratio\", \"label\": \"ratio\", \"values\": [1.235, \"say \\\"x\\\"\"]}\n]}\n"
        );
    }
}
