//! The integer streams' SIMD kernels (`placemat_simd`'s flagged and
//! length-prefixed decoders and encoders, and the bit forms' encoder) on the machine's best instruction
//! set, for every value type: each [`Value`](crate::Value) is a
//! [`Slot`] the kernels write and read. `None` (or nothing taken) where the
//! machine runs no kernel for the fact; the runtime's scalar paths then do
//! the work.

use alloc::vec::Vec;

use crate::simd::{self, Isa, Marks, Slot, Tags};

/// A prefix of a flagged stream decoded into `out` (`placemat_simd::decode_flagged`):
/// the values and units taken, `(0, 0)` where no kernel runs.
pub(crate) fn decode_flagged<T: Slot>(marks: &Marks, input: &[u8], out: &mut [T]) -> (usize, usize) {
    Isa::detect().map_or((0, 0), |isa| simd::decode_flagged(isa, marks, input, out))
}

/// [`decode_flagged`] appending up to `max` values to `out`, each value the
/// fact does not cover read by `other`.
pub(crate) fn decode_flagged_into<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    marks: &Marks,
    input: &[u8],
    max: usize,
    out: &mut Vec<T>,
    other: F,
) -> Option<(usize, usize)> {
    let isa = Isa::detect().filter(|&isa| simd::flagged_on(isa))?;
    Some(simd::decode_flagged_into(isa, marks, input, max, out, other))
}

/// A prefix of a length-prefixed stream decoded into `out`
/// (`placemat_simd::decode_prefixed`): the values and units taken, `(0, 0)`
/// where no kernel runs.
pub(crate) fn decode_prefixed<T: Slot>(tags: &Tags, input: &[u8], out: &mut [T]) -> (usize, usize) {
    Isa::detect().map_or((0, 0), |isa| simd::decode_prefixed(isa, tags, input, out))
}

/// [`decode_prefixed`] appending up to `max` values to `out`, each value
/// the fact does not decode read by `other`.
pub(crate) fn decode_prefixed_into<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    tags: &Tags,
    input: &[u8],
    max: usize,
    out: &mut Vec<T>,
    other: F,
) -> Option<(usize, usize)> {
    let isa = Isa::detect().filter(|&isa| simd::prefixed_on(isa))?;
    Some(simd::decode_prefixed_into(isa, tags, input, max, out, other))
}

/// A prefix of `values` written into `out` by the flagged fact
/// (`placemat_simd::encode_flagged`), each value the fact does not hold by
/// `other`: the values and units taken.
pub(crate) fn encode_flagged<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(
    marks: &Marks,
    values: &[T],
    out: &mut [u8],
    other: F,
) -> Option<(usize, usize)> {
    let isa = Isa::detect().filter(|&isa| simd::encodes_flagged_on(isa, marks))?;
    Some(simd::encode_flagged(isa, marks, values, out, other))
}

/// A prefix of `values` written into `out` by the length-prefix fact
/// (`placemat_simd::encode_prefixed`), each value the fact does not hold by
/// `other`: the values and units taken.
pub(crate) fn encode_prefixed<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(
    tags: &Tags,
    values: &[T],
    out: &mut [u8],
    other: F,
) -> Option<(usize, usize)> {
    let isa = Isa::detect().filter(|&isa| simd::encodes_prefixed_on(isa, tags))?;
    Some(simd::encode_prefixed(isa, tags, values, out, other))
}

/// A prefix of `values` written into `out` by the bit forms
/// (`placemat_simd::encode_bit_forms`), each value the forms do not write
/// by `other`: the values and units taken.
pub(crate) fn encode_bit_forms<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(
    forms: &simd::BitForms,
    values: &[T],
    out: &mut [u8],
    other: F,
) -> Option<(usize, usize)> {
    let isa = Isa::detect().filter(|&isa| simd::encodes_bit_forms_on(isa, forms))?;
    Some(simd::encode_bit_forms(isa, forms, values, out, other))
}

/// A prefix of `input` decoded by the bit forms' leads
/// (`placemat_simd::decode_bit_forms_into`), appended to `out`, each value
/// the forms do not decode read by `other`: the values and units taken,
/// `None` where no kernel runs.
pub(crate) fn decode_bit_forms_into<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    forms: &simd::BitForms,
    input: &[u8],
    out: &mut Vec<T>,
    other: F,
) -> Option<(usize, usize)> {
    let isa = Isa::detect().filter(|&isa| simd::decodes_bit_forms_on(isa, forms))?;
    Some(simd::decode_bit_forms_into(isa, forms, input, usize::MAX, out, other))
}
