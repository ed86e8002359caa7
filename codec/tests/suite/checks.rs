//! The table checks of `Dfa::new` on small hand-built tables: every good
//! table passes in every form it has, and each `TableError` is produced by
//! the smallest corruption of a good table. (`compiler/tests/suite/table_checks.rs`
//! checks the same over the tables the compiler builds for real codecs.)

use super::common::{codecs, Built, Dec};
use placemat_codec::dfa::{pending_entry, Decoding, Dfa, Loops, Parts, Payload, Rows, ShiftRows, TableError};
use placemat_codec::simd::{Shape, Tables};
use placemat_codec::{AsciiRuns, WideRuns};

use TableError::*;

fn refused(p: Parts<'_>) -> Option<TableError> {
    Dfa::new(p).err()
}

/// `f` applied to a copy of `v`.
fn with<T: Clone>(v: &[T], f: impl FnOnce(&mut Vec<T>)) -> Vec<T> {
    let mut v = v.to_vec();
    f(&mut v);
    v
}

#[test]
fn every_good_table_passes_in_every_form() {
    for spec in codecs::all() {
        let b = Built::of(spec);
        for (dec, shift, p) in b.variants() {
            assert_eq!(refused(p), None, "{} {dec:?} shift {shift}", b.spec.name);
        }
    }
}

#[test]
fn the_forms_each_table_has() {
    let has = |b: &Built, dec| b.parts(dec, false).is_some();
    let b = Built::of(codecs::utf8());
    assert!(has(&b, Dec::Expanded) && has(&b, Dec::Direct));
    let b = Built::of(codecs::leb128());
    assert!(!has(&b, Dec::Expanded) && has(&b, Dec::Direct));
    let b = Built::of(codecs::radix());
    assert!(has(&b, Dec::Expanded) && !has(&b, Dec::Direct));
}

#[test]
fn shape_state_bias_and_payload() {
    let b = Built::of(codecs::utf8());
    let t = &b.transitions;
    let retable = |trans: &[u32]| {
        let mut p = b.base();
        p.table.transitions = trans;
        p.loops = Loops::Cyclic;
        refused(p)
    };
    assert_eq!(retable(&t[..t.len() - 1]), Some(BadShape), "a partial row");
    assert_eq!(retable(&t[..b.stride]), Some(BadShape), "one state");
    assert_eq!(retable(&with(t, |t| t[b.stride] += 1)), Some(BadState), "an id not premultiplied");
    assert_eq!(retable(&with(t, |t| t[b.stride] = t.len() as u32)), Some(BadState), "past the table");
    assert_eq!(retable(&with(t, |t| t[0] = b.stride as u32)), Some(BadState), "the dead state leaves");
    assert_eq!(retable(&with(t, |t| t[b.stride] |= 1 << 20)), Some(BadBias), "a missing bias");
    assert_eq!(retable(&with(t, |t| t[b.stride] = t[b.stride] & !(0xF << 16) | 9 << 16)), Some(BadPayload));
    for biases in [&[][..], &[1]] {
        let mut p = b.base();
        p.table.biases = biases;
        assert_eq!(refused(p), Some(BadBias), "{biases:?}");
    }
}

#[test]
fn unit_width_and_contexts() {
    let b = Built::of(codecs::utf8());
    assert_eq!(refused(b.base().with_shift(ShiftRows::None)), None);
    for (bytes, contexts) in [(3, 1), (0, 1), (1, 0), (1, 3)] {
        let mut p = b.base();
        p.table = p.table.with_unit_bytes(bytes).with_contexts(contexts);
        assert_eq!(refused(p), Some(BadFacts), "{bytes} bytes, {contexts} contexts");
    }
}

#[test]
fn places_and_radices() {
    let b = Built::of(codecs::leb128());
    let placed = |w: &[u64]| refused(b.base().with_payload(Payload::Placed(w)));
    assert_eq!(placed(&b.words[1..]), Some(BadFacts), "one word short");
    assert_eq!(placed(&with(&b.words, |w| w[b.stride] = 64)), Some(BadFacts), "place 64");
    assert_eq!(placed(&with(&b.words, |w| w[b.stride] = 64 << 8)), Some(BadFacts), "shift 64");
    assert_eq!(refused(Parts { loops: Loops::Cyclic, ..b.base() }), Some(BadFacts), "a loop");
    let u = Built::of(codecs::utf8());
    let expanded = u.expanded().unwrap();
    assert_eq!(refused(b.base().with_decoding(expanded)), Some(BadFacts), "an expanded table");
    let r = Built::of(codecs::radix());
    assert_eq!(refused(Parts { loops: Loops::Cyclic, ..r.base() }), Some(BadFacts), "radices with a loop");
    assert_eq!(refused(r.base().with_payload(Payload::Radix(&r.words[1..]))), Some(BadFacts), "one radix short");
}

