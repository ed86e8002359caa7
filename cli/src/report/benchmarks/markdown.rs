//! Writes `papers/benchmarks.md` and its figures (and `papers/simd.md`'s) from
//! one run's [`Results`].
//!
//! ```
//! use placemat_cli::report::benchmarks::COMMAND;
//! assert!(COMMAND.starts_with("cargo run --release -p placemat-benches --bin bench-report"));
//! ```

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use super::{check_targets, Results};
use crate::report::chart::bar_chart;

/// The command that regenerates the report (runs the benchmarks, then writes).
pub const COMMAND: &str = "cargo run --release -p placemat-benches --bin bench-report -- --run";
/// The benchmark command `--run` executes.
pub const BENCH_COMMAND: &str = "cargo bench -p placemat-benches --features criterion --bench codecs";

/// What each generated strategy does, in the terms the notes on missed targets use.
const STRATEGIES: &str = "## The generated strategies\n\n\
- `table` (decode): the table walker of `placemat_codec::dfa`. Two walks run side by side over pairs of \
2 KiB chunks cut at *sync units* (units every state but the start rejects) or after *end units* (units \
every state goes to the start on: the last byte of a LEB128 number), so the processor overlaps their \
chains of dependent loads; each step reads the *expanded table* (two arrays of one row of 256 entries \
per state: the next state, and the unit's payload already shifted into place, computed at compile time, \
so the chain from one unit to the next is an addition and a load) and writes its value without a \
branch. Codecs whose states do not know how many payload bits remain (the varints, \
little-endian UTF-16, codecs with rules across values or longest matches: WTF-8, modified UTF-8) read the *direct table* instead (one entry per \
state and unit holding the next state, the shift of the value read so far and the unit's payload and \
place: one read, a mask for the next state and two shifts); only printable6-big, whose sequences have no length limit, walks the \
class-compressed table. Text with no place to cut (X/Open FSS-UTF has none but ASCII) is read by one \
walk. In UTF-16 and UTF-32 the cuts are between code units: every code unit but a low surrogate starts \
a sequence. At the start state, runs of code units that are values of themselves are copied without walking: \
ASCII bytes 00-7F (01-7F in mutf8) 16 bytes at a time, and in UTF-16 and UTF-32 every code unit but \
the surrogates (and, in UTF-32, values above 10FFFF), 32 bytes at a time; a run at the start of a pair \
of chunks is copied before the pair is cut, so text that is one run is not walked in pairs.\n\
- `table` (validate): Per Vognsen's shift DFA derived from the automaton, two chains split at a sync \
unit, the same runs skipped.\n\
- `branching`: emitted code, no tables. While a window of the longest form's length remains, the *form \
window* picks the form from the first unit, checks the other units' fixed bits with one masked compare \
and the value against the form's range and the excluded ranges, with one branch for all checks; ASCII \
runs are copied 16 units at a time. The rest, and any error, goes through one function per automaton \
state, which finds the error's position and length.\n\
- `encoder`: emitted code; forms that tile the value range are chosen by their upper bounds alone, and \
the range and excluded-range checks sit inside the forms they concern.\n\n";

/// The machine a run was measured on.
#[derive(Clone, Debug, Default)]
pub struct Machine {
    /// CPU model name (`/proc/cpuinfo`).
    pub cpu: String,
    /// Logical CPUs.
    pub cpus: usize,
    /// The CPU's feature flags (`/proc/cpuinfo`).
    pub flags: Vec<String>,
    /// `rustc -V`.
    pub rustc: String,
    /// `git rev-parse --short HEAD` of the workspace, with `+dirty` for local changes.
    pub commit: String,
}

