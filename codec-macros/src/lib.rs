//! # placemat-macros
//!
//! `codec!` turns a declarative description of a UTF-8-family encoding into, at
//! compile time, an encoder, a table-driven decoder and validator over generated
//! `static` tables, and a branching decoder — all implementing the traits of
//! `placemat_codec`. The macro is thin: parsing, validation, the model and the
//! automaton live in `placemat_compiler`, which the CLI uses at run time too.
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//!
//! placemat_macros::codec! {
//!     /// Two-byte UTF-8: U+0000..=U+07FF, shortest form only.
//!     pub Utf8Two {
//!         name: "utf8-two",
//!         value: u32,
//!         range: 0 ..= 0x7FF,
//!         layout: shortest,
//!         forms: {
//!             0x00 ..= 0x7F  => "0xxxxxxx",
//!             0x80 ..= 0x7FF => "110xxxxx 10xxxxxx",
//!         },
//!     }
//! }
//!
//! let mut out = Vec::new();
//! Utf8Two.encode_push(0xE9, &mut out).unwrap();
//! assert_eq!(out, [0xC3, 0xA9]);
//! assert_eq!(Utf8Two.decode(&out).unwrap(), [0xE9]);
//! assert_eq!(Utf8TwoBranching.decode(&out).unwrap(), [0xE9]);
//! assert_eq!(Utf8Two::CLASS_COUNT, 4);
//! ```
//!
//! # The description language
//!
//! ```text
//! description := doc-comment* visibility? TypeName '{' field (',' field)* ','? '}'
//! field       := 'name'    ':' "codec-name"                  (required; lowercase, digits, '-')
//!              | 'summary' ':' "one line"                    (default: the first doc line)
//!              | 'unit'    ':' 'byte' | 'alphabet' '(' "symbols" ')'   (default: byte)
//!              | 'value'   ':' 'u32' | 'u64' | 'unbounded'   (required)
//!              | 'range'   ':' lo '..=' hi | lo '..'         (required; `lo ..` is open)
//!              | 'exclude' ':' '[' lo '..=' hi, … ']'        (values taken out, e.g. surrogates)
//!              | 'layout'  ':' 'shortest' | 'biased' | 'explicit'   (default: shortest)
//!              | 'premap'  ':' '[' v0, v1, … ']'             (value i becomes vi before encoding)
//!              | 'forms'   ':' '{' form, … '}'               (required)
//! form        := ( lo '..=' hi ( 'bias' n )? '=>' )? "pattern"
//! pattern     := unit (' ' unit)*        unit := [01a-z]{width} '*'?
//! ```
//!
//! * **Units.** `byte` units are 8 bits wide. `alphabet("…")` units are the symbols
//!   of a string of 2ⁿ distinct ASCII characters, each carrying the n-bit digit of
//!   its position (`alphabet(" abc…_")` for a 6-bit printable encoding).
//! * **Patterns.** One word per unit, most significant bit first: `0` and `1` are
//!   fixed bits, any letter (`x`, `v`, `z`) is a payload bit, and payload bits are
//!   the low bits of a unit. The payload of a form is its units' payload bits,
//!   big-endian. A unit followed by `*` may repeat any number of times
//!   (`"1xxxxx* 0xxxxx"`); the unit after it ends the repetition.
//! * **Layouts.** `shortest`: each form starts where the previous one ends, with no
//!   bias, so a value must use the shortest form that holds it (UTF-8). `biased`:
//!   each form starts where the previous one ends and is biased by its first value,
//!   so every value has one encoding (X/Open FSS-UTF). `explicit`: each form writes
//!   its range and, optionally, `bias n`. In the derived layouts a written range is
//!   checked against the derived one, so descriptions can read like the spec's table.
//! * **Values.** A form's value is its bias plus its payload; it is valid if it lies
//!   in the form's range and in `range`, outside every `exclude` range.
//! * **Checks.** All problems are reported at once, each at its tokens: unknown or
//!   repeated keys, malformed patterns, forms that are not prefix-free or accept the
//!   same units, payload wider than the value type, ranges that overlap, are empty,
//!   leave values without a form, or disagree with the layout, biases that overflow,
//!   alphabets with repeated symbols or the wrong size, pre-mappings that are not a
//!   bijection, repetitions with no unit to end them.
//!
//! # What is generated
//!
//! For `pub Utf8 { … }`: a unit struct `Utf8` implementing `Encoder`, `Decoder`
//! (the table walker, with an ASCII fast path in `validate`) and `Codec`, with
//! associated constants `CLASSES`, `DIGITS`, `TRANSITIONS`, `BIASES`,
//! `CLASS_COUNT`, `STATE_COUNT` and `NAME` (and `Codec::DESCRIPTION`, the description's text); and `Utf8Branching`,
//! the branching decoder.

use proc_macro::TokenStream;

mod emit;

/// Generates a codec from a description; see the crate docs for the grammar.
#[proc_macro]
pub fn codec(input: TokenStream) -> TokenStream {
    let input = proc_macro2::TokenStream::from(input);
    let source = input.to_string();
    let description = match placemat_compiler::Description::parse(input.clone()) {
        Ok(d) => d,
        Err(diagnostics) => {
            let mut out = diagnostics.to_syn_error().to_compile_error();
            out.extend(fallback(input));
            return out.into();
        }
    };
    match emit::emit(&description, &source) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// Fallback output for a description with errors: the two types it would have
/// declared, so that code naming them reports the description's errors and not a
/// cascade of "cannot find type" errors besides.
fn fallback(input: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    let Ok(ast) = syn::parse2::<placemat_compiler::syntax::Ast>(input) else {
        return proc_macro2::TokenStream::new();
    };
    let vis = &ast.vis;
    let ty = &ast.ident;
    let branching = quote::format_ident!("{}Branching", ast.ident);
    quote::quote! {
        #[allow(dead_code)]
        #vis struct #ty;
        #[allow(dead_code)]
        #vis struct #branching;
    }
}
