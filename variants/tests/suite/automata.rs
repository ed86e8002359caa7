//! Every built-in codec's automaton: minimal in states (no two states are
//! equivalent, checked by the table-filling algorithm, independently of the
//! Hopcroft implementation) and in classes, identical to the tables built at run
//! time from the same description, and printable as a listing and as Graphviz.

// The table-filling algorithm reads most plainly with state indices.
#![allow(clippy::needless_range_loop)]

use placemat_codec::dfa::Dfa;
use placemat_codec::DynCodec;
use placemat_compiler::listing::{dot, listing};
use placemat_compiler::LoadedCodec;
use placemat_variants::registry;

/// Distinguishable state pairs by the table-filling (Moore) algorithm, treating a
/// transition's payload bits and bias as part of its label.
fn equivalent_pairs(dfa: &Dfa<&[u32], &[u64]>) -> Vec<(usize, usize)> {
    let n = dfa.state_count();
    let stride = dfa.class_count();
    let reps: Vec<u8> =
        (0..stride).map(|c| (0..=255u8).find(|&u| dfa.classes()[u as usize] as usize == c).unwrap()).collect();
    let mut distinct = vec![vec![false; n]; n];
    for a in 0..n {
        for b in 0..n {
            let out = |s: usize| -> Vec<(u32, u64, bool)> {
                reps.iter()
                    .map(|&u| {
                        let t = dfa.transition(s * stride, u);
                        (t.payload_bits, t.bias, t.next == 0)
                    })
                    .collect()
            };
            distinct[a][b] = (a == 1) != (b == 1) || out(a) != out(b);
        }
    }
    loop {
        let mut changed = false;
        for a in 0..n {
            for b in 0..n {
                if distinct[a][b] {
                    continue;
                }
                let split = reps.iter().any(|&u| {
                    let ta = dfa.transition(a * stride, u).next / stride;
                    let tb = dfa.transition(b * stride, u).next / stride;
                    distinct[ta][tb]
                });
                if split {
                    distinct[a][b] = true;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut pairs = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if !distinct[a][b] {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

#[test]
fn every_automaton_is_minimal_in_states_and_classes() {
    for codec in registry::all() {
        let dfa = codec.dfa();
        let name = &codec.info().name;
        assert_eq!(equivalent_pairs(&dfa), [], "{name}: equivalent states survived minimization");
        let stride = dfa.class_count();
        let columns: Vec<Vec<u32>> =
            (0..stride).map(|c| (0..dfa.state_count()).map(|s| dfa.transitions()[s * stride + c]).collect()).collect();
        for a in 0..stride {
            for b in a + 1..stride {
                assert_ne!(columns[a], columns[b], "{name}: classes {a} and {b} behave alike");
            }
        }
    }
}

#[test]
fn automaton_sizes_are_reported_and_stable() {
    let sizes: Vec<(String, usize, usize)> = registry::all()
        .iter()
        .map(|c| (c.info().name.to_string(), c.dfa().class_count(), c.dfa().state_count()))
        .collect();
    let get = |n: &str| sizes.iter().find(|s| s.0 == n).map(|s| (s.1, s.2)).unwrap();
    // Höhrmann's hand-made strict UTF-8 automaton has 12 classes and 9 states.
    assert_eq!(get("utf8"), (12, 9));
    // The 1992 forms without a surrogate gap: one lead class per form, plus the
    // narrowed second units that enforce the shortest form.
    assert_eq!(get("fss-utf-plan9"), (16, 11));
    assert_eq!(get("ken-draft"), (16, 11));
    assert_eq!(get("utf8-ext36"), (18, 12));
    assert_eq!(get("utf8-ext42"), (20, 14));
    // X/Open: one continuation state per remaining unit and form (the biases
    // differ), plus the states that enforce the 0x7FFFFFFF ceiling.
    assert_eq!(get("fss-utf-xopen"), (10, 15));
}

/// Generated codecs get their tables from the compiler at compile time, loaded
/// ones at run time, through the same passes: every table, fact, shift row and
/// expanded entry must be the same (`Dfa`'s equality compares them all).
#[test]
fn every_codec_compiled_and_loaded_from_its_description_has_identical_tables() {
    for codec in registry::all() {
        let name = &codec.info().name;
        let loaded = LoadedCodec::from_text(codec.description()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(loaded.dfa(), codec.dfa(), "{name}");
        assert_eq!(loaded.dfa().transitions(), codec.dfa().transitions(), "{name}");
        assert_eq!(loaded.dfa().expanded(), codec.dfa().expanded(), "{name}");
        assert_eq!(loaded.dfa().shift_width(), codec.dfa().shift_width(), "{name}: shift rows");
    }
}

/// Every built-in codec is compiled from a file in `variants/descriptions/`, and
/// `placemat --spec` on that file builds the same tables: one file per codec,
/// named after it, whose text is the codec's `description()`.
#[test]
fn every_description_file_is_a_builtin_codec_with_identical_tables() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("descriptions");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), registry::all().len(), "one description file per built-in codec");
    for path in files {
        let name = path.file_stem().unwrap().to_str().unwrap();
        let codec = registry::find(name).unwrap_or_else(|| panic!("{name}.placemat is no built-in codec"));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(codec.description(), text, "{name}: the compiled codec reads another text");
        let loaded = LoadedCodec::from_text(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(loaded.dfa(), codec.dfa(), "{name}");
    }
}

#[test]
fn listings_and_graphviz_cover_every_live_state() {
    for codec in registry::all() {
        let name = &codec.info().name;
        let dfa = placemat_compiler::automaton_of(*codec).unwrap();
        let text = listing(name, &dfa);
        assert!(text.starts_with(&format!("{name}: {} unit classes, {} states", dfa.class_count(), dfa.state_count())));
        assert_eq!(text.lines().filter(|l| l.starts_with("  c")).count(), dfa.class_count());
        let g = dot(name, &dfa);
        for s in 1..dfa.state_count() {
            assert!(g.contains(&format!("  s{s} [")), "{name}: state {s} missing from the picture");
            assert!(g.contains(&format!("  s{s} -> ")), "{name}: state {s} has no edges");
        }
    }
}

/// The runtime's ASCII fact (which lets the walkers copy ASCII runs: units
/// 00–7F are values of themselves from the start state) holds for every codec
/// the analysis proves ASCII-transparent (which also asks that those bytes occur
/// in no longer sequence, as they do in `vlq`'s `81 00`).
#[test]
fn the_ascii_fact_agrees_with_the_analysis() {
    for codec in registry::all() {
        let name = &codec.info().name;
        let model = placemat_compiler::Description::parse_str(codec.description()).unwrap().model;
        let proved = placemat_compiler::analysis::structure::analyze(&model).ascii_transparent.is_yes();
        assert!(!proved || codec.dfa().facts().ascii_runs == placemat_codec::AsciiRuns::Bytes, "{name}");
    }
}

/// Every codec carries the compiler's verdict on a SIMD validator: the reason
/// it has none, or nothing when its tables have SIMD tables; compiled and
/// loaded from its description alike.
#[test]
fn every_codec_carries_the_simd_verdict() {
    for codec in registry::all() {
        let name = &codec.info().name;
        let a = placemat_compiler::automaton_of(*codec).unwrap();
        let reason = a.local.as_ref().err().map_or("", |e| e.reason.as_str());
        assert_eq!(codec.info().no_simd, reason, "{name}");
        assert_eq!(reason.is_empty(), codec.dfa().simd().is_some(), "{name}");
        let loaded = LoadedCodec::from_text(codec.description()).unwrap();
        assert_eq!(loaded.dyn_info().no_simd, reason, "{name} loaded");
    }
}