fn command_output(program: &str, args: &[&str], dir: &Path) -> Option<String> {
    let out = std::process::Command::new(program).args(args).current_dir(dir).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

impl Machine {
    /// Reads `/proc/cpuinfo` and asks `rustc` and `git`.
    pub fn detect(workspace: &Path) -> Self {
        let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |name: &str| {
            info.lines()
                .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        };
        let cpus = info.lines().filter(|l| l.starts_with("processor")).count();
        let flags = field("flags").map(|f| f.split_whitespace().map(str::to_string).collect()).unwrap_or_default();
        let dirty = command_output("git", &["status", "--porcelain"], workspace).is_some_and(|s| !s.is_empty());
        let commit = command_output("git", &["rev-parse", "--short", "HEAD"], workspace)
            .map(|c| if dirty { format!("{c}+dirty") } else { c })
            .unwrap_or_else(|| "unknown".into());
        Machine {
            cpu: field("model name").unwrap_or_else(|| "unknown".into()),
            cpus,
            flags,
            rustc: command_output("rustc", &["-V"], workspace).unwrap_or_else(|| "unknown".into()),
            commit,
        }
    }

    /// The flags that matter to these decoders (SIMD and bit-manipulation).
    pub fn simd_flags(&self) -> Vec<&str> {
        const RELEVANT: [&str; 12] = [
            "sse2",
            "ssse3",
            "sse4_1",
            "sse4_2",
            "avx",
            "avx2",
            "bmi1",
            "bmi2",
            "avx512f",
            "avx512bw",
            "avx512vbmi",
            "neon",
        ];
        self.flags.iter().map(String::as_str).filter(|f| RELEVANT.contains(f)).collect()
    }
}

/// A corpus as the report describes it.
#[derive(Clone, Debug)]
pub struct CorpusInfo {
    /// Its name.
    pub name: String,
    /// Its one-line summary.
    pub summary: String,
    /// Its length in UTF-8 bytes.
    pub utf8_bytes: usize,
    /// Its length in scalar values.
    pub chars: usize,
}

fn ratio_cell(gbps: f64, ratio: Option<f64>) -> String {
    match ratio {
        Some(r) => format!("{gbps:.2} ({r:.2}x)"),
        None => format!("{gbps:.2}"),
    }
}

const GROUPS: [(&str, &str); 4] = [
    ("validate", "Validation: is the input valid? `table` is the generated validator (`Decoder::validate` of the codec type)."),
    ("decode", "Decoding to values (`Vec<u32>`, reused). `std` = `from_utf8` + `chars()`; `std-chars` = `chars()` on text already validated; `encoding_rs` decodes to UTF-16."),
    ("decode_lossy", "Lossy decoding to values, one U+FFFD per maximal subpart; `mutated` is `mixed` damaged about every 64 bytes. `std` = `String::from_utf8_lossy` + `chars()`; `encoding_rs` decodes to UTF-16 with replacement."),
    ("encode", "Encoding values into a reused buffer. `std` = `String::push` per `char`; `std-encode_utf8` = `char::encode_utf8`; `encoder` = the generated `Encoder::encode`; `encode_all` = `Encoder::encode_all` (zero-fills the worst-case buffer first)."),
];

/// The directions of the `utf16` group: id prefix, baseline, what it measures.
const UTF16: [(&str, &str, &str); 3] = [
    ("to_utf8", "encoding_rs", "UTF-16LE bytes to UTF-8, as `placemat transcode --from utf16le --to utf8`. Baseline: encoding_rs's `UTF_16LE` decoder, which writes UTF-8."),
    ("from_utf8", "encoding_rs", "UTF-8 to UTF-16LE, as `placemat transcode --from utf8 --to utf16le`. Baseline: `encoding_rs::mem::convert_str_to_utf16` (WHATWG encoders never write UTF-16, so this is encoding_rs's converter for UTF-16 in memory)."),
    ("validate", "std", "Is the UTF-16LE input valid? Baseline: `String::from_utf16` on the same code units as `u16`s (it also builds the UTF-8 string)."),
];

/// The `utf16` group, one table per direction: GB/s of the input, and in
/// parentheses the speed relative to that direction's baseline on the same text.
fn write_utf16(md: &mut String, results: &Results, order: &[String]) {
    let group = "utf16";
    let corpora: Vec<String> = order.iter().filter(|c| results.corpora(group).contains(c)).cloned().collect();
    if corpora.is_empty() {
        return;
    }
    md.push_str(
        "## Transcoding UTF-16

`transcoder` is the CLI's engine (`placemat_codec::io::Transcoder`: runs of \
         ASCII without values, blocks of values between the codecs' bulk decoder and encoder, one value at a time \
         where those stop; `papers/transcoding.md`); `generated` decodes with one codec's table walker into values and encodes them \
         with the other codec's generated encoder; `table` and `branching` are `utf16le`'s validators. GB/s of the \
         input, and in parentheses the speed relative to the direction's baseline on the same text.\n\n",
    );
    for (direction, baseline, what) in UTF16 {
        let prefix = format!("{direction}-");
        let imps: Vec<String> = results.implementations(group).into_iter().filter(|i| i.starts_with(&prefix)).collect();
        let base = format!("{prefix}{baseline}");
        let _ = writeln!(md, "### `{direction}`\n\n{what}\n");
        table(md, &corpora, &imps, |imp, c| {
            results.get(group, imp, c).map(|m| ratio_cell(m.gbps(), results.speedup(group, imp, &base, c)))
        });
        md.push('\n');
    }
}

