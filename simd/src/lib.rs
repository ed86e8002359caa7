//! # placemat-simd
//!
//! SIMD validation for codecs whose validity is *local*: decided by the pairs of
//! adjacent units and by how many continuation units each lead unit requires.
//! `placemat-compiler` proves that a codec is local and derives its [`Tables`];
//! this crate runs one kernel over them, written once and instantiated for SSE4.1,
//! AVX2 and NEON. Input that passed, if its units make values as UTF-8's do
//! (a [`Shape`]), decodes with the kernel of [`decode_u32`], also written once
//! and instantiated for SSE4.1, AVX2 and NEON.
//!
//! The crate's modules: `validate/` (the
//! kernel `kernel.rs`, instantiated by `x86.rs` and `neon.rs`;
//! [`validate()`] in `mod.rs`; [`reference`](mod@reference)), `decode/` (the
//! kernel `kernel.rs`, instantiated by `x86.rs` and `neon.rs`; its step
//! tables `steps.rs`; [`decode_u32`] in `mod.rs`), the integer-stream kernels
//! (`flagged.rs`: [`decode_flagged`], where units flag the ends;
//! `prefixed/`: [`decode_prefixed`], where the first unit gives the length,
//! and [`decode_bit_forms_into`], where it names a form of [`BitForms`];
//! `encode/`: [`encode_flagged`], [`encode_prefixed`] and [`encode_bit_forms`]),
//! the conversion kernels (`to_units/`, `from_units/`, `widen.rs`,
//! `narrow.rs`, `convert_units.rs`) and `shared.rs` ([`Isa`], [`Tables`], [`Shape`],
//! [`CHUNK`]). All the project's `unsafe` code is in this crate: the
//! kernels and their instantiations, and the calls into them.
//!
//! Validating strict UTF-8 with the tables the compiler derives for it (printed
//! here as data):
//!
//! ```
//! use placemat_simd::{validate, Isa, Tables};
//! # const UTF8: Tables = Tables {
//! #     prev_high: [125, 125, 125, 125, 125, 125, 125, 125, 128, 128, 128, 128, 14, 2, 22, 114],
//! #     prev_low: [175, 139, 131, 131, 195, 227, 227, 227, 227, 227, 227, 227, 227, 243, 227, 227],
//! #     cur_high: [2, 2, 2, 2, 2, 2, 2, 2, 173, 205, 217, 217, 2, 2, 2, 2],
//! #     cur_low: None,
//! #     thresholds: [255, 192, 224, 240, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255],
//! #     need: 3, start: 0, ascii: true, continuation_end: None, floor: None, restart: 2,
//! # };
//! # assert_eq!(UTF8.check(), Ok(()));
//! // Some(..) where the machine has SSE4.1, AVX2 or NEON, None elsewhere.
//! if let Some(isa) = Isa::detect() {
//!     assert_eq!(validate(isa, &UTF8, "naïve café — ok".as_bytes()), Ok(()));
//!     // An overlong `C0 AF` in the second 64-byte chunk: the answer is that chunk.
//!     let mut bad = vec![b'a'; 100];
//!     bad[70] = 0xC0;
//!     bad[71] = 0xAF;
//!     assert_eq!(validate(isa, &UTF8, &bad), Err(64));
//! }
//! // The same formula, one unit at a time, names the unit where it first fails.
//! assert_eq!(placemat_simd::reference::first_error(&UTF8, b"ab\xC0\xAFcd"), Some(3));
//! ```
//!
//! # The formula
//!
//! For each position `i` with unit `c` and previous unit `p` (the first unit's
//! previous unit is [`Tables::start`]):
//!
//! - `pair = row(p) & col(c)`, where `row(p) = prev_high[p >> 4] & prev_low[p & 15]`
//!   and `col(c) = cur_high[c >> 4] & cur_low[c & 15]`. Bits 0–6 are error
//!   classes: any of them set is an error. Bit 7 means "two continuation units in
//!   a row" (or, with [`Tables::continuation_end`], is an eighth class, and a
//!   comparison tells continuation units).
//! - `must` is set when some unit `k` places back, for `k` in `2..=need`, is at
//!   least `thresholds[k]`: a lead that requires `k` or more continuation units,
//!   so `c` must be one.
//! - It is an error when bit 7 of `pair` differs from `must`: a continuation unit
//!   nothing asked for, or a missing one.
//! - With [`Tables::floor`], it is an error when `p` is one of `F0`–`FF` and `c`
//!   is below the floor of `p`.
//!
//! The end of input is checked by running two more positions with the unit
//! `start`. The SIMD kernels answer per 64-byte chunk: the offset of the first
//! chunk that holds an error. Callers recompute the exact error from shortly
//! before it ([`Tables::restart`]).
//!
//! # Lineage
//! The shape of the check (three nibble lookups over adjacent bytes, a count of
//! continuation bytes after leads, ASCII blocks skipped) is the one of Keiser and
//! Lemire, "Validating UTF-8 in less than one instruction per byte" (2021), which
//! worked its tables out by hand for UTF-8; here they are derived from a
//! description and proved equal to its automaton.

#![cfg_attr(not(feature = "std"), no_std)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

extern crate alloc;

mod convert_units;
mod decode;
mod encode;
mod flagged;
mod from_units;
mod narrow;
mod prefixed;
mod shared;
#[cfg(test)]
mod testing;
mod to_units;
mod validate;
mod widen;
mod within;

pub use convert_units::{convert_units, converts_units_on};
pub use decode::{decode_u32, decode_u64, decodes_on};
pub use encode::{
    encode_bit_forms, encode_flagged, encode_prefixed, encodes_bit_forms_on, encodes_flagged_on, encodes_prefixed_on,
    BitForms,
};
pub use flagged::{decode_flagged, decode_flagged_into, flagged_on, groups7, Marks, Slot, FLAGGED_TAIL};
pub use from_units::{encode_from_units, ByteForms, UnitsEncoder};
pub use narrow::{narrow, narrows_on, Units};
pub use prefixed::{
    decode_bit_forms_into, decode_prefixed, decode_prefixed_into, decodes_bit_forms_on, prefixed_on, Tags, CHAIN,
    PREFIXED_TAIL,
};
pub use shared::{Isa, Shape, Tables, CHUNK};
pub use to_units::{decode_to_units, Pair, UnitsDecoder};
pub use validate::{reference, validate, Prepared};
pub use widen::{widen_ascii, widen_ascii_u32, widen_ascii_u64};
pub use within::{ascii_within, units_outside, units_within, UnitSet};