#[test]
fn wide_run_claims() {
    let b = Built::of(codecs::utf16le());
    let claim = |units, ranges| refused(b.base().with_wide_runs(WideRuns { units, ranges }));
    assert_eq!(claim(AsciiRuns::U16Le, [(0, 0x7F); 2]), None, "a smaller claim holds");
    assert_eq!(claim(AsciiRuns::U16Le, [(0, 0xD800), (0xE000, 0xFFFF)]), Some(BadFacts), "a high surrogate");
    assert_eq!(claim(AsciiRuns::U16Le, [(0, 0xD7FF), (0xDFFF, 0xFFFF)]), Some(BadFacts), "a low surrogate");
    assert_eq!(claim(AsciiRuns::U16Be, [(0, 0x7F); 2]), Some(BadFacts), "the other byte order");
    assert_eq!(claim(AsciiRuns::U32Le, [(0, 0x7F); 2]), Some(BadFacts), "the other width");
    assert_eq!(claim(AsciiRuns::U16Le, [(0x10, 0x0F); 2]), Some(BadFacts), "an empty range");
    let u = Built::of(codecs::utf8());
    let runs = WideRuns { units: AsciiRuns::U16Le, ranges: [(0, 0x7F); 2] };
    assert_eq!(refused(u.base().with_wide_runs(runs)), Some(BadFacts), "byte units");
}

#[test]
fn depth() {
    let b = Built::of(codecs::leb128());
    assert_eq!(refused(b.base().with_depth(&[0; 4])), Some(BadDepth), "flat");
    assert_eq!(refused(b.base().with_depth(&[0, 0, 1, 1])), Some(BadDepth), "equal along an edge");
    assert_eq!(refused(b.base().with_depth(&b.depth[1..])), Some(BadDepth), "short");
    let v = Built::of(codecs::varint());
    assert_eq!(refused(Parts { loops: Loops::Acyclic { depth: &[0, 0, 1] }, ..v.base() }), Some(BadDepth), "a loop");
}

#[test]
fn shift_rows() {
    let b = Built::of(codecs::utf8());
    let rows = b.narrow.as_deref().unwrap();
    let narrow = |offsets: &[u8], rows: &[u64; 256]| refused(b.base().with_shift(ShiftRows::Narrow { offsets, rows }));
    assert_eq!(narrow(&b.offsets, rows), None);
    let mut flipped = *rows;
    flipped[0xC2] ^= 1 << b.offsets[1];
    assert_eq!(narrow(&b.offsets, &flipped), Some(BadShift), "a field");
    assert_eq!(narrow(&b.offsets[1..], rows), Some(BadShift), "one offset short");
    assert_eq!(narrow(&with(&b.offsets, |o| o[0] = 1), rows), Some(BadShift), "dead off 0");
    assert_eq!(narrow(&with(&b.offsets, |o| o[2] = o[1]), rows), Some(BadShift), "sharing the start's offset");
    assert_eq!(narrow(&with(&b.offsets, |o| o[2] = 64), rows), Some(BadShift), "past 6 bits");
    let c = Built::of(codecs::contexts());
    let offsets = with(&c.offsets, |o| o[3] = o[2]);
    let rows = c.narrow.as_deref().unwrap();
    assert_eq!(refused(c.base().with_shift(ShiftRows::Narrow { offsets: &offsets, rows })), Some(BadShift));
}

#[test]
fn expanded_table() {
    let b = Built::of(codecs::utf8());
    let (next, values) = b.expanded.as_ref().unwrap();
    let rem = b.remaining.as_deref().unwrap();
    let expanded = |next: &[u32], values: &[u64], remaining: &[u64]| {
        refused(b.base().with_decoding(Decoding::Expanded { rows: Rows { next, values }, remaining }))
    };
    assert_eq!(expanded(next, values, rem), None);
    assert_eq!(expanded(next, &with(values, |v| v[256 + 0xC3] += 1), rem), Some(BadExpanded), "a value");
    assert_eq!(expanded(&with(next, |n| n[256 + 0xC3] = 256), values, rem), Some(BadExpanded), "a next row");
    assert_eq!(expanded(&next[256..], &values[256..], rem), Some(BadExpanded), "a row short");
    assert_eq!(expanded(next, values, &[1, 1, 32]), Some(BadExpanded), "the certificate");
    assert_eq!(expanded(next, values, &[1, 2, 64]), Some(BadExpanded), "the start's weight");
    assert_eq!(expanded(next, values, &rem[1..]), Some(BadExpanded), "the certificate short");
    let r = Built::of(codecs::radix());
    let (next, values) = r.expanded.as_ref().unwrap();
    let rows = Rows { next, values };
    let remaining = with(r.remaining.as_ref().unwrap(), |w| w[3] = 16);
    assert_eq!(refused(r.base().with_decoding(Decoding::Expanded { rows, remaining: &remaining })), Some(BadExpanded));
}

