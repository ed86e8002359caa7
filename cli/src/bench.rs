//! `placemat bench`: every strategy of one codec on the user's files (UTF-8
//! text, transcoded into the codec first) or, without files, on the built-in
//! corpora. Repetitions of the strategies are interleaved, so that drift on a
//! shared machine hits them alike; each gets the median time, in GB/s of the
//! codec's bytes, and a ratio to its operation's baseline (for utf8: std's
//! `from_utf8` for validators, `chars()` into a `Vec<u32>` for decoders).
//! An integer codec that crates implement also runs, first, on streams of
//! integers beside those crates (`bench_integers.rs`).
//! With `--to B`, the conversion into `B`: the transcoder's paths (runs and
//! blocks, and one value at a time) beside encoding_rs and std where they
//! convert the pair, the first of them the baseline.

use std::cell::RefCell;
use std::fmt::Write as _;
use std::hint::black_box;
use std::io::{Read, Write};
use std::time::{Duration, Instant};

use placemat_codec::simd::Isa;
use placemat_codec::{Decoder, DynCodec, DynDecoder, Strategy};

use super::validate::by_steps;
use super::{CliError, CliResult};

/// How `bench` prints.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum Format {
    /// Aligned columns.
    #[default]
    Table,
    /// Comma-separated values with a header line.
    Csv,
    /// One JSON array of objects.
    Json,
}

/// One measured strategy.
struct Row {
    input: String,
    operation: &'static str,
    strategy: String,
    bytes: usize,
    median: Duration,
    baseline: String,
    ratio: f64,
}

/// One timed run: what it returns keeps the work from being optimized away.
pub(super) type Run<'a> = Box<dyn Fn() -> usize + 'a>;

/// The strategies for `codec` on `bytes` (the codec's encoding of `values`).
fn strategies<'a>(codec: &'a dyn DynCodec, bytes: &'a [u8], values: &'a [u64]) -> Vec<(&'static str, String, Run<'a>)> {
    let mut s: Vec<(&'static str, String, Run<'a>)> = Vec::new();
    let utf8 = codec.info().name == "utf8";
    if utf8 {
        s.push(("validate", "std from_utf8".into(), Box::new(move || std::str::from_utf8(bytes).map_or(0, str::len))));
        s.push((
            "validate",
            "simdutf8 basic".into(),
            Box::new(move || simdutf8::basic::from_utf8(bytes).map_or(0, str::len)),
        ));
    }
    if codec.dfa().simd().is_some() {
        for isa in Isa::all().into_iter().flatten() {
            let run = move || usize::from(codec.dfa().validate_simd(isa, bytes).is_some_and(|r| r.is_ok()));
            s.push(("validate", format!("simd ({})", isa.name()), Box::new(run)));
        }
    }
    s.push(("validate", "table".into(), Box::new(move || usize::from(codec.dfa().validate_scalar(bytes).is_ok()))));
    s.push((
        "validate",
        "branching".into(),
        Box::new(move || usize::from(by_steps(codec, Strategy::Branching, bytes).is_ok())),
    ));
    if utf8 {
        let out = RefCell::new(Vec::with_capacity(bytes.len()));
        let run = move || {
            let mut out = out.borrow_mut();
            out.clear();
            out.extend(std::str::from_utf8(bytes).unwrap_or("").chars().map(u32::from));
            out.len()
        };
        s.push(("decode", "std chars() into Vec<u32>".into(), Box::new(run)));
    }
    // A signed codec's tables give raw values: its sign maps them, as its
    // own `decode_into` does.
    let (sign, bits) = (codec.info().sign, codec.info().value_bits);
    s.push((
        "decode",
        "table".into(),
        Box::new(reusing(bytes.len(), move |out: &mut Vec<u64>| {
            let _ = codec.dfa().decode_table_into(bytes, out);
            if let Some(sign) = sign {
                out.iter_mut().for_each(|v| *v = sign.value(*v, bits));
            }
        })),
    ));
    let run = reusing(bytes.len(), move |out: &mut Vec<u64>| {
        let _ = DynDecoder { codec, strategy: Strategy::Branching }.decode_into(bytes, out);
    });
    s.push(("decode", "branching".into(), Box::new(run)));
    if let Some(flagged) = codec.info().flagged {
        // The fact's raw values, mapped by a ZigZag codec's sign after, as
        // its own `decode_into` does (a sign-extended fact's are its values).
        let map = sign.filter(|_| !flagged.signed);
        let steps = RawSteps(codec.dfa());
        let run = reusing(bytes.len(), move |out: &mut Vec<u64>| {
            let _ = placemat_codec::decode_flagged(&flagged, &steps, bytes, out);
            if let Some(sign) = map {
                out.iter_mut().for_each(|v| *v = sign.value(*v, bits));
            }
        });
        s.push(("decode", "flagged words".into(), Box::new(run)));
    }
    if let Some(prefixed) = codec.info().prefixed {
        let steps = DynDecoder { codec, strategy: Strategy::Branching };
        let run = reusing(bytes.len(), move |out: &mut Vec<u64>| {
            let _ = placemat_codec::decode_prefixed(&prefixed, &steps, bytes, out);
        });
        s.push(("decode", "prefixed words".into(), Box::new(run)));
    }
    if codec.dfa().simd().is_some() && codec.dfa().facts().continuation_bits != 0 {
        let run = reusing(bytes.len(), move |out: &mut Vec<u64>| {
            let _ = codec.dfa().decode_validated_into(bytes, out);
        });
        s.push(("decode", "simd + unchecked".into(), Box::new(run)));
    }
    s.push((
        "encode",
        "generated encoder".into(),
        Box::new(reusing(bytes.len(), move |out| {
            values.iter().for_each(|&v| {
                let _ = codec.encode_push(v, out);
            });
        })),
    ));
    // The bulk encoder (the codec type's loop, for a built-in codec): one call
    // for all values rather than one per value.
    let run = reusing(bytes.len(), move |out| {
        let _ = codec.encode_block(None, values, out);
    });
    s.push(("encode", "bulk encoder".into(), Box::new(run)));
    s
}

