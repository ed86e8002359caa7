//! The pair-forms fact (`CodecInfo::pair_forms`, derived in the compiler's
//! `automaton/pair_forms.rs`) on the built-in codecs, and the engine's path
//! that uses it: from UTF-8 into CESU-8, the characters above U+FFFF go
//! through 16-bit units by the two SIMD kernels.

use placemat_codec::io::{ErrorMode, Transcoder};
use placemat_codec::simd::Isa;
use placemat_variants::registry;

use super::transcode_bulk::{per_value, transcode};
use crate::common::spy::counting;

#[test]
fn cesu8_writes_supplementary_values_as_the_forms_of_their_surrogates() {
    let find = |name| registry::find(name).unwrap();
    let cesu8 = find("cesu8");
    let pair = cesu8.info().pair_forms.expect("CESU-8's six-unit form is a pair of three-unit forms");
    assert_eq!(
        (pair.lo, pair.hi, pair.bias, pair.high, pair.low, pair.low_bits),
        (0x1_0000, 0x10_FFFF, 0x1_0000, 0xD800, 0xDC00, 10)
    );
    // What the fact says is what the encoder writes: the three-unit forms
    // of the two surrogates, for every supplementary value.
    let mut written = Vec::new();
    for v in (0x1_0000u32..=0x10_FFFF).step_by(997).chain([0x10_FFFF]) {
        written.clear();
        cesu8.encode_push(u64::from(v), &mut written).unwrap();
        let c = char::from_u32(v).unwrap();
        let want: Vec<u8> = c
            .encode_utf16(&mut [0; 2])
            .iter()
            .flat_map(|&u| [0xE0 | (u >> 12) as u8, 0x80 | (u >> 6 & 63) as u8, 0x80 | (u & 63) as u8])
            .collect();
        assert_eq!(written, want, "{v:X}");
    }
    // Modified UTF-8 writes them alike; its rule (a lone high surrogate's
    // value then a low one's is no sequence: that is the pair) looks back at
    // the high surrogates' values alone, which the pair's path never writes.
    let mutf8 = find("mutf8");
    assert_eq!(mutf8.info().pair_forms, Some(pair));
    assert_eq!(mutf8.info().byte_forms.map(|f| f.first), Some(1), "U+0000 is C0 80: no form of one unit");
    assert_eq!(&mutf8.info().rule_values[..], &[(0xD800, 0xDBFF)]);
    assert!(cesu8.info().rule_values.is_empty() && find("utf8").info().rule_values.is_empty());
    // UTF-8 (four-unit forms), the integer codecs and the wide codecs have none.
    for name in ["utf8", "fss-utf-plan9", "leb128", "utf16le", "utf32be", "wtf8"] {
        assert_eq!(find(name).info().pair_forms, None, "{name}");
    }
}

/// From UTF-8 into CESU-8, where the copy of runs read alike declines (at
/// characters above U+FFFF), the clusters of them go through 16-bit units:
/// the target's own encoder is given almost none of them (it is given them
/// all without SIMD); the output and errors are the per-value path's.
/// The SIMD checks of the language of CESU-8's and modified UTF-8's 16-bit
/// units, each written alone (`CodecInfo::pair_unit_tables`): every unit's
/// form passes, lone surrogates included (the engine's second kernel checks
/// the pairs), in a run of all of them; a form of no unit, an overlong form,
/// a four-unit sequence and a cut one do not; U+0000 is `00` in CESU-8 and
/// `C0 80` in modified UTF-8, each the other's error.
#[test]
fn the_units_of_cesu8_and_modified_utf8_are_checked_by_simd() {
    let find = |name| registry::find(name).unwrap();
    assert_eq!(find("utf8").info().pair_unit_tables, None);
    for (name, nul, not_nul) in [("cesu8", &[0x00][..], &[0xC0, 0x80][..]), ("mutf8", &[0xC0, 0x80], &[0x00])] {
        let codec = find(name);
        let tables = codec.info().pair_unit_tables.unwrap_or_else(|| panic!("{name}"));
        let forms = codec.info().byte_forms.unwrap();
        let open = placemat_codec::simd::ByteForms { allowed: [(0, 0xFFFF); 2], first: 0, ..forms };
        let mut all = nul.to_vec();
        for unit in 1..=0xFFFF {
            all.extend(open.units(unit).unwrap());
        }
        let bad: [&[u8]; 5] = [not_nul, &[0xC1, 0x81], &[0xE0, 0x80, 0x80], &[0xF0, 0x9F, 0x98, 0x80], &[0xE4, 0xB8]];
        // (A prefix of whole forms.)
        let cut = (3000..).find(|&k| all[k] & 0xC0 != 0x80).unwrap();
        for isa in Isa::all().into_iter().flatten() {
            let valid = |input: &[u8]| placemat_codec::simd::validate(isa, &tables, input).is_ok();
            assert!(valid(&all) && valid(nul) && valid(&[0xED, 0xA0, 0x80]), "{name} {isa:?}");
            assert!(valid(&[&all[..cut], b"abc"].concat()));
            for input in bad {
                let inside = [&all[..cut], input, b"abc"].concat();
                assert!(!valid(input) && !valid(&inside), "{name} {isa:?} {input:02X?}");
            }
        }
    }
}

