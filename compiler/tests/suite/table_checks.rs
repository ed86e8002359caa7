//! The runtime checks every table it is given (`Dfa::new`, and `Dfa::from_static`
//! in a `const` for generated codecs) against the facts the compiler derived:
//! the compiler's own parts pass, and each kind of corruption is refused with
//! its own error.

use placemat_codec::dfa::Simd;
use placemat_codec::dfa::{
    expanded as expanded_table, pending_entry, Decoding, Dfa, Facts, Loops, Parts, Payload, Rows, ShiftRows, TableError,
};
use placemat_codec::simd::Shape;
use placemat_codec::{AsciiRuns, WideRuns};
use placemat_compiler::{Automaton, BuildOptions, Description};

const UTF8: &str = include_str!("../../../variants/descriptions/utf8.placemat");

fn utf8() -> Automaton {
    Automaton::build(&Description::parse_str(UTF8).unwrap().model, BuildOptions::default()).unwrap()
}

/// The automaton's parts, as `Automaton::with_parts` gives them, over `rows`.
fn parts<'a>(a: &'a Automaton, rows: &'a [u64; 256]) -> Parts<'a> {
    a.parts_with(ShiftRows::Narrow { offsets: &a.shift.offsets, rows })
}

/// The expanded decoding with `rows` and the certificate `remaining`.
fn expanded<'a>(rows: Rows<'a>, remaining: &'a [u64]) -> Decoding<'a> {
    Decoding::Expanded { rows, remaining }
}

/// The automaton's expanded table and certificate.
fn own_expanded(a: &Automaton) -> (Rows<'_>, &[u64]) {
    (a.expanded.as_ref().unwrap().rows(), a.certificates.remaining.as_deref().unwrap())
}

/// `Dfa::new` on the automaton's parts after `change` (without shift rows if
/// the automaton has none in `u64`s: giving them up is allowed).
fn checked<'a>(a: &'a Automaton, change: impl FnOnce(&mut Parts<'a>)) -> Result<(), TableError> {
    let rows: &'a [u64; 256] =
        Box::leak(Box::new(std::array::from_fn(|u| a.shift.rows.get(u).map_or(0, |&r| r as u64))));
    let mut p = parts(a, rows);
    if a.shift.rows.len() != 256 || a.shift.width != 6 {
        p.shift = ShiftRows::None;
    }
    change(&mut p);
    Dfa::new(p).map(|_| ())
}

#[test]
fn the_compilers_parts_pass() {
    let a = utf8();
    assert_eq!(checked(&a, |_| {}), Ok(()));
    // The parts built here from the automaton's public fields are the ones the
    // compiler hands over.
    let rows: [u64; 256] = std::array::from_fn(|u| a.shift.rows[u] as u64);
    assert_eq!(Dfa::new(parts(&a, &rows)).unwrap(), a.dfa());
    assert!(a.expanded.is_some() && a.shift.width == 6 && !a.facts.cyclic);
    assert_eq!(a.dfa().facts(), &a.facts, "the runtime derives the facts the compiler holds");
}

#[test]
fn broken_tables_are_refused() {
    let a = utf8();
    let mut trans = a.transitions.clone();
    trans[12 + 1] = 7; // not a premultiplied state
    assert_eq!(checked(&a, |p| p.table.transitions = &trans), Err(TableError::BadState));
    let mut dead = a.transitions.clone();
    dead[0] = 12; // the dead row leaves the dead state
    assert_eq!(checked(&a, |p| p.table.transitions = &dead), Err(TableError::BadState));
    assert_eq!(checked(&a, |p| p.table.transitions = &a.transitions[..20]), Err(TableError::BadShape));
    assert_eq!(checked(&a, |p| p.table.biases = &[1]), Err(TableError::BadBias));
}

