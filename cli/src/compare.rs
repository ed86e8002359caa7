//! `placemat compare`: every built-in codec (or those `--codecs` names, and any
//! `--spec` description) analysed on the built-in corpora, printed as one table with
//! a column per codec and a row per property (or those `--properties` names), in the
//! formats of `grid.rs`.

use std::io::{IsTerminal, Write};

use placemat_codec::DynCodec;
use placemat_compiler::analysis::{self, Analysis, Bound, Corpus, Mutation, Options, Subject, Verdict};

pub use super::grid::{render, Cell, Format, Grid, Row};
use super::output::to_stderr;
use super::source::{self, CodecRef};
use super::{CliError, CliResult};
use placemat_variants::{corpus, registry};

/// The arguments of `placemat compare`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// The built-in codecs to compare, in this order (default: all of them).
    #[arg(long, value_name = "A,B,…", value_delimiter = ',')]
    pub codecs: Vec<String>,
    /// The properties to show, by key (the first column of `--format csv`), in this
    /// order (default: all of them).
    #[arg(long, value_name = "P,Q,…", value_delimiter = ',')]
    pub properties: Vec<String>,
    /// One row per codec and one column per property (not with `--format json`).
    #[arg(long)]
    pub transpose: bool,
    /// The widest line of `--format table`, in characters: a wider table is cut into
    /// blocks of columns and its long cells wrap (0: no limit).
    #[arg(long, value_name = "COLUMNS", default_value_t = 100)]
    pub width: usize,
    /// A description file to compare too (repeatable).
    #[arg(long, value_name = "FILE")]
    pub spec: Vec<String>,
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
    if a.structure.signed.is_some() {
        return signed_forms_text(a);
    }
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

/// A signed codec's values per length, in decimal: `1:-64..63 2:-8192..8191`.
fn signed_forms_text(a: &Analysis) -> String {
    let mut lengths: Vec<(usize, i64, i64)> = Vec::new();
    for f in &a.structure.forms {
        // A signed codec's values are those of an `i64` or an `i32`.
        let Some((lo, hi)) = a.structure.values_of(f) else { continue };
        let (Ok(lo), Ok(hi)) = (i64::try_from(&lo), i64::try_from(&hi)) else { continue };
        match lengths.last_mut() {
            Some((n, l, h)) if *n == f.units => (*l, *h) = (lo.min(*l), hi.max(*h)),
            _ => lengths.push((f.units, lo, hi)),
        }
    }
    let mut s = lengths.iter().map(|(n, lo, hi)| format!("{n}:{lo}..{hi}")).collect::<Vec<_>>().join(" ");
    if a.structure.checked_units.is_some() {
        s.push_str(" +");
    }
    s
}

/// Builds the grid from analyses that ran on the same corpora.
pub fn grid(analyses: &[Analysis]) -> Grid {
    let corpora: Vec<String> =
        analyses.first().map(|a| a.corpora.iter().map(|c| c.size.corpus.clone()).collect()).unwrap_or_default();
    grid_on(analyses, &corpora)
}

/// Every property's key, in the order of the rows.
pub fn keys() -> Vec<String> {
    let corpora: Vec<String> = corpus::NAMES.iter().map(|n| n.to_string()).collect();
    grid_on(&[], &corpora).rows.into_iter().map(|r| r.key).collect()
}

/// The grid of `analyses`, whose corpora are called `corpora`.
fn grid_on(analyses: &[Analysis], corpora: &[String]) -> Grid {
    let mut rows: Vec<Row> = Vec::new();
    let mut row = |key: &str, label: &str, f: &dyn Fn(&Analysis) -> Cell| {
        rows.push(Row { key: key.into(), label: label.into(), cells: analyses.iter().map(f).collect() });
    };
    row("unit_bits", "unit (bits)", &|a| Cell::Int(a.structure.unit_bits.into()));
    row("largest_value", "largest value", &|a| match (&a.structure.signed, &a.structure.max) {
        (Some(s), _) if s.any_size => Cell::Infinite,
        (Some(s), _) => Cell::Text(s.max.to_string()),
        (None, Some(m)) => Cell::Text(format!("U+{m:04X}")),
        (None, None) => Cell::Infinite,
    });
    row("excluded", "excluded values", &|a| {
        let ex = &a.structure.excluded;
        // A signed codec's values are its whole range (its raw exclusions,
        // like minus zero, are no values).
        Cell::Text(if ex.is_empty() || a.structure.signed.is_some() {
            "none".into()
        } else {
            ex.iter().map(|(lo, hi)| format!("U+{lo:04X}..U+{hi:04X}")).collect::<Vec<_>>().join(" ")
        })
    });
    row("forbid", "never adjacent (value, then value)", &|a| {
        let rules = &a.structure.forbid;
        Cell::Text(if rules.is_empty() {
            "none".into()
        } else {
            let range = |(lo, hi): (u64, u64)| format!("U+{lo:04X}..U+{hi:04X}");
            rules.iter().map(|r| format!("{} then {}", range(r.first), range(r.then))).collect::<Vec<_>>().join(", ")
        })
    });
    row("forms", "largest value per length (hex; signed: values)", &|a| Cell::Text(forms_text(a)));
    row("max_units", "longest sequence (units)", &|a| match a.structure.max_units {
        Some(n) => Cell::Int(n as u64),
        None => Cell::Infinite,
    });
    row("prefix_free", "prefix-free", &|a| verdict(&a.structure.prefix_free));
    row("uniquely_decodable", "uniquely decodable", &|a| verdict(&a.structure.uniquely_decodable));
    row("canonical", "one encoding per value", &|a| verdict(&a.structure.canonical));
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
    row("simd", "SIMD validator (pair and count checks)", &|a| Cell::Text(a.automaton.simd.clone()));
    row("flagged", "flagged stream (word decoding of integers)", &|a| Cell::Text(a.automaton.flagged.clone()));
    row("prefixed", "length prefix (one load per integer)", &|a| Cell::Text(a.automaton.prefixed.clone()));
    let names: Vec<String> = analyses.iter().map(|a| a.name.clone()).collect();
    Grid { corner: "property".into(), columns: names.clone(), column_keys: names, rows }
}