/// The table's steps, raw values (before a signed codec's sign): the steps
/// beside an integer fact, whose values are raw too.
struct RawSteps<'a>(placemat_codec::dfa::Dfa<&'a [u32], &'a [u64]>);

impl placemat_codec::Decoder for RawSteps<'_> {
    type Value = u64;
    fn step(&self, input: &[u8]) -> placemat_codec::Step<u64> {
        self.0.step(input)
    }
}

/// A run that fills an output buffer of its own, kept across repetitions
/// (cleared, not freed), as a program decoding many texts would: the time is
/// the work's, not the page faults of fresh memory. Returns the buffer's
/// length after `fill`.
pub(super) fn reusing<'a, T: 'a>(capacity: usize, fill: impl Fn(&mut Vec<T>) + 'a) -> impl Fn() -> usize + 'a {
    let out = RefCell::new(Vec::with_capacity(capacity));
    move || {
        let mut out = out.borrow_mut();
        out.clear();
        fill(&mut out);
        out.len()
    }
}

/// Medians of interleaved repetitions, about `budget` per strategy. Before
/// each timed run the input's cache lines are read, so that no strategy pays
/// for the memory the one before it (an encoder's output, say) evicted.
fn measure(runs: &[(&'static str, String, Run<'_>)], input: &[u8], budget: Duration) -> Vec<Duration> {
    let time = |run: &Run<'_>| {
        for line in input.chunks(64) {
            black_box(line[0]);
        }
        let start = Instant::now();
        black_box(run());
        start.elapsed()
    };
    let once: Vec<Duration> = runs.iter().map(|(_, _, r)| time(r)).collect();
    let slowest = once.iter().max().copied().unwrap_or_default().max(Duration::from_nanos(1));
    let reps = (budget.as_nanos() / slowest.as_nanos()).clamp(5, 2000) as usize;
    let mut times = vec![Vec::with_capacity(reps); runs.len()];
    for _ in 0..reps {
        for (i, (_, _, r)) in runs.iter().enumerate() {
            times[i].push(time(r));
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort_unstable();
            t[t.len() / 2]
        })
        .collect()
}

/// The inputs: each file's text, or the built-in corpora.
fn inputs(files: &[String]) -> Result<Vec<(String, Vec<u32>)>, CliError> {
    if files.is_empty() {
        let names = ["english", "russian", "chinese", "emoji", "mixed"];
        return Ok(names
            .iter()
            .map(|&n| (n.to_string(), placemat_variants::corpus::by_name(n).expect("a built-in corpus").text))
            .collect());
    }
    files
        .iter()
        .map(|f| {
            let mut bytes = Vec::new();
            let mut input = super::input::open(Some(f))?;
            input.reader.read_to_end(&mut bytes)?;
            let text = String::from_utf8(bytes).map_err(|e| {
                let at = e.utf8_error().valid_up_to();
                CliError::msg(format!("{f}: `bench` reads UTF-8 text, and the bytes at offset {at} are not"))
            })?;
            Ok((f.clone(), text.chars().map(u32::from).collect()))
        })
        .collect()
}

/// `placemat bench`: without files, an integer codec that crates implement
/// first runs on streams of integers, beside those crates.
pub fn run(codec: &dyn DynCodec, files: &[String], format: Format, out: &mut dyn Write) -> CliResult {
    let mut rows = Vec::new();
    let streams = if files.is_empty() { super::bench_integers::streams(codec) } else { Vec::new() };
    for (name, values) in streams {
        let bytes = encoded(codec, &name, &values)?;
        let runs = super::bench_integers::with_crates(codec, &bytes, &values, strategies(codec, &bytes, &values));
        rows.extend(measured(&name, &bytes, &runs));
    }
    for (name, text) in inputs(files)? {
        let values: Vec<u64> = text.iter().map(|&c| u64::from(c)).collect();
        let bytes = encoded(codec, &name, &values)?;
        let runs = strategies(codec, &bytes, &values);
        rows.extend(measured(&name, &bytes, &runs));
    }
    print(&rows, format, out)
}