/// The facts are not claimed but derived from the table, by the runtime's
/// own functions, which the compiler calls too: a change to the table shows
/// in them.
#[test]
fn the_facts_follow_the_table() {
    let a = utf8();
    let rows: [u64; 256] = std::array::from_fn(|u| a.shift.rows[u] as u64);
    let of = |p: &Parts<'_>| Facts::of(p).unwrap();
    let mut p = parts(&a, &rows);
    assert_eq!(of(&p), a.facts);
    let mut digits = a.digits;
    digits[0x41] = 0x42;
    p.table.digits = &digits;
    assert_eq!((of(&p).byte_digits, of(&p).ascii_runs), (false, AsciiRuns::None));
    // `C3` leads nowhere: every state rejects it, so it is a sync unit and an end unit.
    let mut trans = a.transitions.clone();
    let class = usize::from(a.classes[0xC3]);
    trans[a.class_count() + class] = 0;
    let p = parts(&a, &rows);
    let p = Parts { table: placemat_codec::dfa::Table { transitions: &trans, ..p.table }, ..p };
    assert!(of(&p).is_end(0xC3) && !a.facts.is_end(0xC3));
}

/// UTF-16's sync units are its high bytes other than `DC`-`DF` (a low
/// surrogate's), at place 1 of a little-endian code unit, as derived.
#[test]
fn sync_units_of_wide_code_units_lie_at_their_place() {
    let d = Description::parse_str(include_str!("../../../variants/descriptions/utf16le.placemat")).unwrap();
    let a = Automaton::build(&d.model, BuildOptions::default()).unwrap();
    assert_eq!(a.facts.sync_lane, 1);
    assert!(!a.facts.is_sync(0xDC) && a.facts.is_sync(0xD8) && a.facts.is_sync(0x00));
    assert_eq!(checked(&a, |_| {}), Ok(()));
    assert_eq!(a.dfa().facts().sync_lane, 1);
    assert_eq!((utf8().facts.sync_lane, utf8().facts.sync_units[2]), (0, 0));
}

#[test]
fn an_acyclic_claim_needs_a_depth_that_falls_along_every_transition() {
    let a = utf8();
    let mut flat = a.certificates.depth.clone().unwrap();
    flat.iter_mut().for_each(|d| *d = 1);
    assert_eq!(checked(&a, |p| p.loops = Loops::Acyclic { depth: &flat }), Err(TableError::BadDepth));
    assert_eq!(checked(&a, |p| p.loops = Loops::Acyclic { depth: &[] }), Err(TableError::BadDepth));
    // Claiming a loop gives up an assumption only; it needs no proof.
    assert_eq!(checked(&a, |p| p.loops = Loops::Cyclic), Ok(()));
}

/// An automaton built from `text`.
fn built(text: &str) -> Automaton {
    Automaton::build(&Description::parse_str(text).unwrap().model, BuildOptions::default()).unwrap()
}

/// LEB128 padded without a limit: its one loop (a zero group past bit 63)
/// carries no payload, which the padding certificate proves; placed payload
/// takes no other loop, and a loop that carries payload is no padding.
#[test]
fn a_padding_claim_needs_its_loops_to_carry_no_payload() {
    let padded = built(
        r#"pub L { name: "l", value: u64, range: 0 ..= 0xFFFFFFFFFFFFFFFF, layout: padded, padding: unlimited,
               groups: lsb_first, forms: { "1xxxxxxx* 0xxxxxxx" } }"#,
    );
    let depth = padded.certificates.padding_depth.clone().expect("a padding certificate");
    assert!(padded.certificates.depth.is_none() && padded.facts.cyclic);
    assert_eq!(checked(&padded, |_| {}), Ok(()));
    assert!(padded.dfa().is_cyclic());
    // Placed payload with a loop that may read payload: refused.
    assert_eq!(checked(&padded, |p| p.loops = Loops::Cyclic), Err(TableError::BadFacts));
    let mut flat = depth.clone();
    flat.iter_mut().for_each(|d| *d = 1);
    assert_eq!(checked(&padded, |p| p.loops = Loops::Padding { depth: &flat }), Err(TableError::BadDepth));
    assert_eq!(checked(&padded, |p| p.loops = Loops::Acyclic { depth: &depth }), Err(TableError::BadDepth));
    // An unbounded codec's loop reads payload: not padding.
    let unbounded =
        built(r#"pub V { name: "v", value: unbounded, range: 0 .., forms: { "0xxxxxxx", "1xxxxxxx* 0xxxxxxx" } }"#);
    assert!(unbounded.certificates.padding_depth.is_none());
    // Dead, start, and the state that loops on a continuation: a depth that
    // falls along every other transition.
    assert_eq!(unbounded.state_count(), 3);
    let depth = [0, 0, 1];
    assert_eq!(checked(&unbounded, |p| p.loops = Loops::Padding { depth: &depth }), Err(TableError::BadDepth));
}

