//! Turns a validated description into Rust items: the codec type with its tables,
//! encoder and table decoder, and the branching decoder type.

mod branching;
mod encoder;
mod form_window;
mod tables;

use num_traits::ToPrimitive;
use placemat_codec::build::model::ValueType;
use placemat_codec::build::{build_dfa, BuildOptions, Description};
use placemat_codec::Unit;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

/// Everything `codec!` expands to.
pub fn emit(description: &Description, source: &str) -> syn::Result<TokenStream> {
    let model = &description.model;
    let call = Span::call_site();
    let value_ty = match model.value {
        ValueType::U32 => quote!(u32),
        ValueType::U64 => quote!(u64),
        // Values of any size: a `u64` fast path plus `step_big`/`encode_big`.
        ValueType::Unbounded => quote!(u64),
    };
    let built = build_dfa(model, BuildOptions::default()).map_err(|e| syn::Error::new(call, e.to_string()))?;
    // The search for overlapping shift offsets runs here, once per build.
    let owned = built.dfa.with_solved_shift();
    let dfa = owned.as_ref();
    let vis = &description.vis;
    let ty = Ident::new(&model.type_name, call);
    let branching_ty = Ident::new(&format!("{}Branching", model.type_name), call);
    let name = &model.name;
    let summary = &model.summary;

    let tables = tables::emit(name, &dfa);
    let encode_body = encoder::emit(model, &value_ty)?;
    let states = branching::emit(&dfa, &model.unit, &value_ty, &ty)?;
    let start_fn = Ident::new("state_1", call);

    let to_u64 =
        |v: &num_bigint::BigUint| v.to_u64().ok_or_else(|| syn::Error::new(call, "a value does not fit 64 bits"));
    let min = Literal::u64_unsuffixed(to_u64(&model.min)?);
    let unbounded = !model.is_bounded();
    let max = Literal::u64_unsuffixed(match &model.max {
        Some(m) => to_u64(m)?,
        None => u64::MAX,
    });
    let mut excluded = Vec::new();
    for (lo, hi) in &model.excluded {
        let (lo, hi) = (Literal::u64_unsuffixed(to_u64(lo)?), Literal::u64_unsuffixed(to_u64(hi)?));
        excluded.push(quote!((#lo, #hi)));
    }
    // The longest encoding the `u64` encoder writes, and the codec's longest sequence.
    let max_units = model.forms_upto_u64().iter().map(|f| f.units.len()).max().unwrap_or(1);
    let info_max_units = match model.max_units() {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    };
    let value_bits = model.value.bits().unwrap_or(64);
    let unit = match &model.unit {
        Unit::Byte => quote!(::placemat_codec::Unit::Byte),
        Unit::Alphabet(a) => {
            let bytes = Literal::byte_string(a);
            quote!(::placemat_codec::Unit::Alphabet(::placemat_codec::__private::Cow::Borrowed(#bytes)))
        }
    };
    // Undoing the pre-mapping after the automaton, if there is one.
    let (unmap_const, unmap) = match model.premap_inverse() {
        None => (quote!(), quote!(value)),
        Some(inv) => {
            let n = inv.len();
            let items = inv.iter().map(|&x| Literal::u32_unsuffixed(x));
            (
                quote! {
                    /// The inverse of the description's pre-mapping, applied to decoded values.
                    pub const UNMAP: [#value_ty; #n] = [#(#items),*];
                },
                quote!(match Self::UNMAP.get(value as usize) {
                    Some(&v) => v,
                    None => value,
                }),
            )
        }
    };
    let has_premap = model.premap.is_some();
    let unmap_branching = if has_premap { quote!(#ty::unmap(value)) } else { quote!(value) };
    let decode_into = if unbounded {
        // Values may outgrow the accumulator: decode step by step, checked.
        quote!()
    } else if has_premap {
        quote! {
            let start = out.len();
            let result = <Self as ::placemat_codec::Codec>::dfa().decode_into(input, out);
            for v in &mut out[start..] {
                *v = Self::unmap(*v);
            }
            result
        }
    } else {
        quote!(<Self as ::placemat_codec::Codec>::dfa().decode_into(input, out))
    };
    let decode_into = if decode_into.is_empty() {
        quote!()
    } else {
        quote! {
            #[inline]
            fn decode_into(
                &self,
                input: &[u8],
                out: &mut ::placemat_codec::__private::Vec<#value_ty>,
            ) -> ::core::result::Result<(), ::placemat_codec::DecodeError> {
                #decode_into
            }
        }
    };
    // The expanded table of the table decoder, computed by the compiler (see
    // `placemat_codec::dfa::expanded`), when the automaton has one.
    let attach_expanded = match dfa.expanded() {
        Some(table) => {
            let len = table.len();
            quote! {
                .with_expanded({
                    static EXPANDED: [u64; #len] =
                        ::placemat_codec::dfa::expanded::table::<#len>(&#ty::CLASSES, &#ty::DIGITS, &#ty::TRANSITIONS);
                    &EXPANDED
                })
            }
        }
        None => quote!(),
    };
    // Shift rows whose fields overlap, found by the builder's search (too slow for
    // the compiler's constant evaluator), are passed to the generated tables.
    let attach_shift = match dfa.shift_offsets() {
        Some(offsets) => {
            let offsets = offsets.iter().map(|&o| Literal::u8_unsuffixed(o));
            quote!(.with_shift_offsets(&[#(#offsets),*]))
        }
        None => quote!(),
    };
    let bulk = branching_bulk(model, &dfa, &value_ty, &ty, &unmap_branching);
    let table_step = if unbounded {
        quote!(<Self as ::placemat_codec::Codec>::dfa().step_checked(input))
    } else {
        quote!(<Self as ::placemat_codec::Codec>::dfa().step::<#value_ty>(input))
    };
    let info_ctor = if unbounded { quote!(.with_unbounded_values()) } else { quote!() };
    let big_methods = if unbounded {
        let form = model.forms.last().expect("validated: an unbounded model has forms");
        let repeat = form.repeat.expect("validated: the last form of an unbounded model repeats");
        let units = form.units.iter().map(|u| {
            let fixed = Literal::u8_unsuffixed(u.fixed_bits);
            let bits = Literal::u8_unsuffixed(u.payload_bits as u8);
            quote!((#fixed, #bits))
        });
        let alphabet = match &model.unit {
            Unit::Byte => quote!(::core::option::Option::None),
            Unit::Alphabet(a) => {
                let bytes = Literal::byte_string(a);
                quote!(::core::option::Option::Some(#bytes))
            }
        };
        quote! {
            fn step_big(&self, input: &[u8]) -> ::placemat_codec::Step<::placemat_codec::big::BigUint> {
                match Self::dfa().step_big(input) {
                    ::placemat_codec::Step::Value { value, len } => {
                        let value = match u64::try_from(&value) {
                            Ok(small) => ::placemat_codec::big::BigUint::from(Self::unmap(small)),
                            Err(_) => value,
                        };
                        ::placemat_codec::Step::Value { value, len }
                    }
                    ::placemat_codec::Step::Invalid { len } => ::placemat_codec::Step::Invalid { len },
                    ::placemat_codec::Step::Incomplete => ::placemat_codec::Step::Incomplete,
                }
            }
            fn encode_big(
                &self,
                value: &::placemat_codec::big::BigUint,
                out: &mut ::placemat_codec::__private::Vec<u8>,
            ) -> ::core::result::Result<(), ::placemat_codec::EncodeError> {
                if let Ok(small) = u64::try_from(value) {
                    return ::placemat_codec::Encoder::encode_push(self, small, out);
                }
                const FORM: ::placemat_codec::big::RepeatForm<'static> = ::placemat_codec::big::RepeatForm {
                    units: &[#(#units),*],
                    repeat: #repeat,
                    alphabet: #alphabet,
                };
                FORM.encode(value, out);
                Ok(())
            }
        }
    } else {
        quote!()
    };

    let mut doc: Vec<String> = model.docs.clone();
    if !doc.is_empty() {
        doc.push(String::new());
    }
    doc.push(format!(
        " Generated by `placemat_macros::codec!` from the description `{name}`: an encoder, \
         a table decoder (the `Decoder` impl, {} classes × {} states) and a validator; \
         the branching decoder is [`{branching_ty}`].",
        dfa.class_count(),
        dfa.state_count()
    ));
    let branching_doc =
        format!(" The branching decoder of [`{ty}`] (`{name}`): one `match` per automaton state, no tables.");
    let info_doc = format!("The facts of `{name}`.");

    Ok(quote! {
        #(#[doc = #doc])*
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #ty;

        #[doc = #branching_doc]
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #branching_ty;

        impl #ty {
            /// The codec's name.
            pub const NAME: &'static str = #name;
            #tables
            #unmap_const

            #[inline(always)]
            #[allow(dead_code)]
            fn unmap(value: #value_ty) -> #value_ty {
                #unmap
            }
        }

        impl #branching_ty {
            #states
            #bulk
        }

        impl ::placemat_codec::Encoder for #ty {
            type Value = #value_ty;
            #[inline]
            fn max_units(&self) -> usize {
                #max_units
            }
            #[inline(always)]
            #[allow(unused_comparisons, clippy::absurd_extreme_comparisons, clippy::identity_op)]
            fn encode(&self, value: #value_ty, out: &mut [u8]) -> ::core::result::Result<usize, ::placemat_codec::EncodeError> {
                #encode_body
            }
        }

        impl ::placemat_codec::Decoder for #ty {
            type Value = #value_ty;
            #[inline]
            fn step(&self, input: &[u8]) -> ::placemat_codec::Step<#value_ty> {
                match #table_step {
                    ::placemat_codec::Step::Value { value, len } => ::placemat_codec::Step::Value { value: Self::unmap(value), len },
                    other => other,
                }
            }
            #[inline]
            fn validate(&self, input: &[u8]) -> ::core::result::Result<(), ::placemat_codec::DecodeError> {
                <Self as ::placemat_codec::Codec>::dfa().validate(input)
            }
            #decode_into
        }

        impl ::placemat_codec::Decoder for #branching_ty {
            type Value = #value_ty;
            #[inline]
            fn step(&self, input: &[u8]) -> ::placemat_codec::Step<#value_ty> {
                match Self::#start_fn(input, 0, 0) {
                    ::placemat_codec::Step::Value { value, len } => ::placemat_codec::Step::Value { value: #unmap_branching, len },
                    other => other,
                }
            }
            fn validate(&self, input: &[u8]) -> ::core::result::Result<(), ::placemat_codec::DecodeError> {
                Self::bulk(input, ::core::option::Option::None)
            }
            fn decode_into(
                &self,
                input: &[u8],
                out: &mut ::placemat_codec::__private::Vec<#value_ty>,
            ) -> ::core::result::Result<(), ::placemat_codec::DecodeError> {
                Self::bulk(input, ::core::option::Option::Some(out))
            }
            fn decode_lossy_into(&self, input: &[u8], out: &mut ::placemat_codec::__private::Vec<#value_ty>) {
                let mut pos = 0;
                while pos < input.len() {
                    let Err(e) = Self::bulk(&input[pos..], ::core::option::Option::Some(out)) else {
                        return;
                    };
                    out.push(<#value_ty as ::placemat_codec::Value>::REPLACEMENT);
                    match e.error_len() {
                        ::core::option::Option::Some(len) => pos += e.valid_up_to() + len,
                        ::core::option::Option::None => return,
                    }
                }
            }
        }

        impl ::placemat_codec::Codec for #ty {
            type Branching = #branching_ty;
            const DESCRIPTION: &'static str = #source;
            fn info() -> &'static ::placemat_codec::CodecInfo {
                #[doc = #info_doc]
                static INFO: ::placemat_codec::CodecInfo = ::placemat_codec::CodecInfo::new(
                    #name,
                    #summary,
                    #unit,
                    #value_bits,
                    #min,
                    #max,
                    &[#(#excluded),*],
                    #info_max_units,
                )#info_ctor;
                &INFO
            }
            fn dfa() -> &'static ::placemat_codec::dfa::Dfa {
                static DFA: ::placemat_codec::dfa::Dfa = ::placemat_codec::dfa::Dfa::from_static(
                    #ty::CLASSES,
                    #ty::DIGITS,
                    &#ty::TRANSITIONS,
                    &#ty::BIASES,
                )#attach_shift #attach_expanded;
                &DFA
            }
            #big_methods
        }
    })
}

/// The branching decoder's bulk loop, `fn bulk(input, out: Option<&mut Vec<V>>)`:
/// validation when `out` is `None` (the inliner drops the values), decoding when
/// it is `Some`.
///
/// While a whole window of the longest sequence's length remains, sequences are
/// decoded by the window functions (no bounds check per unit) and, for
/// ASCII-transparent descriptions, ASCII runs are copied 16 units at a time. The
/// rest of the input, and any sequence the window functions refuse, goes through
/// the exact state functions, which report the error's position and length.
fn branching_bulk(
    model: &placemat_codec::build::model::Model,
    dfa: &placemat_codec::dfa::Dfa<&[u32], &[u64]>,
    value_ty: &TokenStream,
    codec_ty: &Ident,
    unmap: &TokenStream,
) -> TokenStream {
    let ascii = dfa.is_ascii_transparent();
    // Only tried when the window starts with an ASCII unit, so text without
    // ASCII pays one comparison per sequence for it.
    let ascii_run = if ascii {
        quote! {
            if w[0] < 0x80 {
                if let ::core::option::Option::Some(run) = input[pos..].first_chunk::<16>() {
                    if u128::from_le_bytes(*run) & 0x8080_8080_8080_8080_8080_8080_8080_8080 == 0 {
                        out.extend_units(run);
                        pos += 16;
                        continue;
                    }
                }
            }
        }
    } else {
        quote!()
    };
    // The form window where the model suits it, else the state window, else
    // (a repeated unit) no fast path.
    let window = match form_window::emit(model, value_ty) {
        Some((fns, size)) => Some((fns, size, quote!(Self::window_forms(w)))),
        None => model.max_units().and_then(|size| {
            branching::emit_window(dfa, &model.unit, value_ty, codec_ty, size)
                .map(|fns| (fns, size, quote!(Self::window_1(w, 0, 0))))
        }),
    };
    let (window_fns, fast_loop) = match window {
        Some((fns, window, call)) => (
            fns,
            quote! {
                while let ::core::option::Option::Some(w) = input[pos..].first_chunk::<#window>() {
                    #ascii_run
                    let (value, len) = #call;
                    if len == 0 {
                        break;
                    }
                    out.push(#unmap);
                    pos += len;
                }
            },
        ),
        None => (quote!(), quote!()),
    };
    let exact_ascii = if ascii {
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
