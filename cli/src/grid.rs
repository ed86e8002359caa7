//! The table `placemat compare` prints, and its formats.
//!
//! The formats are a contract:
//! * `table` (default) — a header line `property  <codec>…`, a dashed line, then one
//!   line per property; columns separated by two spaces, the first left-aligned,
//!   numbers right-aligned. A table wider than the width asked for (`--width`,
//!   default 100) is cut into blocks of columns, one below the other, each with the
//!   first column again, and long text cells wrap onto more lines;
//! * `markdown` — a GitHub table with the same rows;
//! * `csv` — RFC 4180: a header `property,<codec>,…`, then one line per property
//!   (the property's key), cells quoted only when they need it;
//! * `json` — `{"codecs": [...], "rows": [{"key", "label", "values": [...]}, ...]}`,
//!   one row per line; counts are numbers, yes/no are booleans, anything else a
//!   string.
//!
//! Yes/no cells print `yes`/`no`, an undecided property `?`, and an unbounded
//! quantity `∞` in every format (the string `"∞"` in JSON).
//!
//! Transposed (`--transpose`), the codecs are the rows and the properties the
//! columns: the first column is headed `codec`, and CSV names the columns by key.

use std::fmt::Write as _;

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

/// How every format writes an unbounded quantity.
pub const INFINITE: &str = "∞";

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
    /// The cell as `--format table` and `csv` write it.
    pub(crate) fn text(&self) -> String {
        match self {
            Cell::Int(n) => n.to_string(),
            Cell::Float(x, d) => format!("{x:.d$}"),
            Cell::Bool(b) => (if *b { "yes" } else { "no" }).to_string(),
            Cell::Infinite => INFINITE.to_string(),
            Cell::Text(t) => t.clone(),
        }
    }

    fn json(&self) -> String {
        match self {
            Cell::Int(n) => n.to_string(),
            Cell::Float(x, d) => format!("{x:.d$}"),
            Cell::Bool(b) => b.to_string(),
            Cell::Infinite => json_string(INFINITE),
            Cell::Text(t) => json_string(t),
        }
    }

    fn is_numeric(&self) -> bool {
        matches!(self, Cell::Int(_) | Cell::Float(..) | Cell::Infinite)
    }
}

/// One line of the grid: a property across the codecs (or, transposed, a codec).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// A stable identifier (CSV and JSON).
    pub key: String,
    /// What the row shows.
    pub label: String,
    /// One cell per column.
    pub cells: Vec<Cell>,
}

/// The comparison: codecs as columns, properties as rows (or the other way round).
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// The heading of the first column: `property`, or `codec` when transposed.
    pub corner: String,
    /// Column headings in `table` and `markdown` (and JSON's `codecs`).
    pub columns: Vec<String>,
    /// Column headings in `csv`.
    pub column_keys: Vec<String>,
    /// The rows.
    pub rows: Vec<Row>,
}

impl Grid {
    /// The same cells with rows and columns swapped.
    pub fn transposed(&self) -> Grid {
        let rows = (0..self.columns.len())
            .map(|c| Row {
                key: self.column_keys[c].clone(),
                label: self.columns[c].clone(),
                cells: self.rows.iter().map(|r| r.cells[c].clone()).collect(),
            })
            .collect();
        Grid {
            corner: if self.corner == "property" { "codec".into() } else { "property".into() },
            columns: self.rows.iter().map(|r| r.label.clone()).collect(),
            column_keys: self.rows.iter().map(|r| r.key.clone()).collect(),
            rows,
        }
    }
}