#[test]
fn shift_rows_that_do_not_follow_the_transitions_are_refused() {
    let a = utf8();
    let mut rows: [u64; 256] = std::array::from_fn(|u| a.shift.rows[u] as u64);
    rows[0xC3] ^= 1 << 6; // one bit of the start state's field
    assert_eq!(
        checked(&a, |p| p.shift = ShiftRows::Narrow { offsets: &a.shift.offsets, rows: &rows }),
        Err(TableError::BadShift)
    );
    let mut offsets = a.shift.offsets.clone();
    offsets[2] = offsets[1]; // a state at the start's offset would be accepted
    let good: [u64; 256] = std::array::from_fn(|u| a.shift.rows[u] as u64);
    assert_eq!(
        checked(&a, |p| p.shift = ShiftRows::Narrow { offsets: &offsets, rows: &good }),
        Err(TableError::BadShift)
    );
    assert_eq!(checked(&a, |p| p.shift = ShiftRows::None), Ok(()));
}

#[test]
fn an_expanded_table_that_disagrees_is_refused() {
    let a = utf8();
    let t = a.expanded.clone().unwrap();
    let mut placed = t.values.clone();
    placed[256 + 0x41] ^= 1;
    let (_, rem) = own_expanded(&a);
    let table = Rows { next: &t.next, values: &placed };
    assert_eq!(checked(&a, |p| p.decoding = expanded(table, rem)), Err(TableError::BadExpanded));
    let mut next = t.next.clone();
    next[256 + 0xC3] = 256; // back to the start instead of awaiting a continuation
    let table = Rows { next: &next, values: &t.values };
    assert_eq!(checked(&a, |p| p.decoding = expanded(table, rem)), Err(TableError::BadExpanded));
    let short = Rows { next: &t.next[256..], values: &t.values[256..] };
    assert_eq!(checked(&a, |p| p.decoding = expanded(short, rem)), Err(TableError::BadExpanded));
    let mut off = rem.to_vec();
    off[2] += 1;
    assert_eq!(checked(&a, |p| p.decoding = expanded(t.rows(), &off)), Err(TableError::BadExpanded));
    assert_eq!(checked(&a, |p| p.decoding = expanded(t.rows(), &[])), Err(TableError::BadExpanded));
    assert_eq!(checked(&a, |p| p.decoding = Decoding::Classes), Ok(()));
}

/// Placed payloads (LEB128, UTF-16LE): one entry per transition, shifts and
/// places below 64, no expanded table; and a code unit of 1, 2 or 4 bytes.
#[test]
fn broken_places_and_unit_widths_are_refused() {
    let a = utf8();
    let places = vec![0u64; a.transitions.len()];
    // UTF-8 has an expanded table, which places rule out.
    assert_eq!(checked(&a, |p| p.payload = Payload::Placed(&places)), Err(TableError::BadFacts));
    let three = |p: &mut Parts<'_>| p.table.unit_bytes = 3;
    assert_eq!(checked(&a, three), Err(TableError::BadFacts));
    let leb = include_str!("../../../variants/descriptions/leb128.placemat");
    let leb = Automaton::build(&Description::parse_str(leb).unwrap().model, BuildOptions::default()).unwrap();
    let good = leb.places.clone().expect("LEB128 places its payload");
    assert!(leb.with_parts(|p| Dfa::new(p).is_ok()));
    let short: &'static [u64] = Box::leak(good[1..].to_vec().into_boxed_slice());
    assert!(leb.with_parts(|mut p| {
        p.payload = Payload::Placed(short);
        Dfa::new(p) == Err(TableError::BadFacts)
    }));
    let mut far = good.clone();
    far[3] = 64;
    let far: &'static [u64] = Box::leak(far.into_boxed_slice());
    assert!(leb.with_parts(|mut p| {
        p.payload = Payload::Placed(far);
        Dfa::new(p) == Err(TableError::BadFacts)
    }));
}

