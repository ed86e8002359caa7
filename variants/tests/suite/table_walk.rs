//! The table decoder's bulk loop (`Dfa::decode_into`): the expanded table and the
//! class-compressed table, one walk and two walks over pairs of chunks, held to the
//! step-by-step decoder on every built-in codec, on inputs long enough for the pair
//! mode and with errors placed in either chunk of a pair and at their cuts; and
//! lossy decoding in bulk (`decode_lossy_in_bulk`) against lossy decoding step by
//! step.

use placemat_codec::dfa::{expanded, Dfa};
use placemat_codec::{Codec, DecodeError, Decoder, DynCodec, DynDecoder, Step, Strategy, Value};
use placemat_compiler::automaton_of;
use placemat_variants::codecs::{Mutf8, Printable6, Utf16Le, Utf8, Utf8Ext42, Wtf8};
use placemat_variants::{corpus, registry};

/// Decoding by `step_in`, the definition every bulk loop must agree with: the
/// values before the first error, and the error. Each value is read in the
/// context the codec's rules across values give after the one before.
fn by_steps(codec: &dyn DynCodec, dfa: &Dfa<&[u32], &[u64]>, input: &[u8]) -> (Vec<u64>, Result<(), DecodeError>) {
    let mut values = Vec::new();
    let (mut pos, mut context) = (0, 0);
    while pos < input.len() {
        match dfa.step_in::<u64>(context, &input[pos..]) {
            Step::Value { value, len } => {
                values.push(value);
                pos += len;
                context = codec.context_after(value);
            }
            Step::Invalid { len } => return (values, Err(DecodeError::new(pos, Some(len)))),
            Step::Incomplete => return (values, Err(DecodeError::new(pos, None))),
        }
    }
    (values, Ok(()))
}

/// The codec's tables without the expanded and direct tables: the
/// class-compressed walk.
fn class_only(codec: &dyn DynCodec) -> Dfa<Vec<u32>, Vec<u64>> {
    let mut automaton = automaton_of(codec).unwrap();
    automaton.expanded = None;
    automaton.direct = None;
    automaton.dfa()
}

/// The bulk loop with the codec's own tables (expanded, direct or
/// class-compressed) and with `plain`, its tables without the expanded and
/// direct tables ([`class_only`]), against the step-by-step decoder.
fn check(codec: &dyn DynCodec, plain: &Dfa<Vec<u32>, Vec<u64>>, input: &[u8], what: &str) {
    let dfa = &codec.dfa();
    let want = by_steps(codec, dfa, input);
    assert!(plain.expanded().is_none() && plain.direct().is_none());
    for (walker, tables) in [(dfa.clone(), "as built"), (plain.as_ref(), "class-compressed")] {
        let mut got = vec![7u64];
        let result = walker.decode_table_into(input, &mut got);
        assert_eq!(got.remove(0), 7, "{what} ({tables}): the output's earlier values were touched");
        assert_eq!(result, want.1, "{what} ({tables}): error, {} units", input.len());
        assert_eq!(got, want.0, "{what} ({tables}): values before the error");
        // The validators share the driver (its cuts and ASCII runs).
        assert_eq!(walker.validate_scalar(input), want.1, "{what} ({tables}): validate_scalar");
        assert_eq!(walker.validate_by_table(input), want.1, "{what} ({tables}): validate_by_table");
    }
}

/// A codec's encoding of the first `n` values of a corpus (values it cannot
/// encode are skipped).
fn encoded(codec: &dyn placemat_codec::DynCodec, corpus: &str, n: usize) -> Vec<u8> {
    let c = corpus::by_name(corpus).unwrap();
    let mut bytes = Vec::new();
    for &v in c.text.iter().take(n) {
        let _ = codec.encode_push(u64::from(v), &mut bytes);
    }
    bytes
}

