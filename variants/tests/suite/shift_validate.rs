//! The shift-DFA validator (`Dfa::validate`) against the plain table walker
//! (`Dfa::validate_by_table`) and the step-by-step decoder, for every built-in
//! codec and for run-time tables built without minimization or byte classes; and
//! the row layout of every codec (widths and solved offsets pinned, every
//! transition read back through the rows).

use placemat_codec::dfa::Dfa;
use placemat_codec::{Codec, DecodeError, Decoder};
use placemat_compiler::automaton::Automaton;
use placemat_compiler::{automaton_of, BuildOptions, Description, LoadedCodec};
use placemat_variants::codecs::Utf8;
use placemat_variants::{corpus, registry};
use proptest::prelude::*;

/// Validation by `step_in`, the definition the fast paths must agree with,
/// in the context `after` gives for each value (the codec's rules across
/// values; `|_| 0` for a codec without them).
fn by_steps(dfa: &Dfa<&[u32], &[u64]>, after: &dyn Fn(u64) -> usize, input: &[u8]) -> Result<(), DecodeError> {
    let (mut pos, mut context) = (0, 0);
    while pos < input.len() {
        match dfa.step_in::<u64>(context, &input[pos..]) {
            placemat_codec::Step::Value { len, value } => {
                pos += len;
                context = after(value);
            }
            placemat_codec::Step::Invalid { len } => return Err(DecodeError::new(pos, Some(len))),
            placemat_codec::Step::Incomplete => return Err(DecodeError::new(pos, None)),
        }
    }
    Ok(())
}

fn check(dfa: &Dfa<&[u32], &[u64]>, after: &dyn Fn(u64) -> usize, input: &[u8], what: &str) {
    let expected = by_steps(dfa, after, input);
    assert_eq!(dfa.validate(input), expected, "{what}: shift validator, {} bytes", input.len());
    assert_eq!(dfa.validate_by_table(input), expected, "{what}: table walker, {} bytes", input.len());
}

/// Valid text, then the same text with one error placed at many offsets (so that
/// errors land in both halves, at block edges and in the tails).
fn inputs_for(dfa: &Dfa<&[u32], &[u64]>, valid: &[u8]) -> Vec<Vec<u8>> {
    let mut v = vec![valid.to_vec()];
    let mut rng = corpus::Rng::new(11);
    for _ in 0..40 {
        let mut bad = valid.to_vec();
        let at = rng.below(bad.len());
        bad[at] = rng.range(0, 255) as u8;
        v.push(bad);
    }
    for cut in [1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129, valid.len() / 2, valid.len() / 2 + 1] {
        if cut < valid.len() {
            v.push(valid[..valid.len() - cut].to_vec());
            v.push(valid[cut..].to_vec());
        }
    }
    let _ = dfa;
    v
}

#[test]
fn shift_row_widths_are_pinned() {
    // u64 rows (six-bit offsets) for up to ten merged states, or more with a
    // solved overlapping layout; u128 rows (seven-bit) for git-ofs's 18 and
    // sourcemap-vlq's 14; none for
    // perl-utf8's 23 and the HPACK integers' 21, which validate by the table walk.
    for codec in registry::all() {
        let name = &codec.info().name;
        let want = match name.as_ref() {
            "git-ofs" | "sourcemap-vlq" => 7,
            "perl-utf8" | "hpack-int5" | "hpack-int7" => 0,
            _ => 6,
        };
        assert_eq!(codec.dfa().shift_width(), want, "{name}");
    }
}

#[test]
fn shift_validator_agrees_on_every_codec_and_corpus() {
    let corpora: Vec<_> = ["mixed", "emoji", "random-lengths"].iter().map(|n| corpus::by_name(n).unwrap()).collect();
    for codec in registry::all() {
        let dfa = codec.dfa();
        let name = &codec.info().name;
        for c in &corpora {
            let mut bytes = Vec::new();
            for &v in &c.text[..20_000.min(c.text.len())] {
                codec.encode_push(u64::from(v), &mut bytes).unwrap();
            }
            for input in inputs_for(&dfa, &bytes) {
                check(&dfa, &|v| codec.context_after(v), &input, &format!("{name} {}", c.name));
            }
        }
    }
}

