//! The SIMD validators against the scalar ones: the analysis's verdict for
//! every codec, every input of one to three units, the test vectors at every
//! offset of a 64-byte chunk and across chunk edges, random and mutated
//! inputs, and strict UTF-8 against std. Every available instruction set is
//! run, and the kernels' formula (`placemat_simd::reference`) too. The
//! integer streams' decoding kernels against their facts' steps are in
//! `simd/integers.rs`.
//!
//! A test binary of its own, so that CI builds it alone for aarch64 and runs
//! it under emulation (`.ci/aarch64`); there the sweep of every three-unit
//! input, which checks the kernels' shared source on the host, is skipped.

use placemat_codec::dfa::{Dfa, DEAD};
use placemat_codec::simd::{reference, Isa, Prepared};
use placemat_codec::{DecodeError, DynCodec};
use placemat_variants::{corpus, registry};

#[path = "simd/integers.rs"]
mod integers;
#[path = "helpers/prefixed_descriptions.rs"]
mod prefixed_descriptions;
#[path = "helpers/rng.rs"]
mod rng;

fn isas() -> Vec<Isa> {
    Isa::all().into_iter().flatten().collect()
}

/// The codecs with SIMD tables.
fn local_codecs() -> Vec<&'static dyn DynCodec> {
    registry::all().iter().copied().filter(|c| c.dfa().simd().is_some()).collect()
}

/// Every strategy that validates with the SIMD tables agrees with the scalar
/// validator, exactly (the formula: as a yes or no, and in the same chunk).
fn check(dfa: &Dfa<&[u32], &[u64]>, input: &[u8]) {
    let expected = dfa.validate_scalar(input);
    let t = dfa.simd().expect("SIMD tables");
    let flagged = reference::first_error(t, input);
    assert_eq!(flagged.is_none(), expected.is_ok(), "formula on {input:02X?}");
    for isa in isas() {
        assert_eq!(dfa.validate_simd(isa, input), Some(expected), "{isa:?} on {input:02X?}");
        let chunk = placemat_codec::simd::validate(isa, t, input);
        assert_eq!(chunk, flagged.map_or(Ok(()), |at| Err(at / 64 * 64)), "{isa:?} chunk on {input:02X?}");
    }
}

#[test]
fn the_verdict_of_every_codec_is_pinned() {
    let local: Vec<_> = local_codecs().iter().map(|c| c.info().name.to_string()).collect();
    assert_eq!(local, ["utf8", "fss-utf-plan9", "ken-draft", "utf8-ext36", "utf8-ext42"]);
    let utf8 = registry::find("utf8").unwrap().dfa();
    let t = utf8.simd().unwrap();
    assert_eq!((t.need, &t.thresholds[1..4], t.ascii, t.cur_low), (3, &[0xC0, 0xE0, 0xF0][..], true, None));
}

/// Each generated codec's tables, prepared in its `const`
/// (`Dfa::from_static`, through the `const fn` `Prepared::new`), are the
/// same tables prepared at run time, and the kernels' constants with them.
#[test]
fn tables_prepared_at_compile_time_are_those_prepared_at_run_time() {
    for codec in local_codecs() {
        let dfa = codec.dfa();
        let (t, p) = (dfa.simd().expect("SIMD tables"), dfa.simd_prepared().expect("prepared with the tables"));
        assert_eq!(p.tables(), t, "{}", codec.info().name);
        assert_eq!(Prepared::new(*t).as_ref(), Ok(p), "{}", codec.info().name);
    }
}

#[test]
fn every_input_of_one_and_two_units() {
    for codec in local_codecs() {
        let dfa = codec.dfa();
        for a in 0..=255u8 {
            check(&dfa, &[a]);
            for b in 0..=255u8 {
                check(&dfa, &[a, b]);
            }
        }
    }
}