/// The codecs to compare: the built-in ones `names` names (all of them if none),
/// then each `--spec` file.
pub fn codecs(names: &[String], specs: &[String]) -> Result<Vec<CodecRef>, CliError> {
    let mut out: Vec<CodecRef> = if names.is_empty() {
        registry::all().iter().map(|&c| CodecRef::Builtin(c)).collect()
    } else {
        names.iter().map(|n| source::builtin(n)).collect::<Result<_, _>>()?
    };
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
            to_stderr(format_args!("\r\x1b[2K[{}/{}] {message}", done + 1, self.total));
        }
    }

    fn finished(&self, done: usize, name: &str, seconds: f64) {
        if self.terminal {
            to_stderr(format_args!("\r\x1b[2K"));
        }
        to_stderr(format_args!("placemat: analysed {name} ({}/{}) in {seconds:.1} s\n", done + 1, self.total));
    }
}

/// Analyses `codecs` on the built-in corpora with the default options, reporting
/// progress on stderr. The corpora are generated once for all of them.
pub fn analyse(codecs: &[&dyn DynCodec]) -> Result<Vec<Analysis>, CliError> {
    let progress = Progress::new(codecs.len());
    let texts = corpus::all();
    let mut out = Vec::new();
    for (i, &codec) in codecs.iter().enumerate() {
        let started = std::time::Instant::now();
        let analysis = analyse_on(codec, &texts, &mut |m| progress.stage(i, m))?;
        progress.finished(i, &analysis.name, started.elapsed().as_secs_f64());
        out.push(analysis);
    }
    Ok(out)
}

/// Analyses one codec on the built-in corpora with the default options,
/// telling `stage` what it does.
pub fn analyse_one(codec: &dyn DynCodec, stage: &mut dyn FnMut(&str)) -> Result<Analysis, CliError> {
    analyse_on(codec, &corpus::all(), stage)
}

/// Analyses one codec on `texts` with the default options.
fn analyse_on(
    codec: &dyn DynCodec,
    texts: &[corpus::Corpus],
    stage: &mut dyn FnMut(&str),
) -> Result<Analysis, CliError> {
    let corpora: Vec<Corpus<'_>> = texts.iter().map(|c| Corpus { name: c.name, values: &c.text }).collect();
    let subject = Subject::from_dyn(codec).map_err(|e| CliError::msg(e.to_string()))?;
    Ok(analysis::analyze(&subject, &corpora, &Options::default(), stage))
}

/// The rows `keys` names, in that order (all of them if none).
fn pick_rows(grid: Grid, keys: &[String]) -> Grid {
    if keys.is_empty() {
        return grid;
    }
    let rows = keys.iter().filter_map(|k| grid.rows.iter().find(|r| &r.key == k).cloned()).collect();
    Grid { rows, ..grid }
}

/// Refuses what cannot be done, before the analysis starts.
fn check(args: &Args) -> CliResult {
    if args.transpose && args.format == Format::Json {
        return Err(CliError::usage("`--transpose` does not apply to `--format json`, whose shape is fixed"));
    }
    let known = keys();
    if let Some(unknown) = args.properties.iter().find(|p| !known.contains(p)) {
        return Err(CliError::usage(format!("unknown property `{unknown}`; known properties: {}", known.join(", "))));
    }
    if let Some(unknown) = args.codecs.iter().find(|c| registry::find(c).is_none()) {
        return Err(source::unknown(unknown));
    }
    Ok(())
}

/// `placemat compare [--format …] [--codecs …] [--properties …] [--transpose]
/// [--width N] [--spec FILE]…`.
pub fn run(args: &Args, out: &mut dyn Write) -> CliResult {
    check(args)?;
    let codecs = codecs(&args.codecs, &args.spec)?;
    let dyns: Vec<&dyn DynCodec> = codecs.iter().map(CodecRef::get).collect();
    let analyses = analyse(&dyns)?;
    let grid = pick_rows(grid(&analyses), &args.properties);
    let grid = if args.transpose { grid.transposed() } else { grid };
    out.write_all(render(&grid, args.format, args.width).as_bytes())?;
    Ok(())
}