#[test]
fn shift_validator_agrees_on_random_bytes() {
    let mut rng = corpus::Rng::new(5);
    for codec in registry::all() {
        let dfa = codec.dfa();
        for len in [0, 1, 2, 5, 31, 32, 33, 127, 128, 129, 300, 1000] {
            for _ in 0..30 {
                // Mostly continuation-like bytes, so sequences get long before failing.
                let input: Vec<u8> = (0..len)
                    .map(|_| if rng.one_in(3) { rng.range(0, 0x7F) as u8 } else { rng.range(0x80, 0xFF) as u8 })
                    .collect();
                check(&dfa, &|v| codec.context_after(v), &input, &codec.info().name);
            }
        }
    }
}

#[test]
fn utf8_mutated_corpus_agrees_with_std() {
    let bytes = corpus::mutated_utf8();
    let ours = Utf8.validate(&bytes).unwrap_err();
    let std = std::str::from_utf8(&bytes).unwrap_err();
    assert_eq!((ours.valid_up_to(), ours.error_len()), (std.valid_up_to(), std.error_len()));
    // Valid text with one error far into the second half.
    let mut text = corpus::by_name("russian").unwrap().utf8();
    let at = text.len() * 3 / 4;
    let at = (at..).find(|&i| text[i] < 0x80).unwrap();
    text[at] = 0xFF;
    let ours = Utf8.validate(&text).unwrap_err();
    assert_eq!(ours.valid_up_to(), std::str::from_utf8(&text).unwrap_err().valid_up_to());
}

#[test]
fn runtime_tables_without_minimization_or_classes_validate_alike() {
    let model = Description::parse_str(Utf8::DESCRIPTION).unwrap().model;
    let text = corpus::by_name("random-lengths").unwrap().utf8();
    let sample = &text[..50_000];
    for options in [BuildOptions { minimize: false, classes: true }, BuildOptions { minimize: true, classes: false }] {
        let codec = LoadedCodec::new(model.clone(), options).unwrap();
        let dfa = codec.dfa();
        assert_ne!(dfa.shift_width(), 0);
        for input in inputs_for(&dfa, sample) {
            check(&dfa, &|_| 0, &input, "runtime utf8");
            assert_eq!(dfa.validate(&input).is_ok(), std::str::from_utf8(&input).is_ok());
        }
    }
}

/// The states of `a` merged by acceptance (Moore's refinement from dead /
/// start / the rest, ids in order of first appearance): the merged id of every
/// state, and how many there are. An oracle written apart from the compiler's
/// Hopcroft pass.
fn merged(a: &Automaton) -> (Vec<usize>, usize) {
    let n = a.state_count();
    let mut block: Vec<usize> = (0..n).map(|s| s.min(2)).collect();
    let mut count = block.iter().max().map_or(0, |&m| m + 1);
    loop {
        let mut keys: Vec<Vec<usize>> = Vec::new();
        let refined: Vec<usize> = (0..n)
            .map(|s| {
                let key: Vec<usize> =
                    std::iter::once(block[s]).chain(a.edges[s].iter().map(|e| block[e.next])).collect();
                keys.iter().position(|k| *k == key).unwrap_or_else(|| {
                    keys.push(key);
                    keys.len() - 1
                })
            })
            .collect();
        block = refined;
        if keys.len() == count {
            return (block, count);
        }
        count = keys.len();
    }
}