#[test]
fn every_input_of_three_units() {
    // The best instruction set, as a yes or no (the others share the kernel's
    // source and are compared on all the rest; exact errors are compared on
    // one and two units). The scalar answer by three transitions: valid when
    // the walk is back at the start state.
    let Some(isa) = Isa::detect() else { return };
    for codec in local_codecs() {
        let dfa = codec.dfa();
        let t = dfa.simd().expect("SIMD tables");
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let after_b = dfa.transition(dfa.transition(dfa.start(), a).next, b).next;
                for c in 0..=255u8 {
                    let input = [a, b, c];
                    let valid = after_b != DEAD && dfa.transition(after_b, c).next == dfa.start();
                    assert_eq!(placemat_codec::simd::validate(isa, t, &input).is_ok(), valid, "{input:02X?}");
                }
            }
        }
    }
}

/// The encodings of values at the edges of the codec's range and forms, and
/// broken variants of each: cut short, a unit replaced, a unit too many.
fn vectors(codec: &dyn DynCodec) -> Vec<Vec<u8>> {
    let info = codec.info();
    let mut values = vec![info.min, info.max];
    for bits in 1..info.value_bits.min(40) {
        let edge = 1u64 << bits;
        values.extend([edge - 1, edge, edge + 1]);
    }
    for &(lo, hi) in info.excluded.iter() {
        values.extend([lo.wrapping_sub(1), lo, hi, hi + 1]);
    }
    let mut out = Vec::new();
    for v in values {
        let mut bytes = Vec::new();
        if codec.encode_push(v, &mut bytes).is_err() {
            continue;
        }
        out.push(bytes.clone());
        for i in 0..bytes.len() {
            for unit in [0x00, 0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xE0, 0xED, 0xF4, 0xF5, 0xFE, 0xFF] {
                let mut bad = bytes.clone();
                bad[i] = unit;
                out.push(bad);
            }
        }
        out.push(bytes[..bytes.len() - 1].to_vec());
        out.push([&bytes[..], &[0x80]].concat());
    }
    // Neighbouring edges share encodings and mutations: each input once.
    out.sort_unstable();
    out.dedup();
    out
}

/// Where the vectors start: every offset of the first chunk, and of a middle
/// chunk (after two chunks of background). Under emulation (aarch64 in CI,
/// where the scalar oracles cost two thirds of the time) the middle chunk
/// keeps the offsets within four units of a 16-byte register's edge, where a
/// sequence can straddle two of the NEON kernel's registers; the host runs
/// them all.
fn offsets() -> impl Iterator<Item = usize> {
    let middle = (128..=192).filter(|o| cfg!(not(target_arch = "aarch64")) || !(4..12).contains(&(o % 16)));
    (0..=64).chain(middle)
}

/// Runs `f` on each of the codec's vectors at every offset in a chunk, the
/// vector ending the input or followed by more text (crossing into the next
/// chunk from offsets near 64), after one- and two-unit backgrounds. The
/// vector's chunk is the first the kernels read (or the first of the tail), or,
/// after two chunks of background, one in the middle, whose chunk before has
/// no rare units: the kernels choose the cheaper checks there.
fn at_every_offset(codec: &dyn DynCodec, mut f: impl FnMut(&[u8])) {
    let dfa = codec.dfa();
    let mut wide = Vec::new();
    codec.encode_push(0x3B1, &mut wide).unwrap(); // α: a two-unit background
    for v in vectors(codec) {
        let valid = dfa.validate_scalar(&v).is_ok();
        for offset in offsets() {
            let backgrounds: &[&[u8]] = if valid { &[b"a", &wide] } else { &[b"a"] };
            for background in backgrounds {
                let mut input: Vec<u8> = background.iter().copied().cycle().take(offset).collect();
                input.extend_from_slice(&v);
                f(&input);
                input.extend(background.iter().copied().cycle().take(70));
                f(&input);
            }
        }
    }
}