#[test]
fn clusters_above_the_bmp_go_into_cesu8_through_16_bit_units() {
    for target in ["cesu8", "mutf8"] {
        clusters_through_16_bit_units(target);
    }
}

fn clusters_through_16_bit_units(target: &str) {
    let find = |name| registry::find(name).unwrap();
    let (utf8, cesu8) = (find("utf8"), find(target));
    let simd = Isa::detect().is_some();
    assert_eq!(Transcoder::new(utf8, cesu8, ErrorMode::Strict).unwrap().pair_units(), simd);
    // Not where the source has no decoding kernel (UTF-1).
    assert!(!Transcoder::new(find("utf1"), cesu8, ErrorMode::Strict).unwrap().pair_units());
    // Dense (emoji) and sparse clusters, and text that ends with one.
    // (A NUL, which modified UTF-8 writes as C0 80, stops the path: the copy
    // of runs converts it.)
    let texts = ["😀🎉🚀 ".repeat(2000), format!("{}{}", "дом, 漢字\0 and text 🎉🎉 ".repeat(400), "x🎉")];
    for text in &texts {
        let supplementary = text.chars().filter(|&c| u32::from(c) > 0xFFFF).count();
        // (Each NUL into modified UTF-8 is a value the copy converts.)
        let alone = if target == "mutf8" { text.matches('\0').count() } else { 0 };
        let counting = counting(cesu8);
        for mode in [ErrorMode::Strict, ErrorMode::Replace] {
            for cuts in [vec![], vec![text.len() / 3, text.len() / 3 + 1], (1..text.len()).step_by(4093).collect()] {
                counting.reset();
                let got = transcode(utf8, &counting, mode, text.as_bytes(), &cuts);
                assert!(
                    got == per_value(utf8, cesu8, mode, text.as_bytes(), &cuts),
                    "{target} {mode:?} cut at {cuts:?}"
                );
                let encoded = counting.count();
                // (A cut holds a sequence back, which the per-value path
                // writes: a few per cut.)
                let most = if simd { alone + 64 + 8 * cuts.len() } else { usize::MAX };
                assert!(
                    encoded <= most && (simd || encoded >= supplementary),
                    "{target}: {encoded} of {supplementary}"
                );
            }
        }
    }
    // With an error in a cluster: the per-value path's error and replacement.
    let mut bad = texts[0].clone().into_bytes();
    bad[4001] = 0xFF;
    for mode in [ErrorMode::Strict, ErrorMode::Replace] {
        assert!(
            transcode(utf8, cesu8, mode, &bad, &[1000]) == per_value(utf8, cesu8, mode, &bad, &[1000]),
            "{target} {mode:?}"
        );
    }
}