#[test]
fn row_layouts_are_pinned() {
    // (codec, states merged by acceptance, solved offsets by merged id: dead,
    // start, then in order of first appearance in the table; `None`: `k·6`).
    // `k·7` for git-ofs's u128 rows. perl-utf8 (23 merged states) and the HPACK
    // integers (21) have no rows.
    let pinned: [(&str, usize, Option<&[u8]>); 25] = [
        ("utf8", 9, None),
        ("fss-utf-xopen", 9, None),
        ("fss-utf-plan9", 11, Some(&[0, 32, 1, 7, 13, 19, 25, 38, 44, 49, 55])),
        ("ken-draft", 11, Some(&[0, 32, 1, 7, 13, 19, 25, 38, 44, 49, 55])),
        ("utf8-ext36", 12, Some(&[0, 32, 1, 7, 13, 19, 25, 38, 44, 51, 45, 57])),
        ("utf8-ext42", 14, Some(&[0, 32, 1, 7, 13, 19, 25, 49, 38, 43, 26, 54, 59, 24])),
        ("utf1", 11, Some(&[0, 32, 1, 7, 25, 49, 55, 38, 44, 19, 13])),
        ("utf-ebcdic", 9, None),
        ("wtf8", 12, Some(&[0, 32, 52, 1, 7, 13, 44, 19, 25, 38, 58, 23])),
        ("printable6", 6, None),
        ("printable6-big", 3, None),
        ("vlq", 5, None),
        ("git-ofs", 18, None),
        ("quic-varint", 9, None),
        ("sqlite-varint", 10, None),
        ("leb128", 11, Some(&[0, 4, 12, 28, 48, 42, 37, 32, 23, 17, 8])),
        // The signed codecs' raw values are leb128's: the same states.
        ("sleb128", 11, Some(&[0, 4, 12, 28, 48, 42, 37, 32, 23, 17, 8])),
        ("protobuf-sint64", 11, Some(&[0, 4, 12, 28, 48, 42, 37, 32, 23, 17, 8])),
        ("sourcemap-vlq", 14, None),
        ("cesu8", 9, None),
        ("mutf8", 12, Some(&[0, 32, 50, 1, 7, 13, 19, 38, 44, 16, 56, 25])),
        ("utf16le", 5, None),
        ("utf16be", 5, None),
        ("utf32le", 6, None),
        ("utf32be", 6, None),
    ];
    let without_rows = ["perl-utf8", "hpack-int5", "hpack-int7"];
    assert_eq!(pinned.len() + without_rows.len(), registry::all().len(), "every codec but those without rows");
    for (name, count, solved) in pinned {
        let a = automaton_of(registry::find(name).unwrap()).unwrap();
        let (block, merged_count) = merged(&a);
        assert_eq!((merged_count, a.shift.merged), (count, count), "{name}");
        let width = if count > 10 && solved.is_none() { 7 } else { 6 };
        assert_eq!((a.shift.width, a.shift.solved), (width, solved.is_some()), "{name}");
        // The offset of every merged state, by merged id.
        let mut by_merged = vec![None; count];
        for (s, &k) in block.iter().enumerate() {
            assert!(by_merged[k].is_none_or(|o| o == a.shift.offsets[s]), "{name}: merged states share an offset");
            by_merged[k] = Some(a.shift.offsets[s]);
        }
        let by_merged: Vec<u8> = by_merged.into_iter().map(Option::unwrap).collect();
        match solved {
            Some(offsets) => {
                assert_eq!(by_merged, offsets, "{name}");
                // More than 10 six-bit fields do not fit 64 bits side by side.
                let mut sorted = offsets.to_vec();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), count, "{name}: offsets are distinct");
                assert!(sorted.windows(2).any(|w| w[1] - w[0] < 6), "{name}: fields overlap");
            }
            None => assert_eq!(by_merged, (0..count as u8).map(|k| width as u8 * k).collect::<Vec<_>>(), "{name}"),
        }
    }
}

