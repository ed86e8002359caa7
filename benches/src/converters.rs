//! The conversions a user would pick instead of placemat's, behind one safe
//! signature each: validating conversion of a whole buffer into a caller's
//! buffer (kept across calls), the output's length in units, `None` on
//! invalid input. The `transcode` criterion group (`benches/transcode.rs`)
//! times them beside placemat's engine.
//!
//! - encoding_rs: UTF-8 ↔ UTF-16 (its validating decoders);
//! - the `cesu8` crate: CESU-8 and Java's modified UTF-8 ↔ `String`
//!   (borrowed when nothing changes, as placemat's `text::to_str`);
//! - simdutf (C++, its run-time dispatched kernels: AVX-512 on machines that
//!   have it), with the `simdutf` feature of this crate: UTF-8 ↔ UTF-16LE and
//!   UTF-32, and UTF-8 validation. Off by default, so that the workspace's
//!   tests and CI do not compile simdutf's C++.
//!
//! ```
//! use placemat_benches::converters;
//! let mut units = vec![0u16; 16];
//! assert_eq!(converters::encoding_rs_utf8_to_utf16("añ😀".as_bytes(), &mut units), Some(4));
//! assert_eq!(converters::encoding_rs_utf8_to_utf16(b"a\xFF", &mut units), None);
//! assert_eq!(converters::cesu8_to_utf8(b"\xED\xA0\xBD\xED\xB8\x80").as_deref(), Some("😀"));
//! assert_eq!(converters::mutf8_to_utf8(b"a\xC0\x80").as_deref(), Some("a\0"));
//! ```

use std::borrow::Cow;

/// encoding_rs's validating UTF-8 decoder into UTF-16 code units; `out` must
/// hold `input.len() + 1` units.
pub fn encoding_rs_utf8_to_utf16(input: &[u8], out: &mut [u16]) -> Option<usize> {
    let mut decoder = encoding_rs::UTF_8.new_decoder_without_bom_handling();
    let (result, _, written) = decoder.decode_to_utf16_without_replacement(input, out, true);
    (result == encoding_rs::DecoderResult::InputEmpty).then_some(written)
}

/// encoding_rs's validating UTF-16LE decoder into UTF-8; `out` must hold
/// `3 * input.len() / 2 + 16` bytes.
pub fn encoding_rs_utf16le_to_utf8(input: &[u8], out: &mut [u8]) -> Option<usize> {
    let mut decoder = encoding_rs::UTF_16LE.new_decoder_without_bom_handling();
    let (result, _, written) = decoder.decode_to_utf8_without_replacement(input, out, true);
    (result == encoding_rs::DecoderResult::InputEmpty).then_some(written)
}

/// The `cesu8` crate: CESU-8 to UTF-8.
pub fn cesu8_to_utf8(input: &[u8]) -> Option<Cow<'_, str>> {
    cesu8::from_cesu8(input).ok()
}

/// The `cesu8` crate: Java's modified UTF-8 to UTF-8.
pub fn mutf8_to_utf8(input: &[u8]) -> Option<Cow<'_, str>> {
    cesu8::from_java_cesu8(input).ok()
}

/// The `cesu8` crate: UTF-8 to CESU-8.
pub fn utf8_to_cesu8(text: &str) -> Cow<'_, [u8]> {
    cesu8::to_cesu8(text)
}

/// The `cesu8` crate: UTF-8 to Java's modified UTF-8.
pub fn utf8_to_mutf8(text: &str) -> Cow<'_, [u8]> {
    cesu8::to_java_cesu8(text)
}

/// simdutf, validating, through its C API.
#[cfg(feature = "simdutf")]
pub mod simdutf {
    /// UTF-8 validation.
    pub fn validate_utf8(input: &[u8]) -> bool {
        ::simdutf::validate_utf8(input)
    }

    /// UTF-8 to UTF-16LE; `out` must hold `input.len()` units.
    pub fn utf8_to_utf16le(input: &[u8], out: &mut [u16]) -> Option<usize> {
        assert!(out.len() >= input.len(), "room for one unit per input byte");
        // SAFETY: `input` is readable for its length; `out` holds a unit per
        // input byte, the most simdutf writes (each UTF-8 byte gives at most
        // one UTF-16 unit).
        let n = unsafe { ::simdutf::convert_utf8_to_utf16le(input.as_ptr(), input.len(), out.as_mut_ptr()) };
        (n != 0 || input.is_empty()).then_some(n)
    }

