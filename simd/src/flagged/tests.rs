//! The flagged kernels of every instruction set against a decoder written
//! from [`Marks`]' definition one unit at a time, on random streams of
//! mostly short values (the sixteen-at-once path of AVX-512) with long and
//! out-of-range values among them, for facts of every kind: both group
//! orders, both flag senses, biases, signed payloads, least values that
//! refuse overlong forms, and lengths below four.

use alloc::vec;
use alloc::vec::Vec;

use super::*;
use crate::testing::xorshift;

/// The value at the start of `units` and its length, as `marks` defines
/// it, or `None` where none is there (too long, out of range, cut short).
fn one(marks: &Marks, units: &[u8]) -> Option<(u64, usize)> {
    let mut payload = 0u64;
    for (i, &unit) in units.iter().enumerate().take(usize::from(marks.lengths).min(8)) {
        let group = u64::from(unit & 0x7F);
        payload = if marks.lsb_first { payload | group << (7 * i) } else { payload << 7 | group };
        if (unit & 0x80 != 0) == marks.continues_when_set {
            continue;
        }
        let n = i + 1;
        let value = if marks.signed {
            let unused = 64 - 7 * n as u32;
            ((payload << unused) as i64 >> unused) as u64
        } else {
            payload.wrapping_add(marks.bias[i])
        };
        let inside = if marks.signed {
            marks.lo[i] as i64 <= value as i64 && value as i64 <= marks.hi[i] as i64
        } else {
            marks.lo[i] <= value && value <= marks.hi[i]
        };
        return inside.then_some((value, n));
    }
    None
}

/// The values at the start of `input` and the units they take, up to the
/// first unit that starts none.
fn reference(marks: &Marks, input: &[u8]) -> (Vec<u64>, Vec<usize>) {
    let (mut values, mut ends, mut pos) = (Vec::new(), Vec::new(), 0);
    while let Some((value, n)) = one(marks, &input[pos..]) {
        pos += n;
        values.push(value);
        ends.push(pos);
    }
    (values, ends)
}

/// A fact of up to `lengths` units (at most 8): each length's payloads
/// from `bias` on, the least of them refused where `canonical` (the
/// overlong forms), or a signed one.
fn fact(lsb_first: bool, continues_when_set: bool, lengths: u8, signed: bool, canonical: bool, biased: bool) -> Marks {
    let (mut lo, mut hi, mut bias) = ([0u64; 10], [0u64; 10], [0u64; 10]);
    let mut next = 0u64;
    for k in 0..usize::from(lengths) {
        let bits = 7 * (k as u32 + 1);
        if signed {
            lo[k] = (-(1i64 << (bits - 1))) as u64;
            hi[k] = (1u64 << (bits - 1)) - 1;
        } else {
            bias[k] = if biased { next } else { 0 };
            lo[k] = if canonical && !biased && k > 0 { 1 << (bits - 7) } else { bias[k] };
            hi[k] = bias[k] + ((1u64 << bits) - 1);
            next = hi[k] + 1;
        }
    }
    Marks { continues_when_set, lsb_first, lengths, lo, hi, bias, signed }
}

/// The units of a value of `n` units with `payload`.
fn units(marks: &Marks, payload: u64, n: usize, out: &mut Vec<u8>) {
    for i in 0..n {
        let shift = if marks.lsb_first { 7 * i } else { 7 * (n - 1 - i) };
        let group = (payload >> shift) as u8 & 0x7F;
        let continues = i + 1 < n;
        out.push(group | if continues == marks.continues_when_set { 0x80 } else { 0 });
    }
}

/// A stream of `count` values, mostly of one to three units, one in
/// `rare` of up to six (and up to the fact's lengths), with a random
/// payload (which may be out of its length's range) one time in `bad`.
fn stream(marks: &Marks, seed: u64, count: usize, rare: u64, bad: u64) -> Vec<u8> {
    let mut next = xorshift(seed);
    let mut out = Vec::new();
    for _ in 0..count {
        let r = next();
        let n = if r.is_multiple_of(rare) { 1 + (r >> 8) as usize % 6 } else { 1 + (r >> 8) as usize % 3 };
        let n = n.min(usize::from(marks.lengths));
        let k = n - 1;
        let payload = next() & ((1u64 << (7 * n)) - 1);
        let payload = if !(r >> 40).is_multiple_of(bad) {
            // In range: a value of the length, less its bias.
            let span = marks.hi[k].wrapping_sub(marks.lo[k]);
            let value = marks.lo[k].wrapping_add(payload % span.saturating_add(1).max(1));
            value.wrapping_sub(marks.bias[k])
        } else {
            payload
        };
        units(marks, payload, n, &mut out);
    }
    out
}

