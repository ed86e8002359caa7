//! Bulk decoding of flagged integer streams (`placemat_codec::Flagged`, a
//! word of eight units at a time) against the reference interpreter: which
//! codecs the compiler finds flagged, and for each of them streams of values
//! of every length starting at every offset of a word, with a unit damaged
//! at each place of a window, cut short, and with sequences longer than a
//! word, decoded whole (`decode_into`), as a prefix (`decode_prefix_into`)
//! and by the codec loaded at run time.

use placemat_codec::{Codec, Decoder, DynCodec, Encoder, Value};
use placemat_compiler::LoadedCodec;
use placemat_variants::codecs::{GitOfs, Leb128, ProtobufSint64, Sleb128, SqliteVarint, Vlq};
use placemat_variants::registry;

use crate::common::{check_agreement, strategies, Noting};

#[test]
fn the_flagged_codecs_are_the_integer_codecs_with_a_flag_per_unit() {
    let flagged: Vec<String> =
        registry::all().iter().filter(|c| c.info().flagged.is_some()).map(|c| c.info().name.to_string()).collect();
    assert_eq!(flagged, ["vlq", "git-ofs", "sqlite-varint", "leb128", "sleb128", "protobuf-sint64"]);
    for codec in registry::all() {
        let loaded = LoadedCodec::from_text(codec.description()).unwrap();
        assert_eq!(loaded.info().flagged, codec.info().flagged, "{}", codec.info().name);
    }
}

/// The values at the edges of each of the encoder's forms (raw values,
/// which a signed codec's sign maps).
fn edges<C: Codec>() -> Vec<u64> {
    let model = crate::common::model_of::<C>();
    let a = placemat_compiler::Automaton::build(&model, Default::default()).unwrap();
    let raw = a.encode_forms.iter().flat_map(|f| [f.lo, f.lo.saturating_add(1), f.hi.saturating_sub(1), f.hi]);
    raw.map(|r| crate::common::widened(&model, &r.into())).collect()
}

pub(crate) fn streams<C: Codec + Default + 'static>() {
    let strategies = strategies::<C>();
    let codec = C::default();
    let loaded = LoadedCodec::from_text(C::DESCRIPTION).unwrap();
    let mut stream = Vec::new();
    for v in edges::<C>() {
        if let Some(v) = <C as Encoder>::Value::from_u64(v) {
            let _ = codec.encode_push(v, &mut stream);
        }
    }
    let check = |input: &[u8]| {
        check_agreement::<C>(&strategies, input);
        assert_eq!(
            loaded.decode(input).map_err(|e| e.valid_up_to()),
            C::default().decode(input).map(widen).map_err(|e| e.valid_up_to())
        );
    };
    for offset in 0..8 {
        let mut input = vec![0x05; offset];
        input.extend_from_slice(&stream);
        check(&input);
        check(&input[..input.len() - 1]);
        for at in offset..(offset + 24).min(input.len()) {
            for unit in [0x00, 0x7F, 0x80, 0xFF] {
                let mut damaged = input.clone();
                damaged[at] = unit;
                check(&damaged);
            }
        }
    }
    // Runs of continuing units longer than a word, then an end.
    for run in [7, 8, 9, 10, 11] {
        let mut input = vec![0x01, 0x02];
        input.extend(std::iter::repeat_n(0x80, run));
        input.extend_from_slice(&[0x01, 0x03]);
        check(&input);
    }
}

fn widen<V: Value>(values: Vec<V>) -> Vec<u64> {
    values.into_iter().map(Value::to_u64).collect()
}

#[test]
fn leb128_streams() {
    streams::<Leb128>();
}

#[test]
fn vlq_streams() {
    streams::<Vlq>();
}

#[test]
fn git_ofs_streams() {
    streams::<GitOfs>();
}

#[test]
fn sqlite_varint_streams() {
    streams::<SqliteVarint>();
}

/// ZigZag values: the words give raw values, which the codec maps after.
#[test]
fn protobuf_sint64_streams() {
    streams::<ProtobufSint64>();
}

/// Two's complement: the words sign-extend each payload from its top bit.
#[test]
fn sleb128_streams() {
    streams::<Sleb128>();
}