    /// UTF-16LE (as units) to UTF-8; `out` must hold `3 * input.len()` bytes.
    pub fn utf16le_to_utf8(input: &[u16], out: &mut [u8]) -> Option<usize> {
        assert!(out.len() >= 3 * input.len(), "room for three bytes per unit");
        // SAFETY: `input` is readable for its length; each UTF-16 unit gives
        // at most three UTF-8 bytes, and `out` holds that many.
        let n = unsafe { ::simdutf::convert_utf16le_to_utf8(input.as_ptr(), input.len(), out.as_mut_ptr()) };
        (n != 0 || input.is_empty()).then_some(n)
    }

    /// UTF-8 to UTF-32; `out` must hold `input.len()` units.
    pub fn utf8_to_utf32(input: &[u8], out: &mut [u32]) -> Option<usize> {
        assert!(out.len() >= input.len(), "room for one unit per input byte");
        // SAFETY: as for `utf8_to_utf16le`, one UTF-32 unit at most per byte.
        let n = unsafe { ::simdutf::convert_utf8_to_utf32(input.as_ptr(), input.len(), out.as_mut_ptr()) };
        (n != 0 || input.is_empty()).then_some(n)
    }

    /// UTF-32 (as units) to UTF-8; `out` must hold `4 * input.len()` bytes.
    pub fn utf32_to_utf8(input: &[u32], out: &mut [u8]) -> Option<usize> {
        assert!(out.len() >= 4 * input.len(), "room for four bytes per unit");
        // SAFETY: `input` is readable for its length; each UTF-32 unit gives
        // at most four UTF-8 bytes, and `out` holds that many.
        let n = unsafe { ::simdutf::convert_utf32_to_utf8(input.as_ptr(), input.len(), out.as_mut_ptr()) };
        (n != 0 || input.is_empty()).then_some(n)
    }

    /// UTF-16LE (as units) to UTF-32; `out` must hold `input.len()` units.
    pub fn utf16le_to_utf32(input: &[u16], out: &mut [u32]) -> Option<usize> {
        assert!(out.len() >= input.len(), "room for one unit per input unit");
        // SAFETY: `input` is readable for its length; each UTF-16 unit gives
        // at most one UTF-32 unit (a pair two units, one value), and `out`
        // holds that many.
        let n = unsafe { ::simdutf::convert_utf16le_to_utf32(input.as_ptr(), input.len(), out.as_mut_ptr()) };
        (n != 0 || input.is_empty()).then_some(n)
    }

    /// UTF-32 (as units) to UTF-16LE; `out` must hold `2 * input.len()` units.
    pub fn utf32_to_utf16le(input: &[u32], out: &mut [u16]) -> Option<usize> {
        assert!(out.len() >= 2 * input.len(), "room for two units per input unit");
        // SAFETY: `input` is readable for its length; each UTF-32 unit gives
        // at most two UTF-16 units, and `out` holds that many.
        let n = unsafe { ::simdutf::convert_utf32_to_utf16le(input.as_ptr(), input.len(), out.as_mut_ptr()) };
        (n != 0 || input.is_empty()).then_some(n)
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn simdutf_converts_as_std() {
            let text = "añ😀 漢字".repeat(50);
            let mut units = vec![0u16; text.len()];
            let n = super::utf8_to_utf16le(text.as_bytes(), &mut units).unwrap();
            assert_eq!(units[..n], text.encode_utf16().collect::<Vec<_>>()[..]);
            let mut back = vec![0u8; 3 * n];
            let m = super::utf16le_to_utf8(&units[..n], &mut back).unwrap();
            assert_eq!(&back[..m], text.as_bytes());
            assert_eq!(super::utf8_to_utf16le(b"a\xFF", &mut units), None);
            let wide: Vec<u32> = text.chars().map(u32::from).collect();
            let mut bytes = vec![0u8; 4 * wide.len()];
            let k = super::utf32_to_utf8(&wide, &mut bytes).unwrap();
            assert_eq!(&bytes[..k], text.as_bytes());
            assert_eq!(super::utf32_to_utf8(&[0x61, 0xD800], &mut bytes), None);
            let utf16: Vec<u16> = text.encode_utf16().collect();
            let mut values = vec![0u32; utf16.len()];
            let v = super::utf16le_to_utf32(&utf16, &mut values).unwrap();
            assert_eq!(values[..v], wide[..]);
            assert_eq!(super::utf16le_to_utf32(&[0x61, 0xDC00], &mut values), None);
            let mut units = vec![0u16; 2 * wide.len()];
            let u = super::utf32_to_utf16le(&wide, &mut units).unwrap();
            assert_eq!(units[..u], utf16[..]);
            assert_eq!(super::utf32_to_utf16le(&[0x61, 0x11_0000], &mut units), None);
        }
    }
}