#[test]
fn vectors_at_every_offset_of_a_chunk_and_across_chunk_edges() {
    // One thread per codec: under emulation this is the longest test.
    std::thread::scope(|threads| {
        for codec in local_codecs() {
            threads.spawn(move || {
                let dfa = codec.dfa();
                at_every_offset(codec, |input| check(&dfa, input));
            });
        }
    });
}

#[test]
fn floors_are_left_to_the_long_leads_alone() {
    // The overlong four-unit forms (F0 80-8F) are a nibble box, so they take a
    // class and chunks with four-unit leads but no longer ones skip the floor
    // test; F8 80-87 and FC 80-83 are not nibble-aligned and stay floors.
    for name in ["fss-utf-plan9", "ken-draft", "utf8-ext36", "utf8-ext42"] {
        let t = *registry::find(name).unwrap().dfa().simd().unwrap();
        assert_eq!((t.floored_from(), t.thresholds[4]), (Some(0xF8), 0xF8), "{name}");
        assert_ne!(t.pair(0xF0, 0x8F).0, 0, "{name}: F0 8F in a class");
        assert_eq!(t.pair(0xF0, 0x90).0, 0, "{name}: F0 90 allowed");
        assert_eq!(t.floor.unwrap()[8], 0x88, "{name}: F8 below 88 floored");
    }
}

#[test]
fn a_floor_after_a_four_unit_lead_is_honoured_in_every_chunk() {
    // The same checks with F0's class moved into a floor (as the analysis
    // derived them before): the kernels must then treat F0 as rare, and the
    // floor must hold across a chunk edge after a chunk without F0.
    let codec = registry::find("fss-utf-plan9").unwrap();
    let dfa = codec.dfa();
    let mut t = *dfa.simd().unwrap();
    let f0 = (0..7).map(|bit| 1u8 << bit).find(|&bit| t.pair(0xF0, 0x80).0 & bit != 0).unwrap();
    assert!((0xF1..=0xFF).all(|u| t.row(u) & f0 == 0), "the class of F0 80-8F has no other F* unit");
    t.prev_high[0xF] &= !f0;
    t.floor.as_mut().unwrap()[0] = 0x90;
    assert_eq!(t.floored_from(), Some(0xF0));
    let mut flagged = 0;
    at_every_offset(codec, |input| {
        let expected = dfa.validate_scalar(input).is_ok();
        let formula = reference::first_error(&t, input);
        assert_eq!(formula.is_none(), expected, "formula on {input:02X?}");
        flagged += usize::from(formula.is_some());
        for isa in isas() {
            let chunk = formula.map_or(Ok(()), |at| Err(at / 64 * 64));
            assert_eq!(placemat_codec::simd::validate(isa, &t, input), chunk, "{isa:?} on {input:02X?}");
        }
    });
    assert!(flagged > 0);
    // Without the floor, F0 8F passes: the floor is what flags it.
    t.floor.as_mut().unwrap()[0] = 0;
    assert_eq!(reference::first_error(&t, b"\xF0\x8F\xBF\xBF"), None);
}

#[test]
fn random_and_mutated_inputs() {
    let mut rng = corpus::Rng::new(7);
    let corpora: Vec<_> = ["mixed", "emoji", "random-lengths"].iter().map(|n| corpus::by_name(n).unwrap()).collect();
    for codec in local_codecs() {
        let dfa = codec.dfa();
        for c in &corpora {
            let mut text = Vec::new();
            for &v in &c.text[..3000.min(c.text.len())] {
                codec.encode_push(u64::from(v), &mut text).unwrap();
            }
            check(&dfa, &text);
            for _ in 0..400 {
                let from = rng.below(text.len() - 300);
                let mut piece = text[from..from + rng.below(300)].to_vec();
                for _ in 0..rng.below(3) {
                    if !piece.is_empty() {
                        let at = rng.below(piece.len());
                        piece[at] = rng.range(0, 255) as u8;
                    }
                }
                check(&dfa, &piece);
            }
        }
        for _ in 0..2000 {
            let bytes: Vec<u8> = (0..rng.below(200)).map(|_| rng.range(0x70, 0xFF) as u8).collect();
            check(&dfa, &bytes);
        }
    }
}