#[test]
fn expanded_tables_where_states_know_the_bits_to_come_and_direct_tables_elsewhere() {
    for codec in registry::all() {
        let name = codec.info().name.to_string();
        let has = codec.dfa().expanded().is_some();
        // A continuation bit (printable6, vlq, git-ofs, sqlite-varint) means a
        // state does not know how many payload bits are still to come; a length
        // in the lead unit (UTF-8 and its kin, QUIC's prefix, Perl's FE and FF)
        // does: weights are kept modulo 2^64, so perl-utf8's 72-bit form and
        // QUIC's 62-bit one fit.
        let continuation_bit = name.starts_with("printable6") || ["vlq", "git-ofs", "sqlite-varint"].contains(&&*name);
        // Placed payloads (groups least significant first, little-endian units)
        // are never expanded.
        let lsb =
            ["leb128", "utf16le", "utf32le", "hpack-int5", "hpack-int7", "sleb128", "protobuf-sint64", "sourcemap-vlq"]
                .contains(&&*name);
        // A codec with rules across values has several start states, and one
        // that takes the longest match goes back to values it passed; the
        // expanded walker does neither. (CESU-8's `ED` begins a three-byte
        // sequence and a surrogate pair, but it is a literal unit, so the state
        // after it has read nothing a weight could apply to.)
        let contexts = ["wtf8", "mutf8"].contains(&&*name);
        assert_eq!(has, !continuation_bit && !lsb && !contexts, "{name}");
        assert_eq!(automaton_of(*codec).unwrap().certificates.remaining.is_some(), has, "{name}");
        // Every other codec walks the direct table, but for the one whose
        // sequences have no length limit.
        let direct = codec.dfa().direct().is_some();
        assert_eq!(direct, !has && name != "printable6-big", "{name}");
        assert_eq!(direct, !has && !codec.dfa().facts().cyclic, "{name}");
    }
    assert_eq!(
        <Utf8 as Codec>::dfa().expanded().map(|t| (t.next.len(), t.values.len())),
        Some((
            <Utf8 as Codec>::dfa().state_count() * expanded::ROW,
            <Utf8 as Codec>::dfa().state_count() * expanded::ROW
        ))
    );
}

#[test]
fn every_codec_agrees_with_steps_on_long_inputs_with_errors_anywhere() {
    let mut rng = corpus::Rng::new(23);
    for codec in registry::all() {
        let name = codec.info().name.to_string();
        let plain = class_only(*codec);
        for corpus in ["chinese", "mixed", "random-lengths", "english"] {
            // Long enough for several pairs of chunks (2 × 2048 units and more).
            let valid = encoded(*codec, corpus, 6_000);
            check(*codec, &plain, &valid, &format!("{name} {corpus} valid"));
            // One error, at random and around the pair cuts (about 2048 and 4096).
            let mut places: Vec<usize> = (0..12).map(|_| rng.below(valid.len())).collect();
            for cut in [2048usize, 4096, 6144, 8192] {
                places.extend(cut.saturating_sub(3)..cut + 300);
            }
            places.retain(|&p| p < valid.len());
            places.dedup();
            for (k, &at) in places.iter().enumerate() {
                if k % 7 != 0 && k >= 12 {
                    continue; // a sample of the positions near cuts keeps the test quick
                }
                let mut bad = valid.clone();
                // 00 ends mutf8's ASCII runs (it writes U+0000 as C0 80).
                bad[at] = match k % 3 {
                    0 => 0xFF,
                    1 => rng.range(0x80, 0xBF) as u8,
                    _ => 0x00,
                };
                check(*codec, &plain, &bad, &format!("{name} {corpus} error at {at}"));
                // Truncated inside the damaged part, too.
                check(*codec, &plain, &bad[..(at + 1).min(bad.len())], &format!("{name} {corpus} cut at {}", at + 1));
            }
        }
    }
}

#[test]
fn every_codec_agrees_with_steps_on_random_bytes() {
    let mut rng = corpus::Rng::new(29);
    for codec in registry::all() {
        let plain = class_only(*codec);
        for len in [0, 1, 7, 33, 100, 5_000, 9_000] {
            for _ in 0..6 {
                let input: Vec<u8> = (0..len)
                    .map(|_| if rng.one_in(4) { rng.range(0, 0x7F) as u8 } else { rng.range(0x80, 0xFF) as u8 })
                    .collect();
                check(*codec, &plain, &input, &codec.info().name);
            }
        }
    }
}

