//! The bad descriptions of the `codec!` UI tests (`codec-macros/tests/ui/*.rs`),
//! given to `placemat tables --spec FILE`: the CLI must report every message the
//! compiler reports (the `.stderr` files), at the same line and column, as
//! `file:line:col: error: …` (and `… note: …`) lines, and nothing else.
//!
//! Each description is cut out of its macro call with everything before it blanked
//! (newlines kept), so lines and columns in the description file are those of the
//! `.rs` file.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `.rs` text with everything but the body of `codec! { … }` blanked.
fn description_of(source: &str) -> String {
    let call = source.find("codec!").expect("a codec! call");
    let open = call + source[call..].find('{').expect("codec! { … }");
    let bytes = source.as_bytes();
    let (mut depth, mut i, mut close) = (0usize, open, None);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // Skip a string literal, escapes included.
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let close = close.expect("balanced braces");
    let blank: String = source[..=open].chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect();
    format!("{blank}{}\n", &source[open + 1..close])
}

/// `(kind, line, col, message)` of each diagnostic in a trybuild `.stderr` file.
/// An error's notes follow its message, one per line, as `note: … (line L,
/// column C)` (stable proc-macros cannot attach notes of their own).
fn expected(stderr: &str) -> Vec<(&'static str, usize, usize, String)> {
    let lines: Vec<&str> = stderr.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(message) = line.strip_prefix("error: ") else {
            continue;
        };
        let notes: Vec<&str> = lines[i + 1..].iter().map_while(|l| l.trim_start().strip_prefix("note: ")).collect();
        let at =
            lines[i + 1 + notes.len()].trim_start().strip_prefix("--> ").expect("a location line after the message");
        let mut parts = at.rsplitn(3, ':');
        let col: usize = parts.next().unwrap().parse().unwrap();
        let line_no: usize = parts.next().unwrap().parse().unwrap();
        out.push(("error", line_no, col, message.to_string()));
        for note in notes {
            let (text, place) = note.rsplit_once(" (line ").expect("a note says where it points");
            let (l, c) = place.trim_end_matches(')').split_once(", column ").expect("line and column");
            out.push(("note", l.parse().unwrap(), c.parse().unwrap(), text.to_string()));
        }
    }
    out
}

fn ui_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../codec-macros/tests/ui")
}

#[test]
fn the_cli_reports_the_compilers_messages_at_the_same_places() {
    let dir = std::env::temp_dir().join(format!("placemat-ui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(ui_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 15, "at least 15 UI cases, found {}", cases.len());
    for case in &cases {
        let name = case.file_stem().unwrap().to_str().unwrap();
        let source = std::fs::read_to_string(case).unwrap();
        if source.contains("codec!(file =") {
            continue; // a case about reading description files, not a description
        }
        let stderr = std::fs::read_to_string(case.with_extension("stderr")).unwrap();
        let want = expected(&stderr);
        assert!(!want.is_empty(), "{name}.stderr has no error");
        let file = dir.join(format!("{name}.placemat"));
        std::fs::write(&file, description_of(&source)).unwrap();
        let path = file.to_str().unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_placemat")).args(["tables", "--spec", path]).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}: the CLI must refuse the description");
        let got = String::from_utf8(out.stderr).unwrap();
        let errors = want.iter().filter(|w| w.0 == "error").count();
        assert!(
            got.starts_with(&format!(
                "placemat: `{path}` is not a valid description ({errors} error{}):\n",
                if errors == 1 { "" } else { "s" }
            )),
            "{name}: {got}"
        );
        let reported: Vec<&str> = got.lines().skip(1).collect();
        assert_eq!(reported.len(), want.len(), "{name}: one line per diagnostic and note\n{got}");
        for (kind, line, col, message) in &want {
            let line_text = format!("{path}:{line}:{col}: {kind}: {message}");
            assert!(reported.contains(&line_text.as_str()), "{name}: missing `{line_text}` in\n{got}");
        }
    }
}
