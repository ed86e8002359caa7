//! A plain hand-written branching UTF-8 decoder, the kind a first implementation
//! looks like: read the lead byte's length from its high bits, check that the
//! continuation bytes are `10xxxxxx`, assemble the bits. It does **not** reject
//! overlong forms, surrogates or values above U+10FFFF — the naive baseline of
//! the benchmarks, not a correct decoder.
//!
//! ```
//! use placemat_benches::naive;
//! let mut out = Vec::new();
//! naive::decode_into("aα世😀".as_bytes(), &mut out).unwrap();
//! assert_eq!(out, [0x61, 0x3B1, 0x4E16, 0x1F600]);
//! // Its defect: the overlong C0 80 decodes as U+0000.
//! naive::decode_into(&[0xC0, 0x80], &mut out).unwrap();
//! assert_eq!(out, [0]);
//! ```
//!
//! # Lineage
//! Modelled on the decoder a Korean tutorial article builds step by step
//! ("UTF-8 구현하기", implementing UTF-8 by hand) from the bit layout of RFC 3629
//! §3; written anew for placemat.

/// Decodes `input` into `out` (cleared first); on error returns the offset of the
/// sequence that failed.
pub fn decode_into(input: &[u8], out: &mut Vec<u32>) -> Result<(), usize> {
    out.clear();
    out.reserve(input.len());
    let mut i = 0;
    while i < input.len() {
        let lead = input[i];
        let (len, bits) = if lead < 0x80 {
            (1, u32::from(lead))
        } else if lead & 0xE0 == 0xC0 {
            (2, u32::from(lead & 0x1F))
        } else if lead & 0xF0 == 0xE0 {
            (3, u32::from(lead & 0x0F))
        } else if lead & 0xF8 == 0xF0 {
            (4, u32::from(lead & 0x07))
        } else {
            return Err(i);
        };
        let Some(tail) = input.get(i + 1..i + len) else {
            return Err(i);
        };
        let mut value = bits;
        for &b in tail {
            if b & 0xC0 != 0x80 {
                return Err(i);
            }
            value = (value << 6) | u32::from(b & 0x3F);
        }
        out.push(value);
        i += len;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_utf8_decodes_as_std_does() {
        let mut out = Vec::new();
        for c in placemat_variants::corpus::all() {
            decode_into(&c.utf8(), &mut out).unwrap();
            assert_eq!(out, c.text, "{}", c.name);
        }
    }

    #[test]
    fn accepts_what_strict_utf8_refuses() {
        let mut out = Vec::new();
        decode_into(&[0xE0, 0x80, 0x80], &mut out).unwrap();
        assert_eq!(out, [0]);
        decode_into(&[0xED, 0xA0, 0x80], &mut out).unwrap();
        assert_eq!(out, [0xD800]);
        decode_into(&[0xF7, 0xBF, 0xBF, 0xBF], &mut out).unwrap();
        assert_eq!(out, [0x1F_FFFF]);
        assert_eq!(decode_into(b"ab\xE4\xB8", &mut out), Err(2));
        assert_eq!(decode_into(b"\xFF", &mut out), Err(0));
        assert_eq!(decode_into(b"\xC3\x41", &mut out), Err(0));
    }
}