#[test]
fn strict_utf8_matches_std_on_a_whole_corpus_in_both_walks() {
    for corpus in ["russian", "emoji", "random-scalars"] {
        let text = corpus::by_name(corpus).unwrap().utf8();
        let want: Vec<u32> = std::str::from_utf8(&text).unwrap().chars().map(u32::from).collect();
        let mut got: Vec<u32> = Vec::new();
        <Utf8 as Codec>::dfa().decode_table_into(&text, &mut got).unwrap();
        assert_eq!(got, want, "{corpus}, expanded");
        let plain = class_only(&Utf8);
        got.clear();
        plain.decode_table_into(&text, &mut got).unwrap();
        assert_eq!(got, want, "{corpus}, class-compressed");
        // One error three quarters in: std's position, and the values before it.
        let mut bad = text.clone();
        let at = (bad.len() * 3 / 4..).find(|&i| bad[i] >= 0xC0).unwrap();
        bad[at + 1] = b'!';
        let std = std::str::from_utf8(&bad).unwrap_err();
        got.clear();
        let err = <Utf8 as Codec>::dfa().decode_table_into(&bad, &mut got).unwrap_err();
        assert_eq!((err.valid_up_to(), err.error_len()), (std.valid_up_to(), std.error_len()), "{corpus}");
        assert_eq!(got.len(), std::str::from_utf8(&bad[..std.valid_up_to()]).unwrap().chars().count());
    }
}

/// The facts that let the driver skip and cut: ASCII runs in each codec's own
/// code units, and cuts after the final units of the varints and the 6-bit
/// printable encoding, which have no unit that only starts a sequence.
#[test]
fn ascii_runs_and_end_units_are_derived_for_every_codec() {
    use placemat_codec::AsciiRuns;
    let set = |units: &mut dyn Iterator<Item = u8>| {
        let mut s = [0u64; 4];
        units.for_each(|u| s[u as usize / 64] |= 1 << (u % 64));
        s
    };
    let ascii = set(&mut (0..0x80));
    for codec in registry::all() {
        let (name, facts) = (codec.info().name.clone(), *codec.dfa().facts());
        let runs = match &*name {
            "mutf8" => AsciiRuns::NonZeroBytes,
            "utf16le" => AsciiRuns::U16Le,
            "utf16be" => AsciiRuns::U16Be,
            "utf32le" => AsciiRuns::U32Le,
            "utf32be" => AsciiRuns::U32Be,
            // 'a' is `40 61`, and the alphabet is not ASCII.
            // and in UTF-EBCDIC 41 is a trailing byte (the I8 byte A0).
            // HPACK's full prefix (1F, 7F) starts a longer sequence.
            // SLEB128's 40–7F are -64..-1, and the VLQ's alphabet is base64.
            "quic-varint" | "printable6" | "printable6-big" | "utf-ebcdic" | "hpack-int5" | "hpack-int7"
            | "sleb128" | "sourcemap-vlq" => AsciiRuns::None,
            _ => AsciiRuns::Bytes,
        };
        assert_eq!(facts.ascii_runs, runs, "{name}");
        // A table's facts are of raw values: protobuf-sint64's 00–7F are raw
        // values of themselves, which its sign maps, so a transcoder is told
        // of no runs (nor of a codec's with rules across values).
        let told = if codec.premapped() || codec.dfa().contexts() > 1 { AsciiRuns::None } else { runs };
        assert_eq!(codec.ascii_runs(), told, "{name}");
        if ["leb128", "vlq", "git-ofs"].contains(&&*name) {
            assert_eq!(facts.end_units, ascii, "{name}: the last unit of a sequence is below 80");
            assert_eq!(facts.sync_units, [0; 4], "{name}: every unit may continue a sequence");
        }
    }
    // The 6-bit printable encoding: a final unit is one of the first 32
    // symbols; a byte outside the alphabet kills every state, which makes it an
    // end unit (and a sync unit) too.
    let alphabet = b" abcdefghijklmnopqrstuvwxyz;,-.?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_";
    let want = set(&mut (0..=255u8).filter(|u| alphabet[..32].contains(u) || !alphabet.contains(u)));
    let p6 = registry::find("printable6").unwrap();
    assert_eq!(p6.dfa().facts().end_units, want);
}