/// Writes the report and its figures under `papers_dir`, and the figures of
/// `simd.md` between its markers ([`super::simd_figures`]); returns the
/// report path.
pub fn write_report(
    results: &Results,
    machine: &Machine,
    corpora: &[CorpusInfo],
    papers_dir: &Path,
) -> io::Result<PathBuf> {
    let figures = papers_dir.join("figures");
    std::fs::create_dir_all(&figures)?;
    let order: Vec<String> = corpora.iter().map(|c| c.name.clone()).collect();
    let mut md = String::new();
    let _ = writeln!(md, "Regenerate with `{COMMAND}` (from the workspace root).\n");
    md.push_str("# placemat benchmarks\n\n");
    md.push_str(
        "Every generated strategy of every codec on the same texts, beside the best decoders for strict UTF-8, \
         each group (`validate`, `decode`, ...) measured in one criterion run, where every ratio is taken (a \
         group may be rerun alone after a change it measures). Throughput is in GB/s (10^9 bytes of *that codec's encoding* per second); \
         a ratio `(1.50x)` is speed relative to the group's `std` baseline on the same corpus in the same run. \
         On a shared 2-core machine absolute numbers drift by 10-30 % between runs; ratios measured back to back \
         drift less (see `benches/BENCHMARKING.md`).\n\n",
    );

    md.push_str("## Machine and commands\n\n");
    let _ = writeln!(md, "- CPU: {} ({} logical CPUs)", machine.cpu, machine.cpus);
    let _ = writeln!(md, "- SIMD/bit flags: {}", machine.simd_flags().join(" "));
    let _ = writeln!(md, "- Compiler: {}; commit {}", machine.rustc, machine.commit);
    let _ = writeln!(
        md,
        "- Benchmarks: `{BENCH_COMMAND}` (criterion, 10 samples in 0.8 s after a 0.2 s warm-up, per benchmark)"
    );
    let _ = writeln!(
        md,
        "- Report: `cargo run --release -p placemat-benches --bin bench-report` (reads `target/criterion`)"
    );
    let _ = writeln!(md, "- Both at once: `{COMMAND}`\n");
    let _ = writeln!(md, "<details><summary>all CPU flags</summary>\n\n{}\n\n</details>\n", machine.flags.join(" "));

    md.push_str(
        "## Corpora\n\n| corpus | bytes (UTF-8) | scalar values | bytes/value | what |\n|---|---:|---:|---:|---|\n",
    );
    for c in corpora {
        let _ = writeln!(
            md,
            "| `{}` | {} | {} | {:.2} | {} |",
            c.name,
            c.utf8_bytes,
            c.chars,
            c.utf8_bytes as f64 / c.chars.max(1) as f64,
            c.summary
        );
    }
    md.push_str("\nGenerated by `placemat_variants::corpus` from the project's own word lists with fixed seeds; no 4 KiB window repeats within 64 KiB.\n\n");
    md.push_str(STRATEGIES);

    write_targets(&mut md, results);

    for (group, what) in GROUPS {
        let mut corpora_here: Vec<String> =
            order.iter().filter(|c| results.corpora(group).contains(c)).cloned().collect();
        for c in results.corpora(group) {
            if !corpora_here.contains(&c) {
                corpora_here.insert(0, c);
            }
        }
        if corpora_here.is_empty() {
            continue;
        }
        let _ = writeln!(md, "## `{group}`: strict UTF-8\n\n{what}\n");
        let imps: Vec<String> = results.implementations(group).into_iter().filter(|i| !i.contains(':')).collect();
        table(&mut md, &corpora_here, &imps, |imp, c| {
            results.get(group, imp, c).map(|m| ratio_cell(m.gbps(), results.speedup(group, imp, "std", c)))
        });
        let variants: Vec<String> = results.implementations(group).into_iter().filter(|i| i.contains(':')).collect();
        if !variants.is_empty() {
            let _ = writeln!(
                md,
                "\n### `{group}`: the other codecs\n\nGB/s of each codec's own encoding, and in parentheses the time of utf8's same strategy divided by this one's on the same text (1.00x = as fast as strict UTF-8; the target is at least 0.67x).\n"
            );
            table(&mut md, &corpora_here, &variants, |imp, c| {
                let strategy = imp.split_once(':').map_or(imp, |(_, s)| s);
                results.get(group, imp, c).map(|m| ratio_cell(m.gbps(), results.speedup(group, imp, strategy, c)))
            });
        }
        md.push('\n');
    }

    write_utf16(&mut md, results, &order);

    let path = papers_dir.join("benchmarks.md");
    // The matrix of every pair is measured apart (`pair-matrix`): kept as it was.
    let before = std::fs::read_to_string(&path).ok();
    md.push_str(&crate::report::pairs::section(&crate::report::pairs::carried(before.as_deref())));
    md.push('\n');

    md.push_str("## Figures\n\n");
    for f in write_figures(results, &order, &figures)? {
        let _ = writeln!(md, "![{f}](figures/{f})\n");
    }
    std::fs::write(&path, md)?;
    // `simd.md`'s figures come from the same run, between its markers.
    let simd_page = papers_dir.join("simd.md");
    if let Ok(page) = std::fs::read_to_string(&simd_page) {
        if let Some(page) = super::simd_figures::splice(&page, &super::simd_figures::render(results, &order)) {
            std::fs::write(&simd_page, page)?;
        }
    }
    Ok(path)
}