/// The ASCII runs are derived code unit by code unit: all of `00`-`7F`
/// for UTF-8, `01`-`7F` for modified UTF-8 (whose U+0000 is `C0 80`), and
/// the code units of UTF-16 and UTF-32 in their own byte order.
#[test]
fn ascii_runs_follow_the_table() {
    let build = |text: &str| Automaton::build(&Description::parse_str(text).unwrap().model, BuildOptions::default());
    assert_eq!(utf8().facts.ascii_runs, AsciiRuns::Bytes);
    let mutf8 = build(include_str!("../../../variants/descriptions/mutf8.placemat")).unwrap();
    assert_eq!(mutf8.facts.ascii_runs, AsciiRuns::NonZeroBytes);
    for (text, runs) in [
        (include_str!("../../../variants/descriptions/utf16le.placemat"), AsciiRuns::U16Le),
        (include_str!("../../../variants/descriptions/utf16be.placemat"), AsciiRuns::U16Be),
        (include_str!("../../../variants/descriptions/utf32le.placemat"), AsciiRuns::U32Le),
        (include_str!("../../../variants/descriptions/utf32be.placemat"), AsciiRuns::U32Be),
    ] {
        let a = build(text).unwrap();
        assert_eq!((a.facts.ascii_runs, a.dfa().facts().ascii_runs), (runs, runs));
    }
}

/// The direct table (one entry per state and unit, for automata without an
/// expanded table) is checked entry by entry against the class-compressed
/// table, and refused beside an expanded table.
#[test]
fn a_direct_table_that_disagrees_is_refused() {
    let text = include_str!("../../../variants/descriptions/leb128.placemat");
    let leb128 = Automaton::build(&Description::parse_str(text).unwrap().model, BuildOptions::default()).unwrap();
    let good = leb128.direct.clone().expect("LEB128 places its payload: no expanded table, a direct one");
    fn with(a: &Automaton, next: &[u32], values: &[u64]) -> Result<(), TableError> {
        checked(a, |p| p.decoding = Decoding::Direct(Rows { next, values }))
    }
    assert_eq!(with(&leb128, &good.next, &good.values), Ok(()));
    assert_eq!(checked(&leb128, |p| p.decoding = Decoding::Classes), Ok(()));
    // Each field of one entry: next row, bias, shift, place, payload.
    let live = 256 + 0x85; // from the start, a unit with a continuation bit
    for flip in [1u64 << 8, 1 << 16, 1 << 22, 1 << 28, 1 << 34] {
        let mut bad = good.values.clone();
        bad[live] ^= flip;
        assert_eq!(with(&leb128, &good.next, &bad), Err(TableError::BadDirect), "{flip:#X}");
    }
    // The next rows must be the entries' own.
    let mut next = good.next.clone();
    next[live] ^= 1 << 8;
    assert_eq!(with(&leb128, &next, &good.values), Err(TableError::BadDirect));
    let short = good.values.len() - 256;
    assert_eq!(with(&leb128, &good.next[..short], &good.values[..short]), Err(TableError::BadDirect));
    // A direct table of UTF-8 with a wrong entry.
    let a = utf8();
    let (next, rows) = (vec![0u32; a.state_count() * 256], vec![0u64; a.state_count() * 256]);
    assert_eq!(with(&a, &next, &rows), Err(TableError::BadDirect));
}