/// Back, from CESU-8 and modified UTF-8 into UTF-8 and Perl's extension of
/// it, where the copy of runs declines, and into UTF-16 and UTF-32 in both
/// byte orders: the source's units as 16-bit units
/// (a pair's halves as two, modified UTF-8's `C0 80` as U+0000), checked by
/// the SIMD checks of those units' forms, read as UTF-16 into the target's
/// forms, or rewritten unit for unit as its code units. On valid
/// text, text with lone surrogates (valid modified UTF-8, which UTF-8
/// refuses: a high one, a low one, two high ones before a low one), with
/// bytes mutated, cut in every way: the per-value path's output and
/// errors; and on valid text the source's encoder and bulk decoder see
/// only a few values at the cuts (without the path, the engine's blocks of
/// values decode every value there).
#[test]
fn cesu8_and_modified_utf8_come_back_through_16_bit_units() {
    let find = |name| registry::find(name).unwrap();
    let text = format!("{}{}", "дом, 漢字\0 and 😀🎉 text ".repeat(300), "😀🚀🚀 x".repeat(300));
    let targets = ["utf8", "perl-utf8", "utf16le", "utf16be", "utf32le", "utf32be"];
    let pairs = ["cesu8", "mutf8"].into_iter().flat_map(|from| targets.map(|to| (from, to)));
    for (source, target) in pairs {
        let (from, to) = (find(source), find(target));
        // Into wide units, where the machine has the kernel that rewrites them.
        let simd = match to.info().wide_forms.is_some() {
            true => Isa::detect().is_some_and(placemat_codec::simd::converts_units_on),
            false => Isa::detect().is_some(),
        };
        assert_eq!(Transcoder::new(from, to, ErrorMode::Strict).unwrap().pair_units(), simd, "{source} -> {target}");
        let mut clean = Vec::new();
        for c in text.chars() {
            from.encode_push(u64::from(c), &mut clean).unwrap();
        }
        // Lone surrogates (valid in modified UTF-8 only), and a byte
        // changed, in the middle of clusters.
        let (high, low) = ([0xED, 0xA0, 0x80], [0xED, 0xB0, 0x80]);
        let with = |at: usize, units: &[u8]| {
            let mut input = clean.clone();
            input.splice(at..at, units.iter().copied());
            input
        };
        let at = clean.len() / 2 - clean.len() / 2 % 4;
        let lone = [with(at, &high), with(at, &low), with(at, &[high, high, low].concat())];
        let mut mutated = clean.clone();
        mutated[clean.len() / 3] ^= 0x40;
        for input in [&clean, &mutated].into_iter().chain(&lone) {
            for mode in [ErrorMode::Strict, ErrorMode::Replace] {
                for cuts in [vec![], vec![input.len() / 2 + 1], (1..input.len()).step_by(1021).collect()] {
                    let counting = counting(from);
                    let got = transcode(&counting, to, mode, input, &cuts);
                    assert!(
                        got == per_value(from, to, mode, input, &cuts),
                        "{source} -> {target} {mode:?} at {cuts:?}"
                    );
                    let encoded = counting.count();
                    if simd && input == &clean {
                        assert!(encoded <= 64 + 8 * cuts.len(), "{source} -> {target}: {encoded} values");
                    }
                }
            }
        }
    }
}

/// Text with a character above U+FFFF every few words and two together now
/// and then, cut every 4 KiB: a block through 16-bit units that a chunk's
/// end cuts goes on in the next chunk, as in one big chunk, instead of each
/// chunk starting with the copy of runs, which converts the sequences read
/// apart one value at a time (the target's encoder is given those: up to a
/// hundred per chunk here, against a few per cut over what one chunk gives
/// it). Both ways, the per-value path's output.
#[test]
fn a_block_through_16_bit_units_goes_on_in_the_next_chunk() {
    let find = |name| registry::find(name).unwrap();
    if Isa::detect().is_none() {
        return;
    }
    let text = format!("{}😀🎉 ", "abcd 😀 efgh ".repeat(100)).repeat(30);
    for (source, target) in [("cesu8", "utf8"), ("mutf8", "utf8"), ("utf8", "cesu8")] {
        let (from, to) = (find(source), find(target));
        let mut input = Vec::new();
        for c in text.chars() {
            from.encode_push(u64::from(c), &mut input).unwrap();
        }
        let cuts: Vec<usize> = (4096..input.len()).step_by(4096).collect();
        let mut encoded = Vec::new();
        for cuts in [&[][..], &cuts] {
            let counting = counting(to);
            let got = transcode(from, &counting, ErrorMode::Strict, &input, cuts);
            assert!(got == per_value(from, to, ErrorMode::Strict, &input, cuts), "{source} -> {target}");
            encoded.push(counting.count());
        }
        // As many as in one chunk, but a few values at each cut.
        assert!(encoded[1] <= encoded[0] + 8 * cuts.len(), "{source} -> {target}: {encoded:?} values");
    }
}