#[test]
fn utf8_simd_agrees_with_std() {
    let dfa = registry::find("utf8").unwrap().dfa();
    let mut rng = corpus::Rng::new(3);
    let text = corpus::by_name("mixed").unwrap().utf8();
    let mut inputs = vec![text.clone(), corpus::mutated_utf8()];
    for _ in 0..3000 {
        let from = rng.below(text.len() - 200);
        let mut piece = text[from..from + rng.below(200)].to_vec();
        if !piece.is_empty() && rng.below(2) == 0 {
            let at = rng.below(piece.len());
            piece[at] = rng.range(0x80, 0xFF) as u8;
        }
        inputs.push(piece);
    }
    for input in inputs {
        let std = std::str::from_utf8(&input).map(drop).map_err(|e| DecodeError::new(e.valid_up_to(), e.error_len()));
        for isa in isas() {
            assert_eq!(dfa.validate_simd(isa, &input), Some(std), "{isa:?}");
        }
    }
}

#[test]
fn perl_utf8_is_not_local_and_the_witness_shows_it() {
    let perl = registry::find("perl-utf8").unwrap();
    assert!(perl.dfa().simd().is_none());
    let a = placemat_compiler::automaton_of(perl).unwrap();
    let why = a.local.unwrap_err();
    let witness = why.witness.expect("a witness");
    // Every pair and count in it is fine, yet the value is too small for FF's form.
    assert_eq!(witness, [&[0xFF][..], &[0x80; 12]].concat());
    assert!(perl.validate(&witness).is_err());
}

#[test]
fn codecs_without_simd_tables_say_so() {
    let xopen = registry::find("fss-utf-xopen").unwrap().dfa();
    assert!(xopen.simd().is_none());
    for isa in isas() {
        assert_eq!(xopen.validate_simd(isa, b"abc"), None);
    }
}

/// The fourth table (`cur_low`) and the continuation comparison
/// (`continuation_end`), which no built-in codec derives, run in their own
/// instantiation of the kernels: utf8's checks restated with each (an all-ones
/// fourth table; bit 7 cleared and continuation units told by comparison)
/// must flag exactly what utf8's own do, in every chunk. An all-ones table
/// cannot show which nibble the fourth lookup reads: the next test, whose
/// checks need that table, does.
#[test]
fn the_fourth_table_and_the_continuation_comparison_check_the_same() {
    let utf8 = registry::find("utf8").unwrap();
    let dfa = utf8.dfa();
    let plain = *dfa.simd().unwrap();
    let mut low = plain;
    low.cur_low = Some([0xFF; 16]);
    let mut compared = plain;
    for row in [&mut compared.prev_high, &mut compared.prev_low, &mut compared.cur_high] {
        for cell in row.iter_mut() {
            *cell &= 0x7F;
        }
    }
    compared.continuation_end = Some(0xC0);
    let mut both = compared;
    both.cur_low = Some([0xFF; 16]);
    let tables = [low, compared, both];
    for t in &tables {
        assert_eq!(t.check(), Ok(()));
    }
    // One pass over the inputs: the formula of the plain tables once per input.
    let mut flagged = 0;
    at_every_offset(utf8, |input| {
        let formula = reference::first_error(&plain, input);
        flagged += usize::from(formula.is_some());
        let chunk = formula.map_or(Ok(()), |at| Err(at / 64 * 64));
        for t in &tables {
            assert_eq!(reference::first_error(t, input), formula, "formula on {input:02X?}");
            for isa in isas() {
                assert_eq!(placemat_codec::simd::validate(isa, t, input), chunk, "{isa:?} on {input:02X?}");
            }
        }
    });
    assert!(flagged > 0);
}