/// `encode_into` (the SIMD kernel where the machine has one, the encoder
/// for each value it leaves) against the encoder one value at a time, on
/// values of random widths and at the edges of every form, with room for
/// all and with too little: the same units, or the same error at the same
/// value after the same units; and `DynCodec::encode_block` of the codec
/// and of its description loaded at run time, the same. Then the kernel alone
/// (`placemat_simd::encode_flagged`): what it writes is what the encoder
/// writes for the values it took, and it stops only before a value the
/// fact does not hold or a group without room. Each must take a stream of
/// short values whole.
fn encoder_agrees_with_the_one_by_one_loop<C: Codec + Default + Send + Sync>() {
    let codec = C::default();
    let loaded = LoadedCodec::from_text(C::DESCRIPTION).unwrap();
    let name = &C::info().name;
    let mut next = crate::common::xorshift(0x9E37_79B9_7F4A_7C15);
    let mut pool: Vec<<C as Encoder>::Value> =
        edges::<C>().into_iter().filter_map(<C as Encoder>::Value::from_u64).collect();
    for round in 0..400 {
        let mut values = Vec::new();
        for _ in 0..next() % 100 {
            let v = if next().is_multiple_of(4) && !pool.is_empty() {
                pool[(next() as usize) % pool.len()]
            } else {
                <C as Encoder>::Value::from_u64_lossy(next() >> (next() % 64))
            };
            values.push(v);
        }
        pool.extend(values.iter().take(2).copied());
        let room = codec.max_encoded_len(values.len());
        let room = if round % 3 == 0 { (next() as usize) % (room + 1) } else { room };
        let mut got = vec![0xEEu8; room];
        let result = codec.encode_into(&values, &mut got);
        let mut want = vec![0u8; room];
        let expected = one_by_one(&codec, &values, &mut want);
        assert_eq!(result, expected, "{name} round {round}: room {room} for {values:?}");
        let written = result.unwrap_or_else(|e| e.written);
        assert_eq!(got[..written], want[..written], "{name} round {round}");
        assert!(got[written..].iter().all(|&b| b == 0xEE), "{name} round {round}: written past {written}");
        // Behind `DynCodec` (values as `u64`), compiled and loaded: the same
        // units, or the same refused value.
        if room == codec.max_encoded_len(values.len()) {
            let wide: Vec<u64> = values.iter().map(|v| v.to_u64()).collect();
            let want = (&want[..written], expected.as_ref().map(|_| ()).map_err(|e| e.index));
            for dynamic in [&codec as &dyn DynCodec, &loaded] {
                let mut bytes = vec![7u8];
                let result = dynamic.encode_block(None, &wide, &mut bytes);
                assert_eq!((&bytes[1..], result), want, "{name} round {round}: encode_block");
            }
        }
        let marks = C::info().flagged.expect("a flagged codec").marks();
        // The kernel alone takes raw values (ZigZag's are mapped first).
        let raw = !C::PREMAPPED || marks.signed;
        if !raw || encoders(&marks).is_empty() {
            continue;
        }
        // The kernel alone, on every instruction set that has it.
        for isa in encoders(&marks) {
            let mut out = vec![0u8; room];
            let (taken, units) = placemat_codec::simd::encode_flagged(isa, &marks, &values, &mut out, |_, _| None);
            let mut each = Vec::new();
            for &v in &values[..taken] {
                codec.encode_push(v, &mut each).unwrap();
            }
            assert_eq!((units, &out[..units]), (each.len(), &each[..]), "{name} round {round}: {values:?}");
            // The kernel writes the fact's first eight lengths.
            let held = |v: u64| {
                (0..usize::from(marks.lengths.min(8))).any(|k| match marks.signed {
                    true => marks.lo[k] as i64 <= v as i64 && v as i64 <= marks.hi[k] as i64,
                    false => marks.lo[k] <= v && v <= marks.hi[k],
                })
            };
            assert!(
                taken == values.len() || !held(values[taken].to_u64()) || room - units < 64,
                "{name} round {round}: the kernel stopped at {taken} of {values:?}"
            );
        }
    }
    let marks = C::info().flagged.expect("a flagged codec").marks();
    if (!C::PREMAPPED || marks.signed) && !encoders(&marks).is_empty() {
        let short: Vec<_> = (0..1000u64).filter_map(|v| <C as Encoder>::Value::from_u64(v % 100)).collect();
        for isa in encoders(&marks) {
            let (taken, _) = placemat_codec::simd::encode_flagged(isa, &marks, &short, &mut [0u8; 4000], |_, _| None);
            assert_eq!(taken, short.len(), "{name} {isa:?}: the kernel took {taken} short values");
        }
    }
}