/// The wide runs (code units of 16 or 32 bits that are values of themselves)
/// are derived as the non-surrogate units of UTF-16 and every scalar value of
/// UTF-32, in the codec's byte order; a claim that takes in one unit that is
/// not a value of itself, or is read in the wrong width or order, is refused.
#[test]
fn wide_run_claims_are_checked_unit_by_unit() {
    let build = |text: &str| Automaton::build(&Description::parse_str(text).unwrap().model, BuildOptions::default());
    let with = |a: &Automaton, runs: WideRuns| {
        a.with_parts(|mut p| {
            p.wide_runs = runs;
            Dfa::new(p).map(|_| ())
        })
    };
    let runs = |units, ranges| WideRuns { units, ranges };
    let bmp = [(0, 0xD7FF), (0xE000, 0xFFFF)];
    let scalars = [(0, 0xD7FF), (0xE000, 0x10FFFF)];
    for (text, units, ranges, other) in [
        (include_str!("../../../variants/descriptions/utf16le.placemat"), AsciiRuns::U16Le, bmp, AsciiRuns::U16Be),
        (include_str!("../../../variants/descriptions/utf16be.placemat"), AsciiRuns::U16Be, bmp, AsciiRuns::U16Le),
        (include_str!("../../../variants/descriptions/utf32le.placemat"), AsciiRuns::U32Le, scalars, AsciiRuns::U32Be),
        (include_str!("../../../variants/descriptions/utf32be.placemat"), AsciiRuns::U32Be, scalars, AsciiRuns::U32Le),
    ] {
        let a = build(text).unwrap();
        assert_eq!(a.facts.wide_runs, runs(units, ranges), "{units:?}");
        assert_eq!(with(&a, runs(units, ranges)), Ok(()));
        // Narrower claims pass: the walkers only copy less.
        assert_eq!(with(&a, runs(units, [(0x41, 0x41), (0x100, 0xD7FF)])), Ok(()));
        assert_eq!(with(&a, WideRuns::NONE), Ok(()));
        let [(lo, hi), (top_lo, top)] = ranges;
        // One unit too many at either end of either range, a range backwards,
        // the other byte order, the other width, bytes.
        for wrong in [
            [(lo, hi + 1), (top_lo, top)],
            [(lo, hi), (top_lo - 1, top)],
            [(lo, hi), (top_lo, top + 1)],
            [(hi, lo), (top_lo, top)],
        ] {
            assert_eq!(with(&a, runs(units, wrong)), Err(TableError::BadFacts), "{units:?} {wrong:X?}");
        }
        assert_eq!(with(&a, runs(other, [(0x41, 0x41); 2])), Err(TableError::BadFacts), "{other:?}");
        let width = if units.unit_bytes() == 2 { AsciiRuns::U32Le } else { AsciiRuns::U16Le };
        assert_eq!(with(&a, runs(width, [(0, 0x7F); 2])), Err(TableError::BadFacts), "{width:?}");
    }
    // Byte codecs have none, and a claim of some is refused.
    let utf8 = utf8();
    assert_eq!(utf8.facts.wide_runs, WideRuns::NONE);
    assert_eq!(with(&utf8, runs(AsciiRuns::U16Le, [(0, 0x7F); 2])), Err(TableError::BadFacts));
}

