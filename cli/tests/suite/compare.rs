//! `placemat compare` as a process: output formats, `--spec`, progress on stderr
//! only.

use std::process::Command;

use placemat_variants::registry;

const SPEC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/descriptions/utf8.placemat");

fn compare(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_placemat")).arg("compare").args(args).output().expect("the binary runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn csv_has_a_column_per_codec_and_a_row_per_property() {
    let (out, err) = compare(&["--format", "csv", "--spec", SPEC]);
    let lines: Vec<&str> = out.split("\r\n").filter(|l| !l.is_empty()).collect();
    let mut header = vec!["property"];
    header.extend(registry::names());
    header.push("utf8");
    assert_eq!(lines[0], header.join(","));
    let row = |key: &str| -> Vec<&str> {
        lines.iter().find(|l| l.starts_with(&format!("{key},"))).unwrap().split(',').skip(1).collect()
    };
    let col = |name: &str| registry::names().iter().position(|n| *n == name).unwrap();
    let sync = row("self_sync");
    assert_eq!(sync[col("utf8")], "3");
    assert_eq!(sync[col("fss-utf-xopen")], "∞");
    // The description file is strict UTF-8 again, loaded at run time.
    assert_eq!(sync.last(), Some(&"3"));
    assert_eq!(row("fs_safe")[col("fss-utf-xopen")], "yes");
    assert!(lines.iter().skip(1).all(|l| l.split(',').count() == header.len()));
    // Progress goes to stderr, one line per codec when it is not a terminal.
    assert_eq!(err.lines().filter(|l| l.starts_with("placemat: analysed ")).count(), header.len() - 1);
}

#[test]
fn json_rows_carry_typed_values() {
    // Seven codecs (every codec's column is `csv_has_a_column_per_codec…`'s
    // and the table's test): each analysis takes a second in the test build.
    let picked = ["utf8", "fss-utf-xopen", "fss-utf-plan9", "ken-draft", "utf8-ext36", "utf8-ext42", "utf16le"];
    let (out, _) = compare(&["--format", "json", "--codecs", &picked.join(",")]);
    let names: Vec<String> = picked.iter().map(|n| format!("\"{n}\"")).collect();
    assert!(out.starts_with(&format!("{{\"codecs\": [{}], \"rows\": [\n", names.join(", "))));
    assert!(out.ends_with("\n]}\n"));
    let max_units = out.lines().find(|l| l.contains("\"key\": \"max_units\"")).unwrap();
    assert!(max_units.starts_with(
        "  {\"key\": \"max_units\", \"label\": \"longest sequence (units)\", \"values\": [4, 5, 6, 6, 7, 8, 4]"
    ));
    let ascii = out.lines().find(|l| l.contains("\"key\": \"ascii_transparent\"")).unwrap();
    assert!(ascii.contains("\"values\": [true, true, true, true, true, true, false]"), "{ascii}");
}
