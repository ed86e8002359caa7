//! The `placemat` binary, run as a process: each command, its output format (a
//! contract), and its error paths.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the binary and checks it did not panic.
fn placemat(args: &[&str], stdin: &[u8]) -> Output {
    let out = placemat_env(args, stdin, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "placemat {args:?} panicked: {stderr}");
    out
}

fn ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = placemat(args, stdin);
    assert!(out.status.success(), "placemat {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

fn fails(args: &[&str], stdin: &[u8]) -> (String, String) {
    let out = placemat(args, stdin);
    assert_eq!(out.status.code(), Some(1), "placemat {args:?} should exit 1");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("placemat: "), "{stderr}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

const SPEC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/descriptions/utf8.placemat");

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
    let (_, err) = fails(&["encode", "utf8"], b"U+41 0x42");
    assert!(err.contains("token 2 `0x42`") && err.contains("expected `U+`"), "{err}");
    let (_, err) = fails(&["encode", "utf8"], b"U+110000");
    assert!(err.contains("token 1"), "{err}");
    let (_, err) = fails(&["encode", "utf8"], b"U+1234567890ABCDEF12");
    assert!(err.contains("U+1234567890ABCDEF12 cannot be encoded by utf8"), "{err}");
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
        err.contains(&format!("{p}:6:14: error: form `0xxxxxxx` is a prefix of form `0xxxxxxx 10xxxxxx`")),
        "{err}"
    );
    assert!(err.contains(&format!("{p}:6:26: note: the longer form")), "{err}");
}

#[test]
fn user_errors_are_one_line_and_exit_1() {
    let (_, err) = fails(&["decode", "no-such-codec"], b"");
    assert!(err.contains("unknown codec `no-such-codec`") && err.contains("utf8"), "{err}");
    let (_, err) = fails(&["decode", "utf8", "/no/such/file"], b"");
    assert!(err.contains("cannot open `/no/such/file`"), "{err}");
    let (_, err) = fails(&["tables", "--spec", "/no/such/description"], b"");
    assert!(err.contains("cannot read description"), "{err}");
    let (_, err) = fails(&["transcode", "--from", "utf8"], b"");
    assert!(err.contains("--to"), "{err}");
    // Usage errors come from the argument parser with its own status.
    let out = placemat(&["decode", "utf8", "--errors", "sometimes"], b"");
    assert!(!out.status.success());
}