/// From UTF-16 and UTF-32, in both byte orders, into CESU-8 and modified
/// UTF-8: the source's units rewritten as 16-bit units (UTF-16's pairs
/// copied, UTF-32's values above FFFF split), each written as its byte
/// form. On valid text, text with a U+0000 (which modified UTF-8 writes in
/// a form of its own), lone surrogates and a unit past U+10FFFF in the
/// source, bytes mutated, in both modes and cut in three ways: the
/// per-value path's output and errors; and on valid text the source's
/// bulk decoder and encoder see only a few values at the cuts (without the
/// path, the engine's blocks of values decode every value above FFFF).
#[test]
fn wide_units_go_into_cesu8_and_modified_utf8_through_16_bit_units() {
    let find = |name| registry::find(name).unwrap();
    let simd = Isa::detect().is_some_and(placemat_codec::simd::converts_units_on);
    let text = format!("{}{}", "дом, 漢字 and 😀🎉 text ".repeat(300), "😀🚀🚀 x".repeat(300));
    let sources = ["utf16le", "utf16be", "utf32le", "utf32be"];
    for (source, target) in sources.into_iter().flat_map(|from| ["cesu8", "mutf8"].map(|to| (from, to))) {
        let (from, to) = (find(source), find(target));
        assert_eq!(Transcoder::new(from, to, ErrorMode::Strict).unwrap().pair_units(), simd, "{source} -> {target}");
        let encode = |text: &str| {
            let mut units = Vec::new();
            text.chars().for_each(|c| from.encode_push(u64::from(c), &mut units).unwrap());
            units
        };
        let clean = encode(&text);
        // A code unit of the source, valid or not.
        let unit = |v: u32| match source {
            "utf16le" => (v as u16).to_le_bytes().to_vec(),
            "utf16be" => (v as u16).to_be_bytes().to_vec(),
            "utf32le" => v.to_le_bytes().to_vec(),
            _ => v.to_be_bytes().to_vec(),
        };
        let with = |units: &[u8]| {
            let at = clean.len() / 2 - clean.len() / 2 % 4;
            let mut input = clean.clone();
            input.splice(at..at, units.iter().copied());
            input
        };
        let (high, low) = (unit(0xD800), unit(0xDC00));
        let mut odd = vec![with(&unit(0)), with(&high), with(&low), with(&[high.clone(), high, low].concat())];
        if source.starts_with("utf32") {
            odd.push(with(&unit(0x11_0000)));
        }
        let mut mutated = clean.clone();
        mutated[clean.len() / 3] ^= 0x40;
        for input in [&clean, &mutated].into_iter().chain(&odd) {
            for mode in [ErrorMode::Strict, ErrorMode::Replace] {
                for cuts in [vec![], vec![input.len() / 2 + 1], (1..input.len()).step_by(1021).collect()] {
                    let counting = counting(from);
                    let got = transcode(&counting, to, mode, input, &cuts);
                    let want = per_value(from, to, mode, input, &cuts);
                    assert!(got == want, "{source} -> {target} {mode:?} at {cuts:?}");
                    let decoded = counting.count();
                    if simd && input == &clean {
                        assert!(decoded <= 64 + 8 * cuts.len(), "{source} -> {target}: {decoded} values");
                    }
                }
            }
        }
    }
}
