//! The branching decoder's bulk loop, `fn bulk(input, out: Option<&mut Vec<V>>)`:
//! validation when `out` is `None` (the inliner drops the values), decoding when
//! it is `Some`.
//!
//! While a whole window of the longest sequence's length remains, sequences are
//! decoded by the window functions (no bounds check per unit) and, for
//! byte codecs whose ASCII units are values of themselves (`00`–`7F`, or
//! `01`–`7F` in modified UTF-8), ASCII runs are copied with the runtime's one
//! ASCII helper. The rest of the input, and any sequence the window functions
//! refuse, goes through the exact state functions, which report the error's
//! position and length.
//!
//! A codec with rules across adjacent values keeps its context in `context`:
//! each sequence starts in that context's start state, the context after a
//! value is `Decoder::context_after`'s, ASCII runs are copied only in
//! context 0, and the form window (which knows no contexts) is not used.

use placemat_codec::AsciiRuns;
use placemat_compiler::automaton::Automaton;
use placemat_compiler::model::Model;
use proc_macro2::TokenStream;
use quote::quote;

use super::form_window;
use super::states::{self, Reader, Target};

/// The window functions and the loop that calls them: the form window where
/// the model suits it, else the state window, else (a repeated unit) nothing.
fn fast_loop(model: &Model, a: &Automaton, t: &Target<'_>, unmap: &TokenStream) -> (TokenStream, TokenStream) {
    let runs = ascii_runs(model, a);
    let forms = if a.contexts == 1 { form_window::emit(model, a, t.value_ty) } else { None };
    let window = match forms {
        Some((fns, size)) => Some((fns, size, quote!(Self::window_forms(w)))),
        None => model.max_units().and_then(|size| {
            let call = start_call(a, Reader::Window(size), quote!(w, 0, 0));
            states::emit(t, Reader::Window(size)).map(|fns| (fns, size, call))
        }),
    };
    let Some((fns, size, call)) = window else { return (quote!(), quote!()) };
    let size = proc_macro2::Literal::usize_unsuffixed(size);
    let track = track(a);
    // Only tried when the window starts with an ASCII unit, so text without
    // ASCII pays one comparison per sequence for it.
    let in_start = in_start(a);
    let after_run = if a.contexts == 1 {
        quote!()
    } else {
        let value_ty = t.value_ty;
        quote!(context = ::placemat_codec::Decoder::context_after(&Self, &(input[pos - 1] as #value_ty));)
    };
    let ascii_run = if let Some((is_run, prefix)) = ascii_tests(runs, quote!(w[0])) {
        quote! {
            if #is_run #in_start {
                let run = #prefix(&input[pos..]);
                if run > 0 {
                    out.extend_units(&input[pos..pos + run]);
                    pos += run;
                    #after_run
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
            #track
            out.push(#unmap);
            pos += len;
        }
    };
    (fns, fast)
}

/// The bulk function and the window functions it uses.
pub fn emit(model: &Model, a: &Automaton, t: &Target<'_>, value_ty: &TokenStream) -> TokenStream {
    let unmap = if model.maps_values() {
        let ty = t.codec_ty;
        quote!(#ty::unmap(value))
    } else {
        quote!(value)
    };
    let (window_fns, fast_loop) = fast_loop(model, a, t, &unmap);
    let context = if a.contexts > 1 { quote!(let mut context = 0usize;) } else { quote!() };
    let exact_call = start_call(a, Reader::Exact, quote!(&input[pos..], 0, 0));
    let track = track(a);
    // With several contexts the state functions read ASCII too.
    let exact_ascii = if let (Some((is_run, _)), 1) = (ascii_tests(ascii_runs(model, a), quote!(b)), a.contexts) {
        quote! {
            while let ::core::option::Option::Some(&b) = input.get(pos) {
                if !(#is_run) {
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
            #context
            #fast_loop
            while pos < input.len() {
                #exact_ascii
                match #exact_call {
                    ::placemat_codec::Step::Value { value, len } => {
                        #track
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

/// The ASCII runs the bulk loop copies: the table's, whose values are raw
/// values, so none where the codec maps them.
fn ascii_runs(model: &Model, a: &Automaton) -> AsciiRuns {
    if model.maps_values() {
        AsciiRuns::None
    } else {
        a.facts.ascii_runs
    }
}

/// For byte codecs with ASCII runs ([`AsciiRuns`]): whether `unit` is one of
/// the runs' units, and the function measuring a run (whole 16-unit blocks).
fn ascii_tests(runs: AsciiRuns, unit: TokenStream) -> Option<(TokenStream, TokenStream)> {
    match runs {
        AsciiRuns::Bytes => Some((quote!(#unit < 0x80), quote!(::placemat_codec::ascii_prefix))),
        AsciiRuns::NonZeroBytes => {
            Some((quote!(#unit != 0 && #unit < 0x80), quote!(::placemat_codec::AsciiRuns::NonZeroBytes.prefix)))
        }
        _ => None,
    }
}

/// The call of the start state's function for `reader` with `args`: state 1,
/// or with several contexts the start state of `context`.
fn start_call(a: &Automaton, reader: Reader, args: TokenStream) -> TokenStream {
    let name = |s: usize| {
        let prefix = if reader == Reader::Exact { "state" } else { "window" };
        proc_macro2::Ident::new(&format!("{prefix}_{s}"), proc_macro2::Span::call_site())
    };
    if a.contexts == 1 {
        let f = name(1);
        return quote!(Self::#f(#args));
    }
    let arms = (1..a.contexts).map(|c| {
        let (f, c) = (name(c + 1), proc_macro2::Literal::usize_unsuffixed(c));
        quote!(#c => Self::#f(#args),)
    });
    let first = name(1);
    quote!(match context { #(#arms)* _ => Self::#first(#args) })
}

/// ` && context == 0` with several contexts: ASCII runs are copied in context 0.
fn in_start(a: &Automaton) -> TokenStream {
    if a.contexts == 1 {
        quote!()
    } else {
        quote!(&&context == 0)
    }
}

/// With several contexts, the statement that sets the context after `value`.
fn track(a: &Automaton) -> TokenStream {
    if a.contexts == 1 {
        return quote!();
    }
    quote!(context = ::placemat_codec::Decoder::context_after(&Self, &value);)
}
