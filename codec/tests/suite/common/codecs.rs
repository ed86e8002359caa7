//! The hand-built codecs the tests run: each a [`Spec`] of a few states, with
//! the code units worth combining in inputs.

use placemat_codec::dfa::pending_entry;
use placemat_codec::{AsciiRuns, WideRuns};

use super::{edge, Join, Spec};

/// 7-bit ASCII: states dead and start.
pub fn ascii() -> Spec {
    let mut s = Spec::new("ascii", 2, vec![edge(1, 0x00, 0x7F, 1, 7)]);
    s.alphabet = vec![b"\x00", b"A", b"\x7F", b"\x80", b"\xFF"];
    s
}

/// Two forms of UTF-8, `0xxxxxxx` and `110xxxxx 10xxxxxx` (leads C2–DF):
/// states dead, start, after a lead.
pub fn utf8() -> Spec {
    let edges = vec![edge(1, 0x00, 0x7F, 1, 7), edge(1, 0xC2, 0xDF, 2, 5), edge(2, 0x80, 0xBF, 1, 6)];
    let mut s = Spec::new("utf8-2", 3, edges);
    s.alphabet = vec![b"\x00", b"A", b"\x80", b"\xBF", b"\xC0", b"\xC2", b"\xDF", b"\xFF"];
    s
}

/// A varint, groups most significant first, with no length limit: units
/// 80–FF go on, 00–7F end the sequence (cyclic).
pub fn varint() -> Spec {
    let edges = vec![
        edge(1, 0x00, 0x7F, 1, 7),
        edge(1, 0x80, 0xFF, 2, 7),
        edge(2, 0x80, 0xFF, 2, 7),
        edge(2, 0x00, 0x7F, 1, 7),
    ];
    let mut s = Spec::new("varint", 3, edges);
    s.cyclic = true;
    s.alphabet = vec![b"\x00", b"\x7F", b"\x80", b"\x81", b"\xFF"];
    s
}

/// LEB128 of at most three groups, least significant first (placed payload).
pub fn leb128() -> Spec {
    let edges = vec![
        edge(1, 0x00, 0x7F, 1, 7),
        edge(1, 0x80, 0xFF, 2, 7),
        edge(2, 0x00, 0x7F, 1, 7).word(7),
        edge(2, 0x80, 0xFF, 3, 7).word(7),
        edge(3, 0x00, 0x7F, 1, 7).word(14),
    ];
    let mut s = Spec::new("leb128-3", 4, edges);
    s.join = Join::Placed;
    s.alphabet = vec![b"\x00", b"\x7F", b"\x80", b"\x81", b"\xFF"];
    s
}

/// Decimal digit units: a digit alone is its value, `x` and two digits is
/// 100 plus their value (radix 10).
pub fn radix() -> Spec {
    let edges = vec![
        edge(1, b'0', b'9', 1, 4).word(10),
        edge(1, b'x', b'x', 2, 0).word(1),
        edge(2, b'0', b'9', 3, 4).word(10),
        edge(3, b'0', b'9', 1, 4).word(10).bias(1),
    ];
    let mut s = Spec::new("radix", 4, edges);
    s.join = Join::Radix;
    s.digits = std::array::from_fn(|u| if (u as u8).is_ascii_digit() { u as u8 - b'0' } else { 0 });
    s.biases = vec![0, 100];
    s.alphabet = vec![b"0", b"5", b"9", b"x", b"a"];
    s
}

/// UTF-16LE: 2-byte code units, the low byte first, placed; surrogate pairs
/// D800–DBFF DC00–DFFF are 10000 plus their 20 bits. States: start, after
/// a low byte, after a high surrogate, after the low byte of the second unit.
pub fn utf16le() -> Spec {
    let edges = vec![
        edge(1, 0x00, 0xFF, 2, 8),
        edge(2, 0x00, 0xD7, 1, 8).word(8),
        edge(2, 0xE0, 0xFF, 1, 8).word(8),
        edge(2, 0xD8, 0xDB, 3, 2).word(8),
        edge(3, 0x00, 0xFF, 4, 8).word(10 << 8),
        edge(4, 0xDC, 0xDF, 1, 2).word(8).bias(1),
    ];
    let mut s = Spec::new("utf16le", 5, edges);
    s.join = Join::Placed;
    s.unit_bytes = 2;
    s.biases = vec![0, 0x10000];
    s.wide_runs = WideRuns { units: AsciiRuns::U16Le, ranges: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
    s.alphabet = vec![b"A\x00", b"\x3D\xD8", b"\x00\xDE", b"\xFF\xFF", b"\x3D"];
    s
}

/// Two contexts: `l` may not follow `h` (context 1, after `h`); `x` and one
/// of `a`–`l` is a two-unit form.
pub fn contexts() -> Spec {
    let mut edges = Vec::new();
    for from in [1, 2] {
        edges.extend([edge(from, b'a', b'a', 1, 8), edge(from, b'h', b'h', 2, 8), edge(from, b'x', b'x', 3, 0)]);
    }
    edges.extend([edge(1, b'l', b'l', 1, 8), edge(3, b'a', b'l', 1, 8)]);
    let mut s = Spec::new("contexts", 4, edges);
    s.contexts = 2;
    s.alphabet = vec![b"a", b"h", b"l", b"x", b"z"];
    s
}

/// Overlapping forms: `C1` alone is 101 (a pending value), `C1` and two
/// continuation units a longer sequence; 00 is no value.
pub fn pending() -> Spec {
    let edges = vec![
        edge(1, 0x01, 0x7F, 1, 7),
        edge(1, 0xC1, 0xC1, 2, 5),
        edge(2, 0x80, 0xBF, 3, 6),
        edge(3, 0x80, 0xBF, 1, 6),
    ];
    let mut s = Spec::new("pending", 4, edges);
    s.biases = vec![0, 0x100];
    s.pending = vec![0, 0, pending_entry(0, 1, 0), 0];
    s.alphabet = vec![b"\x00", b"A", b"\xC1", b"\x80", b"\xBF"];
    s
}

/// Every hand-built codec.
pub fn all() -> Vec<Spec> {
    vec![ascii(), utf8(), varint(), leb128(), radix(), utf16le(), contexts(), pending()]
}
