//! The branching decoder's bulk loop, `fn bulk(input, out: Option<&mut Vec<V>>)`:
//! validation when `out` is `None` (the inliner drops the values), decoding when
//! it is `Some`.
//!
//! While a whole window of the longest sequence's length remains, sequences are
//! decoded by the window functions (no bounds check per unit) and, for
//! ASCII-transparent descriptions, ASCII runs are copied with the runtime's one
//! ASCII helper. The rest of the input, and any sequence the window functions
//! refuse, goes through the exact state functions, which report the error's
//! position and length.

use placemat_compiler::automaton::Automaton;
use placemat_compiler::model::Model;
use proc_macro2::TokenStream;
use quote::quote;

use super::form_window;
use super::states::{self, Reader, Target};

/// The window functions and the loop that calls them: the form window where
/// the model suits it, else the state window, else (a repeated unit) nothing.
fn fast_loop(model: &Model, a: &Automaton, t: &Target<'_>, unmap: &TokenStream) -> (TokenStream, TokenStream) {
    let window = match form_window::emit(model, a, t.value_ty) {
        Some((fns, size)) => Some((fns, size, quote!(Self::window_forms(w)))),
        None => model.max_units().and_then(|size| {
            states::emit(t, Reader::Window(size)).map(|fns| (fns, size, quote!(Self::window_1(w, 0, 0))))
        }),
    };
    let Some((fns, size, call)) = window else { return (quote!(), quote!()) };
    let size = proc_macro2::Literal::usize_unsuffixed(size);
    // Only tried when the window starts with an ASCII unit, so text without
    // ASCII pays one comparison per sequence for it.
    let ascii_run = if a.facts.is_ascii_transparent() {
        quote! {
            if w[0] < 0x80 {
                let run = ::placemat_codec::ascii_prefix(&input[pos..]);
                if run > 0 {
                    out.extend_units(&input[pos..pos + run]);
                    pos += run;
                    continue;
                }
            }
        }
    } else {
        quote!()
    };
    let fast = quote! {
        while let ::core::option::Option::Some(w) = input[pos..].first_chunk::<#size>() {
            #ascii_run
            let (value, len) = #call;
            if len == 0 {
                break;
            }
            out.push(#unmap);
            pos += len;
        }
    };
    (fns, fast)
}

/// The bulk function and the window functions it uses.
pub fn emit(model: &Model, a: &Automaton, t: &Target<'_>) -> TokenStream {
    let value_ty = t.value_ty;
    let unmap = if model.premap.is_some() {
        let ty = t.codec_ty;
        quote!(#ty::unmap(value))
    } else {
        quote!(value)
    };
    let (window_fns, fast_loop) = fast_loop(model, a, t, &unmap);
    let exact_ascii = if a.facts.is_ascii_transparent() {
        quote! {
            while let ::core::option::Option::Some(&b) = input.get(pos) {
                if b >= 0x80 {
                    break;
                }
                out.push(b as #value_ty);
                pos += 1;
            }
            if pos == input.len() {
                break;
            }
        }
    } else {
        quote!()
    };
    quote! {
        #window_fns

        /// The bulk loop shared by `validate` (`out` = `None`), `decode_into` and
        /// `decode_lossy_into`: window functions while a whole window remains, then
        /// the exact state functions.
        #[inline(always)]
        fn bulk(
            input: &[u8],
            out: ::core::option::Option<&mut ::placemat_codec::__private::Vec<#value_ty>>,
        ) -> ::core::result::Result<(), ::placemat_codec::DecodeError> {
            let mut out = ::placemat_codec::Batch::new(out);
            let mut pos = 0;
            #fast_loop
            while pos < input.len() {
                #exact_ascii
                match Self::state_1(&input[pos..], 0, 0) {
                    ::placemat_codec::Step::Value { value, len } => {
                        out.push(#unmap);
                        pos += len;
                    }
                    ::placemat_codec::Step::Invalid { len } => {
                        return ::core::result::Result::Err(::placemat_codec::DecodeError::new(pos, ::core::option::Option::Some(len)));
                    }
                    ::placemat_codec::Step::Incomplete => {
                        return ::core::result::Result::Err(::placemat_codec::DecodeError::new(pos, ::core::option::Option::None));
                    }
                }
            }
            ::core::result::Result::Ok(())
        }
    }
}