fn table(md: &mut String, corpora: &[String], rows: &[String], cell: impl Fn(&str, &str) -> Option<String>) {
    let _ = writeln!(md, "| implementation | {} |", corpora.join(" | "));
    let _ = writeln!(md, "|---|{}", "---:|".repeat(corpora.len()));
    for r in rows {
        let cells: Vec<String> = corpora.iter().map(|c| cell(r, c).unwrap_or_else(|| "-".into())).collect();
        let _ = writeln!(md, "| `{r}` | {} |", cells.join(" | "));
    }
}

fn write_targets(md: &mut String, results: &Results) {
    let checked = check_targets(results);
    md.push_str("## Targets\n\nSpeed ratios (time of the baseline / time of the implementation) on each corpus, from this run.\n\n");
    md.push_str("| target | met | ratios |\n|---|---|---|\n");
    for t in &checked {
        let ratios: Vec<String> = t
            .ratios
            .iter()
            .map(|(c, r)| match r {
                Some(r) => format!("{c} {r:.2}"),
                None => format!("{c} -"),
            })
            .collect();
        let _ = writeln!(
            md,
            "| {} (`{}` vs `{}`, >= {:.2}x) | {} | {} |",
            t.target.text,
            t.target.implementation,
            t.target.baseline,
            t.target.min,
            if t.met() { "yes" } else { "**no**" },
            ratios.join(", ")
        );
    }
    let missed: Vec<_> = checked.iter().filter(|t| !t.met()).collect();
    if missed.is_empty() {
        md.push_str("\nEvery target was met in this run.\n\n");
        return;
    }
    md.push_str("\n### Missed targets: by how much, and why\n\n");
    for t in missed {
        let misses: Vec<String> =
            t.misses().iter().map(|(c, short)| format!("{c} {:.0} % short", 100.0 * short)).collect();
        let unmeasured: Vec<&str> = t.ratios.iter().filter(|(_, r)| r.is_none()).map(|(c, _)| *c).collect();
        let _ = write!(md, "- **{}**: ", t.target.text);
        if !misses.is_empty() {
            let _ = write!(md, "{}. ", misses.join(", "));
        }
        if !unmeasured.is_empty() {
            let _ = write!(md, "Not measured: {}. ", unmeasured.join(", "));
        }
        let _ = writeln!(md, "{}", t.target.why);
    }
    md.push('\n');
}