/// CESU-8's `ED` is a literal unit that begins both a three-byte sequence and a
/// surrogate pair, so the paths out of the state after it disagree on the
/// weight to come. Nothing has been read there that a weight applies to: its
/// certificate is 0, which the checks accept only for a state that units
/// without payload reach.
#[test]
fn a_weight_of_zero_is_accepted_only_where_no_payload_was_read() {
    let text = include_str!("../../../variants/descriptions/cesu8.placemat");
    let cesu8 = Automaton::build(&Description::parse_str(text).unwrap().model, BuildOptions::default()).unwrap();
    let rem = cesu8.certificates.remaining.clone().expect("CESU-8 has an expanded table");
    assert!(cesu8.with_parts(|p| Dfa::new(p).is_ok()));
    let after_ed = cesu8.edge(1, 0xED).next;
    assert_eq!(rem[after_ed], 0);
    assert_eq!(rem.iter().filter(|&&w| w == 0).count(), 1, "{rem:?}");
    let rows = cesu8.expanded.as_ref().unwrap().rows();
    let with = |claim: &[u64]| checked(&cesu8, |p| p.decoding = expanded(rows, claim));
    // Either path's weight after `ED` disagrees with the other path.
    for weight in [1 << 12, 1 << 20] {
        let mut claim = rem.clone();
        claim[after_ed] = weight;
        assert_eq!(with(&claim), Err(TableError::BadExpanded), "{weight:#x}");
    }
    // Weight 0 where payload was read, though the weight is not 0: after a
    // three-byte lead (E1), and after the pair's second unit.
    for state in [cesu8.edge(1, 0xE1).next, cesu8.edge(after_ed, 0xA0).next] {
        let mut claim = rem.clone();
        claim[state] = 0;
        assert_eq!(with(&claim), Err(TableError::BadExpanded), "state {state}");
    }
    // Weight 0 after the pair's second `ED`: a literal unit, but after payload.
    let second_ed = cesu8.edge(cesu8.edge(cesu8.edge(after_ed, 0xA0).next, 0x80).next, 0xED).next;
    assert_ne!(rem[second_ed], 0);
    let mut claim = rem.clone();
    claim[second_ed] = 0;
    assert_eq!(with(&claim), Err(TableError::BadExpanded));
    // The entry that completes `ED 80 80` (U+D000) holds the form's bias,
    // 0xD000: the walk adds none of its own.
    let three = cesu8.edge(after_ed, 0x80).next;
    let table = cesu8.expanded.clone().unwrap();
    assert_eq!(table.values[three * expanded_table::ROW + 0x80], 0xD000);
    let mut unbiased = table.values.clone();
    unbiased[three * expanded_table::ROW + 0x80] = 0;
    let unbiased = Rows { next: &table.next, values: &unbiased };
    assert_eq!(checked(&cesu8, |p| p.decoding = expanded(unbiased, &rem)), Err(TableError::BadExpanded));
    let utf8 = utf8();
    let (rows, rem) = own_expanded(&utf8);
    let mut claim = rem.to_vec();
    claim[2] = 0;
    assert_eq!(checked(&utf8, |p| p.decoding = expanded(rows, &claim)), Err(TableError::BadExpanded));
}

/// Perl's 13-byte form carries 72 payload bits for values below 2^63, so the
/// first units after `FF` weigh 2^66 and more: 0 modulo 2^64, which is all
/// the table computes. Those states' weights are 0 and their transitions must
/// agree with 0.
#[test]
fn a_weight_of_zero_modulo_2_64_holds_along_its_transitions() {
    let text = include_str!("../../../variants/descriptions/perl-utf8.placemat");
    let perl = Automaton::build(&Description::parse_str(text).unwrap().model, BuildOptions::default()).unwrap();
    let rem = perl.certificates.remaining.clone().expect("perl-utf8 has an expanded table");
    assert!(perl.with_parts(|p| Dfa::new(p).is_ok()));
    let after_ff = perl.edge(1, 0xFF).next;
    let first = perl.edge(after_ff, 0x80).next;
    let second = perl.edge(first, 0x80).next;
    // Nothing read after `FF`; 66 bits to come after the first continuation
    // unit; the second's weight is 2^60 (its payload is below 8).
    assert_eq!((rem[after_ff], rem[first], rem[second]), (0, 0, 1 << 60));
    let mut claim = rem.clone();
    claim[second] = 1 << 59;
    let rows = perl.expanded.as_ref().unwrap().rows();
    assert_eq!(checked(&perl, |p| p.decoding = expanded(rows, &claim)), Err(TableError::BadExpanded));
}

