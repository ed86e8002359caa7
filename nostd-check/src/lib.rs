//! # placemat-nostd-check
//!
//! A `#![no_std]` crate (with `alloc`) that generates codecs with `codec!` and uses
//! the runtime API, so that building it for a target without `std` proves both
//! the runtime crate and the generated code need only `core` and `alloc`. CI runs
//! `cargo build -p placemat-nostd-check --target x86_64-unknown-none`; on the host
//! it is an ordinary library whose doctest shows the same calls.
//!
//! ```
//! use placemat_nostd_check::{first_value, stream_count, Ascii, AsciiBranching};
//! assert_eq!(first_value(&Ascii, b"hi"), Some(0x68));
//! assert_eq!(first_value(&AsciiBranching, b"\xFF"), None);
//! assert_eq!(stream_count(Ascii, b"h\xFFi"), 2);
//! let mut out = Vec::new();
//! assert!(placemat_nostd_check::encode_all(&Ascii, &[0x68, 0x69], &mut out));
//! assert_eq!(out, b"hi");
//! ```

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

use alloc::vec::Vec;

use placemat_codec::{Decoder, Encoder, Step, StreamDecoder};

placemat_macros::codec! {
    /// Seven-bit ASCII, one byte per value.
    pub Ascii {
        name: "ascii",
        value: u32,
        range: 0 ..= 0x7F,
        forms: { "0xxxxxxx" },
    }
}

/// The first value of `input`, through the generated table decoder.
pub fn first_value<D: Decoder<Value = u32>>(codec: &D, input: &[u8]) -> Option<u32> {
    match codec.step(input) {
        Step::Value { value, .. } => Some(value),
        Step::Invalid { .. } | Step::Incomplete => None,
    }
}

/// Encodes `values`, appending to `out`; `false` if one cannot be encoded.
pub fn encode_all<E: Encoder<Value = u32>>(codec: &E, values: &[u32], out: &mut Vec<u8>) -> bool {
    codec.encode_all(values, out).is_ok()
}

/// Decodes `input` in two chunks through the stream decoder, counting valid values.
pub fn stream_count<D: Decoder>(codec: D, input: &[u8]) -> usize {
    let (a, b) = input.split_at(input.len() / 2);
    let mut stream = StreamDecoder::new(codec);
    let mut n = 0;
    stream.push(a, |item| n += usize::from(item.value.is_ok()));
    stream.push(b, |item| n += usize::from(item.value.is_ok()));
    stream.finish(|item| n += usize::from(item.value.is_ok()));
    n
}
