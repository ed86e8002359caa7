//! `placemat report [--out DIR]`: regenerates `DIR/comparison.md`, its SVG charts
//! (`DIR/comparison/*.svg`) and the automata's Graphviz pictures
//! (`DIR/comparison/automata/<codec>.dot`, rendered to `.svg` when `dot` is
//! installed), all from one run of the same analysis as `placemat compare`.

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use placemat_codec::build::analysis::{Analysis, Bound, Mutation, Verdict};
use placemat_codec::build::tables::dot;
use placemat_codec::DynCodec;

use super::compare::{self, Format};
use super::{chart, CliError, CliResult};
use crate::registry;

/// The command that regenerates the report.
const COMMAND: &str = "cargo run --release -- report --out papers";

fn io(path: &Path, e: std::io::Error) -> CliError {
    CliError::msg(format!("cannot write `{}`: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> CliResult {
    std::fs::write(path, text).map_err(|e| io(path, e))
}

/// Renders `dot_text` to SVG with Graphviz, if it is installed.
fn render_dot(dot_text: &str) -> Option<String> {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(dot_text.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn find<'a>(analyses: &'a [Analysis], name: &str) -> Option<&'a Analysis> {
    analyses.iter().find(|a| a.name == name)
}

fn bound(a: &Analysis) -> String {
    match &a.sync {
        Ok(s) => match s.bound {
            Bound::Units(n) => format!("{n} unit{}", if n == 1 { "" } else { "s" }),
            Bound::Unbounded => "unbounded".into(),
        },
        Err(e) => format!("not computed ({e})"),
    }
}

fn witness(a: &Analysis) -> String {
    a.sync.as_ref().map(|s| s.witness_text()).unwrap_or_default()
}

/// The story of September 1992, told with the numbers just computed.
fn story(s: &mut String, analyses: &[Analysis]) {
    let (Some(x), Some(p)) = (find(analyses, "fss-utf-xopen"), find(analyses, "fss-utf-plan9")) else {
        return;
    };
    let drop = |a: &Analysis| a.spread(Mutation::Drop);
    let corpus_pair = |name: &str| {
        let i = x.corpora.iter().position(|c| c.size.corpus == name)?;
        Some((x.corpora[i].size.units_per_value(), p.corpora[i].size.units_per_value()))
    };
    let _ = writeln!(s, "## September 1992 in numbers\n");
    let _ = writeln!(
        s,
        "X/Open's FSS-UTF proposal already met the requirement its name carries: the analysis finds it \
         ASCII-transparent ({}) and file-system safe ({}), because every byte of a multi-byte sequence has its \
         high bit set. What it lacked is visible in its continuation bytes, which are any byte from 80 up and so \
         look exactly like lead bytes. Dropped into the middle of a stream, a decoder cannot tell where a \
         character starts: the subset construction over its {}-state automaton finds the doubt can last \
         forever ({}; witness `{}`: a run of such bytes splits into characters in more than one way for as long \
         as it lasts). Thompson's redesign (drafted on 2 September, mailed to X/Open on the 8th as `fss-utf-plan9`) marks \
         every continuation byte `10xxxxxx`; its bound is {} (witness `{}`), that is, no more than the longest \
         run of continuation bytes a sequence can have.\n",
        x.structure.ascii_transparent.short(),
        x.structure.fs_safe.short(),
        x.automaton.states,
        bound(x),
        witness(x),
        bound(p),
        witness(p),
    );
    let (xr, pr) = (x.realignment(), p.realignment());
    let (xd, pd) = (drop(x), drop(p));
    let _ = writeln!(
        s,
        "The empirical side agrees. Restarted at {} random offsets of the corpora, the X/Open decoder needed up to \
         {} units (mean {:.2}) before its sequence boundaries matched the true ones again, the Plan 9 decoder at \
         most {} (mean {:.2}). One dropped byte damaged {:.2} decoded characters on average in X/Open (99th \
         percentile {}, worst {}) against {:.2} (99th percentile {}, worst {}) after the redesign. A misaligned \
         X/Open decoder gets back in step only by luck (its misreading happens to end where a true character \
         ends) or when an ASCII byte comes by, so its bad cases last as long as the runs of non-ASCII text.\n",
        xr.samples, xr.max, xr.mean, pr.max, pr.mean, xd.mean, xd.p99, xd.max, pd.mean, pd.p99, pd.max,
    );
    let mut sizes = String::new();
    for name in ["russian", "chinese", "emoji", "random-scalars"] {
        if let Some((a, b)) = corpus_pair(name) {
            let _ = write!(sizes, "{}{name} {a:.3} against {b:.3}", if sizes.is_empty() { "" } else { ", " });
        }
    }
    let _ = writeln!(
        s,
        "The price of the marker bit is size. X/Open's continuation bytes carry 7 payload bits, the redesign's 6, \
         and X/Open's biased forms waste no codes on overlong spellings. In bytes per character (X/Open against \
         Plan 9): {sizes}. Where the two differ, X/Open's longer reach per length (its 3-byte form goes up to \
         U+8207F) saves a byte on characters that the redesign spells in 4 bytes, such as emoji. Both automata are small: {} classes and \
         {} states ({} table bytes) for X/Open, {} classes and {} states ({} bytes) for the redesign.\n",
        x.automaton.classes,
        x.automaton.states,
        x.automaton.table_bytes,
        p.automaton.classes,
        p.automaton.states,
        p.automaton.table_bytes,
    );
    let ordered: Vec<&str> =
        analyses.iter().filter(|a| a.structure.order_preserving.is_yes()).map(|a| a.name.as_str()).collect();
    let _ = writeln!(
        s,
        "Both keep a property nobody asked for in 1992: sorting encodings byte by byte sorts the values. It holds \
         for {} of the {} codecs here ({}).\n",
        ordered.len(),
        analyses.len(),
        ordered.join(", "),
    );
}

/// Every refuted or undecided property, with its witness.
fn witnesses(s: &mut String, analyses: &[Analysis]) {
    let _ = writeln!(s, "## Witnesses\n");
    let _ = writeln!(s, "Every \"no\" in the table comes with a counterexample found in the model:\n");
    for a in analyses {
        let st = &a.structure;
        let props = [
            ("prefix-free", &st.prefix_free),
            ("uniquely decodable", &st.uniquely_decodable),
            ("ASCII-transparent", &st.ascii_transparent),
            ("file-system safe", &st.fs_safe),
            ("order-preserving", &st.order_preserving),
        ];
        for (what, v) in props {
            match v {
                Verdict::Yes => {}
                Verdict::No(w) => {
                    let _ = writeln!(s, "- `{}` is not {what}: {w}.", a.name);
                }
                Verdict::Unknown(w) => {
                    let _ = writeln!(s, "- `{}`: {what} undecided ({w}).", a.name);
                }
            }
        }
        let _ = writeln!(s, "- `{}` self-synchronization: {} (worst case `{}`).", a.name, bound(a), witness(a));
        if let Some(n) = st.checked_units {
            let _ = writeln!(s, "- `{}` has unbounded values; its forms were examined up to {n} units.", a.name);
        }
    }
    s.push('\n');
}

/// Builds the whole report into `out_dir`, returning the files written.
pub fn generate(codecs: &[&dyn DynCodec], analyses: &[Analysis], out_dir: &Path) -> Result<Vec<String>, CliError> {
    let fig_dir = out_dir.join("comparison");
    let auto_dir = fig_dir.join("automata");
    std::fs::create_dir_all(&auto_dir).map_err(|e| io(&auto_dir, e))?;
    let mut files = Vec::new();
    let names: Vec<String> = analyses.iter().map(|a| a.name.clone()).collect();

    let corpora: Vec<String> =
        analyses.first().map(|a| a.corpora.iter().map(|c| c.size.corpus.clone()).collect()).unwrap_or_default();
    let sizes: Vec<Vec<f64>> =
        (0..corpora.len()).map(|i| analyses.iter().map(|a| a.corpora[i].size.units_per_value()).collect()).collect();
    let svg = chart::bars("Bytes per character", "bytes (units) per character", &corpora, &names, &sizes, 2);
    write(&fig_dir.join("bytes-per-char.svg"), &svg)?;
    files.push("comparison/bytes-per-char.svg".to_string());

    let kinds: Vec<String> = Mutation::ALL.iter().map(|m| format!("{} one unit", m.name())).collect();
    let spread: Vec<Vec<f64>> =
        Mutation::ALL.iter().map(|&m| analyses.iter().map(|a| a.spread(m).mean).collect()).collect();
    let svg = chart::bars(
        "Error spread: damaged characters per damaged unit (mean)",
        "decoded characters that differ",
        &kinds,
        &names,
        &spread,
        2,
    );
    write(&fig_dir.join("error-spread.svg"), &svg)?;
    files.push("comparison/error-spread.svg".to_string());

    let mut rendered = 0;
    for codec in codecs {
        let name = codec.info().name.to_string();
        let text = dot(&name, &codec.dfa());
        write(&auto_dir.join(format!("{name}.dot")), &text)?;
        files.push(format!("comparison/automata/{name}.dot"));
        if let Some(svg) = render_dot(&text) {
            write(&auto_dir.join(format!("{name}.svg")), &svg)?;
            files.push(format!("comparison/automata/{name}.svg"));
            rendered += 1;
        }
    }

    let mut s = String::new();
    let _ = writeln!(s, "# The encodings compared\n");
    let _ = writeln!(s, "Regenerate this file and its figures with:\n\n```sh\n{COMMAND}\n```\n");
    let _ = writeln!(
        s,
        "Every number below is computed from the codecs' descriptions (the model and its automaton) or measured on \
         the built-in corpora (`placemat_variants::corpus`, about 2 MiB each in UTF-8) with fixed seeds; none is \
         typed in. The same analysis prints as a table with `cargo run --release -- compare`.\n"
    );
    story(&mut s, analyses);
    let _ = writeln!(s, "## All properties\n");
    let _ = writeln!(s, "Command: `cargo run --release -- compare --format markdown`\n");
    s.push_str(&compare::render(&compare::grid(analyses), Format::Markdown));
    let _ = writeln!(
        s,
        "\nHow to read it: *self-sync* is the exact number of units a decoder dropped at an arbitrary unit of a \
         valid stream must read before some position is certainly a sequence boundary (∞: never, for some \
         stream). *Decoder realignment* restarts the codec's own lossy decoder at random offsets and counts the \
         units consumed before its boundaries coincide with the true ones. *Error spread* drops, flips (one bit) \
         or inserts one unit at a random offset and counts the decoded characters that differ from the \
         original. *File-system safe* means U+0000 and U+002F are the bytes 00 and 2F and those bytes occur in no \
         other encoding.\n"
    );
    witnesses(&mut s, analyses);
    let _ = writeln!(s, "## Bytes per character\n");
    let _ = writeln!(s, "![bytes per character](comparison/bytes-per-char.svg)\n");
    let _ = writeln!(s, "Command: `{COMMAND}` (figure `comparison/bytes-per-char.svg`).\n");
    let _ = writeln!(s, "## Error spread\n");
    let _ = writeln!(s, "![error spread](comparison/error-spread.svg)\n");
    let _ = writeln!(s, "Command: `{COMMAND}` (figure `comparison/error-spread.svg`).\n");
    let _ = writeln!(s, "## The automata\n");
    let _ = writeln!(
        s,
        "One picture per codec, the minimized decoding automaton (dead state left out; the double circle is the \
         start and accepting state). Command for one of them: `cargo run --release -- tables <codec> --dot | dot \
         -Tsvg`.{}\n",
        if rendered == codecs.len() {
            String::new()
        } else {
            " Graphviz was not installed when this report was generated, so only the `.dot` files exist; render \
             them with `dot -Tsvg FILE.dot > FILE.svg` (Debian/Ubuntu: `apt-get install graphviz`)."
                .to_string()
        }
    );
    for codec in codecs {
        let name = &codec.info().name;
        if rendered == codecs.len() {
            let _ = writeln!(s, "### `{name}`\n\n![{name} automaton](comparison/automata/{name}.svg)\n");
        } else {
            let _ = writeln!(s, "- `{name}`: [comparison/automata/{name}.dot](comparison/automata/{name}.dot)");
        }
    }
    write(&out_dir.join("comparison.md"), &s)?;
    files.insert(0, "comparison.md".to_string());
    Ok(files)
}

/// `placemat report [--out DIR]`: analyses every built-in codec and writes the report.
pub fn run(out_dir: &str, out: &mut dyn Write) -> CliResult {
    let codecs: Vec<&dyn DynCodec> = registry::all().to_vec();
    let analyses = compare::analyse(&codecs)?;
    let files = generate(&codecs, &analyses, Path::new(out_dir))?;
    for f in files {
        writeln!(out, "{}", Path::new(out_dir).join(f).display())?;
    }
    Ok(())
}
