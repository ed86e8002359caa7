//! What the kernels' tests share: a generator of test inputs and the
//! definition of code units written in a width and byte order.

use alloc::vec::Vec;

use crate::Units;

/// A xorshift generator from `seed` (not 0): the tests' random inputs, the
/// same on every run.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// `values` as code units of `units`' width and byte order, each cut to
/// the width.
pub(crate) fn written(units: &Units, values: impl Iterator<Item = u64>) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        let v = v as u32;
        match (units.bytes, units.big_endian) {
            (2, false) => out.extend((v as u16).to_le_bytes()),
            (2, true) => out.extend((v as u16).to_be_bytes()),
            (_, false) => out.extend(v.to_le_bytes()),
            (_, true) => out.extend(v.to_be_bytes()),
        }
    }
    out
}
