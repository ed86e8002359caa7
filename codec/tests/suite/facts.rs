//! Each fact of `dfa::Facts::of` on the hand-built tables: the kind of ASCII
//! runs, byte digits, sync units (and their lane for 2-byte code units,
//! `wide_sync_units`), end units, continuation bits, cycles, unit width and
//! contexts; and that `Dfa::new` holds the facts `Facts::of` derives.

use super::common::{codecs, Built, Spec};
use placemat_codec::dfa::{wide_sync_units, Dfa, Facts};
use placemat_codec::{AsciiRuns, WideRuns};

/// The facts of the spec's plainest parts.
fn facts(spec: Spec) -> Facts {
    let b = Built::of(spec);
    let facts = Facts::of(&b.base()).unwrap();
    assert_eq!(Dfa::new(b.base()).unwrap().facts(), &facts, "{}", b.spec.name);
    facts
}

/// The unit set of the units `f` holds for.
fn set(f: impl Fn(u8) -> bool) -> [u64; 4] {
    let mut s = [0u64; 4];
    for u in (0..=255u8).filter(|&u| f(u)) {
        s[usize::from(u) / 64] |= 1 << (u % 64);
    }
    s
}

fn all(_: u8) -> bool {
    true
}

#[test]
fn ascii() {
    let f = facts(codecs::ascii());
    assert_eq!(
        (f.ascii_runs, f.byte_digits, f.cyclic, f.unit_bytes, f.contexts),
        (AsciiRuns::Bytes, true, false, 1, 1)
    );
    assert_eq!((f.sync_units, f.end_units, f.sync_lane), (set(all), set(all), 0));
    assert_eq!(f.continuation_bits, 0, "no state but the start");
    assert_eq!(f.wide_runs, WideRuns::NONE);
}

#[test]
fn utf8_two_forms() {
    let f = facts(codecs::utf8());
    assert_eq!(f.ascii_runs, AsciiRuns::Bytes);
    assert_eq!(f.sync_units, set(|u| !(0x80..=0xBF).contains(&u)));
    assert_eq!(f.end_units, set(|u| !(0xC2..=0xDF).contains(&u)));
    assert!(f.is_sync(0xC2) && !f.is_sync(0x80) && f.is_end(0x80) && !f.is_end(0xC2));
    assert_eq!(f.continuation_bits, 6);
    assert!(!f.cyclic);
}

#[test]
fn cyclic_varint() {
    let f = facts(codecs::varint());
    assert!(f.cyclic);
    assert_eq!((f.sync_units, f.end_units), ([0; 4], set(|u| u < 0x80)));
    assert_eq!(f.continuation_bits, 7);
    assert_eq!(f.ascii_runs, AsciiRuns::Bytes);
}

#[test]
fn leb128_placed() {
    let f = facts(codecs::leb128());
    assert_eq!((f.sync_units, f.end_units), ([0; 4], set(|u| u < 0x80)));
    assert_eq!(f.continuation_bits, 0, "placed payload");
    assert!(!f.cyclic);
}

#[test]
fn radix_digits() {
    let f = facts(codecs::radix());
    assert!(!f.byte_digits);
    assert_eq!(f.ascii_runs, AsciiRuns::None, "digits are not their own units");
    assert_eq!(f.sync_units, set(|u| !u.is_ascii_digit()));
    assert_eq!(f.end_units, set(|u| !u.is_ascii_digit() && u != b'x'));
    assert_eq!(f.continuation_bits, 0, "radices");
}

#[test]
fn utf16le_wide_units() {
    let b = Built::of(codecs::utf16le());
    let f = facts(codecs::utf16le());
    assert_eq!((f.ascii_runs, f.unit_bytes, f.wide_runs), (AsciiRuns::U16Le, 2, b.spec.wide_runs));
    let low_surrogate = |u: u8| (0xDC..=0xDF).contains(&u);
    assert_eq!((f.sync_units, f.sync_lane), (set(|u| !low_surrogate(u)), 1));
    assert_eq!(wide_sync_units(&b.classes, &b.transitions, 2, 1, 1), f.sync_units);
    assert_eq!(wide_sync_units(&b.classes, &b.transitions, 2, 1, 0), [0; 4], "the low byte is free");
    assert_eq!(f.end_units, [0; 4], "every unit takes two bytes");
}

#[test]
fn two_contexts() {
    let f = facts(codecs::contexts());
    assert_eq!(f.contexts, 2);
    assert!(f.is_sync(b'x') && f.is_sync(b'z') && !f.is_sync(b'a') && !f.is_sync(b'h') && !f.is_sync(b'l'));
    assert!(f.is_end(b'a') && !f.is_end(b'h') && !f.is_end(b'x'), "end units lead to context 0's start");
    assert_eq!(f.continuation_bits, 0, "two contexts");
    assert_eq!(f.ascii_runs, AsciiRuns::None);
}

#[test]
fn pending_values() {
    let f = facts(codecs::pending());
    assert_eq!(f.ascii_runs, AsciiRuns::NonZeroBytes);
    assert_eq!(f.sync_units, set(|u| !(0x80..=0xBF).contains(&u)));
    assert_eq!(f.continuation_bits, 0, "pending values");
}

#[test]
fn facts_of_refuses_what_the_format_refuses() {
    let b = Built::of(codecs::ascii());
    let mut p = b.base();
    p.table.transitions = &b.transitions[..1];
    assert_eq!(Facts::of(&p), Err(placemat_codec::dfa::TableError::BadShape));
}
