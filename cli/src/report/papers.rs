//! `placemat report [--out DIR]`: regenerates `DIR/comparison.md` (and
//! `DIR/utf1.md`, the three designs of 1992 side by side), its SVG charts
//! (`DIR/comparison/*.svg`) and the automata's Graphviz pictures
//! (`DIR/comparison/automata/<codec>.dot`, rendered to `.svg` when `dot` is
//! installed), all from one run of the same analysis as `placemat compare`. Without
//! `--out`, it writes into `papers/` only when run at the workspace's root.

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use placemat_codec::DynCodec;
use placemat_compiler::analysis::structure::FormSummary;
use placemat_compiler::analysis::units::{self, UnitRoles};
use placemat_compiler::analysis::{Analysis, Bound, Mutation, Verdict};
use placemat_compiler::listing::dot;
use placemat_compiler::model::{Layout, Model, UnitPattern, UnitSet};
use placemat_compiler::Description;
use placemat_variants::{corpus, registry};

use super::{chart, utf1};
use crate::compare::{self, Format};
use crate::{CliError, CliResult};

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

/// The two codecs the story compares: the X/Open proposal and its redesign.
const XOPEN: &str = "fss-utf-xopen";
const PLAN9: &str = "fss-utf-plan9";

/// The model behind the codec called `name`, parsed back from its description.
fn model_of(codecs: &[&dyn DynCodec], name: &str) -> Option<Model> {
    let codec = codecs.iter().find(|c| c.info().name == name)?;
    Description::parse_str(codec.description()).ok().map(|d| d.model)
}

/// A unit pattern as bits, most significant first, `x` for a payload bit.
fn pattern_text(p: &UnitPattern, width: u32) -> String {
    (0..width)
        .rev()
        .map(|bit| match (p.fixed_mask >> bit & 1, p.fixed_bits >> bit & 1) {
            (0, _) => 'x',
            (_, 1) => '1',
            _ => '0',
        })
        .collect()
}

/// A set of byte units as hex ranges: `00–7F, C2–DF`.
fn units_ranges(set: &UnitSet) -> String {
    let runs: Vec<String> = units::ranges(set)
        .into_iter()
        .map(|(first, last)| if first == last { format!("{first:02X}") } else { format!("{first:02X}–{last:02X}") })
        .collect();
    runs.join(", ")
}

/// Units per value of the form holding `v`, if any.
fn length_of(forms: &[FormSummary], v: u128) -> Option<usize> {
    forms
        .iter()
        .find(|f| u128::try_from(&f.lo).is_ok_and(|lo| lo <= v) && u128::try_from(&f.hi).is_ok_and(|hi| v <= hi))
        .map(|f| f.units)
}

/// The value intervals up to `limit` on which codec `a` spells a value in fewer
/// units than codec `b`, as `(first, last, units in a, units in b)`.
fn shorter_in(a: &[FormSummary], b: &[FormSummary], limit: u128) -> Vec<(u128, u128, usize, usize)> {
    let mut cuts: Vec<u128> =
        a.iter().chain(b).filter_map(|f| u128::try_from(&f.lo).ok()).filter(|&lo| lo <= limit).collect();
    cuts.push(limit + 1);
    cuts.sort_unstable();
    cuts.dedup();
    let mut out: Vec<(u128, u128, usize, usize)> = Vec::new();
    for w in cuts.windows(2) {
        let (first, last) = (w[0], w[1] - 1);
        let (Some(la), Some(lb)) = (length_of(a, first), length_of(b, first)) else { continue };
        if la >= lb {
            continue;
        }
        match out.last_mut() {
            Some(prev) if prev.1 + 1 == first && (prev.2, prev.3) == (la, lb) => prev.1 = last,
            _ => out.push((first, last, la, lb)),
        }
    }
    out
}

/// `U+0800–U+207F in 2 bytes where <other> needs 3, and …`.
fn intervals_text(intervals: &[(u128, u128, usize, usize)], other: &str) -> String {
    let parts: Vec<String> = intervals
        .iter()
        .enumerate()
        .map(|(i, &(lo, hi, la, lb))| {
            if i == 0 {
                format!("U+{lo:04X}–U+{hi:04X} in {la} bytes where {other} needs {lb}")
            } else {
                format!("U+{lo:04X}–U+{hi:04X} in {la} where it needs {lb}")
            }
        })
        .collect();
    match parts.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The two codecs the story compares, with their analyses and unit roles.
struct Pair<'a> {
    x: &'a Analysis,
    p: &'a Analysis,
    xm: Model,
    xu: UnitRoles,
    pu: UnitRoles,
}