/// `placemat bench A --to B`.
pub fn run_transcode(
    from: &dyn DynCodec,
    to: &dyn DynCodec,
    files: &[String],
    format: Format,
    out: &mut dyn Write,
) -> CliResult {
    let mut rows = Vec::new();
    for (name, text) in inputs(files)? {
        let values: Vec<u64> = text.iter().map(|&c| u64::from(c)).collect();
        let bytes = encoded(from, &name, &values)?;
        let runs = super::bench_transcode::conversions(from, to, &bytes);
        rows.extend(measured(&name, &bytes, &runs));
    }
    print(&rows, format, out)
}

/// `codec`'s encoding of the text `name`.
fn encoded(codec: &dyn DynCodec, name: &str, values: &[u64]) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    for &v in values {
        codec
            .encode_push(v, &mut bytes)
            .map_err(|e| CliError::msg(format!("{name}: U+{v:04X} cannot be encoded by {}: {e}", codec.info().name)))?;
    }
    Ok(bytes)
}

/// The rows of `runs` timed on `bytes`, each against the first run of its
/// operation.
fn measured(name: &str, bytes: &[u8], runs: &[(&'static str, String, Run<'_>)]) -> Vec<Row> {
    let medians = measure(runs, bytes, Duration::from_millis(150));
    let mut rows = Vec::new();
    for (i, (operation, strategy, _)) in runs.iter().enumerate() {
        let base = runs.iter().position(|(op, _, _)| op == operation).unwrap_or(i);
        rows.push(Row {
            input: name.to_string(),
            operation,
            strategy: strategy.clone(),
            bytes: bytes.len(),
            median: medians[i],
            baseline: runs[base].1.clone(),
            ratio: medians[base].as_secs_f64() / medians[i].as_secs_f64().max(1e-12),
        });
    }
    rows
}

/// Prints `rows` as `format` says.
fn print(rows: &[Row], format: Format, out: &mut dyn Write) -> CliResult {
    let text = match format {
        Format::Table => table(rows),
        Format::Csv => csv(rows),
        Format::Json => json(rows),
    };
    Ok(out.write_all(text.as_bytes())?)
}

fn gbps(r: &Row) -> f64 {
    r.bytes as f64 / r.median.as_secs_f64().max(1e-12) / 1e9
}

fn table(rows: &[Row]) -> String {
    // The strategy column as wide as its longest name (28 at least).
    let w = rows.iter().map(|r| r.strategy.chars().count()).max().unwrap_or(0).max(28);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<16} {:<9} {:<w$} {:>10} {:>9} {:>7}  baseline",
        "input", "operation", "strategy", "bytes", "GB/s", "ratio"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<16} {:<9} {:<w$} {:>10} {:>9.3} {:>6.2}x  {}",
            r.input,
            r.operation,
            r.strategy,
            r.bytes,
            gbps(r),
            r.ratio,
            r.baseline
        );
    }
    s
}

fn csv(rows: &[Row]) -> String {
    let quote = super::grid::csv_field;
    let mut s = String::from("input,operation,strategy,bytes,median_ns,gb_per_s,baseline,ratio\n");
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{:.4},{},{:.4}",
            quote(&r.input),
            r.operation,
            quote(&r.strategy),
            r.bytes,
            r.median.as_nanos(),
            gbps(r),
            quote(&r.baseline),
            r.ratio
        );
    }
    s
}

fn json(rows: &[Row]) -> String {
    let text = super::grid::json_string;
    let items: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "  {{\"input\": {}, \"operation\": \"{}\", \"strategy\": {}, \"bytes\": {}, \"median_ns\": {}, \
                 \"gb_per_s\": {:.4}, \"baseline\": {}, \"ratio\": {:.4}}}",
                text(&r.input),
                r.operation,
                text(&r.strategy),
                r.bytes,
                r.median.as_nanos(),
                gbps(r),
                text(&r.baseline),
                r.ratio
            )
        })
        .collect();
    format!("[\n{}\n]\n", items.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_columns_line_up_whatever_the_strategies_names() {
        let row = |strategy: &str| Row {
            input: "english".into(),
            operation: "transcode",
            strategy: strategy.into(),
            bytes: 4096,
            median: Duration::from_micros(1),
            baseline: "std".into(),
            ratio: 1.0,
        };
        let long = "placemat copy of runs read alike + 16-bit units (avx512)";
        let text = table(&[row("std"), row(long)]);
        // The bytes column ends at the same place on every line.
        let ends: Vec<usize> = text.lines().skip(1).map(|l| l.find("4096").unwrap() + 4).collect();
        assert_eq!(ends.len(), 2);
        assert_eq!(ends[0], ends[1], "{text}");
        assert!(text.lines().nth(2).unwrap().contains(long));
        let header_end = text.lines().next().unwrap().find("bytes").unwrap() + "bytes".len();
        assert_eq!(header_end, ends[0], "{text}");
    }
}
