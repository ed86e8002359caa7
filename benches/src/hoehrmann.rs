//! Bjoern Hoehrmann's DFA decoder for strict UTF-8, in C (`csrc/hoehrmann.c`),
//! compiled by the `cc` crate and called through FFI: the classic table-driven
//! baseline for placemat's generated table decoder.
//!
//! ```
//! use placemat_benches::hoehrmann;
//! let mut out = Vec::new();
//! assert!(hoehrmann::decode_into("aα世😀".as_bytes(), &mut out).is_ok());
//! assert_eq!(out, [0x61, 0x3B1, 0x4E16, 0x1F600]);
//! assert_eq!(hoehrmann::decode_into(b"a\xE0\x80", &mut out).unwrap_err(), (1, true));
//! assert!(hoehrmann::validate(b"plain"));
//! assert!(!hoehrmann::validate(b"\xED\xA0\x80"));
//! ```
//!
//! # Lineage
//! Bjoern Hoehrmann, "Flexible and Economical UTF-8 Decoder" (2009–2010),
//! <http://bjoern.hoehrmann.de/utf-8/decoder/dfa/>. Its 12 classes × 9 states are
//! what `placemat` derives for `utf8` from four lines of description.

use std::os::raw::c_int;

extern "C" {
    fn placemat_hoehrmann_decode(
        src: *const u8,
        len: usize,
        dst: *mut u32,
        written: *mut usize,
        valid_up_to: *mut usize,
    ) -> c_int;
    fn placemat_hoehrmann_validate(src: *const u8, len: usize) -> c_int;
}

/// Appends the code points of `input` to `out` (clearing it first). On failure
/// returns `(valid_up_to, rejected)`: `rejected` is false when the input merely
/// ends inside a sequence. `out` then holds the code points before the error.
pub fn decode_into(input: &[u8], out: &mut Vec<u32>) -> Result<(), (usize, bool)> {
    out.clear();
    out.reserve(input.len());
    let mut written = 0usize;
    let mut valid_up_to = 0usize;
    // SAFETY: `input` is valid for `input.len()` reads; `out` has capacity for at
    // least `input.len()` u32s (reserved above) and the C function writes at most
    // one code point per input byte, so at most `input.len()` entries; `written`
    // and `valid_up_to` are valid, exclusive pointers to initialised usizes.
    let status = unsafe {
        placemat_hoehrmann_decode(input.as_ptr(), input.len(), out.as_mut_ptr(), &mut written, &mut valid_up_to)
    };
    assert!(written <= out.capacity(), "the C decoder wrote past its buffer");
    // SAFETY: the C function initialised exactly the first `written` entries, and
    // `written <= capacity` (checked above).
    unsafe { out.set_len(written) };
    match status {
        0 => Ok(()),
        1 => Err((valid_up_to, true)),
        _ => Err((valid_up_to, false)),
    }
}

/// Whether `input` is strict UTF-8, by the same automaton without code points.
pub fn validate(input: &[u8]) -> bool {
    // SAFETY: `input` is valid for `input.len()` reads and the function only reads.
    unsafe { placemat_hoehrmann_validate(input.as_ptr(), input.len()) != 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn std_decode(bytes: &[u8]) -> Result<Vec<u32>, usize> {
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(s.chars().map(u32::from).collect()),
            Err(e) => Err(e.valid_up_to()),
        }
    }

    fn check(bytes: &[u8], out: &mut Vec<u32>) {
        let ours = decode_into(bytes, out).map(|()| out.clone()).map_err(|(at, _)| at);
        assert_eq!(ours, std_decode(bytes), "{bytes:02X?}");
        assert_eq!(validate(bytes), std::str::from_utf8(bytes).is_ok(), "{bytes:02X?}");
    }

    #[test]
    fn every_sequence_of_one_to_three_bytes_agrees_with_std() {
        let mut out = Vec::new();
        for a in 0..=255u8 {
            check(&[a], &mut out);
            for b in 0..=255u8 {
                check(&[a, b], &mut out);
                for c in 0..=255u8 {
                    check(&[a, b, c], &mut out);
                }
            }
        }
    }

    #[test]
    fn four_byte_sequences_at_every_boundary_agree_with_std() {
        let mut out = Vec::new();
        let edges =
            [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF];
        for a in 0xF0..=0xFFu8 {
            for &b in &edges {
                for &c in &edges {
                    for &d in &edges {
                        check(&[a, b, c, d], &mut out);
                    }
                }
            }
        }
    }

    #[test]
    fn lone_e0_is_rejected_not_decoded_as_a_letter() {
        // A mistyped class table with E0 in class 0 would decode E0 as U+00E0.
        let mut out = Vec::new();
        assert_eq!(decode_into(&[0xE0], &mut out), Err((0, false)));
        assert_eq!(decode_into(&[0xE0, 0x41], &mut out), Err((0, true)));
    }

    #[test]
    fn every_corpus_decodes_as_std_does() {
        let mut out = Vec::new();
        for c in placemat_variants::corpus::all() {
            let bytes = c.utf8();
            assert_eq!(decode_into(&bytes, &mut out), Ok(()), "{}", c.name);
            assert_eq!(out, c.text, "{}", c.name);
            assert!(validate(&bytes));
        }
        let bad = placemat_variants::corpus::mutated_utf8();
        check(&bad, &mut out);
    }
}