/// Code units wider than a byte: the sync units are bytes at one place of a
/// code unit. In UTF-16 every code unit but a low surrogate starts a sequence
/// (the high byte, place 1 in little-endian order, is not `DC`-`DF`); in
/// UTF-32 every code unit does. Text of surrogate pairs, where every other
/// code unit is no cut, is then cut at code-unit boundaries, and decodes and
/// validates as by steps, with errors at and around the cuts.
#[test]
fn wide_code_units_are_cut_between_code_units() {
    let all_but_low_surrogates = {
        let mut s = [u64::MAX; 4];
        (0xDC..=0xDF).for_each(|b: usize| s[b / 64] &= !(1 << (b % 64)));
        s
    };
    for (name, lane, sync) in [
        ("utf16le", 1, all_but_low_surrogates),
        ("utf16be", 0, all_but_low_surrogates),
        ("utf32le", 0, [u64::MAX; 4]),
        ("utf32be", 0, [u64::MAX; 4]),
    ] {
        let codec = registry::find(name).unwrap();
        let facts = *codec.dfa().facts();
        assert_eq!((facts.sync_units, facts.sync_lane), (sync, lane), "{name}");
        let plain = class_only(codec);
        let valid = encoded(codec, "emoji", 6_000);
        check(codec, &plain, &valid, &format!("{name} emoji valid"));
        for at in (2040..2060).chain(4090..4110) {
            for byte in [0xDC, 0xD8, 0x00, 0xFF] {
                let mut bad = valid.clone();
                bad[at] = byte;
                check(codec, &plain, &bad, &format!("{name} emoji: {byte:02X} at {at}"));
            }
        }
        // An odd length: the last code unit is partial.
        check(codec, &plain, &valid[..valid.len() - 1], &format!("{name} emoji, truncated"));
    }
    // Byte units keep place 0.
    assert!(registry::all().iter().filter(|c| c.dfa().facts().unit_bytes == 1).all(|c| c.dfa().facts().sync_lane == 0));
}

/// The table codec's lossy decoding (in bulk, stepping only near errors)
/// against lossy decoding step by step, on long text damaged sparsely, densely
/// and in bursts: for codecs decoded behind SIMD validation (`utf8`,
/// `utf8-ext42`), with rules across values (`wtf8`, `mutf8`), with pending
/// values (`mutf8`), with mapped values (`printable6`) and 16-bit units.
#[test]
fn lossy_decoding_in_bulk_agrees_with_steps() {
    fn check<C: Codec + Default + Send + Sync>(corpus: &str, rng: &mut corpus::Rng) {
        let name = &C::info().name;
        let valid = encoded(&C::default(), corpus, 6_000);
        let steps = DynDecoder { codec: &C::default(), strategy: Strategy::Table };
        for (spacing, burst) in [(0, 1), (9_000, 1), (700, 1), (40, 1), (3, 1), (300, 40)] {
            let mut bad = valid.clone();
            let mut at = if spacing == 0 { bad.len() } else { rng.below(spacing.min(bad.len())) };
            while at < bad.len() {
                for b in bad.iter_mut().skip(at).take(burst) {
                    *b = [0xFF, 0x80, 0x00, 0xC0][rng.below(4)];
                }
                at += 1 + rng.below(2 * spacing);
            }
            for input in [&bad[..], &bad[..bad.len() - 1]] {
                let bulk: Vec<u64> = C::default().decode_lossy(input).into_iter().map(Value::to_u64).collect();
                assert_eq!(bulk, steps.decode_lossy(input), "{name} {corpus}, errors every {spacing}");
            }
        }
    }
    // In WTF-8 a lead surrogate forbids a trail surrogate after it: when the
    // calm stretch after an error ends right after a lead surrogate, the bulk
    // decoder (which starts in context 0) must not take over before the next
    // value.
    for calm in 240..270 {
        let mut input = vec![0xFF];
        input.extend(std::iter::repeat_n(b'a', calm));
        input.extend([0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80]);
        input.extend(std::iter::repeat_n(b'b', 600));
        let steps = DynDecoder { codec: &Wtf8, strategy: Strategy::Table };
        let bulk: Vec<u64> = Wtf8.decode_lossy(&input).into_iter().map(Value::to_u64).collect();
        assert_eq!(bulk, steps.decode_lossy(&input), "{calm} units after the error");
    }
    let mut rng = corpus::Rng::new(31);
    for corpus in ["mixed", "english", "random-lengths"] {
        check::<Utf8>(corpus, &mut rng);
        check::<Utf8Ext42>(corpus, &mut rng);
        check::<Wtf8>(corpus, &mut rng);
        check::<Mutf8>(corpus, &mut rng);
        check::<Printable6>(corpus, &mut rng);
        check::<Utf16Le>(corpus, &mut rng);
    }
}