/// The story of the X/Open proposal and its redesign, told with the numbers just
/// computed. Every fact in it is read off the two models or the analyses; a
/// sentence whose premise the numbers do not bear out is left out.
fn story(s: &mut String, codecs: &[&dyn DynCodec], analyses: &[Analysis]) {
    let (Some(x), Some(p)) = (find(analyses, XOPEN), find(analyses, PLAN9)) else {
        return;
    };
    let (Some(xm), Some(pm)) = (model_of(codecs, XOPEN), model_of(codecs, PLAN9)) else {
        return;
    };
    let (Some(xu), Some(pu)) = (UnitRoles::of(&xm), UnitRoles::of(&pm)) else {
        return;
    };
    let pair = Pair { x, p, xm, xu, pu };
    let _ = writeln!(s, "## The X/Open proposal and its redesign, in numbers\n");
    story_structure(s, &pair);
    story_measurements(s, &pair);
    story_size(s, &pair);
    story_order(s, &pair, analyses);
}

/// File-system safety, and why X/Open does not resynchronize.
fn story_structure(s: &mut String, pair: &Pair<'_>) {
    let Pair { x, p, xu, pu, .. } = pair;
    let mut para = format!(
        "X/Open's FSS-UTF proposal (`{XOPEN}`) already met the requirement its name carries: the analysis finds it \
         ASCII-transparent ({}) and file-system safe ({})",
        x.structure.ascii_transparent.short(),
        x.structure.fs_safe.short(),
    );
    if let Some(m) = xu.multi_min.filter(|&m| m >= 0x80) {
        let _ = write!(para, ", because no byte below {m:02X} occurs in a sequence of two or more bytes");
    }
    para.push('.');
    let shared = xu.shared();
    if !units::is_empty(&shared) {
        let _ = write!(
            para,
            " Its continuation bytes are {}, and {} of them also start sequences, so a decoder dropped into the \
             middle of a stream cannot always tell where a character starts:",
            units_ranges(&xu.cont),
            units_ranges(&shared),
        );
        match x.sync.as_ref().map(|s| s.bound) {
            Ok(Bound::Unbounded) => {
                let _ = write!(
                    para,
                    " the subset construction over its {}-state automaton finds that the doubt can last forever \
                     ({}; witness `{}`: a run of such bytes splits into characters in more than one way for as long \
                     as it lasts).",
                    x.automaton.states,
                    bound(x),
                    witness(x),
                );
            }
            Ok(Bound::Units(_)) => {
                let _ = write!(
                    para,
                    " the subset construction over its {}-state automaton finds that a boundary is certain only \
                     after {} (witness `{}`).",
                    x.automaton.states,
                    bound(x),
                    witness(x),
                );
            }
            Err(_) => {
                let _ = write!(para, " the exact bound was {}.", bound(x));
            }
        }
    }
    let _ = write!(para, " Its redesign, `{PLAN9}`,");
    match pu.cont_pattern() {
        Some(pat) if units::is_empty(&pu.shared()) => {
            let _ = write!(
                para,
                " writes every continuation byte as `{}` ({}), which no lead byte matches;",
                pattern_text(pat, pu.width),
                units_ranges(&pu.cont),
            );
        }
        _ => {}
    }
    let _ = write!(para, " its bound is {} (witness `{}`)", bound(p), witness(p));
    let longest_run = p.structure.max_units.map(|n| n.saturating_sub(1));
    match (p.sync.as_ref().ok().and_then(|s| s.bound.units()), longest_run) {
        (Some(b), Some(run)) if b == run => {
            let _ = write!(para, ", that is, the longest run of continuation bytes a sequence can have ({run})");
        }
        _ => {}
    }
    para.push_str(".\n");
    let _ = writeln!(s, "{para}");
}

/// Realignment and error spread, measured.
fn story_measurements(s: &mut String, pair: &Pair<'_>) {
    let Pair { x, p, xu, .. } = pair;
    let shared = xu.shared();
    let drop = |a: &Analysis| a.spread(Mutation::Drop);
    let (xr, pr) = (x.realignment(), p.realignment());
    let (xd, pd) = (drop(x), drop(p));
    let mut para = format!(
        "The empirical side: restarted at {} random offsets of the corpora, the X/Open decoder needed up to {} units \
         (mean {:.2}) before its sequence boundaries matched the true ones again, the redesign's at most {} (mean \
         {:.2}). One dropped byte damaged {:.2} decoded characters on average in X/Open (99th percentile {}, worst \
         {}) against {:.2} (99th percentile {}, worst {}) after the redesign.",
        xr.samples, xr.max, xr.mean, pr.max, pr.mean, xd.mean, xd.p99, xd.max, pd.mean, pd.p99, pd.max,
    );
    let never_cont = units::complement(&xu.cont);
    if !units::is_empty(&shared) && !units::is_empty(&never_cont) {
        let _ = write!(
            para,
            " The only bytes that never continue an X/Open sequence are {}: a misaligned X/Open decoder gets back in \
             step when one of them comes by, or by luck (its misreading happens to end where a true character ends), \
             so its bad cases last as long as the runs of bytes from {}.",
            units_ranges(&never_cont),
            units_ranges(&xu.cont),
        );
    }
    para.push('\n');
    let _ = writeln!(s, "{para}");
}

