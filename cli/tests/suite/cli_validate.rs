//! `placemat validate` and `placemat bench` as processes: silence and exit 0 on
//! valid input, `decode`'s strict message and exit 1 on invalid input, for every
//! strategy; the refusal of `--strategy simd` where there is no SIMD validator;
//! and `bench`'s three formats.

use crate::cli::{fails, ok, placemat, usage, SPEC};

/// The strategies this build and machine can run (`simd` needs SSE4.1, AVX2
/// or NEON, and no `no-simd` feature).
fn strategies() -> Vec<&'static str> {
    let simd = placemat_codec::simd::Isa::detect().is_some();
    ["auto", "simd", "table", "branching"].into_iter().filter(|&s| simd || s != "simd").collect()
}

#[test]
fn valid_input_is_silent_with_exit_0_for_every_strategy() {
    let text = "naïve — 漢字 😀 ".repeat(5000);
    for strategy in strategies() {
        let out = placemat(&["validate", "utf8", "--strategy", strategy], text.as_bytes());
        assert!(out.status.success(), "{strategy}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{strategy}");
    }
    assert!(ok(&["validate", "--spec", SPEC], text.as_bytes()).is_empty());
    assert!(ok(&["validate", "ken-draft"], b"plain").is_empty());
}

#[test]
fn invalid_input_gives_decodes_strict_message_for_every_strategy() {
    // An overlong sequence past the first 64 KiB read, and a sequence cut by the
    // end of the input after one.
    let mut overlong = "é".repeat(40_000).into_bytes();
    overlong.extend_from_slice(b"\xE0\x80\x80 more");
    let mut cut = "a".repeat(70_000).into_bytes();
    cut.extend_from_slice(b"\xF0\x9F\x98");
    for input in [overlong, cut] {
        let (_, expected) = fails(&["decode", "utf8"], &input);
        for strategy in strategies() {
            let (stdout, stderr) = fails(&["validate", "utf8", "--strategy", strategy], &input);
            assert!(stdout.is_empty());
            assert_eq!(stderr, expected, "{strategy}");
        }
    }
    let (_, stderr) = fails(&["validate", "utf8"], b"ab\xE0\x80\x80");
    assert_eq!(
        stderr,
        "placemat: <stdin>: invalid utf8 input at offset 2: found E0 80, expected a unit continuing the sequence (A0-BF)\n"
    );
}

#[test]
fn whole_unit_errors_of_wide_codecs() {
    // UTF-16LE: an unpaired low surrogate at byte 2, and an odd trailing byte.
    let (_, stderr) = fails(&["validate", "utf16le"], b"a\x00\x00\xDCb\x00");
    assert!(stderr.contains("at offset 2"), "{stderr}");
    let (_, stderr) = fails(&["validate", "utf16le", "--strategy", "branching"], b"a\x00b");
    assert!(stderr.contains("at offset 2") && stderr.contains("end of the input"), "{stderr}");
}

#[test]
fn strategy_simd_without_a_simd_validator_says_why() {
    let (_, stderr) = fails(&["validate", "utf16le", "--strategy", "simd"], b"a\x00");
    assert_eq!(
        stderr,
        "placemat: utf16le has no SIMD validator: its code units are 2 bytes wide; the checks read single bytes\n"
    );
    let (_, stderr) = fails(&["validate", "fss-utf-xopen", "--strategy", "simd"], b"a");
    assert!(stderr.contains("unit 80 both starts a sequence and continues one"), "{stderr}");
    let err = usage(&["validate", "utf8", "--strategy", "vector"], b"");
    assert!(err.contains("vector"), "{err}");
}

const TEXT: &str = "Grüße, мир, 世界! ";

/// The bench text in a file of its own per test (`tag`), as tests run at once.
fn bench_file(tag: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("placemat-bench-{tag}-{}.txt", std::process::id()));
    std::fs::write(&path, TEXT.repeat(200)).unwrap();
    path
}

