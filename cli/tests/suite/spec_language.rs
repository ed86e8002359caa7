//! Descriptions written with the language's later features, through
//! `--spec` as a user's own file: padding without a limit and signed values
//! of any size, each read and written by `encode`, `decode`, `trace` and
//! `tables`.

use super::cli::{fails, ok, temp_dir, text};

/// A description padded without a limit (`--spec`): any number of zero
/// groups decodes, `trace` shows the state looping on them, and a sequence
/// cut inside its padding is reported at its start.
#[test]
fn padding_without_a_limit_through_spec() {
    let dir = temp_dir("padding");
    let spec = dir.join("leb.placemat");
    std::fs::write(
        &spec,
        r#"pub LebAny { name: "leb128-any", value: u64, range: 0 ..= 0xFFFFFFFFFFFFFFFF, layout: padded,
            padding: unlimited, groups: lsb_first, forms: { "1xxxxxxx* 0xxxxxxx" } }"#,
    )
    .unwrap();
    let spec = spec.to_str().unwrap();
    let mut units = vec![0x85];
    units.extend([0x80; 40]);
    units.extend([0x00, 0x07]);
    assert_eq!(text(ok(&["decode", "--spec", spec, "--values", "dec"], &units)), "5\n7\n");
    assert_eq!(ok(&["encode", "--spec", spec], b"5 7"), [0x05, 0x07]);
    let trace = text(ok(&["trace", "--spec", spec], &units));
    assert!(trace.lines().filter(|l| l.contains(" 11 -> 11 ") && l.contains(" 0x5 ")).count() == 31, "{trace}");
    let tables = text(ok(&["tables", "--spec", spec], b""));
    assert!(tables.contains("its sequences have no length limit"), "{tables}");
    let (_, err) = fails(&["decode", "--spec", spec], &units[..30]);
    assert!(err.contains("invalid leb128-any input at offset 0: found 85 80 80"), "{err}");
}

/// A signed codec of any size (`--spec`): tokens past `i64` both ways, in
/// `encode`, `decode --values dec|hex` and `trace`.
#[test]
fn signed_values_of_any_size_through_spec() {
    let dir = temp_dir("signed-any");
    let spec = dir.join("zigzag.placemat");
    std::fs::write(
        &spec,
        r#"pub ZigzagAny { name: "zigzag-any", value: unbounded, sign: zigzag, range: ..,
            forms: { "1xxxxxxx* 0xxxxxxx" } }"#,
    )
    .unwrap();
    let spec = spec.to_str().unwrap();
    let tokens = "-5 9223372036854775808 -1267650600228229401496703205376 -0x7B";
    let units = ok(&["encode", "--spec", spec], tokens.as_bytes());
    // 2^63 is the raw value 2^64 (ten groups); -2^100, 2^101 - 1 (fifteen).
    assert_eq!(units.len(), 1 + 10 + 15 + 2);
    let dec = text(ok(&["decode", "--spec", spec, "--values", "dec"], &units));
    assert_eq!(dec, "-5\n9223372036854775808\n-1267650600228229401496703205376\n-123\n");
    let hex = text(ok(&["decode", "--spec", spec, "--values", "hex"], &units));
    assert_eq!(hex, "-0x5\n0x8000000000000000\n-0x10000000000000000000000000\n-0x7b\n");
    let trace = text(ok(&["trace", "--spec", spec], &units));
    assert!(trace.lines().any(|l| l.ends_with(" -1267650600228229401496703205376")), "{trace}");
    let (_, err) = fails(&["transcode", "--from-spec", spec, "--to", "printable6-big"], &units);
    assert!(err.contains("-5 (decoded at offset 0) cannot be encoded by printable6-big"), "{err}");
}
