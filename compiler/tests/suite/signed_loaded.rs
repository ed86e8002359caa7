//! Signed codecs loaded at run time (`sleb128`, `protobuf-sint64`,
//! `sourcemap-vlq`): the vectors of their sources, padded forms, and values
//! refused by value. (The generated codecs, against the reference and
//! against encoders written from the sources' algorithms, are tested in
//! `placemat-variants`' `signed` module.)

use placemat_codec::{Decoder, DynCodec, EncodeError, Encoder, Step};
use placemat_compiler::LoadedCodec;

fn load(text: &str) -> LoadedCodec {
    LoadedCodec::from_text(text).unwrap_or_else(|e| panic!("{e:?}"))
}

fn sleb128() -> LoadedCodec {
    load(include_str!("../../../variants/descriptions/sleb128.placemat"))
}
fn sint64() -> LoadedCodec {
    load(include_str!("../../../variants/descriptions/protobuf-sint64.placemat"))
}
fn vlq() -> LoadedCodec {
    load(include_str!("../../../variants/descriptions/sourcemap-vlq.placemat"))
}

fn encode(codec: &LoadedCodec, v: i64) -> Vec<u8> {
    let mut out = Vec::new();
    codec.encode_push(v as u64, &mut out).unwrap_or_else(|e| panic!("{v}: {e}"));
    out
}

fn decode(codec: &LoadedCodec, units: &[u8]) -> Vec<i64> {
    codec.decode(units).unwrap().into_iter().map(|v| v as i64).collect()
}

#[test]
fn sources_vectors() {
    let (s, z, q) = (sleb128(), sint64(), vlq());
    for (v, bytes) in
        [(2, &[0x02][..]), (-2, &[0x7E]), (127, &[0xFF, 0x00]), (-127, &[0x81, 0x7F]), (-128, &[0x80, 0x7F])]
    {
        assert_eq!(encode(&s, v), bytes, "sleb128 {v}");
        assert_eq!(decode(&s, bytes), [v]);
    }
    for (v, bytes) in [(-1, &[0x01][..]), (1, &[0x02]), (-2, &[0x03]), (0, &[0x00])] {
        assert_eq!(encode(&z, v), bytes, "sint64 {v}");
        assert_eq!(decode(&z, bytes), [v]);
    }
    for (v, text) in [(0, "A"), (1, "C"), (-1, "D"), (16, "gB")] {
        assert_eq!(encode(&q, v), text.as_bytes(), "vlq {v}");
        assert_eq!(decode(&q, text.as_bytes()), [v]);
    }
}

#[test]
fn padded_forms_decode_and_overlong_ones_do_not() {
    let s = sleb128();
    // Extra groups that repeat the sign.
    assert_eq!(decode(&s, &[0xFF, 0x7F]), [-1]);
    assert_eq!(decode(&s, &[0x80, 0x80, 0x00]), [0]);
    assert_eq!(decode(&s, &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]), [-1]);
    // Ten bytes whose last group is not the sign of bit 63: past i64.
    let err = s.validate(&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]).unwrap_err();
    assert_eq!((err.valid_up_to(), err.error_len()), (0, Some(9)));
    assert_eq!(decode(&s, &[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7F]), [i64::MIN]);
    assert!(s.validate(&[0x80; 10]).is_err());
    let q = vlq();
    assert_eq!(decode(&q, b"gA"), [0]);
    // Minus zero, and a magnitude of 2^31.
    assert_eq!(q.step(b"B"), Step::Invalid { len: 1 });
    assert_eq!(q.step(b"ggggggE"), Step::Invalid { len: 6 });
    assert_eq!(decode(&q, b"//////D"), [-0x7FFF_FFFF]);
    assert_eq!(decode(&q, b"+/////D"), [0x7FFF_FFFF]);
}

#[test]
fn values_outside_the_range_are_refused_by_value() {
    let q = vlq();
    let refused = q.encode_push(i32::MIN as i64 as u64, &mut Vec::new()).unwrap_err();
    assert_eq!(refused, EncodeError::SignedUnencodable { value: i32::MIN as i64 });
    assert_eq!(refused.to_string(), "-2147483648 cannot be encoded by this codec");
    assert!(q.encode_push(1 << 31, &mut Vec::new()).is_err());
    assert_eq!(q.info().range_text(), "-2147483647..=2147483647");
    assert_eq!(sleb128().info().range_text(), "-9223372036854775808..=9223372036854775807");
    // The bulk decoder of the tables' raw values is not used.
    assert!(q.premapped());
}