/// What the marker bits cost in size.
fn story_size(s: &mut String, pair: &Pair<'_>) {
    let Pair { x, p, xm, xu, pu } = pair;
    let mut para = String::new();
    if let (Some(xc), Some(pc)) = (xu.cont_pattern(), pu.cont_pattern()) {
        if xc.payload_bits > pc.payload_bits {
            let _ = write!(
                para,
                "The price of the marker bits is size: X/Open's continuation bytes carry {} payload bits, the \
                 redesign's {}",
                xc.payload_bits, pc.payload_bits,
            );
            if xm.layout == Layout::Biased {
                para.push_str(", and X/Open's forms are biased, so no value has a second, overlong spelling");
            }
            para.push_str(". ");
        }
    }
    let limit = u128::from(u32::from(char::MAX));
    let gains = shorter_in(&x.structure.forms, &p.structure.forms, limit);
    let losses = shorter_in(&p.structure.forms, &x.structure.forms, limit);
    if !gains.is_empty() {
        let _ = write!(
            para,
            "Among the values up to U+{limit:X}, X/Open spells {}",
            intervals_text(&gains, "the redesign")
        );
        if !losses.is_empty() {
            let _ = write!(para, "; the redesign spells {}", intervals_text(&losses, "X/Open"));
        }
        para.push_str(". ");
    }
    let mut sizes: Vec<(String, f64, f64)> = Vec::new();
    for (xc, pc) in x.corpora.iter().zip(&p.corpora) {
        if xc.size.corpus == pc.size.corpus {
            sizes.push((xc.size.corpus.clone(), xc.size.units_per_value(), pc.size.units_per_value()));
        }
    }
    if !sizes.is_empty() {
        let list: Vec<String> = sizes.iter().map(|(n, a, b)| format!("{n} {a:.3} against {b:.3}")).collect();
        let _ = write!(para, "In bytes per character (X/Open against the redesign): {}.", list.join(", "));
        let best =
            sizes.iter().filter(|(_, a, b)| a < b).max_by(|l, r| (1.0 - l.1 / l.2).total_cmp(&(1.0 - r.1 / r.2)));
        if let Some((name, a, b)) = best {
            let _ = write!(para, " The largest saving is on `{name}`: {:.1}% fewer bytes.", 100.0 * (1.0 - a / b));
        }
        para.push(' ');
    }
    let _ = writeln!(
        para,
        "The automata: {} classes and {} states ({} table bytes) for X/Open, {} classes and {} states ({} bytes) for \
         the redesign.",
        x.automaton.classes,
        x.automaton.states,
        x.automaton.table_bytes,
        p.automaton.classes,
        p.automaton.states,
        p.automaton.table_bytes,
    );
    let _ = writeln!(s, "{para}");
}

/// Byte order against value order.
fn story_order(s: &mut String, pair: &Pair<'_>, analyses: &[Analysis]) {
    let Pair { x, p, .. } = pair;
    let ordered: Vec<&str> =
        analyses.iter().filter(|a| a.structure.order_preserving.is_yes()).map(|a| a.name.as_str()).collect();
    let (xo, po) = (&x.structure.order_preserving, &p.structure.order_preserving);
    let lead = if xo.is_yes() && po.is_yes() {
        "Both also keep byte order equal to value order: sorting encodings byte by byte sorts the values.".to_string()
    } else {
        format!(
            "Sorting encodings byte by byte sorts the values in X/Open: {}; in the redesign: {}.",
            xo.short(),
            po.short()
        )
    };
    let _ = writeln!(
        s,
        "{lead} Of the {} codecs here, {} have that property ({}).\n",
        analyses.len(),
        ordered.len(),
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
            ("canonical (one encoding per value)", &st.canonical),
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
        let automaton =
            placemat_compiler::automaton_of(*codec).map_err(|e| CliError::Message(format!("{name}: {e}")))?;
        let text = dot(&name, &automaton);
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
        "Every number and property below is computed from the codecs' descriptions (the model and its automaton) \
         or measured on the built-in corpora (`placemat_variants::corpus`: {} texts, each generated with a fixed \
         seed until its UTF-8 form reaches {} MiB); none is typed in. The same analysis prints as a table with \
         `cargo run --release -- compare`. What each codec is and where it comes from: \
         `papers/specs/encodings.md`.\n",
        corpora.len(),
        corpus::TARGET_BYTES >> 20,
    );
    story(&mut s, codecs, analyses);
    let _ = writeln!(s, "## All properties\n");
    let _ = writeln!(s, "Command: `cargo run --release -- compare --format markdown`\n");
    s.push_str(&compare::render(&compare::grid(analyses), Format::Markdown, 0));
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
    if let Some(page) = utf1::render(analyses, COMMAND) {
        write(&out_dir.join(utf1::FILE), &page)?;
        files.insert(1, utf1::FILE.to_string());
    }
    Ok(files)
}