#[test]
fn every_transition_reads_back_through_the_rows() {
    for codec in registry::all() {
        let name = &codec.info().name;
        let a = automaton_of(*codec).unwrap();
        let width = a.shift.width;
        if width == 0 {
            assert!(a.shift.offsets.is_empty() && merged(&a).1 > 18, "{name}: rows are left out only when too big");
            continue;
        }
        assert_eq!(a.shift.offsets[0], 0, "{name}: the dead state sits at bit 0");
        let bits = if width == 6 { 64 } else { 128 };
        for unit in 0..=255u8 {
            let row = a.shift.rows[unit as usize];
            assert!(bits == 128 || row >> 64 == 0, "{name}: u64 row");
            for s in 0..a.state_count() {
                let t = a.edge(s, unit).next;
                // `state = row >> state`: the low bits of the shifted row (bits
                // past the row read as zero) are the next state's offset.
                let field = (row >> a.shift.offsets[s]) as u32 & ((1 << width) - 1);
                assert_eq!(field, u32::from(a.shift.offsets[t]), "{name}: state {s}, unit {unit:#04x}");
            }
        }
    }
}

#[test]
fn solved_layouts_validate_like_the_table_on_mutated_text() {
    let text = corpus::by_name("mixed").unwrap();
    let mut rng = corpus::Rng::new(41);
    for name in ["fss-utf-plan9", "ken-draft", "utf8-ext36", "utf8-ext42"] {
        let codec = registry::find(name).unwrap();
        let dfa = codec.dfa();
        let mut bytes = Vec::new();
        for &v in &text.text[..30_000] {
            codec.encode_push(u64::from(v), &mut bytes).unwrap();
        }
        // Every unit value in every position class: the rows hold all 256 units.
        for _ in 0..200 {
            let mut bad = bytes.clone();
            let at = rng.below(bad.len());
            bad[at] = rng.range(0, 255) as u8;
            bad.truncate(at + 1 + rng.below(64));
            check(&dfa, &|v| codec.context_after(v), &bad, name);
        }
    }
}

/// Valid text of `codec` (values from the corpus "mixed", from `start` on).
fn encoded(codec: &dyn placemat_codec::DynCodec, start: usize, len: usize) -> Vec<u8> {
    static TEXT: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    let text = TEXT.get_or_init(|| corpus::by_name("mixed").unwrap().text);
    let mut bytes = Vec::new();
    for &v in text.iter().cycle().skip(start).take(len) {
        codec.encode_push(u64::from(v), &mut bytes).unwrap();
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    /// Valid text, broken in a few places and cut anywhere, in every codec: the
    /// shift validator answers as the table walker does.
    #[test]
    fn mutated_text_validates_like_the_table(
        which in 0..8usize,
        start in 0..10_000usize,
        len in 0..600usize,
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        cut in any::<prop::sample::Index>(),
        from_end in any::<bool>(),
    ) {
        let codecs = registry::all();
        let codec = &codecs[which % codecs.len()];
        let dfa = codec.dfa();
        let mut bytes = encoded(*codec, start, len);
        if !bytes.is_empty() {
            for (at, b) in &edits {
                let i = at.index(bytes.len());
                bytes[i] = *b;
            }
            let c = cut.index(bytes.len() + 1);
            bytes = if from_end { bytes[..c].to_vec() } else { bytes[c..].to_vec() };
        }
        prop_assert_eq!(dfa.validate(&bytes), dfa.validate_by_table(&bytes), "{}", codec.info().name);
    }

    /// Arbitrary bytes, mostly from the high half (long sequences before failing).
    #[test]
    fn random_bytes_validate_like_the_table(
        which in 0..8usize,
        bytes in prop::collection::vec(prop_oneof![1 => 0u8..0x80, 3 => 0x80u8..=0xFF], 0..400),
    ) {
        let codecs = registry::all();
        let codec = &codecs[which % codecs.len()];
        let dfa = codec.dfa();
        prop_assert_eq!(dfa.validate(&bytes), dfa.validate_by_table(&bytes), "{}", codec.info().name);
    }
}