/// `decode_flagged` on every instruction set into slots of `T` (the
/// reference's values cut to it) and into `room` slots: a prefix of the
/// reference's values, ending at its first error or within
/// [`FLAGGED_TAIL`] units of the input's end or at the room's end.
fn agrees<T: Slot + PartialEq + core::fmt::Debug>(marks: &Marks, input: &[u8], room: usize) {
    let (values, ends) = reference(marks, input);
    let valid = ends.last().copied().unwrap_or(0);
    for isa in Isa::all().into_iter().flatten().filter(|&isa| flagged_on(isa)) {
        let mut out = vec![T::narrow(0); room];
        let (v, u) = decode_flagged(isa, marks, input, &mut out);
        let want: Vec<T> = values.iter().take(v).map(|&x| T::narrow(x)).collect();
        assert_eq!(out[..v], want[..], "{isa:?} {marks:?}");
        assert_eq!(u, if v == 0 { 0 } else { ends[v - 1] }, "{isa:?} {marks:?}");
        let stopped_early = u < valid && v < room;
        assert!(!stopped_early || u + FLAGGED_TAIL > input.len(), "{isa:?} stopped at {u} of {valid}: {marks:?}");
    }
}

fn facts() -> Vec<Marks> {
    let mut facts = Vec::new();
    for lsb in [true, false] {
        for set in [true, false] {
            for lengths in [1, 2, 3, 4, 5, 8] {
                facts.push(fact(lsb, set, lengths, false, false, false));
                facts.push(fact(lsb, set, lengths, false, true, false));
                facts.push(fact(lsb, set, lengths, false, false, true));
                facts.push(fact(lsb, set, lengths, true, false, false));
            }
        }
    }
    // Ranges wider than the payloads: a unit too many in a value would not
    // be caught by its range.
    let mut loose = fact(true, true, 4, false, false, false);
    loose.hi = [u64::MAX; 10];
    facts.push(loose);
    let mut loose = fact(false, false, 3, false, false, false);
    loose.hi = [u64::MAX; 10];
    facts.push(loose);
    // Biases that take the lanes past `u32::MAX`: read one value at a time.
    let mut high = fact(true, true, 4, false, false, false);
    high.bias = [0xFFFF_0000; 10];
    high.lo = [0xFFFF_0000; 10];
    high.hi = [u64::MAX; 10];
    facts.push(high);
    facts
}

#[test]
fn kernels_agree_with_the_definition_on_short_values() {
    for (i, marks) in facts().iter().enumerate() {
        for (seed, rare, bad) in [(1, 1 << 40, 1 << 40), (2, 50, 1 << 40), (3, 7, 1 << 40), (4, 1 << 40, 300)] {
            let input = stream(marks, seed * 1000 + i as u64 + 1, 1500, rare, bad);
            for room in [16, 17, 40, 4000] {
                agrees::<u64>(marks, &input, room);
            }
            agrees::<u32>(marks, &input, 4000);
            agrees::<i64>(marks, &input, 4000);
        }
    }
}

#[test]
fn kernels_agree_with_the_definition_on_damaged_units() {
    let leb128 = fact(true, true, 8, false, true, false);
    let vlq = fact(false, true, 4, false, false, true);
    for marks in [leb128, vlq] {
        let clean = stream(&marks, 9, 400, 1 << 40, 1 << 40);
        for at in 0..200 {
            for unit in [0x00, 0x7F, 0x80, 0xFF] {
                let mut input = clean.clone();
                input[at] = unit;
                agrees::<u64>(&marks, &input, 4000);
            }
        }
    }
}

/// Runs of continuing units, longer than any value, after a few values:
/// blocks with fewer than sixteen ends, down to one or none.
#[test]
fn kernels_agree_with_the_definition_on_long_runs() {
    for marks in [fact(true, true, 4, false, false, false), fact(false, false, 2, true, false, false)] {
        let continuing = if marks.continues_when_set { 0x80 } else { 0x00 };
        for before in 0..20 {
            for run in [3, 15, 63, 64, 65, 100] {
                let mut input = stream(&marks, 5, before, 1 << 40, 1 << 40);
                input.extend(core::iter::repeat_n(continuing, run));
                input.extend(stream(&marks, 6, 200, 1 << 40, 1 << 40));
                agrees::<u64>(&marks, &input, 4000);
            }
        }
    }
}

