//! The `placemat` binary's error paths as a user meets them: an
//! unknown codec, a missing file, an invalid token or value, invalid input, a
//! description with errors — each one line on stderr, with no backtrace.

use crate::cli::{fails, ok, placemat_env, text, usage};

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
        let err = usage(args, b"");
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
    assert_eq!(err, "placemat: <stdin>: token 2 `U+G1` at byte 7: expected `U+` and hex digits, a decimal integer (`1337`, `-123`) or `0x` and hex digits\n");
    let (_, err) = fails(&["encode", "utf8"], b"U+41 U+");
    assert!(err.contains("token 2 `U+` at byte 5"), "{err}");
}

#[test]
fn a_value_out_of_range_names_the_codecs_range() {
    let (_, err) = fails(&["encode", "fss-utf-xopen"], b"U+80000000");
    assert!(err.contains("token 1 `U+80000000` at byte 0"), "{err}");
    assert!(
        err.contains("`U+80000000` at byte 0 cannot be encoded by fss-utf-xopen (its range is U+0000..=U+7FFFFFFF)"),
        "{err}"
    );
    let (_, err) = fails(&["encode", "utf8"], b"U+10FFFF U+110000");
    assert!(err.contains("(its range is U+0000..=U+10FFFF except U+D800..=U+DFFF)"), "{err}");
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
    // Past several of `transcode`'s 256 KiB blocks, into the same codec
    // (validated blocks copied): the same message, the bytes before it.
    let mut long = "añ€😀".repeat(70_000).into_bytes();
    let at = long.len();
    long.extend_from_slice(b"\xE0\x80z");
    let (stdout, err) = fails(&["transcode", "--from", "utf8", "--to", "utf8"], &long);
    assert!(stdout.as_bytes() == &long[..at], "everything before the error is written");
    assert!(err.contains(&format!("<stdin>: invalid utf8 input at offset {at}: found E0 80, expected")), "{err}");
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