#[test]
fn direct_table() {
    let b = Built::of(codecs::leb128());
    let (next, values) = b.direct.as_ref().unwrap();
    let direct = |b: &Built, next: &[u32], values: &[u64]| {
        refused(b.base().with_decoding(Decoding::Direct(Rows { next, values })))
    };
    assert_eq!(direct(&b, next, values), None);
    assert_eq!(direct(&b, next, &with(values, |v| v[256 + 0x85] ^= 1 << 34)), Some(BadDirect), "a payload");
    assert_eq!(direct(&b, next, &with(values, |v| v[2 * 256 + 0x05] ^= 1 << 28)), Some(BadDirect), "a place");
    assert_eq!(direct(&b, &with(next, |n| n[256] = 0), values), Some(BadDirect), "a next row");
    assert_eq!(direct(&b, &next[256..], &values[256..]), Some(BadDirect), "a row short");
    let v = Built::of(codecs::varint());
    let (next, values) = Built::of(codecs::utf8()).direct.unwrap();
    assert_eq!(direct(&v, &next, &values), Some(BadDirect), "with a loop");
    let r = Built::of(codecs::radix());
    let (next, values) = (vec![0; 4 * 256], vec![0; 4 * 256]);
    assert_eq!(direct(&r, &next, &values), Some(BadDirect), "with radices");
}

/// SIMD tables that pass their own check (for 7-bit ASCII).
fn simd_tables() -> Tables {
    let mut thresholds = [0xFF; 16];
    thresholds[1] = 0xC0;
    Tables {
        prev_high: [0; 16],
        prev_low: [0; 16],
        cur_high: [0; 16],
        cur_low: None,
        thresholds,
        need: 1,
        start: 0,
        ascii: true,
        continuation_end: None,
        floor: None,
        restart: 4,
    }
}

#[test]
fn simd_tables_are_checked() {
    assert_eq!(simd_tables().check(), Ok(()));
    let b = Built::of(codecs::ascii());
    let bad = Tables { need: 0, ..simd_tables() };
    assert_eq!(refused(b.base().with_simd(bad, None)), Some(BadSimd), "need 0");
    let w = Built::of(codecs::utf16le());
    assert_eq!(refused(w.base().with_simd(simd_tables(), None)), Some(BadSimd), "2-byte units");
}

/// The SIMD decoding kernel's shape for the two-form UTF-8: continuation
/// units 80–BF (the tables' run), each worth itself less 80; a one-unit lead
/// worth itself, a two-unit lead (C2–DF) itself less C0. A wrong base, a run
/// that is not the tables', or a shape for a table whose continuations carry
/// 7 bits is refused; no shape at all always passes (it gives up the kernel).
#[test]
fn decoding_shape() {
    let b = Built::of(codecs::utf8());
    let tables = Tables { continuation_end: Some(0xC0), ..simd_tables() };
    assert_eq!(tables.continuation_run(), Some((0x80, 0xBF)));
    let mut lead_base = [0; 16];
    lead_base[2] = 0xC0;
    let shape = Shape { continuation: (0x80, 0xBF), lead_base };
    assert_eq!(refused(b.base().with_simd(tables, Some(shape))), None);
    assert_eq!(refused(b.base().with_simd(tables, None)), None);
    let mut base = shape;
    base.lead_base[2] = 0xC1;
    assert_eq!(refused(b.base().with_simd(tables, Some(base))), Some(BadDecodingShape), "a lead's base");
    let run = Shape { continuation: (0x80, 0xBE), ..shape };
    assert_eq!(refused(b.base().with_simd(tables, Some(run))), Some(BadDecodingShape), "the run");
    let v = Built::of(codecs::varint());
    assert_eq!(refused(v.base().with_simd(tables, Some(shape))), Some(BadDecodingShape), "7-bit continuations");
}

#[test]
fn pending_values() {
    let b = Built::of(codecs::pending());
    let pend = |p: &[u32]| refused(b.base().with_pending(p));
    assert_eq!(pend(&b.spec.pending), None);
    assert_eq!(pend(&b.spec.pending[1..]), Some(BadPending), "one short");
    assert_eq!(pend(&[0, pending_entry(0, 1, 0), 0, 0]), Some(BadPending), "on the start state");
    assert_eq!(pend(&[pending_entry(0, 1, 0), 0, 0, 0]), Some(BadPending), "on the dead state");
    assert_eq!(pend(&[0, 0, pending_entry(1, 1, 0), 0]), Some(BadPending), "a missing context");
    assert_eq!(pend(&[0, 0, pending_entry(0, 2, 0), 0]), Some(BadPending), "a missing bias");
    assert_eq!(pend(&[0, 0, 1 << 8, 0]), Some(BadPending), "no context byte");
    assert_eq!(refused(Parts { loops: Loops::Cyclic, ..b.base() }), Some(BadPending), "a loop");
    let u = Built::of(codecs::utf8());
    let p = u.base().with_decoding(u.expanded().unwrap()).with_pending(&[0; 3]);
    assert_eq!(refused(p), Some(BadPending), "an expanded table");
    let a = Built::of(codecs::ascii());
    assert_eq!(refused(a.base().with_simd(simd_tables(), None).with_pending(&[0; 2])), Some(BadPending), "SIMD tables");
}