fn series(results: &Results, group: &str, imps: &[String], corpora: &[String]) -> Vec<(String, Vec<Option<f64>>)> {
    imps.iter()
        .map(|i| (i.clone(), corpora.iter().map(|c| results.get(group, i, c).map(|m| m.gbps())).collect()))
        .collect()
}

/// Writes the SVG charts; returns their file names.
fn write_figures(results: &Results, order: &[String], dir: &Path) -> io::Result<Vec<String>> {
    let mut names = Vec::new();
    let source = format!("{COMMAND} (papers/benchmarks.md)");
    let mut save = |name: String, svg: String| -> io::Result<()> {
        std::fs::write(dir.join(&name), svg)?;
        names.push(name);
        Ok(())
    };
    // Strict UTF-8 beside its baselines.
    for group in ["validate", "decode", "encode"] {
        let imps: Vec<String> = results.implementations(group).into_iter().filter(|i| !i.contains(':')).collect();
        if imps.is_empty() {
            continue;
        }
        let title = format!("{group}: strict UTF-8, GB/s");
        save(format!("utf8-{group}.svg"), bar_chart(&title, &source, order, &series(results, group, &imps, order)))?;
    }
    // Table against branching, per codec.
    let mut codecs = vec![String::new()];
    for imp in results.implementations("decode") {
        if let Some((c, _)) = imp.split_once(':') {
            if !codecs.iter().any(|x| x == c) {
                codecs.push(c.to_string());
            }
        }
    }
    for codec in &codecs {
        let (label, prefix) =
            if codec.is_empty() { ("utf8", String::new()) } else { (codec.as_str(), format!("{codec}:")) };
        let imps = vec![format!("{prefix}table"), format!("{prefix}branching")];
        if imps.iter().all(|i| order.iter().all(|c| results.get("decode", i, c).is_none())) {
            continue;
        }
        let title = format!("decode, table vs branching: {label}, GB/s");
        save(
            format!("table-vs-branching-{label}.svg"),
            bar_chart(&title, &source, order, &series(results, "decode", &imps, order)),
        )?;
    }
    // Every codec side by side on the same text: speed relative to strict UTF-8.
    for (group, strategy) in
        [("validate", "table"), ("decode", "table"), ("decode", "branching"), ("encode", "encoder")]
    {
        let series: Vec<(String, Vec<Option<f64>>)> = codecs
            .iter()
            .map(|codec| {
                let imp = if codec.is_empty() { strategy.to_string() } else { format!("{codec}:{strategy}") };
                let label = if codec.is_empty() { "utf8".to_string() } else { codec.clone() };
                (label, order.iter().map(|c| results.speedup(group, &imp, strategy, c)).collect())
            })
            .collect();
        let title = format!("{group} ({strategy}): every codec on the same text, speed relative to utf8");
        save(format!("codecs-{group}-{strategy}.svg"), bar_chart(&title, &source, order, &series))?;
    }
    Ok(names)
}