/// A codec whose forbidden pairs need the fourth table: its two-unit form
/// starts at 88, so `C2 80`-`C2 87` are invalid and `C2 88` is not, a
/// boundary inside the current unit's high nibble after a lead no floor can
/// serve. Its derived tables use `cur_low`, and every kernel agrees with the
/// scalar validator on every input of one and two units and on random text.
#[test]
fn a_codec_whose_checks_need_the_fourth_table() {
    let codec = placemat_compiler::LoadedCodec::from_text(
        r#"pub Low { name: "low", value: u32, range: 0 ..= 0x7FF, exclude: [0x80 ..= 0x87], layout: shortest,
                 forms: { 0x00 ..= 0x7F => "0xxxxxxx", 0x80 ..= 0x7FF => "110xxxxx 10xxxxxx" } }"#,
    )
    .unwrap();
    let dfa = codec.dfa();
    let t = *dfa.simd().expect("local");
    assert!(t.cur_low.is_some() && t.floor.is_none(), "{t:?}");
    for a in 0..=255u8 {
        check(&dfa, &[a]);
        for b in 0..=255u8 {
            check(&dfa, &[a, b]);
        }
    }
    let mut rng = corpus::Rng::new(21);
    let units = [0x41, 0xC2, 0xC3, 0xDF, 0x80, 0x87, 0x88, 0xBF];
    for len in [1, 63, 64, 65, 130, 200] {
        for _ in 0..200 {
            let input: Vec<u8> = (0..len).map(|_| units[rng.below(units.len())]).collect();
            check(&dfa, &input);
        }
    }
}

#[test]
fn these_checks_catch_a_table_with_one_class_missing() {
    // Without the class of surrogates (ED A0-BF), the formula accepts
    // `ED A0 80`: the vectors above must show it, or they test nothing.
    let utf8 = registry::find("utf8").unwrap();
    let dfa = utf8.dfa();
    let mut t = *dfa.simd().unwrap();
    let surrogates = (0..7).map(|bit| 1u8 << bit).find(|&bit| t.row(0xED) & t.col(0xA0) & bit != 0).unwrap();
    for row in [&mut t.prev_high, &mut t.prev_low, &mut t.cur_high] {
        for cell in row.iter_mut() {
            *cell &= !surrogates;
        }
    }
    let disagreements = vectors(utf8)
        .iter()
        .filter(|v| reference::first_error(&t, v).is_none() != dfa.validate_scalar(v).is_ok())
        .count();
    assert!(disagreements > 0);
    assert_eq!(reference::first_error(&t, b"\xED\xA0\x80"), None);
    for isa in isas() {
        assert_eq!(placemat_codec::simd::validate(isa, &t, b"\xED\xA0\x80"), Ok(()));
    }
}

#[test]
fn streaming_validation_on_the_simd_path_agrees_with_whole_input_validation() {
    let mut rng = corpus::Rng::new(5);
    for codec in local_codecs() {
        let mut text = Vec::new();
        for &v in &corpus::by_name("mixed").unwrap().text[..4000] {
            codec.encode_push(u64::from(v), &mut text).unwrap();
        }
        for round in 0..60 {
            let mut input = text[..rng.below(text.len())].to_vec();
            if round % 2 == 1 && !input.is_empty() {
                let at = rng.below(input.len());
                input[at] = rng.range(0x80, 0xFF) as u8;
            }
            let whole = codec.validate(&input);
            let mut stream = placemat_codec::StreamValidator::new(|context, b: &[u8], _| codec.validate_in(context, b));
            let mut pushed = Ok(());
            let mut rest = &input[..];
            while !rest.is_empty() && pushed.is_ok() {
                let (chunk, tail) = rest.split_at(1 + rng.below(rest.len().min(300)));
                pushed = stream.push(chunk);
                rest = tail;
            }
            let streamed = pushed.and_then(|()| stream.finish());
            assert_eq!(streamed, whole, "{} round {round}", codec.info().name);
        }
    }
}