/// Whether the current directory is the root of the placemat workspace: a
/// `Cargo.toml` with a `[workspace]` table next to `papers/comparison.md`.
fn at_workspace_root() -> bool {
    let manifest = std::fs::read_to_string("Cargo.toml").unwrap_or_default();
    manifest.lines().any(|l| l.trim() == "[workspace]") && Path::new("papers/comparison.md").is_file()
}

/// The directory to write into: `--out`, or `papers` at the workspace's root.
fn out_dir(out: Option<&str>) -> Result<&str, CliError> {
    match out {
        Some(dir) => Ok(dir),
        None if at_workspace_root() => Ok("papers"),
        None => Err(CliError::usage(
            "without `--out DIR`, `report` writes into `papers/` and only at the root of the placemat workspace; \
             give `--out DIR`",
        )),
    }
}

/// `placemat report [--out DIR]`: analyses every built-in codec and writes the report.
pub fn run(out_dir_arg: Option<&str>, out: &mut dyn Write) -> CliResult {
    let out_dir = out_dir(out_dir_arg)?;
    let codecs: Vec<&dyn DynCodec> = registry::all().to_vec();
    let analyses = compare::analyse(&codecs)?;
    let files = generate(&codecs, &analyses, Path::new(out_dir))?;
    for f in files {
        writeln!(out, "{}", Path::new(out_dir).join(f).display())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(name: &str) -> Model {
        let codec = registry::find(name).expect("built-in codec");
        Description::parse_str(codec.description()).expect("description parses").model
    }

    #[test]
    fn unit_roles_follow_the_forms() {
        let u = UnitRoles::of(&model("utf8")).unwrap();
        assert_eq!(units_ranges(&u.lead), "00–7F, C2–F4");
        assert_eq!(units_ranges(&u.cont), "80–BF");
        assert_eq!(u.multi_min, Some(0x80));
        assert_eq!(pattern_text(u.cont_pattern().unwrap(), u.width), "10xxxxxx");

        let x = UnitRoles::of(&model(XOPEN)).unwrap();
        assert_eq!(units_ranges(&x.lead), "00–F7");
        assert_eq!(units_ranges(&x.cont), "80–FF");
        assert_eq!(units_ranges(&units::complement(&x.cont)), "00–7F");
        assert_eq!(x.cont_pattern().map(|p| p.payload_bits), Some(7));

        // Leads FC–FF in the draft; FE and FF unused in the mailed version.
        assert_eq!(units_ranges(&UnitRoles::of(&model("ken-draft")).unwrap().lead), "00–7F, C2–FF");
        assert_eq!(units_ranges(&UnitRoles::of(&model(PLAN9)).unwrap().lead), "00–7F, C2–FD");

        // Printable units are alphabet positions spelled as ASCII bytes.
        let six = UnitRoles::of(&model("printable6-big")).unwrap();
        assert_eq!(six.width, 6);
        assert!(
            units::contains(&six.lead, b'A') && !units::contains(&six.lead, b'@') && units::contains(&six.cont, b'@')
        );
    }

    #[test]
    fn shorter_intervals_come_from_the_form_tables() {
        let analyse = |name: &str| placemat_compiler::analysis::structure::analyze(&model(name)).forms;
        let (x, p) = (analyse(XOPEN), analyse(PLAN9));
        let limit = u128::from(u32::from(char::MAX));
        assert_eq!(shorter_in(&x, &p, limit), [(0x800, 0x207F, 2, 3), (0x10000, 0x8207F, 3, 4)]);
        assert_eq!(shorter_in(&p, &x, limit), []);
        assert_eq!(
            intervals_text(&shorter_in(&x, &p, limit), "B"),
            "U+0800–U+207F in 2 bytes where B needs 3 and U+10000–U+8207F in 3 where it needs 4"
        );
    }
}