/// The SIMD decoding kernel's shape is the compiler's claim; the checks hold
/// every lead and the continuation units to it, and no claim gives up only the
/// kernel.
#[test]
fn a_decoding_shape_that_disagrees_is_refused() {
    let a = utf8();
    let shape = a.local.as_ref().unwrap().decoding_shape.expect("utf8 has a shape");
    assert_eq!((shape.continuation, &shape.lead_base[1..5]), ((0x80, 0xBF), &[0x00, 0xC0, 0xE0, 0xF0][..]));
    let tables = a.local.as_ref().unwrap().tables;
    let claim = |s: Option<Shape>| checked(&a, |p| p.simd = Some(Simd { tables, decoding: s }));
    assert_eq!(claim(None), Ok(()));
    let mut base = shape;
    base.lead_base[3] = 0xE1;
    assert_eq!(claim(Some(base)), Err(TableError::BadDecodingShape));
    let mut run = shape;
    run.continuation = (0x80, 0xBE);
    assert_eq!(claim(Some(run)), Err(TableError::BadDecodingShape));
    run.continuation = (0xBF, 0x80);
    assert_eq!(claim(Some(run)), Err(TableError::BadDecodingShape));
    // Without 6-bit continuation payloads there is nothing to claim: UTF-8
    // whose last continuation takes 5 bits has none (decoded by the
    // class-compressed table, which needs no weights).
    let mut trans = a.transitions.clone();
    let after_lead = a.edge(1, 0xC3).next * a.class_count() + usize::from(a.classes[0x80]);
    trans[after_lead] = trans[after_lead] & !(0xF << 16) | 5 << 16;
    let five = checked(&a, |p| {
        p.table.transitions = &trans;
        p.decoding = Decoding::Classes;
    });
    assert_eq!(five, Err(TableError::BadDecodingShape));
    // Two bases for the two-unit leads: local, but no shape, and utf8's is refused.
    let text = r#"pub Biased { name: "biased", value: u32, layout: explicit, range: 0 ..= 0x5FF,
        forms: { 0 ..= 0x7F => "0xxxxxxx", 0x80 ..= 0x3FF => "1100xxxx 10xxxxxx",
                 0x400 ..= 0x5FF bias 0x400 => "11010xxx 10xxxxxx" } }"#;
    let biased = Automaton::build(&Description::parse_str(text).unwrap().model, BuildOptions::default()).unwrap();
    assert!(biased.local.as_ref().is_ok_and(|l| l.decoding_shape.is_none()));
    let biased_tables = biased.local.as_ref().unwrap().tables;
    let claim = Some(Simd { tables: biased_tables, decoding: Some(shape) });
    assert_eq!(checked(&biased, |p| p.simd = claim), Err(TableError::BadDecodingShape));
}

/// Digit units (UTF-1): one multiplier per transition, on a table without
/// loops; the expanded table's entries are digits times the weight of the
/// digits after them, and its certificate is those weights.
#[test]
fn broken_radices_are_refused() {
    let text = include_str!("../../../variants/descriptions/utf1.placemat");
    let utf1 = Automaton::build(&Description::parse_str(text).unwrap().model, BuildOptions::default()).unwrap();
    let good = utf1.radices.clone().expect("UTF-1 multiplies by its radices");
    assert!(utf1.expanded.is_some() && utf1.places.is_none());
    // Its biases are negative (each form subtracts what its lead adds), and so
    // are the entries that complete its sequences.
    assert!(utf1.expanded.as_ref().unwrap().values.iter().any(|&e| (e as i64) < 0));
    assert!(utf1.with_parts(|p| Dfa::new(p).is_ok()));
    let leak = |v: Vec<u64>| -> &'static [u64] { Box::leak(v.into_boxed_slice()) };
    let with = |radices: Option<&'static [u64]>| {
        utf1.with_parts(|mut p| {
            p.payload = radices.map_or(Payload::Shifted, Payload::Radix);
            Dfa::new(p).map(|_| ())
        })
    };
    assert_eq!(with(Some(leak(good[1..].to_vec()))), Err(TableError::BadFacts));
    // A multiplier that disagrees with the weights, or none at all: the
    // expanded table no longer follows from the transitions.
    let at = good.iter().position(|&r| r == 190).expect("a digit after the lead");
    let mut wrong = good.clone();
    wrong[at] = 189;
    assert_eq!(with(Some(leak(wrong))), Err(TableError::BadExpanded));
    assert_eq!(with(None), Err(TableError::BadExpanded));
    // The weights: 190^k in the states with k digits to come.
    let rem = utf1.certificates.remaining.clone().unwrap();
    assert!([1, 190, 190 * 190, 190 * 190 * 190, 190 * 190 * 190 * 190].iter().all(|w| rem.contains(w)));
    let mut off = rem.clone();
    let k = off.iter().position(|&w| w == 190).unwrap();
    off[k] = 191;
    let off = leak(off);
    let rows = utf1.expanded.as_ref().unwrap().rows();
    assert_eq!(checked(&utf1, |p| p.decoding = expanded(rows, off)), Err(TableError::BadExpanded));
}

