//! The validator's formula one unit at a time, in safe code: the oracle the
//! kernels are tested against, and the definition the compiler's proof follows.
//!
//! ```
//! # use placemat_simd::{reference, Tables};
//! // A toy codec: 00–7F alone, or one of C0–DF followed by one of 80–BF.
//! let t = Tables {
//!     prev_high: [1, 1, 1, 1, 1, 1, 1, 1, 0x80, 0x80, 0x80, 0x80, 2, 2, 0, 0],
//!     prev_low: [0xFF; 16],
//!     cur_high: [2, 2, 2, 2, 2, 2, 2, 2, 0x81, 0x81, 0x81, 0x81, 2, 2, 2, 2],
//!     cur_low: None,
//!     thresholds: [0xFF, 0xC0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
//!                  0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
//!     need: 1, start: 0, ascii: true, continuation_end: None, floor: None, restart: 0,
//! };
//! assert_eq!(reference::first_error(&t, b"a\xC3\xA9b"), None);
//! assert_eq!(reference::first_error(&t, b"a\x80"), Some(1)); // nothing asked for it
//! assert_eq!(reference::first_error(&t, b"a\xC3"), Some(2)); // cut short: the end
//! ```

use crate::shared::Tables;

/// The position of the first unit the formula flags, counting the two end
/// positions as `input.len()`; `None` if nothing is flagged.
pub fn first_error(t: &Tables, input: &[u8]) -> Option<usize> {
    let n = input.len();
    let unit = |i: isize| -> u8 {
        match usize::try_from(i) {
            Ok(i) if i < n => input[i],
            _ => t.start,
        }
    };
    (0..n as isize + 2).find(|&i| flagged(t, |k| unit(i - k as isize), unit(i))).map(|i| (i as usize).min(n))
}

/// Whether the position whose unit is `cur`, with `back(k)` the unit `k`
/// places before it, is flagged.
pub fn flagged(t: &Tables, back: impl Fn(usize) -> u8, cur: u8) -> bool {
    let (errors, two_continuations) = t.pair(back(1), cur);
    let must = (2..=t.need as usize).any(|k| back(k) >= t.thresholds[k]);
    errors != 0 || two_continuations != must || cur < t.floor_of(back(1))
}