#[test]
fn file_arguments_are_read() {
    let dir = std::env::temp_dir().join(format!("placemat-cli-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("in.txt");
    std::fs::write(&path, "U+263A").unwrap();
    assert_eq!(ok(&["encode", "utf8", path.to_str().unwrap()], b""), "☺".as_bytes());
}

// ---- Error paths as a user meets them (issue 7) ----

fn placemat_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_placemat"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().unwrap();
    // The command may stop reading early (that is what some of these tests check).
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().unwrap()
}

fn bad_description() -> String {
    let dir = std::env::temp_dir().join(format!("placemat-cli-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.placemat");
    std::fs::write(&path, "pub Broken {\n    name: \"broken\",\n    value: u32,\n    range: 0 ..= 0x7F,\n    forms: { \"0xxxxxx\" },\n}\n")
        .unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn an_unknown_codec_lists_the_known_ones_in_every_command() {
    let known: Vec<String> =
        text(ok(&["list"], b"")).lines().map(|l| l.split_once("  ").unwrap().0.to_string()).collect();
    for args in [
        &["decode", "utf-9"][..],
        &["encode", "utf-9"],
        &["trace", "utf-9"],
        &["tables", "utf-9"],
        &["transcode", "--from", "utf-9", "--to", "utf8"],
        &["transcode", "--from", "utf8", "--to", "utf-9"],
    ] {
        let (_, err) = fails(args, b"");
        assert!(err.starts_with("placemat: unknown codec `utf-9`; known codecs: "), "{args:?}: {err}");
        for name in &known {
            assert!(err.contains(name.as_str()), "{args:?}: {name} not listed in {err}");
        }
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn a_missing_input_file_is_named_with_the_reason() {
    for args in [
        &["decode", "utf8", "/no/such/input"][..],
        &["encode", "utf8", "/no/such/input"],
        &["trace", "utf8", "/no/such/input"],
        &["transcode", "--from", "utf8", "--to", "utf8", "/no/such/input"],
    ] {
        let (_, err) = fails(args, b"");
        assert!(err.contains("cannot open `/no/such/input`") && err.contains("No such file"), "{args:?}: {err}");
    }
    let (_, err) = fails(&["transcode", "--from-spec", "/no/such/spec", "--to", "utf8"], b"");
    assert!(err.contains("cannot read description `/no/such/spec`"), "{err}");
}

#[test]
fn an_invalid_token_is_named_with_its_index_and_byte_offset() {
    let (stdout, err) = fails(&["encode", "utf8"], b"U+41\n  U+G1 U+42");
    assert_eq!(stdout, "A");
    assert_eq!(err, "placemat: <stdin>: token 2 `U+G1` at byte 7: expected `U+` followed by hex digits\n");
    let (_, err) = fails(&["encode", "utf8"], b"U+41 U+");
    assert!(err.contains("token 2 `U+` at byte 5"), "{err}");
}

#[test]
fn a_value_out_of_range_names_the_codecs_range() {
    let (_, err) = fails(&["encode", "fss-utf-xopen"], b"U+80000000");
    assert!(err.contains("token 1 `U+80000000` at byte 0"), "{err}");
    assert!(err.contains("U+80000000 cannot be encoded by fss-utf-xopen, whose range is U+0000..=U+7FFFFFFF"), "{err}");
    let (_, err) = fails(&["encode", "utf8"], b"U+10FFFF U+110000");
    assert!(err.contains("whose range is U+0000..=U+10FFFF except U+D800..=U+DFFF"), "{err}");
}

#[test]
fn invalid_input_in_strict_mode_gives_the_stream_offset_and_the_bytes_found() {
    // The bad sequence lies past the first 64 KiB read, in both commands.
    let mut input = vec![b'a'; 70_000];
    input.extend_from_slice(b"\xE0\x80z");
    let (stdout, err) = fails(&["decode", "utf8"], &input);
    assert_eq!(stdout.lines().count(), 70_000);
    assert!(err.contains("<stdin>: invalid utf8 input at offset 70000: found E0 80, expected"), "{err}");
    let (stdout, err) = fails(&["transcode", "--from", "utf8", "--to", "fss-utf-xopen"], &input);
    assert_eq!(stdout.len(), 70_000, "everything before the error is written");
    assert!(err.contains("<stdin>: invalid utf8 input at offset 70000: found E0 80, expected"), "{err}");
    assert!(err.contains("A0-BF"), "{err}");
    // A truncated tail.
    let (_, err) = fails(&["transcode", "--from", "utf8", "--to", "utf8"], b"ab\xF0\x9F\x98");
    assert!(err.contains("offset 2: found F0 9F 98 and then the end of the input"), "{err}");
}

#[test]
fn transcoding_a_value_the_target_cannot_encode() {
    // FSS-UTF (Plan 9) happily encodes the surrogate U+D800 and U+110000.
    let input = b"a\xED\xA0\x80b\xF4\x90\x80\x80c";
    let (stdout, err) = fails(&["transcode", "--from", "fss-utf-plan9", "--to", "utf8"], input);
    assert_eq!(stdout, "a");
    assert!(err.contains("U+D800 (decoded at offset 1) cannot be encoded by utf8"), "{err}");
    assert!(err.contains("its range is U+0000..=U+10FFFF except U+D800..=U+DFFF"), "{err}");
    let out = ok(&["transcode", "--from", "fss-utf-plan9", "--to", "utf8", "--errors", "replace"], input);
    assert_eq!(out, "a\u{FFFD}b\u{FFFD}c".as_bytes());
}

#[test]
fn a_description_with_errors_fails_every_command_that_loads_it() {
    let path = bad_description();
    let p = path.as_str();
    let line = format!("{p}:5:14: error: `0xxxxxx` has 7 bits, but a unit has 8");
    for args in [
        &["tables", "--spec", p][..],
        &["decode", "--spec", p],
        &["encode", "--spec", p],
        &["trace", "--spec", p],
        &["transcode", "--from", "utf8", "--to-spec", p],
        &["transcode", "--from-spec", p, "--to", "utf8"],
    ] {
        let (_, err) = fails(args, b"");
        assert!(err.starts_with(&format!("placemat: `{p}` is not a valid description (1 error):\n")), "{err}");
        assert!(err.contains(&line), "{args:?}: {err}");
    }
}

#[test]
fn no_error_prints_a_backtrace_even_when_asked_to() {
    let path = bad_description();
    let cases: Vec<(Vec<&str>, &[u8])> = vec![
        (vec!["decode", "no-such-codec"], b""),
        (vec!["decode", "utf8", "/no/such/input"], b""),
        (vec!["encode", "utf8"], b"U+ZZ"),
        (vec!["encode", "utf8"], b"U+110000"),
        (vec!["decode", "utf8"], b"\xFF"),
        (vec!["transcode", "--from", "fss-utf-plan9", "--to", "utf8"], b"\xED\xA0\x80"),
        (vec!["transcode", "--from", "utf8", "--to", "utf8"], b"\xF0"),
        (vec!["tables", "--spec", path.as_str()], b""),
        (vec!["tables", "utf8", "extra-argument"], b""),
        (vec!["decode", "utf8", "--errors", "sometimes"], b""),
        (vec!["no-such-command"], b""),
    ];
    for (args, stdin) in cases {
        let out = placemat_env(&args, stdin, &[("RUST_BACKTRACE", "1"), ("RUST_LIB_BACKTRACE", "1")]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} should fail");
        for word in ["panicked", "backtrace", "RUST_BACKTRACE", "stack"] {
            assert!(!err.contains(word), "{args:?} printed `{word}`: {err}");
        }
        assert!(!err.trim().is_empty(), "{args:?} says nothing");
    }
}