/// Groups, forms, each length's payload width, and the range.
type Twin = (&'static str, &'static str, &'static [usize], (i64, i64));

/// `sign: extend` against its unsigned twin: the same forms read as padded
/// unsigned payloads (`value: u64`), then sign-extended from each length's
/// top payload bit by plain arithmetic here. A sequence decodes to a value
/// exactly when its twin's payload, sign-extended, lies in the range (and,
/// with `layout: shortest`, no shorter length holds it); the encoder writes
/// the shortest length that holds a value. Groups in both orders, fixed
/// forms and a repeated unit, both layouts, a range that is not symmetric,
/// and (least significant group first) a last length wider than `i32`.
#[test]
fn sign_extension_agrees_with_the_unsigned_twin() {
    let cases: [Twin; 5] = [
        ("lsb_first", r#""1xxxxxxx* 0xxxxxxx""#, &[7, 14, 21, 28, 35], (i32::MIN.into(), i32::MAX.into())),
        ("msb_first", r#""1xxxxxxx* 0xxxxxxx""#, &[7, 14, 21, 28], (-(1 << 27), (1 << 27) - 1)),
        ("lsb_first", r#""1xxxxxxx* 0xxxxxxx""#, &[7, 14, 21], (-1000, 50_000)),
        (
            "msb_first",
            r#""0xxxxxxx", "10xxxxxx xxxxxxxx", "11xxxxxx xxxxxxxx xxxxxxxx""#,
            &[7, 14, 22],
            (-2_000_000, 2_000_000),
        ),
        ("msb_first", r#""0xxxxxxx", "10xxxxxx xxxxxxxx""#, &[7, 14], (-8192, 8191)),
    ];
    for (groups, forms, widths, (lo, hi)) in cases {
        for layout in ["padded", "shortest"] {
            let body = |value: &str, sign: &str, range: String| {
                format!(
                    "pub T {{ name: \"t\", value: {value}, {sign} range: {range}, layout: {layout}, groups: {groups}, \
                     forms: {{ {forms} }} }}"
                )
            };
            let signed = load(&body("i32", "sign: extend,", format!("{lo} ..= {hi}")));
            let top = (1u64 << widths.last().unwrap()) - 1;
            let twin = load(&body("u64", "", format!("0 ..= {top}")).replace("layout: shortest", "layout: padded"));
            let case = format!("{groups} {layout} {forms} {lo}..={hi}");
            check_against_twin(&signed, &twin, widths, (lo, hi), layout == "shortest", &case);
        }
    }
}

/// The value the twin's payload `p` of `len` units spells, if the signed
/// codec holds it there.
fn extended(
    widths: &[usize],
    len_units: &[usize],
    p: u64,
    len: usize,
    (lo, hi): (i64, i64),
    shortest: bool,
) -> Option<i64> {
    let k = len_units.iter().position(|&n| n == len)?;
    let w = widths[k] as u32;
    let v = ((p << (64 - w)) as i64) >> (64 - w);
    let fits = |w: usize| -(1i64 << (w - 1)) <= v && v < (1i64 << (w - 1));
    let shorter = k > 0 && fits(widths[k - 1]);
    ((lo..=hi).contains(&v) && !(shortest && shorter)).then_some(v)
}

fn check_against_twin(
    signed: &LoadedCodec,
    twin: &LoadedCodec,
    widths: &[usize],
    range: (i64, i64),
    shortest: bool,
    case: &str,
) {
    // The length in units of each width's form, from the twin's encoder.
    let len_units: Vec<usize> = widths.iter().map(|&w| twin.encoded_units((1u64 << (w - 1)) | 1).unwrap()).collect();
    let mut rng = placemat_compiler::analysis::Rng::new(0x51_6E);
    for _ in 0..20_000 {
        let n = 1 + rng.below(6);
        let input: Vec<u8> = (0..n)
            .map(|_| {
                let any = rng.next_u64() as u8;
                rng.pick(&[0x00, 0x01, 0x3F, 0x40, 0x7F, 0x80, 0xBF, 0xC0, 0xFF, any])
            })
            .collect();
        let got = signed.step(&input);
        match twin.step(&input) {
            Step::Value { value, len } => match extended(widths, &len_units, value, len, range, shortest) {
                Some(v) => assert_eq!(got, Step::Value { value: v as u64, len }, "{case}: {input:02X?}"),
                None => assert!(matches!(got, Step::Invalid { .. }), "{case}: {input:02X?} gave {got:?}"),
            },
            _ => assert!(!matches!(got, Step::Value { .. }), "{case}: {input:02X?} gave {got:?}"),
        }
    }
    // Every value of a sample encodes to the shortest length that holds it.
    for _ in 0..5_000 {
        let v = range.0 + (rng.next_u64() % ((range.1 - range.0) as u64 + 1)) as i64;
        let v = if rng.one_in(3) { v >> rng.below(30) } else { v };
        let mut out = Vec::new();
        signed.encode_push(v as u64, &mut out).unwrap_or_else(|e| panic!("{case}: {v}: {e}"));
        let fits = |w: usize| -(1i64 << (w - 1)) <= v && v < (1i64 << (w - 1));
        let k = widths.iter().position(|&w| fits(w)).unwrap();
        assert_eq!(out.len(), len_units[k], "{case}: {v} is {out:02X?}");
        assert_eq!(signed.step(&out), Step::Value { value: v as u64, len: out.len() }, "{case}: {v}");
    }
}
