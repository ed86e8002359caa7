//! The SIMD decoding kernel's [`Shape`] of a local codec: how the kernel of
//! `placemat_simd` turns sequences the SIMD validator passed into values
//! without the table.
//!
//! The kernel reads a sequence of `n` units as `u0·64^(n-1) + … + u(n-1) −
//! K(n)`, so it needs every unit to be worth itself less a constant that
//! depends only on its role: continuation units carry 6 payload bits, form one
//! run of at most 64 from a multiple of 64 (so each is worth itself less the
//! first), and every lead of an `n`-unit sequence is worth itself less one
//! base, `lead_base[n]`. Digits must be the units themselves.
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! let utf8 = Description::parse_str(r#"
//!     pub Utf8 { name: "utf8", value: u32, range: 0 ..= 0x10FFFF, exclude: [0xD800 ..= 0xDFFF],
//!                layout: shortest,
//!                forms: { 0x0000 ..= 0x007F => "0xxxxxxx", 0x0080 ..= 0x07FF => "110xxxxx 10xxxxxx",
//!                         0x0800 ..= 0xFFFF => "1110xxxx 10xxxxxx 10xxxxxx",
//!                         0x10000 ..= 0x10FFFF => "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let a = Automaton::build(&utf8.model, BuildOptions::default()).unwrap();
//! let shape = a.local.as_ref().unwrap().decoding_shape.unwrap();
//! assert_eq!(shape.continuation, (0x80, 0xBF));
//! assert_eq!(&shape.lead_base[1..5], [0x00, 0xC0, 0xE0, 0xF0]);
//! ```
//!
//! `placemat_codec::dfa::Dfa::new` holds every lead and continuation unit to
//! the shape before the kernel may use it.

use placemat_codec::simd::{Shape, Tables};

use crate::automaton::Automaton;

/// The shape, if the codec's units make values as the kernel reads them.
pub fn derive(a: &Automaton, tables: &Tables) -> Option<Shape> {
    if a.facts.continuation_bits != 6 || !a.facts.byte_digits {
        return None;
    }
    let continuation = tables.continuation_run()?;
    let mut lead_base = [0u8; 16];
    let mut seen = [false; 16];
    for u in 0..=255u8 {
        let e = a.edge(1, u);
        if e.next == 0 {
            continue;
        }
        let n = usize::from(tables.level(u)) + 1;
        let payload = u & ((1u16 << e.payload_bits) - 1) as u8;
        let base = u - payload;
        if n >= lead_base.len() || (seen[n] && lead_base[n] != base) {
            return None;
        }
        (lead_base[n], seen[n]) = (base, true);
    }
    let shape = Shape { continuation, lead_base };
    shape.check().ok().map(|()| shape)
}