/// A table with rules across values (WTF-8) has a start state per context;
/// the checks hold it to a number of them that the table has, and the sync
/// units are those every start state takes alike.
#[test]
fn contexts_are_checked() {
    let text = include_str!("../../../variants/descriptions/wtf8.placemat");
    let wtf8 = Automaton::build(&Description::parse_str(text).unwrap().model, BuildOptions::default()).unwrap();
    assert_eq!((wtf8.contexts, wtf8.expanded.is_some()), (2, false));
    assert!(wtf8.with_parts(|p| Dfa::new(p).is_ok()));
    let with = |contexts: u8| {
        wtf8.with_parts(|mut p| {
            p.table.contexts = contexts;
            Dfa::new(p).map(|_| ())
        })
    };
    assert_eq!(with(0), Err(TableError::BadFacts));
    assert_eq!(with(wtf8.state_count() as u8), Err(TableError::BadFacts));
    // With one start state, the state after a high surrogate takes ASCII back
    // to the start, so ASCII is no sync unit; `ED` leads to different states
    // after a high surrogate and elsewhere, so it is none either way.
    let one = wtf8.with_parts(|mut p| {
        p.table.contexts = 1;
        Facts::of(&p).unwrap()
    });
    assert!(!one.is_sync(b'A') && !one.is_sync(0xED));
    assert!(!wtf8.facts.is_sync(0xED) && wtf8.facts.is_sync(b'A') && wtf8.facts.is_sync(0xE1));
}

/// Pending values (`overlap: longest`): one entry per state, naming a context
/// and a bias that exist, never on the dead or a start state, and only in
/// tables the step function falls back on (no expanded table, no SIMD).
#[test]
fn pending_values_are_checked() {
    let text = include_str!("../../../variants/descriptions/mutf8.placemat");
    let mutf8 = Automaton::build(&Description::parse_str(text).unwrap().model, BuildOptions::default()).unwrap();
    assert!(mutf8.has_pending() && mutf8.with_parts(|p| Dfa::new(p).is_ok()));
    let with = |change: &dyn Fn(&mut Vec<u32>)| {
        let mut entries = mutf8.pending_entries.clone();
        change(&mut entries);
        let entries: &'static [u32] = Box::leak(entries.into_boxed_slice());
        mutf8.with_parts(|mut p| {
            p.pending = entries;
            Dfa::new(p).map(|_| ())
        })
    };
    let pending_at = mutf8.pending.iter().position(Option::is_some).unwrap();
    let valid = mutf8.pending_entries[pending_at];
    assert_eq!(with(&|_| ()), Ok(()));
    assert_eq!(with(&|e| e.truncate(3)), Err(TableError::BadPending));
    assert_eq!(with(&|e| e[1] = valid), Err(TableError::BadPending), "on a start state");
    assert_eq!(with(&|e| e[0] = valid), Err(TableError::BadPending), "on the dead state");
    assert_eq!(with(&|e| e[pending_at] = pending_entry(2, 0, 0)), Err(TableError::BadPending), "a third context");
    assert_eq!(with(&|e| e[pending_at] = pending_entry(1, 99, 0)), Err(TableError::BadPending), "a missing bias");
    assert_eq!(with(&|e| e[pending_at] = 0x100), Err(TableError::BadPending), "no context");
    // Without its pending values the table is an ordinary one (the walkers
    // would then refuse a lone high surrogate).
    assert_eq!(with(&|e| e.clear()), Ok(()));
}