/// The trait's own `encode_into`: each value by `encode`, in order.
pub(crate) fn one_by_one<E: Encoder>(
    codec: &E,
    values: &[E::Value],
    out: &mut [u8],
) -> Result<usize, placemat_codec::EncodeIntoError> {
    let mut written = 0;
    for (index, &v) in values.iter().enumerate() {
        match codec.encode(v, &mut out[written..]) {
            Ok(n) => written += n,
            Err(error) => return Err(placemat_codec::EncodeIntoError { index, written, error }),
        }
    }
    Ok(written)
}

/// The instruction sets with a flagged-stream encoder for `marks` on this
/// machine.
fn encoders(marks: &placemat_codec::simd::Marks) -> Vec<placemat_codec::simd::Isa> {
    let all = placemat_codec::simd::Isa::all();
    all.into_iter().flatten().filter(|&isa| placemat_codec::simd::encodes_flagged_on(isa, marks)).collect()
}

placemat_macros::codec! {
    /// Protocol Buffers' `sint32`: ZigZag over 32 bits, then LEB128 (one to
    /// five units): the signed kernel on 32-bit values.
    pub Sint32 {
        name: "sint32",
        summary: "ZigZag over 32 bits, then LEB128",
        unit: byte,
        value: i32,
        sign: zigzag,
        range: -0x80000000 ..= 0x7FFFFFFF,
        groups: lsb_first,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

/// The ZigZag codecs are written by the kernel after the map: on a machine with the flagged
/// encoder, the codec's own encoder writes only the values the fact leaves
/// (longer than eight units), and the units are the encoder's.
fn signed_kernel_writes<C: Codec + Default>() {
    let flagged = C::info().flagged.expect("a flagged codec");
    if encoders(&flagged.marks()).is_empty() {
        return;
    }
    let name = &C::info().name;
    let short: Vec<_> = (0..1000i64).filter_map(|v| <C as Encoder>::Value::from_u64((v % 200 - 100) as u64)).collect();
    let long: Vec<_> = [i64::MIN, i64::MAX, 1 << 56, -(1 << 56)]
        .into_iter()
        .filter_map(|v| <C as Encoder>::Value::from_u64(v as u64))
        .collect();
    for (values, leaves) in [(short, 0), (long.clone(), long.len())] {
        let noting = Noting::new(C::default());
        let mut out = vec![0u8; C::default().max_encoded_len(values.len())];
        let written = placemat_codec::encode_flagged_signed(&flagged, C::info(), &noting, &values, &mut out);
        let mut want = vec![0u8; out.len()];
        let expected = one_by_one(&C::default(), &values, &mut want).unwrap();
        assert_eq!((written, &out[..expected]), (Ok(expected), &want[..expected]), "{name}");
        assert_eq!(noting.seen().len(), leaves, "{name}: values written by the encoder");
    }
}

#[test]
fn the_signed_kernel_writes_zigzag_values() {
    signed_kernel_writes::<ProtobufSint64>();
    signed_kernel_writes::<Sint32>();
}

#[test]
fn the_simd_encoder_agrees_with_the_encoder() {
    encoder_agrees_with_the_one_by_one_loop::<Leb128>();
    encoder_agrees_with_the_one_by_one_loop::<Vlq>();
    encoder_agrees_with_the_one_by_one_loop::<GitOfs>();
    encoder_agrees_with_the_one_by_one_loop::<SqliteVarint>();
    encoder_agrees_with_the_one_by_one_loop::<Sleb128>();
    encoder_agrees_with_the_one_by_one_loop::<ProtobufSint64>();
    encoder_agrees_with_the_one_by_one_loop::<Sint32>();
}
