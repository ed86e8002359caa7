//! The `placemat` binary, run as a process: each command, its output format (a
//! contract), and the helpers the other modules run it with (its error paths are
//! in `errors.rs`).

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the binary and checks it did not panic.
pub(crate) fn placemat(args: &[&str], stdin: &[u8]) -> Output {
    let out = placemat_env(args, stdin, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "placemat {args:?} panicked: {stderr}");
    out
}

/// Runs the binary with `env` added to its environment.
pub(crate) fn placemat_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_placemat"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().unwrap();
    // Fed from another thread, so that a command writing much before it has
    // read everything does not wait on a full pipe while the input waits on
    // it. The command may stop reading early (that is what some of these
    // tests check).
    let stdin = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().expect("the feeding thread does not panic");
    out
}

pub(crate) fn ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = placemat(args, stdin);
    assert!(out.status.success(), "placemat {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

pub(crate) fn fails(args: &[&str], stdin: &[u8]) -> (String, String) {
    let out = placemat(args, stdin);
    assert_eq!(out.status.code(), Some(1), "placemat {args:?} should exit 1");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("placemat: "), "{stderr}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

/// Runs a command that must fail with a usage error: exit 2, one line in the style
/// every usage error shares.
pub(crate) fn usage(args: &[&str], stdin: &[u8]) -> String {
    let out = placemat(args, stdin);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "placemat {args:?} should exit 2: {stderr}");
    assert!(stderr.starts_with("placemat: "), "{stderr}");
    assert!(stderr.trim_end().ends_with(" --help`)") && stderr.contains("(try `placemat "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(out.stdout.is_empty());
    stderr
}

pub(crate) fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

pub(crate) const SPEC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/descriptions/utf8.placemat");

#[test]
fn list_prints_name_two_spaces_summary() {
    let out = text(ok(&["list"], b""));
    let line = out.lines().find(|l| l.starts_with("utf8  ")).expect("utf8 is listed");
    assert!(line.contains("RFC 3629"));
    assert!(out.lines().all(|l| l.split_once("  ").is_some()));
}

#[test]
fn encode_writes_raw_units() {
    let out = ok(&["encode", "utf8"], b"U+41 U+3B1 U+4E16 U+1F600");
    assert_eq!(out, [0x41, 0xCE, 0xB1, 0xE4, 0xB8, 0x96, 0xF0, 0x9F, 0x98, 0x80]);
    // Tokens of any length, separated by any whitespace.
    assert_eq!(ok(&["encode", "utf8"], b"\n U+0000000041\tU+0\n"), b"A\0");
}

#[test]
fn encode_errors_name_the_token_and_its_index() {
    let (stdout, err) = fails(&["encode", "utf8"], b"U+41 U+D800 U+42");
    assert_eq!(stdout, "A", "values before the error are written");
    assert!(err.contains("token 2 `U+D800`"), "{err}");
    assert!(err.contains("U+0000..=U+10FFFF except U+D800..=U+DFFF"), "{err}");
    let (_, err) = fails(&["encode", "utf8"], b"U+41 0x4G");
    assert!(err.contains("token 2 `0x4G`") && err.contains("expected `U+`"), "{err}");
    let (_, err) = fails(&["encode", "utf8"], b"U+110000");
    assert!(err.contains("token 1"), "{err}");
    let (_, err) = fails(&["encode", "utf8"], b"U+1234567890ABCDEF12");
    assert!(err.contains("`U+1234567890ABCDEF12` at byte 0 cannot be encoded by utf8"), "{err}");
}

#[test]
fn printable6_must_show_examples() {
    let out = ok(
        &["transcode", "--from", "utf8", "--to", "printable6"],
        "lowercase Capitalized camelCase UPPERCASE ¥ € 🛶\n".as_bytes(),
    );
    assert_eq!(text(out), "lowercase Acapitalized camelAcase AuApApAeArAcAaAsAe Ee HEl C]WvBj");
    let forty = format!("U+{}", "F3A9".repeat(10));
    let units = ok(&["encode", "printable6-big"], format!("{forty} U+41").as_bytes());
    assert_eq!(text(ok(&["decode", "printable6-big"], &units)), format!("{forty}\nU+0041\n"));
    // Values above 64 bits survive a transcode between unbounded codecs, and a
    // bounded target refuses them by name.
    assert_eq!(ok(&["transcode", "--from", "printable6-big", "--to", "printable6-big"], &units), units);
    let (_, err) = fails(&["transcode", "--from", "printable6-big", "--to", "utf8"], &units);
    assert!(err.contains(&format!("{forty} (decoded at offset 0) cannot be encoded by utf8")), "{err}");
    // The Unicode profile refuses what is not a scalar value.
    let (_, err) = fails(&["encode", "printable6"], b"U+D800");
    assert!(err.contains("cannot be encoded by printable6"), "{err}");
}

#[test]
fn decode_prints_one_value_per_line() {
    let out = text(ok(&["decode", "utf8"], "Aα世😀".as_bytes()));
    assert_eq!(out, "U+0041\nU+03B1\nU+4E16\nU+1F600\n");
}

#[test]
fn decode_strict_stops_at_the_first_error_with_its_offset() {
    let (stdout, err) = fails(&["decode", "utf8"], b"ab\xE0\x80c");
    assert_eq!(stdout, "U+0061\nU+0062\n");
    assert!(err.contains("offset 2"), "{err}");
    assert!(err.contains("found E0 80") && err.contains("A0-BF"), "{err}");
    let (_, err) = fails(&["decode", "utf8"], b"a\xF0\x9F");
    assert!(err.contains("offset 1") && err.contains("end of the input"), "{err}");
}

#[test]
fn decode_replace_emits_one_replacement_per_maximal_subpart() {
    let input = [0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64];
    let out = text(ok(&["decode", "utf8", "--errors", "replace"], &input));
    assert_eq!(out, "U+0061\nU+FFFD\nU+FFFD\nU+FFFD\nU+0062\nU+FFFD\nU+0063\nU+FFFD\nU+FFFD\nU+0064\n");
}

#[test]
fn transcode_between_codecs_and_replace_mode() {
    let input = "naïve — 世界 😀".as_bytes();
    assert_eq!(ok(&["transcode", "--from", "utf8", "--to", "utf8"], input), input);
    let (stdout, err) = fails(&["transcode", "--from", "utf8", "--to", "utf8"], b"ok\xFFno");
    assert_eq!(stdout, "ok");
    assert!(err.contains("offset 2"), "{err}");
    assert_eq!(
        ok(&["transcode", "--from", "utf8", "--to", "utf8", "--errors", "replace"], b"ok\xFFno"),
        "ok\u{FFFD}no".as_bytes()
    );
    assert_eq!(ok(&["transcode", "--from", "utf8", "--spec", SPEC], input), input);
}

/// A large file is converted in segments on several threads: the output,
/// the error and the exit status are those of one pass (`--threads 1`), for
/// valid text, an error late in the file and replace mode, from UTF-8 and
/// from UTF-16 (whose cuts no sync unit places).
#[test]
fn a_large_file_converts_in_segments_as_in_one_pass() {
    let dir = temp_dir("segments");
    let text = "Съешь же ещё этих мягких булок 🎉 我能吞下玻璃 and some English. ".repeat(60_000);
    let utf16: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let mut bad = text.clone().into_bytes();
    let at = bad.len() - 1_000_003;
    bad[at] = 0xFF;
    for (name, bytes, from, to) in [
        ("valid", text.as_bytes(), "utf8", "utf16le"),
        ("bad", &bad[..], "utf8", "utf16le"),
        ("wide", &utf16[..], "utf16le", "utf8"),
    ] {
        assert!(bytes.len() > 4 << 20, "{name}: several segments");
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let path = path.to_str().unwrap();
        for mode in ["strict", "replace"] {
            let run = |threads: &str| {
                placemat(&["transcode", "--from", from, "--to", to, "--errors", mode, "--threads", threads, path], b"")
            };
            let one = run("1");
            for threads in ["2", "3"] {
                let split = run(threads);
                assert_eq!(split.status.code(), one.status.code(), "{name} {mode} {threads}");
                assert!(split.stdout == one.stdout, "{name} {mode} {threads}: the output differs");
                assert_eq!(split.stderr, one.stderr, "{name} {mode} {threads}");
            }
            if name == "bad" && mode == "strict" {
                let err = String::from_utf8_lossy(&one.stderr);
                assert!(err.contains(&format!("offset {at}")), "{err}");
            }
        }
    }
    assert_eq!(usage(&["transcode", "--from", "utf8", "--to", "utf8", "--threads", "0"], b"").lines().count(), 1);
}

#[test]
fn trace_prints_one_line_per_unit() {
    let out = text(ok(&["trace", "utf8"], b"a\xCE\xB1\xFF"));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("offset"));
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[2].contains("CE") && lines[2].contains("1 -> 2"), "{out}");
    assert!(lines[3].contains("2 -> 1") && lines[3].contains("U+03B1"), "{out}");
    assert!(lines[4].contains("U+FFFD") && lines[4].contains("offset 3"), "{out}");
}

#[test]
fn tables_report_12_classes_and_9_states() {
    let out = text(ok(&["tables", "utf8"], b""));
    assert!(out.starts_with("utf8: 12 unit classes, 9 states"), "{out}");
    assert!(out.contains("c6   E0\n"), "{out}");
    let dot = text(ok(&["tables", "utf8", "--dot"], b""));
    assert!(dot.starts_with("digraph \"utf8\" {") && dot.trim_end().ends_with('}'));
    assert!(dot.contains("s1 -> s3 [label=\"E0 /4\"]"), "{dot}");
}

/// `tables` says whether decoding behind SIMD validation has the SIMD
/// decoding kernel, and with which bases.
#[test]
fn tables_say_whether_the_simd_decoding_kernel_reads_the_codec() {
    let out = text(ok(&["tables", "utf8"], b""));
    assert!(out.contains("SIMD decoding kernel: yes; continuation units 80-BF, each worth itself less 80"), "{out}");
    assert!(out.contains("by sequence length: 1: 00, 2: C0, 3: E0, 4: F0\n"), "{out}");
    let plan9 = text(ok(&["tables", "fss-utf-plan9"], b""));
    assert!(plan9.contains("4: F0, 5: F8, 6: FC\n"), "{plan9}");
    // A local codec with a biased form: checked by SIMD, decoded without the kernel.
    let dir = std::env::temp_dir().join(format!("placemat-cli-kernel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("biased.placemat");
    std::fs::write(
        &spec,
        r#"pub Biased { name: "biased", summary: "a biased two-unit form", unit: byte, value: u32,
            layout: explicit, range: 0 ..= 0x5FF,
            forms: { 0 ..= 0x7F => "0xxxxxxx", 0x80 ..= 0x3FF => "1100xxxx 10xxxxxx",
                     0x400 ..= 0x5FF bias 0x400 => "11010xxx 10xxxxxx" } }"#,
    )
    .unwrap();
    let out = text(ok(&["tables", "--spec", spec.to_str().unwrap()], b""));
    assert!(out.contains("SIMD validation") && out.contains("SIMD decoding kernel: no;"), "{out}");
    assert!(!text(ok(&["tables", "cesu8"], b"")).contains("SIMD decoding"));
}

/// `tables` prints the encoder forms the one-pass conversion kernels write
/// with, as the compiler derived them: UTF-8's byte forms, UTF-16's wide
/// forms, a varint's one-unit form, none for UTF-1.
#[test]
fn tables_print_the_forms_of_one_pass_conversion() {
    let forms = |codec: &str| {
        let out = text(ok(&["tables", codec], b""));
        out.lines().find(|l| l.starts_with("encoder forms")).map(str::to_string)
    };
    let utf8 = "encoder forms (one-pass conversion): 1 unit 0-7F (lead 00), 2 units 80-7FF (lead C0), \
        3 units 800-FFFF (lead E0), 4 units 10000-10FFFF (lead F0); continuations 80 + 6 bits; values 0-D7FF, E000-10FFFF";
    assert_eq!(forms("utf8").as_deref(), Some(utf8));
    let utf16 =
        "encoder forms (one-pass conversion): one unit of itself for 0-D7FF, E000-FFFF; 10000-10FFFF as a pair \
        (D800 + the high bits, DC00 + the low 10 bits, of the value less 10000)";
    assert_eq!(forms("utf16le").as_deref(), Some(utf16));
    let leb = forms("leb128").unwrap();
    assert!(leb.contains("1 unit 0-7F (lead 00); values") && !leb.contains("continuations"), "{leb}");
    assert_eq!(forms("utf1"), None);
    // CESU-8's six-unit form: the three-unit forms of a pair of 16-bit units.
    let pair = |codec: &str| {
        let out = text(ok(&["tables", codec], b""));
        out.lines().find(|l| l.starts_with("encoder pair forms")).map(str::to_string)
    };
    let cesu8 = "encoder pair forms (from UTF-8 through 16-bit units): 10000-10FFFF as the forms of two units \
        (D800 + the high bits, DC00 + the low 10 bits, of the value less 10000)";
    assert_eq!(pair("cesu8").as_deref(), Some(cesu8));
    assert_eq!(pair("utf8"), None);
}

/// The flagged-stream verdict: how an integer codec's units mark where
/// values end (bulk decoding a word at a time), or why not, in `tables` and
/// as `compare`'s `flagged` row.
#[test]
fn tables_and_compare_give_the_flagged_stream_verdict() {
    let line = |codec: &str| {
        let out = text(ok(&["tables", codec], b""));
        out.lines()
            .find_map(|l| l.strip_prefix("flagged stream (bulk decoding a word at a time): "))
            .map(str::to_string)
    };
    let yes = |order: &str, n: u8| format!("yes: bit 7 set continues; groups {order} significant first; 1-{n} units");
    assert_eq!(line("leb128"), Some(yes("least", 10)));
    assert_eq!(line("vlq"), Some(yes("most", 4)));
    assert_eq!(line("sqlite-varint"), Some(yes("most", 8)));
    assert!(line("quic-varint").is_some_and(|l| l.starts_with("no: its form of 1 unit ")), "{:?}", line("quic-varint"));
    assert!(line("utf16le").is_some_and(|l| l == "no: its units are not bytes with bit patterns"));
    let markdown = compare(&["--codecs", "leb128,utf8", "--properties", "flagged", "--format", "markdown"]);
    let row = markdown.lines().find(|l| l.starts_with("| flagged stream")).expect("a flagged row");
    assert!(row.contains(&format!("| {} | no: ", yes("least", 10))), "{row}");
}

#[test]
fn tables_say_which_table_the_table_decoder_reads() {
    let line = |codec: &str| {
        let out = text(ok(&["tables", codec], b""));
        out.lines().find(|l| l.starts_with("table decoder reads: ")).map(str::to_string).unwrap_or_default()
    };
    // 9 states of 3 KiB.
    assert_eq!(line("utf8"), "table decoder reads: the expanded table (27 KiB: each unit's payload placed in advance)");
    // The state after CESU-8's `ED` has read no payload, so the paths out of
    // it need not agree on the weight to come.
    assert!(line("cesu8").contains("the expanded table (33 KiB"), "{}", line("cesu8"));
    assert!(line("leb128").contains("the direct table"), "{}", line("leb128"));
    assert!(line("mutf8").contains("the direct table"), "{}", line("mutf8"));
    assert_eq!(line("printable6-big"), "table decoder reads: the class-compressed table above");
}

#[test]
fn spec_runs_the_same_tables_as_the_built_in_codec() {
    assert_eq!(ok(&["tables", "--spec", SPEC], b""), ok(&["tables", "utf8"], b""));
    assert_eq!(ok(&["encode", "--spec", SPEC], b"U+1F600"), "😀".as_bytes());
    assert_eq!(ok(&["decode", "--spec", SPEC], "é".as_bytes()), b"U+00E9\n");
    assert_eq!(ok(&["trace", "--spec", SPEC], b"ab"), ok(&["trace", "utf8"], b"ab"));
}

#[test]
fn a_description_with_errors_is_reported_with_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("placemat-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.placemat");
    std::fs::write(&path, "pub Bad {\n    name: \"bad\",\n    value: u32,\n    range: 0 ..= 0xFF,\n    colour: red,\n    forms: { \"0xxxxxxx\", \"0xxxxxxx 10xxxxxx\" },\n}\n").unwrap();
    let p = path.to_str().unwrap();
    let (_, err) = fails(&["tables", "--spec", p], b"");
    assert!(err.contains(&format!("{p}:5:5: error: unknown key `colour`")), "{err}");
    assert!(
        err.contains(&format!(
            "{p}:6:14: error: `02` is a whole sequence of form `0xxxxxxx` and the start of one of form `0xxxxxxx 10xxxxxx`"
        )),
        "{err}"
    );
    assert!(err.contains(&format!("{p}:6:26: note: the longer form")), "{err}");
}

#[test]
fn user_errors_are_one_line_exit_1_for_bad_input_and_2_for_usage() {
    let err = usage(&["decode", "no-such-codec"], b"");
    assert!(err.contains("unknown codec `no-such-codec`") && err.contains("utf8"), "{err}");
    let (_, err) = fails(&["decode", "utf8", "/no/such/file"], b"");
    assert!(err.contains("cannot open `/no/such/file`"), "{err}");
    let (_, err) = fails(&["tables", "--spec", "/no/such/description"], b"");
    assert!(err.contains("cannot read description"), "{err}");
    let err = usage(&["transcode", "--from", "utf8"], b"");
    assert!(err.contains("--to"), "{err}");
    // The argument parser's usage errors look the same.
    let err = usage(&["decode", "utf8", "--errors", "sometimes"], b"");
    assert!(err.contains("'sometimes'") && err.contains("strict, replace"), "{err}");
}

#[test]
fn file_arguments_are_read() {
    let dir = std::env::temp_dir().join(format!("placemat-cli-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("in.txt");
    std::fs::write(&path, "U+263A").unwrap();
    assert_eq!(ok(&["encode", "utf8", path.to_str().unwrap()], b""), "☺".as_bytes());
}

// ---- The CLI as a Unix tool ----

/// A fresh, empty directory for one test.
pub(crate) fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("placemat-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `script` with `sh -c`, the binary as `$0` and `args` as `$1`…
fn sh(script: &str, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_placemat"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs")
}

/// Needs `src/bin/placemat.rs` to call `placemat_cli::note_stdout` from
/// `.init_array`: the Rust runtime reopens a closed stdout on /dev/null before `main`.
#[test]
fn closed_stdout_is_an_error() {
    for script in ["exec \"$0\" list >&-", "exec \"$0\" decode utf8 \"$1\" >&-", "exec \"$0\" --help >&-"] {
        let dir = temp_dir("closed");
        let input = dir.join("in");
        std::fs::write(&input, "Aα").unwrap();
        let out = sh(script, &[input.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{script}: {err}");
        assert!(err.starts_with("placemat: cannot write output: Bad file descriptor"), "{script}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// Standard error whose reader is gone: the message is lost, the exit
/// status is the one the error asks for (1 for bad input, 2 for a usage
/// error), not a panic's 101.
#[test]
fn messages_to_a_closed_pipe_keep_the_exit_status() {
    let dir = temp_dir("stderr");
    let input = dir.join("bad");
    std::fs::write(&input, b"A\xFF").unwrap();
    for (args, status) in [(vec!["decode", "utf8", input.to_str().unwrap()], 1), (vec!["decode", "no-such-codec"], 2)] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_placemat"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(writer)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(status), "{args:?}");
    }
}

#[test]
fn output_to_dev_null_is_not_an_error() {
    let out = sh("exec \"$0\" list >/dev/null", &[]);
    assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_broken_pipe_ends_quietly_with_status_0() {
    let dir = temp_dir("pipe");
    let input = dir.join("big");
    // About 7 MB of output, far more than a pipe and the output buffer hold.
    std::fs::write(&input, vec![b'a'; 1 << 20]).unwrap();
    let out = sh("{ \"$0\" decode utf8 \"$1\"; echo \"status $?\" >&2; } | head -c1", &[input.to_str().unwrap()]);
    assert_eq!(out.stdout, b"U");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "status 0\n");
    let out = sh(
        "{ \"$0\" transcode --from utf8 --to utf8 \"$1\"; echo \"status $?\" >&2; } | head -c1",
        &[input.to_str().unwrap()],
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "status 0\n");
}

#[test]
fn a_directory_as_input_is_named() {
    let dir = temp_dir("dir-input");
    let d = format!("{}/", dir.display());
    for args in [
        &["decode", "utf8", d.as_str()][..],
        &["encode", "utf8", &d],
        &["trace", "utf8", &d],
        &["transcode", "--from", "utf8", "--to", "utf8", &d],
    ] {
        let (_, err) = fails(args, b"");
        assert_eq!(err, format!("placemat: cannot read `{d}`: it is a directory\n"), "{args:?}");
    }
}

#[test]
fn a_codec_name_and_spec_together_is_a_usage_error() {
    let dir = temp_dir("both");
    let input = dir.join("in");
    std::fs::write(&input, "a").unwrap();
    let f = input.to_str().unwrap();
    for args in [
        &["decode", "utf8", "--spec", SPEC][..],
        &["decode", "utf8", "--spec", SPEC, f],
        &["encode", "--spec", SPEC, "utf8", f],
        &["trace", "utf8", "--spec", SPEC],
        &["tables", "utf8", "--spec", SPEC],
    ] {
        let err = usage(args, b"");
        assert!(err.starts_with("placemat: give a codec name or --spec, not both"), "{args:?}: {err}");
    }
    // A file is still a file, with `--spec`.
    assert_eq!(ok(&["decode", "--spec", SPEC, f], b""), b"U+0061\n");
}

#[test]
fn usage_errors_share_one_style_and_exit_2() {
    for (args, says) in [
        (&["decode", "utf8", "--errors", "sometimes"][..], "invalid value 'sometimes'"),
        (&["no-such-command"], "unrecognized subcommand 'no-such-command'"),
        (&["decode", "utf8", "--bogus"], "unexpected argument '--bogus'"),
        (&["transcode", "--from"], "a value is required for '--from <FROM>'"),
        (&["decode"], "name a codec ("),
        (&["decode", "utf-9"], "unknown codec `utf-9`"),
        (&["decode", "utf8", "a", "b"], "unexpected argument `b`"),
        (&["tables", "utf8", "extra"], "`tables` takes no input file"),
        (&["decode", "utf8", "--spec", SPEC], "give a codec name or --spec, not both"),
        (&["transcode", "--from", "utf8", "--from-spec", SPEC, "--to", "utf8"], "not both"),
        (&["compare", "--properties", "colour"], "unknown property `colour`"),
    ] {
        let err = usage(args, b"");
        assert!(err.contains(says), "{args:?}: {err}");
        let command = if args[0] == "no-such-command" { String::new() } else { format!("{} ", args[0]) };
        assert!(err.ends_with(&format!("(try `placemat {command}--help`)\n")), "{args:?}: {err}");
    }
    // Bad input data is a runtime error: status 1, no usage advice.
    let (_, err) = fails(&["decode", "utf8"], b"\xFF");
    assert!(!err.contains("--help"), "{err}");
    let (_, err) = fails(&["encode", "utf8"], b"U+ZZ");
    assert!(!err.contains("--help"), "{err}");
}

#[test]
fn encode_reads_lowercase_u_and_skips_a_byte_order_mark() {
    assert_eq!(ok(&["encode", "utf8"], b"u+41 U+42 u+3b1"), "ABα".as_bytes());
    assert_eq!(ok(&["encode", "utf8"], b"\xEF\xBB\xBFU+41\n"), b"A");
    // Only a leading one: elsewhere it is part of a token, and offsets count it.
    let (stdout, err) = fails(&["encode", "utf8"], b"\xEF\xBB\xBFU+41 \xEF\xBB\xBFU+42");
    assert_eq!(stdout, "A");
    assert!(err.contains("token 2 `\u{FEFF}U+42` at byte 8: expected"), "{err}");
}

#[test]
fn encode_messages_escape_unprintable_bytes() {
    let (_, err) = fails(&["encode", "utf8"], b"U+12\x01 U+41");
    assert_eq!(err, "placemat: <stdin>: token 1 `U+12\\x01` at byte 0: expected `U+` and hex digits, a decimal integer (`1337`, `-123`) or `0x` and hex digits\n");
    let (_, err) = fails(&["encode", "utf8"], b"U+4\xFF\x1B[31m");
    assert!(err.contains("token 1 `U+4\\xFF\\x1B[31m` at byte 0"), "{err}");
    // A long token shows its two ends and its length.
    let long = format!("U+{}", "F".repeat(100));
    let (_, err) = fails(&["encode", "utf8"], long.as_bytes());
    assert!(err.contains(&format!("`U+{}…{}` (102 bytes) at byte 0", "F".repeat(22), "F".repeat(24))), "{err}");
}

#[test]
fn values_of_any_length_decode_prints_encode_reads_back() {
    let digits: String = (0..20_000).map(|i| b"123456789ABCDEF"[i % 15] as char).collect();
    let token = format!("U+{digits}");
    let units = ok(&["encode", "printable6-big"], format!("U+41 {token} u+42").as_bytes());
    let printed = text(ok(&["decode", "printable6-big"], &units));
    assert_eq!(printed, format!("U+0041\n{token}\nU+0042\n"));
    assert_eq!(ok(&["encode", "printable6-big"], printed.as_bytes()), units);
    // The same through a pipe.
    let dir = temp_dir("roundtrip");
    let file = dir.join("units");
    std::fs::write(&file, &units).unwrap();
    let out = sh("\"$0\" decode printable6-big \"$1\" | \"$0\" encode printable6-big", &[file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout, units);
}

#[test]
fn encode_reads_code_points_decimal_and_hex_tokens() {
    // RFC 7541 C.1.2's 1337, spelled three ways, and 10 (C.1.1).
    let units = ok(&["encode", "hpack-int5"], b"1337 0x539 U+539 0X539 10");
    assert_eq!(units, [[0x1F, 0x9A, 0x0A].repeat(4), vec![0x0A]].concat());
    // `-0` is 0; other negative values are refused by an unsigned codec, with its range.
    assert_eq!(ok(&["encode", "leb128"], b"-0 -0x0"), [0, 0]);
    let (stdout, err) = fails(&["encode", "leb128"], b"5 -0x7B");
    assert_eq!(stdout, "\x05");
    assert!(err.contains("token 2 `-0x7B` at byte 2 is negative, and leb128 has no negative values"), "{err}");
    for bad in ["0x", "-", "12a", "U+-1", "+5", "0b101"] {
        let (_, err) = fails(&["encode", "leb128"], bad.as_bytes());
        assert!(err.contains("expected `U+` and hex digits, a decimal integer"), "{bad}: {err}");
    }
}

#[test]
fn decode_writes_values_as_code_points_decimal_or_hex() {
    let units = [0x1F, 0x9A, 0x0A, 0x1F, 0x80, 0x00];
    let lines = |format: &str| text(ok(&["decode", "hpack-int5", "--values", format], &units));
    assert_eq!(text(ok(&["decode", "hpack-int5"], &units)), "U+0539\nU+001F\n");
    assert_eq!(lines("u"), "U+0539\nU+001F\n");
    assert_eq!(lines("dec"), "1337\n31\n");
    assert_eq!(lines("hex"), "0x539\n0x1f\n");
    // Each format reads back through `encode`.
    for format in ["u", "dec", "hex"] {
        assert_eq!(ok(&["encode", "hpack-int5"], lines(format).as_bytes()), [0x1F, 0x9A, 0x0A, 0x1F, 0x00], "{format}");
    }
    // The replacement value too, and values past 64 bits.
    let replaced = text(ok(&["decode", "utf8", "--values", "dec", "--errors", "replace"], b"A\xFF"));
    assert_eq!(replaced, "65\n65533\n");
    let big = ok(&["encode", "printable6-big"], b"0x1000000000000000000000");
    assert_eq!(text(ok(&["decode", "printable6-big", "--values", "dec"], &big)), "19342813113834066795298816\n");
}

/// Signed codecs read tokens of either sign, write decimal by default (and
/// `-0x7b` in hex), refuse `--values u`, and name their signed range.
#[test]
fn signed_codecs_read_and_write_negative_values() {
    // DWARF 5's figure 23.
    let units = ok(&["encode", "sleb128"], b"2 -2 127 -127 128 -128 0x81 -0x81");
    assert_eq!(units, [0x02, 0x7E, 0xFF, 0x00, 0x81, 0x7F, 0x80, 0x01, 0x80, 0x7F, 0x81, 0x01, 0xFF, 0x7E]);
    assert_eq!(text(ok(&["decode", "sleb128"], &units)), "2\n-2\n127\n-127\n128\n-128\n129\n-129\n");
    let hex = text(ok(&["decode", "sleb128", "--values", "hex"], &units));
    assert_eq!(hex, "0x2\n-0x2\n0x7f\n-0x7f\n0x80\n-0x80\n0x81\n-0x81\n");
    for format in ["dec", "hex"] {
        let lines = text(ok(&["decode", "sleb128", "--values", format], &units));
        assert_eq!(ok(&["encode", "sleb128"], lines.as_bytes()), units, "{format}");
    }
    let err = usage(&["decode", "sleb128", "--values", "u"], &units);
    assert!(err.contains("sleb128's values are signed integers: use `--values dec` or `hex`"), "{err}");
    // The ends of the range, and past them.
    assert_eq!(ok(&["encode", "protobuf-sint64"], b"-9223372036854775808 -1 1"), {
        let mut v = vec![0xFF; 9];
        v.extend([0x01, 0x01, 0x02]);
        v
    });
    let (stdout, err) = fails(&["encode", "sourcemap-vlq"], b"16 -2147483648");
    assert_eq!(stdout, "gB");
    assert!(
        err.contains("token 2 `-2147483648` at byte 3 cannot be encoded by sourcemap-vlq (its range is -2147483647..=2147483647)"),
        "{err}"
    );
    let (_, err) = fails(&["encode", "sleb128"], b"9223372036854775808");
    assert!(
        err.contains("cannot be encoded by sleb128 (its range is -9223372036854775808..=9223372036854775807)"),
        "{err}"
    );
    // `trace` shows the values as `decode` does.
    let trace = text(ok(&["trace", "sleb128"], &[0x7E, 0x80, 0x7F]));
    assert!(trace.lines().nth(1).unwrap().ends_with(" -2"), "{trace}");
    assert!(trace.lines().nth(3).unwrap().ends_with(" -128"), "{trace}");
    // Minus zero is no value of sourcemap-vlq.
    let (_, err) = fails(&["decode", "sourcemap-vlq"], b"AB");
    assert!(err.contains("invalid sourcemap-vlq input at offset 1: found `B`"), "{err}");
}

#[test]
fn the_token_limit_follows_max_value_units() {
    // Three characters per unit (at least 20) beside a sign and a prefix: 303
    // characters under a limit of 100 units.
    let at_limit = format!("U+{}", "7".repeat(301));
    let units = ok(&["--max-value-units", "100", "encode", "printable6-big"], at_limit.as_bytes());
    assert!(!units.is_empty());
    let over = format!("U+{}", "7".repeat(302));
    let (_, err) = fails(&["--max-value-units", "100", "encode", "printable6-big"], over.as_bytes());
    assert!(err.contains("token 1"), "{err}");
    assert!(err.contains("is longer than 303 characters, the most --max-value-units 100 allows"), "{err}");
    assert_eq!(ok(&["--max-value-units", "1", "encode", "utf8"], b"U+000000000000041"), b"A");
    // Any u64 in decimal fits under the smallest limit.
    assert_eq!(ok(&["--max-value-units", "1", "encode", "leb128"], b"18446744073709551615").len(), 10);
}

#[test]
fn messages_say_each_thing_once() {
    let (_, err) = fails(&["encode", "utf8"], b"U+41 U+42 U+7FFFFFFF");
    assert_eq!(
        err,
        "placemat: <stdin>: token 3 `U+7FFFFFFF` at byte 10 cannot be encoded by utf8 \
         (its range is U+0000..=U+10FFFF except U+D800..=U+DFFF)\n"
    );
    let (_, err) = fails(&["transcode", "--from", "fss-utf-plan9", "--to", "utf8"], b"\xED\xA0\x80");
    assert_eq!(
        err,
        "placemat: <stdin>: U+D800 (decoded at offset 0) cannot be encoded by utf8 \
         (its range is U+0000..=U+10FFFF except U+D800..=U+DFFF)\n"
    );
    // Adjacent runs of expected units are merged.
    let (_, err) = fails(&["decode", "utf8"], b"\xFF");
    assert!(err.ends_with("expected a unit that starts a sequence (00-7F, C2-F4)\n"), "{err}");
    let (_, err) = fails(&["decode", "utf8"], b"\xE0\x80");
    assert!(err.ends_with("expected a unit continuing the sequence (A0-BF)\n"), "{err}");
    // An alphabet's units are characters: shown as such, beside their bytes.
    let (_, err) = fails(&["decode", "printable6"], b"H/");
    let want = "found `H/` (48 2F), expected a unit continuing the sequence (` `, `,`-`.`, `;`, `?`-`_`, `a`-`z`)\n";
    assert!(err.ends_with(want), "{err}");
    let (_, err) = fails(&["validate", "printable6"], b"ab\x07");
    // `@` (digit 32, a lead with no payload) would start an overlong sequence.
    let want =
        "found `\\u{7}` (07), expected a unit that starts a sequence (` `, `,`-`.`, `;`, `?`, `A`-`_`, `a`-`z`)\n";
    assert!(err.ends_with(want), "{err}");
}

/// The gaps between the columns of `lines`: positions that are a space in every
/// line, after one that is not.
fn column_gaps(lines: &[&str]) -> Vec<usize> {
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap();
    let blank = |i: usize| lines.iter().all(|l| l.chars().nth(i).is_none_or(|c| c == ' '));
    (1..width).filter(|&i| blank(i) && !blank(i - 1)).collect()
}

#[test]
fn trace_columns_line_up() {
    let input = b"a\xC3\xA9\xE4\xB8\x96\xF0\x9F\x98\x80\xFF\xC3";
    for codec in ["utf8", "fss-utf-xopen", "fss-utf-plan9", "utf8-ext42", "printable6-big"] {
        let out = text(ok(&["trace", codec], input));
        let lines: Vec<&str> = out.lines().collect();
        let at = |word: &str| lines[0].find(word).unwrap();
        let arrow = lines[1].find(" -> ").unwrap();
        assert!(at("state") <= arrow && arrow < at("value"), "{codec}\n{out}");
        for line in &lines[1..] {
            // Each column starts under its heading, after a space...
            for column in ["unit", "class", "value", "emitted"] {
                let p = at(column);
                let (before, here) = (line.as_bytes()[p - 1], line.as_bytes()[p]);
                assert!(before == b' ' && here != b' ', "{codec}: `{column}` misplaced in `{line}`\n{out}");
            }
            // ... and the states' arrows line up.
            assert_eq!(line.find(" -> "), Some(arrow), "{codec}: `{line}`\n{out}");
        }
    }
}

#[test]
fn tables_columns_line_up() {
    for codec in ["utf8", "fss-utf-xopen", "printable6-big"] {
        let out = text(ok(&["tables", codec], b""));
        let rows: Vec<&str> = out
            .lines()
            .skip_while(|l| !l.starts_with("transitions"))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .collect();
        assert!(rows[0].trim_start().starts_with("state"), "{out}");
        let width = rows[0].len();
        assert!(rows.iter().all(|r| r.len() == width), "{codec}: every row as wide as the header\n{out}");
        let gaps = column_gaps(&rows);
        let class_line = |l: &&str| l.strip_prefix("  c").is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
        let classes = out.lines().filter(class_line).count();
        assert_eq!(gaps.len(), classes, "{codec}: a gap before every class column\n{out}");
    }
    // The first line is a contract.
    assert!(text(ok(&["tables", "fss-utf-xopen"], b""))
        .starts_with("fss-utf-xopen: 10 unit classes, 15 states (dead state 0, start state 1), 1152 table bytes\n"));
}

#[test]
fn report_without_out_writes_only_at_the_workspace_root() {
    let dir = temp_dir("report-elsewhere");
    let out = Command::new(env!("CARGO_BIN_EXE_placemat")).arg("report").current_dir(&dir).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("placemat: without `--out DIR`, `report` writes into `papers/`"), "{err}");
    assert!(err.contains("give `--out DIR`") && err.lines().count() == 1, "{err}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "nothing written");
    // A directory with `papers/comparison.md` but no workspace manifest is refused too.
    std::fs::create_dir_all(dir.join("papers")).unwrap();
    std::fs::write(dir.join("papers/comparison.md"), "old").unwrap();
    std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"other\"\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_placemat")).arg("report").current_dir(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(dir.join("papers/comparison.md")).unwrap(), "old");
    // At a workspace's root, it regenerates `papers/`.
    std::fs::write(dir.join("Cargo.toml"), "[workspace]\nmembers = []\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_placemat")).arg("report").current_dir(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text(out.stdout).starts_with("papers/comparison.md\n"));
    assert!(std::fs::read_to_string(dir.join("papers/comparison.md")).unwrap().starts_with("# "));
    let _ = std::fs::remove_dir_all(&dir);
}

fn compare(args: &[&str]) -> String {
    let mut all = vec!["compare"];
    all.extend_from_slice(args);
    text(ok(&all, b""))
}

#[test]
fn compare_chooses_codecs_and_properties() {
    let pick = ["--codecs", "fss-utf-xopen,utf8", "--properties", "self_sync,table_bytes,max_units"];
    let csv = compare(&[&pick[..], &["--format", "csv"]].concat());
    assert_eq!(csv, "property,fss-utf-xopen,utf8\r\nself_sync,∞,3\r\ntable_bytes,1152,952\r\nmax_units,5,4\r\n");
    let json = compare(&[&pick[..], &["--format", "json"]].concat());
    assert!(json.starts_with("{\"codecs\": [\"fss-utf-xopen\", \"utf8\"], \"rows\": [\n"), "{json}");
    assert!(json.contains("\"key\": \"self_sync\", \"label\": \"self-sync: units until a boundary is certain\", \"values\": [\"∞\", 3]},"), "{json}");
    let table = compare(&pick);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("property") && lines[0].ends_with("fss-utf-xopen  utf8"), "{table}");
    assert!(
        lines[2].starts_with("self-sync: units until a boundary is certain") && lines[2].ends_with("∞     3"),
        "{table}"
    );
    let markdown = compare(&[&pick[..], &["--format", "markdown"]].concat());
    assert!(markdown.contains("| self-sync: units until a boundary is certain | ∞ | 3 |"), "{markdown}");
    // Transposed: a row per codec.
    let csv = compare(&[&pick[..], &["--format", "csv", "--transpose"]].concat());
    assert_eq!(csv, "codec,self_sync,table_bytes,max_units\r\nfss-utf-xopen,∞,1152,5\r\nutf8,3,952,4\r\n");
    let err = usage(&["compare", "--transpose", "--format", "json"], b"");
    assert!(err.contains("--transpose"), "{err}");
    let err = usage(&["compare", "--codecs", "utf-9"], b"");
    assert!(err.contains("unknown codec `utf-9`"), "{err}");
}

#[test]
fn compare_fits_100_columns_by_default() {
    let table = compare(&[]);
    assert!(table.lines().all(|l| l.chars().count() <= 100), "{table}");
    for name in text(ok(&["list"], b"")).lines().map(|l| l.split_once("  ").unwrap().0) {
        assert!(table.lines().any(|l| l.starts_with("property") && l.contains(name)), "{name} has a column");
    }
    // `--width 0` is one block, as wide as it takes.
    let wide = compare(&["--width", "0", "--codecs", "utf8,utf8-ext42,fss-utf-xopen"]);
    assert_eq!(wide.lines().filter(|l| l.starts_with("property")).count(), 1, "{wide}");
    assert!(wide.lines().any(|l| l.chars().count() > 100), "{wide}");
}

#[test]
fn the_readme_says_which_commands_take_spec_and_that_dot_needs_graphviz() {
    for (command, flags) in [
        ("encode", &["--spec"][..]),
        ("decode", &["--spec"]),
        ("trace", &["--spec"]),
        ("tables", &["--spec", "--dot"]),
        ("compare", &["--spec"]),
        ("transcode", &["--from-spec", "--to-spec", "--spec"]),
    ] {
        let help = text(ok(&[command, "--help"], b""));
        for flag in flags {
            assert!(help.contains(flag), "`{command} --help` lists {flag}");
        }
    }
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    let cli = readme.split("## The CLI").nth(1).unwrap().split("\n## ").next().unwrap();
    for words in
        ["`encode`", "`decode`", "`trace`", "`tables`", "`compare`", "--from-spec", "--to-spec", "Graphviz", "`dot`"]
    {
        assert!(cli.contains(words), "the CLI section of README.md mentions {words}");
    }
}

/// `trace` follows the new kinds of transition: LEB128's groups land above the
/// bits read before them (E5 8E 26 is 624485), and CESU-8's shared `ED` reads
/// no payload in either form (the surrogate pair's value comes with its bias).
#[test]
fn trace_shows_least_significant_first_groups_and_shared_units() {
    let leb = String::from_utf8(ok(&["trace", "leb128"], &[0xE5, 0x8E, 0x26])).unwrap();
    let values: Vec<&str> = leb.lines().skip(1).map(|l| l.split_whitespace().nth(6).unwrap()).collect();
    assert_eq!(values, ["0x65", "0x765", "0x98765"], "{leb}");
    assert!(leb.lines().last().unwrap().ends_with("U+98765"), "{leb}");
    let cesu = String::from_utf8(ok(&["trace", "cesu8"], &[0xED, 0xA0, 0x81, 0xED, 0xB0, 0x80])).unwrap();
    let first: Vec<&str> = cesu.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!((first[1], first[6]), ("ED", "0x0"), "{cesu}");
    assert!(cesu.lines().last().unwrap().ends_with("U+10400"), "{cesu}");
    // Tables and pictures cover the new codecs from their description files too.
    for codec in ["leb128", "cesu8", "quic-varint"] {
        let spec = format!("{}/../variants/descriptions/{codec}.placemat", env!("CARGO_MANIFEST_DIR"));
        assert_eq!(ok(&["tables", "--spec", &spec], b""), ok(&["tables", codec], b""), "{codec}");
        let dot = String::from_utf8(ok(&["tables", codec, "--dot"], b"")).unwrap();
        assert!(dot.starts_with("digraph"), "{codec}: {dot}");
    }
}

/// Codecs of 16-bit units: errors cover whole code units at byte offsets, in
/// `decode`'s messages and in `trace`, and a unit cut by the end is a truncation.
#[test]
fn utf16_errors_are_whole_code_units() {
    let (_, err) = fails(&["decode", "utf16le"], &[0x41, 0x00, 0x00, 0xD8, 0x61, 0x00]);
    assert!(err.contains("at offset 2: found 00 D8 61 00, expected a unit continuing the sequence (DC-DF)"), "{err}");
    let (_, err) = fails(&["decode", "utf16be"], &[0xD8, 0x00, 0x41]);
    assert!(err.contains("at offset 0: found D8 00 41 and then the end of the input"), "{err}");
    let replaced = ok(&["decode", "--errors", "replace", "utf16le"], &[0x00, 0xDC, 0x41, 0x00, 0x42]);
    assert_eq!(replaced, b"U+FFFD\nU+0041\nU+FFFD\n");
    let trace = String::from_utf8(ok(&["trace", "utf16le"], &[0x00, 0xDC, 0x41, 0x00])).unwrap();
    let emitted: Vec<&str> = trace.lines().filter(|l| l.contains("U+")).collect();
    assert_eq!(emitted.len(), 2, "{trace}");
    assert!(emitted[0].ends_with("U+FFFD (invalid sequence of 2 units at offset 0)"), "{trace}");
    assert!(emitted[1].ends_with("U+0041"), "{trace}");
}
