//! The CLI on codecs with rules of their own: `mutf8`'s longest match (lone
//! surrogates decode, the pair does not encode) and `wtf8`'s rule across two
//! values (no high surrogate directly before a low one). The codecs themselves
//! are tested in `placemat-variants`' suite (`mutf8.rs`, `wtf8.rs`).

use crate::cli::{fails, ok};

/// A high surrogate then a low one, the pair `wtf8`'s rule forbids.
const PAIR: &[u8] = &[0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80];

/// The CLI: decode takes lone surrogates, encode refuses the pair, trace
/// shows the longest match and the units it reads again.
#[test]
fn the_cli_reads_the_longest_match() {
    assert_eq!(ok(&["decode", "mutf8"], b"\xED\xA0\x80A\xED\xA0\x80\xED\xB0\x80"), b"U+D800\nU+0041\nU+10000\n");
    assert_eq!(ok(&["decode", "mutf8"], b"\xED\xA0\x80"), b"U+D800\n");
    ok(&["validate", "mutf8"], b"\xED\xA0\x80\xED\xA0\x80");
    let (_, err) = fails(&["validate", "mutf8"], b"\xED\xA0\x80\xED\xB0");
    assert!(err.contains("invalid mutf8 input at offset 3"), "{err}");
    let (_, err) = fails(&["encode", "mutf8"], b"U+D800 U+DC00");
    assert!(err.contains("token 2 `U+DC00` at byte 7 may not follow U+D800 in mutf8"), "{err}");
    let trace = String::from_utf8(ok(&["trace", "mutf8"], b"\xED\xA0\x80A")).unwrap();
    assert!(trace.contains("U+D800 (longest match: 3 units at offset 0; read on after it)"), "{trace}");
    assert!(trace.contains("2 -> 1   0x41        U+0041"), "{trace}");
    let trace = String::from_utf8(ok(&["trace", "mutf8"], b"\xED\xA0\x80")).unwrap();
    assert!(trace.contains("end") && trace.contains("U+D800 (longest match"), "{trace}");
    // The listing and the picture show the states that hold a pending value.
    let tables = String::from_utf8(ok(&["tables", "mutf8"], b"")).unwrap();
    assert!(tables.contains("pending values (longest match"), "{tables}");
    assert!(tables.contains("value +D800, then context 1, ended by the unit that led here"), "{tables}");
    let dot = String::from_utf8(ok(&["tables", "mutf8", "--dot"], b"")).unwrap();
    assert_eq!(dot.matches("pending +D800\", style=dashed").count(), 3, "{dot}");
}

/// The CLI: decode and validate stop at the second value with the unit the
/// context forbids; encode refuses the pair; trace shows the context's
/// start state.
#[test]
fn the_cli_keeps_the_rule() {
    let message = "invalid wtf8 input at offset 3: found ED B0, expected a unit continuing the sequence (80-AF)";
    for command in ["decode", "validate"] {
        let (_, err) = fails(&[command, "wtf8"], PAIR);
        assert!(err.contains(message), "{command}: {err}");
    }
    let (_, err) = fails(&["encode", "wtf8"], b"U+41 U+D800 U+DC00");
    assert!(err.contains("token 3 `U+DC00` at byte 12 may not follow U+D800 in wtf8"), "{err}");
    // What came before the refused value is written.
    let written = crate::cli::placemat(&["encode", "wtf8"], b"U+41 U+D800 U+DC00").stdout;
    assert_eq!(written, b"A\xED\xA0\x80");
    assert_eq!(ok(&["decode", "wtf8"], b"\xED\xB0\x80\xED\xA0\x80"), b"U+DC00\nU+D800\n");
    let trace = String::from_utf8(ok(&["trace", "wtf8"], b"\xED\xA0\x80A")).unwrap();
    assert!(trace.contains("11 -> 2") && trace.contains("U+D800") && trace.contains("2 -> 1"), "{trace}");
}