/// The integer codecs' bulk decoders by their facts have rows of their own:
/// the word decoder (and SIMD kernel) of flagged streams (a ZigZag codec's
/// too, its raw values mapped after), and of length-prefixed ones.
#[test]
fn bench_has_a_row_for_each_integer_fact() {
    let path = bench_file("facts");
    let file = path.to_str().unwrap();
    let facts = [("leb128", "flagged words"), ("protobuf-sint64", "flagged words"), ("quic-varint", "prefixed words")];
    for (codec, row) in facts {
        let csv = String::from_utf8(ok(&["bench", codec, file, "--format", "csv"], b"")).unwrap();
        let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
        let found: Vec<_> = rows.iter().filter(|r| r[1] == "decode" && r[2] == row).collect();
        assert_eq!(found.len(), 1, "{codec}: {row} in {csv}");
        assert!(found[0][5].parse::<f64>().unwrap() > 0.0, "{codec}: {:?}", found[0]);
    }
    let _ = std::fs::remove_file(path);
}

#[test]
fn bench_prints_every_strategy_with_ratios_in_three_formats() {
    let path = bench_file("strategies");
    let file = path.to_str().unwrap();
    let csv = String::from_utf8(ok(&["bench", "utf8", file, "--format", "csv"], b"")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("input,operation,strategy,bytes,median_ns,gb_per_s,baseline,ratio"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let strategies: Vec<(&str, &str)> = rows.iter().map(|r| (r[1], r[2])).collect();
    for want in [
        ("validate", "std from_utf8"),
        ("validate", "simdutf8 basic"),
        ("validate", "table"),
        ("validate", "branching"),
        ("decode", "std chars() into Vec<u32>"),
        ("decode", "table"),
        ("decode", "branching"),
        ("encode", "generated encoder"),
    ] {
        assert!(strategies.contains(&want), "{want:?} in {strategies:?}");
    }
    // One row per validation kernel the machine has (AVX-512 has its own).
    for isa in placemat_codec::simd::Isa::all().into_iter().flatten() {
        let row = format!("simd ({})", isa.name());
        assert_eq!(strategies.iter().filter(|&&(op, s)| op == "validate" && s == row).count(), 1, "{strategies:?}");
    }
    for r in &rows {
        assert_eq!(r[3], (TEXT.len() * 200).to_string(), "the codec's bytes: {r:?}");
        assert!(r[5].parse::<f64>().unwrap() > 0.0 && r[7].parse::<f64>().unwrap() > 0.0, "{r:?}");
    }
    let json = ok(&["bench", "--spec", SPEC, file, "--format", "json"], b"");
    let parsed: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let items = parsed.as_array().unwrap();
    assert!(items.iter().all(|i| i["input"] == file && i["bytes"] == TEXT.len() * 200));
    let table = String::from_utf8(ok(&["bench", "ken-draft", file], b"")).unwrap();
    assert!(table.starts_with("input ") && table.contains("generated encoder"), "{table}");
    let _ = std::fs::remove_file(path);
}

#[test]
fn bench_refuses_text_that_is_not_utf8_and_values_the_codec_cannot_encode() {
    let path = std::env::temp_dir().join(format!("placemat-bench-bad-{}.txt", std::process::id()));
    std::fs::write(&path, b"ok \xFF").unwrap();
    let file = path.to_str().unwrap();
    let (_, stderr) = fails(&["bench", "utf8", file], b"");
    assert_eq!(stderr, format!("placemat: {file}: `bench` reads UTF-8 text, and the bytes at offset 3 are not\n"));
    std::fs::write(&path, "a😀").unwrap();
    let two = std::env::temp_dir().join(format!("placemat-bench-two-{}.placemat", std::process::id()));
    std::fs::write(
        &two,
        r#"pub Two { name: "two", value: u32, range: 0 ..= 0x7FF, forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }"#,
    )
    .unwrap();
    let (_, stderr) = fails(&["bench", "--spec", two.to_str().unwrap(), file], b"");
    assert!(stderr.contains("U+1F600 cannot be encoded by two"), "{stderr}");
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(two);
}

/// `bench A --to B`: the transcoder's two paths, encoding_rs and std as the
/// baselines of UTF-8 → UTF-16LE (encoding_rs first: the ratios are to it),
/// the `cesu8` crate for CESU-8 → UTF-8, the paths alone for a pair without a
/// baseline, and the target by `--to-spec`.
#[test]
fn bench_to_times_conversions_against_the_baselines_of_the_pair() {
    let path = bench_file("to");
    let file = path.to_str().unwrap();
    let csv = String::from_utf8(ok(&["bench", "utf8", "--to", "utf16le", file, "--format", "csv"], b"")).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    let strategies: Vec<&str> = rows.iter().map(|r| r[2]).collect();
    // The one-pass kernel's row (named by the machine's instruction set),
    // and the blocks beside it, where the machine has SIMD.
    let engine = match placemat_codec::simd::Isa::detect() {
        Some(isa) => vec![format!("placemat one pass ({})", isa.name()), "placemat runs and blocks".to_string()],
        None => vec!["placemat runs and blocks".to_string()],
    };
    let want: Vec<&str> = ["encoding_rs", "std encode_utf16"]
        .into_iter()
        .chain(engine.iter().map(String::as_str))
        .chain(["placemat 4 KiB pushes", "placemat one value at a time"])
        .collect();
    assert_eq!(strategies, want);
    assert!(rows
        .iter()
        .all(|r| r[1] == "transcode" && r[6] == "encoding_rs" && r[3] == (TEXT.len() * 200).to_string()));
    // UTF-32BE into UTF-8 (the text encoded as UTF-32BE first): std's
    // `char::from_u32` is the baseline, and converts what the engine does.
    let csv = String::from_utf8(ok(&["bench", "utf32be", "--to", "utf8", file, "--format", "csv"], b"")).unwrap();
    let first = csv.lines().nth(1).unwrap().split(',').collect::<Vec<_>>();
    assert_eq!((first[2], first[6]), ("std char::from_u32", "std char::from_u32"), "{csv}");
    // Between UTF-16 and UTF-32, either way: std's `decode_utf16`, and
    // `char::from_u32` with `encode_utf16`, are the baselines.
    for (from, to, std) in
        [("utf16le", "utf32be", "std decode_utf16"), ("utf32be", "utf16le", "std char::from_u32 + encode_utf16")]
    {
        let csv = String::from_utf8(ok(&["bench", from, "--to", to, file, "--format", "csv"], b"")).unwrap();
        let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
        assert!(rows.iter().all(|r| r[6] == std), "{csv}");
        assert_eq!(rows[0][2], std, "{csv}");
    }
    // CESU-8 into UTF-8 (loaded from its description): the `cesu8` crate converts the pair.
    let csv = String::from_utf8(ok(&["bench", "cesu8", "--to-spec", SPEC, file, "--format", "csv"], b"")).unwrap();
    let strategies: Vec<&str> = csv.lines().skip(1).map(|l| l.split(',').nth(2).unwrap()).collect();
    let paths = ["placemat runs and blocks", "placemat 4 KiB pushes", "placemat one value at a time"];
    // The two read all but CESU-8's surrogate halves alike: those runs are
    // copied, and the pairs go through 16-bit units where the machine has SIMD.
    let copied = "placemat copy of runs read alike";
    let through = match placemat_codec::simd::Isa::detect() {
        Some(isa) => format!("{copied} + 16-bit units ({})", isa.name()),
        None => copied.to_string(),
    };
    assert_eq!(strategies, [&["cesu8 crate", through.as_str()][..], &paths].concat());
    // CESU-8 into UTF-16LE and back: the whole of each block goes through
    // 16-bit units where the machine has SIMD, and the row says so.
    for (from, to) in [("cesu8", "utf16le"), ("utf16le", "cesu8")] {
        let csv = String::from_utf8(ok(&["bench", from, "--to", to, file, "--format", "csv"], b"")).unwrap();
        let strategies: Vec<&str> = csv.lines().skip(1).map(|l| l.split(',').nth(2).unwrap()).collect();
        let want = match placemat_codec::simd::Isa::detect() {
            Some(isa) => vec![format!("placemat through 16-bit units ({})", isa.name()), paths[0].to_string()],
            None => vec![paths[0].to_string()],
        };
        let want: Vec<&str> = want.iter().map(String::as_str).chain(paths[1..].iter().copied()).collect();
        assert_eq!(strategies, want, "{from} -> {to}");
    }
    // UTF-1 into UTF-8: no baseline converts it, and the two read only ASCII
    // alike, which the blocks copy themselves: no copy of runs read alike.
    let csv = String::from_utf8(ok(&["bench", "utf1", "--to-spec", SPEC, file, "--format", "csv"], b"")).unwrap();
    let strategies: Vec<&str> = csv.lines().skip(1).map(|l| l.split(',').nth(2).unwrap()).collect();
    assert_eq!(strategies, paths);
    let stderr = usage(&["bench", "utf8", "--to", "utf16le", "--to-spec", SPEC, file], b"");
    assert!(stderr.contains("give --to or --to-spec, not both"), "{stderr}");
    let _ = std::fs::remove_file(path);
}