/// `s` as a JSON string literal.
pub(super) fn json_string(s: &str) -> String {
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

/// `s` as a CSV field, quoted when it must be.
pub(super) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Renders the grid in `format` (see the module docs); `width` limits the `table`
/// format (0: no limit).
pub fn render(grid: &Grid, format: Format, width: usize) -> String {
    let mut s = String::new();
    match format {
        Format::Table => s = table(grid, width),
        Format::Markdown => {
            let _ = writeln!(s, "| {} | {} |", grid.corner, grid.columns.join(" | "));
            let _ = writeln!(s, "|---|{}", "---|".repeat(grid.columns.len()));
            for r in &grid.rows {
                let cells: Vec<String> = r.cells.iter().map(|c| c.text().replace('|', "\\|")).collect();
                let _ = writeln!(s, "| {} | {} |", r.label, cells.join(" | "));
            }
        }
        Format::Csv => {
            let header: Vec<String> =
                std::iter::once(grid.corner.clone()).chain(grid.column_keys.iter().map(|c| csv_field(c))).collect();
            let _ = write!(s, "{}\r\n", header.join(","));
            for r in &grid.rows {
                let line: Vec<String> =
                    std::iter::once(csv_field(&r.key)).chain(r.cells.iter().map(|c| csv_field(&c.text()))).collect();
                let _ = write!(s, "{}\r\n", line.join(","));
            }
        }
        Format::Json => {
            let codecs: Vec<String> = grid.columns.iter().map(|c| json_string(c)).collect();
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

/// A cell of the `table` format: its text and whether it is right-aligned.
type Text = (String, bool);

/// `text` broken at spaces into lines of at most `width` characters (a longer word
/// stays whole).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// How many columns (after the first) go in one block, and the width they wrap
/// to: all of them unwrapped if they fit, else the most whose words all fit an
/// equal share of the width.
fn blocks(lines: &[Vec<Text>], width: usize) -> (usize, usize) {
    let columns = lines[0].len() - 1;
    let natural = |c: usize| lines.iter().map(|l| chars(&l[c].0)).max().unwrap_or(0);
    let first = natural(0);
    let total: usize = first + (1..=columns).map(|c| 2 + natural(c)).sum::<usize>();
    if width == 0 || total <= width || columns == 0 {
        return (columns.max(1), usize::MAX);
    }
    let longest_word = |c: usize| lines.iter().flat_map(|l| l[c].0.split(' ').map(chars)).max().unwrap_or(0);
    let words = (1..=columns).map(longest_word).max().unwrap_or(0);
    for k in (1..=columns).rev() {
        let share = width.saturating_sub(first + 2 * k) / k;
        if share >= words {
            return (k, share);
        }
    }
    (1, width.saturating_sub(first + 2).max(words))
}

/// The `table` format (see the module docs).
fn table(grid: &Grid, width: usize) -> String {
    let mut lines: Vec<Vec<Text>> = vec![std::iter::once((grid.corner.clone(), false))
        .chain(grid.columns.iter().map(|c| (c.clone(), true)))
        .collect()];
    for r in &grid.rows {
        lines.push(
            std::iter::once((r.label.clone(), false))
                .chain(r.cells.iter().map(|c| (c.text(), c.is_numeric())))
                .collect(),
        );
    }
    let (per_block, wrap_at) = blocks(&lines, width);
    let columns: Vec<usize> = (1..lines[0].len()).collect();
    let mut s = String::new();
    if columns.is_empty() {
        table_block(&mut s, &lines, &[0], usize::MAX);
    }
    for (i, block) in columns.chunks(per_block).enumerate() {
        if i > 0 {
            s.push('\n');
        }
        let picked: Vec<usize> = std::iter::once(0).chain(block.iter().copied()).collect();
        table_block(&mut s, &lines, &picked, wrap_at);
    }
    s
}

/// The columns `picked` of `lines` as one aligned block, cells wrapped at `wrap_at`.
fn table_block(s: &mut String, lines: &[Vec<Text>], picked: &[usize], wrap_at: usize) {
    let wrapped: Vec<Vec<Vec<String>>> = lines
        .iter()
        .map(|l| picked.iter().map(|&c| if c == 0 { vec![l[0].0.clone()] } else { wrap(&l[c].0, wrap_at) }).collect())
        .collect();
    let widths: Vec<usize> = (0..picked.len())
        .map(|i| wrapped.iter().flat_map(|l| l[i].iter().map(|t| chars(t))).max().unwrap_or(0))
        .collect();
    for (n, line) in wrapped.iter().enumerate() {
        let height = line.iter().map(Vec::len).max().unwrap_or(1);
        for k in 0..height {
            let mut text = String::new();
            for (i, cell) in line.iter().enumerate() {
                let part = cell.get(k).map_or("", String::as_str);
                let pad = widths[i] - chars(part);
                if i > 0 {
                    text.push_str("  ");
                }
                if i > 0 && lines[n][picked[i]].1 {
                    text.extend(std::iter::repeat_n(' ', pad));
                    text.push_str(part);
                } else {
                    text.push_str(part);
                    text.extend(std::iter::repeat_n(' ', pad));
                }
            }
            s.push_str(text.trim_end());
            s.push('\n');
        }
        if n == 0 {
            s.push_str(&"-".repeat(widths.iter().sum::<usize>() + 2 * (widths.len() - 1)));
            s.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Grid {
        Grid {
            corner: "property".into(),
            columns: vec!["a".into(), "b,c".into()],
            column_keys: vec!["a".into(), "b,c".into()],
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
            render(&sample(), Format::Table, 100),
            "property      a      b,c\n\
             ------------------------\n\
             longest       4        ∞\n\
             fine      yes    ?\n\
             ratio     1.235  say \"x\"\n"
        );
    }

    #[test]
    fn a_narrow_table_is_cut_into_blocks_and_wraps_text() {
        assert_eq!(
            render(&sample(), Format::Table, 16),
            "property      a\n\
             ---------------\n\
             longest       4\n\
             fine      yes\n\
             ratio     1.235\n\
             \n\
             property  b,c\n\
             -------------\n\
             longest     ∞\n\
             fine      ?\n\
             ratio     say\n          \"x\"\n"
        );
    }

    #[test]
    fn transposed_table() {
        assert_eq!(
            render(&sample().transposed(), Format::Table, 0),
            "codec  longest  fine    ratio\n\
             -----------------------------\n\
             a            4  yes     1.235\n\
             b,c          ∞  ?     say \"x\"\n"
        );
        assert_eq!(
            render(&sample().transposed(), Format::Csv, 0),
            "codec,max_units,ok,ratio\r\na,4,yes,1.235\r\n\"b,c\",∞,?,\"say \"\"x\"\"\"\r\n"
        );
    }

    #[test]
    fn markdown_format() {
        assert_eq!(
            render(&sample(), Format::Markdown, 100),
            "| property | a | b,c |\n|---|---|---|\n| longest | 4 | ∞ |\n| fine | yes | ? |\n| ratio | 1.235 | say \"x\" |\n"
        );
    }

    #[test]
    fn csv_format() {
        assert_eq!(
            render(&sample(), Format::Csv, 100),
            "property,a,\"b,c\"\r\nmax_units,4,∞\r\nok,yes,?\r\nratio,1.235,\"say \"\"x\"\"\"\r\n"
        );
    }

    #[test]
    fn json_format() {
        assert_eq!(
            render(&sample(), Format::Json, 100),
            "{\"codecs\": [\"a\", \"b,c\"], \"rows\": [\n  \
             {\"key\": \"max_units\", \"label\": \"longest\", \"values\": [4, \"∞\"]},\n  \
             {\"key\": \"ok\", \"label\": \"fine\", \"values\": [true, \"?\"]},\n  \
             {\"key\": \"ratio\", \"label\": \"ratio\", \"values\": [1.235, \"say \\\"x\\\"\"]}\n]}\n"
        );
    }
}