#[test]
fn decoding_behind_simd_validation_agrees_with_the_table_decoder() {
    let mut rng = corpus::Rng::new(9);
    for codec in local_codecs() {
        let dfa = codec.dfa();
        // Random scalar values of every UTF-8 length, and every length the
        // codec has (the edges of each payload width), between them.
        let info = codec.info();
        let edges: Vec<u64> = (1..info.value_bits.min(63)).flat_map(|b| [(1u64 << b) - 1, 1 << b]).collect();
        let mut text = Vec::new();
        for (i, &v) in corpus::by_name("random-lengths").unwrap().text[..30_000].iter().enumerate() {
            codec.encode_push(u64::from(v), &mut text).unwrap();
            let edge = edges[i % edges.len()];
            if i % 3 == 0 && codec.encode_push(edge, &mut text).is_err() {
                continue;
            }
        }
        let longest = (0..=255u8).filter_map(|u| dfa.simd().map(|t| t.level(u))).max().unwrap();
        assert!(longest < 3 || text.iter().any(|&u| dfa.simd().unwrap().level(u) == longest), "{}", info.name);
        for round in 0..12 {
            let mut input = text.clone();
            if round > 0 {
                let at = rng.below(input.len());
                input[at] = rng.range(0x80, 0xFF) as u8;
            }
            let (mut fast, mut table) = (Vec::<u64>::new(), Vec::<u64>::new());
            let got = dfa.decode_validated_into(&input, &mut fast);
            assert_eq!(got, dfa.decode_table_into(&input, &mut table), "{} round {round}", codec.info().name);
            assert_eq!(fast, table, "{} round {round}", codec.info().name);
            // The kernel writes 32-bit words for codecs whose values fit them.
            if info.value_bits <= 32 {
                let mut narrow = Vec::<u32>::new();
                assert_eq!(dfa.decode_validated_into(&input, &mut narrow), got, "{} round {round}", info.name);
                assert!(narrow.iter().map(|&v| u64::from(v)).eq(fast.iter().copied()), "{} round {round}", info.name);
            }
        }
    }
}

/// The SIMD decoding kernel takes the UTF-8 family whole (but for its last
/// units) and agrees with the table decoder; no other codec has its shape.
#[test]
fn the_decoding_kernel_reads_the_utf8_family() {
    let shaped: Vec<String> = registry::all()
        .iter()
        .filter(|c| c.dfa().decoding_shape().is_some())
        .map(|c| c.info().name.to_string())
        .collect();
    assert_eq!(shaped, ["utf8", "fss-utf-plan9", "ken-draft", "utf8-ext36", "utf8-ext42"]);
    let Some(isa) = Isa::detect() else { return };
    for codec in registry::all().iter().filter(|c| c.dfa().decoding_shape().is_some()) {
        let mut bytes = Vec::new();
        for &v in &corpus::by_name("random-lengths").unwrap().text[..5000] {
            codec.encode_push(u64::from(v), &mut bytes).unwrap();
        }
        let (mut fast, mut table) = (Vec::new(), Vec::<u64>::new());
        let taken = placemat_codec::simd::decode_u64(isa, &codec.dfa().decoding_shape().unwrap(), &bytes, &mut fast);
        assert!(taken + 80 > bytes.len(), "{}: {taken} of {}", codec.info().name, bytes.len());
        codec.dfa().decode_table_into(&bytes[..taken], &mut table).unwrap();
        assert_eq!(fast, table, "{}", codec.info().name);
        // `decode_into`, which decodes behind SIMD validation for these codecs,
        // against the table walk over the whole text.
        let (mut chosen, mut walked) = (Vec::<u64>::new(), Vec::<u64>::new());
        codec.dfa().decode_into(&bytes, &mut chosen).unwrap();
        codec.dfa().decode_table_into(&bytes, &mut walked).unwrap();
        assert_eq!(chosen, walked, "{}", codec.info().name);
    }
}
