//! # placemat-codec
//!
//! The runtime half of placemat: the traits every generated codec implements, the
//! error types, streaming, and the one table walker ([`dfa::Dfa`]) that runs both
//! generated `static` tables and tables built at run time. With the `build` feature
//! it also holds the description language (parser, validator, model), the automaton
//! construction and the big-integer reference interpreter ([`build`]).
//!
//! Decoding a strict UTF-8 sequence with tables built from a description at run time:
//!
#![cfg_attr(feature = "build", doc = "```")]
#![cfg_attr(not(feature = "build"), doc = "```ignore")]
//! use placemat_codec::build::{self, Description};
//! use placemat_codec::{Decoder, Step};
//!
//! let text = r#"
//!     pub Utf8 {
//!         name: "utf8",
//!         summary: "strict UTF-8",
//!         value: u32,
//!         range: 0 ..= 0x10FFFF,
//!         exclude: [0xD800 ..= 0xDFFF],
//!         layout: shortest,
//!         forms: {
//!             0x0000 ..= 0x007F => "0xxxxxxx",
//!             0x0080 ..= 0x07FF => "110xxxxx 10xxxxxx",
//!             0x0800 ..= 0xFFFF => "1110xxxx 10xxxxxx 10xxxxxx",
//!             0x10000 ..= 0x10FFFF => "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx",
//!         },
//!     }
//! "#;
//! let codec = build::RuntimeCodec::from_text(text).unwrap();
//! assert_eq!(codec.dfa().class_count(), 12);
//! assert_eq!(codec.dfa().state_count(), 9);
//! // "α" is CE B1.
//! assert_eq!(codec.step(&[0xCE, 0xB1]), Step::Value { value: 0x3B1, len: 2 });
//! let _ = Description::parse_str(text).unwrap();
//! ```
//!
//! The crate is `no_std` (with `alloc`) unless the `std` feature (on by default) or
//! `build` is enabled.

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

mod codec;
mod decode;
pub mod dfa;
mod encode;
mod error;
mod stream;
mod value;

#[cfg(feature = "build")]
pub mod build;

pub use codec::{Codec, CodecInfo, DynCodec, DynDecoder, Strategy, Unit};
pub use decode::{Decoder, Item, ItemError, Items, Step};
pub use encode::Encoder;
pub use error::{DecodeError, EncodeError};
pub use stream::StreamDecoder;
pub use value::Value;
