//! The one ASCII-run helper every fast path uses: the table walkers, the shift
//! validator and the generated branching decoders skip or copy runs of units
//! below `0x80` with it, sixteen at a time.
//!
//! ```
//! use placemat_codec::ascii_prefix;
//! assert_eq!(ascii_prefix(b"sixteen ascii by"), 16);
//! assert_eq!(ascii_prefix(b"sixteen ascii b\xC3\xA9"), 0); // the block holds a non-ASCII unit
//! assert_eq!(ascii_prefix(b"short"), 0); // fewer than 16 units are left to the caller
//! ```

/// Units per block of [`ascii_prefix`].
pub const ASCII_BLOCK: usize = 16;

/// The length of the run of whole 16-unit blocks of ASCII (units below `0x80`)
/// at the start of `units`: a multiple of 16. A shorter tail is left to the
/// caller's unit-by-unit loop.
#[inline(always)]
pub fn ascii_prefix(units: &[u8]) -> usize {
    let mut n = 0;
    while let Some(block) = units[n..].first_chunk::<ASCII_BLOCK>() {
        if u128::from_le_bytes(*block) & 0x8080_8080_8080_8080_8080_8080_8080_8080 != 0 {
            break;
        }
        n += ASCII_BLOCK;
    }
    n
}