/// The units of `value` as `marks` writes it: the first length whose range
/// holds it (of the first eight), or `None`.
fn written(marks: &Marks, value: u64) -> Option<Vec<u8>> {
    let n = (1..=usize::from(marks.lengths).min(8)).find(|&n| {
        let k = n - 1;
        if marks.signed {
            marks.lo[k] as i64 <= value as i64 && value as i64 <= marks.hi[k] as i64
        } else {
            marks.lo[k] <= value && value <= marks.hi[k]
        }
    })?;
    let payload = if marks.signed { value } else { value - marks.bias[n - 1] };
    let mut out = Vec::new();
    units(marks, payload, n, &mut out);
    Some(out)
}

/// `encode_flagged` on every instruction set with a kernel, into room for
/// all and for a few units, against [`written`]: the units of the values
/// up to the first one no length holds, or up to the room's end.
fn encodes<T: Slot + Into<i128>>(marks: &Marks, values: &[T], room: usize) {
    // The kernel reads a value widened by its type's sign.
    let as_u64 = |v: T| v.into() as u64;
    let mut want = Vec::new();
    let mut ends = Vec::new();
    for &v in values {
        let Some(units) = written(marks, as_u64(v)) else { break };
        want.extend(units);
        ends.push(want.len());
    }
    for isa in Isa::all().into_iter().flatten().filter(|&isa| crate::encodes_flagged_on(isa, marks)) {
        let mut out = vec![0u8; room];
        let (done, wrote) = crate::encode_flagged(isa, marks, values, &mut out, |_, _| None);
        assert_eq!(wrote, if done == 0 { 0 } else { ends[done - 1] }, "{isa:?} {marks:?}");
        assert_eq!(out[..wrote], want[..wrote], "{isa:?} {marks:?}");
        let next = ends.get(done).copied();
        // Stopped at the first value no length holds, or where the next
        // group of eight might not fit.
        assert!(next.is_none() || next.unwrap() + 64 > room, "{isa:?} stopped at {done}: {marks:?}");
    }
}

#[test]
fn the_encoder_writes_what_the_definition_writes() {
    let mut next = xorshift(77);
    let mut on = 0;
    for marks in facts() {
        if !Isa::all().into_iter().flatten().any(|isa| crate::encodes_flagged_on(isa, &marks)) {
            continue;
        }
        on += 1;
        let lengths = usize::from(marks.lengths).min(8);
        for rare in [1 << 40, 40, 5] {
            let mut values: Vec<u64> = (0..1000)
                .map(|_| {
                    let r = next();
                    let n = if r.is_multiple_of(rare) {
                        1 + (r >> 8) as usize % lengths
                    } else {
                        1 + (r >> 8) as usize % lengths.min(3)
                    };
                    let k = n - 1;
                    let span = marks.hi[k].wrapping_sub(marks.lo[k]).saturating_add(1).max(1);
                    marks.lo[k].wrapping_add(next() % span)
                })
                .collect();
            encodes::<u64>(&marks, &values, 20_000);
            encodes::<u64>(&marks, &values, 100);
            encodes::<i64>(&marks, &values.iter().map(|&v| v as i64).collect::<Vec<_>>(), 20_000);
            encodes::<u32>(&marks, &values.iter().map(|&v| v as u32).collect::<Vec<_>>(), 20_000);
            encodes::<i32>(&marks, &values.iter().map(|&v| v as i32).collect::<Vec<_>>(), 20_000);
            // A value no length holds, at places in and around the groups.
            for at in [0, 7, 15, 16, 17, 40] {
                let mut bad = values.clone();
                bad[at] = if marks.signed { i64::MAX as u64 } else { u64::MAX };
                encodes::<u64>(&marks, &bad, 20_000);
            }
            values.truncate(37);
            encodes::<u64>(&marks, &values, 20_000);
        }
    }
    // The kernel is AVX-512's: where the machine has it, most facts take it
    // (elsewhere, and under `PLACEMAT_ISA` below it, none may).
    if Isa::all().contains(&Some(Isa::Avx512)) {
        assert!(on > 10, "{on} facts with a kernel");
    }
}
