//! Emits the trait impls of the codec type (`Encoder`, `Decoder` by the
//! fastest strategy for each call, `Codec` with the codec's facts and its
//! checked `static` walker), of the table and branching decoder types (each
//! strategy alone, for comparison), and the inverse pre-mapping where the
//! description has a pre-mapping.

use num_traits::ToPrimitive;
use placemat_codec::Unit;
use placemat_compiler::automaton::Automaton;
use placemat_compiler::model::Model;
use placemat_compiler::signed::Signed;
use proc_macro2::{Literal, Span, TokenStream};
use quote::quote;

use super::words::{decode_into_by, word_decode, word_encode_into, WordFact};
use super::{encoder, tables, Names};

fn to_u64(v: &num_bigint::BigUint) -> syn::Result<u64> {
    v.to_u64().ok_or_else(|| syn::Error::new(Span::call_site(), "a value does not fit 64 bits"))
}

/// The unit kind as a runtime value.
fn unit(model: &Model) -> TokenStream {
    match &model.unit {
        Unit::Byte => quote!(::placemat_codec::Unit::Byte),
        Unit::Alphabet(a) => {
            let bytes = Literal::byte_string(a);
            quote!(::placemat_codec::Unit::Alphabet(::placemat_codec::__private::Cow::Borrowed(#bytes)))
        }
    }
}

/// The path of a sign scheme in the runtime (`::placemat_codec::Sign::ZigZag`).
pub fn sign_path(sign: placemat_codec::Sign) -> TokenStream {
    let variant = proc_macro2::Ident::new(&format!("{sign:?}"), Span::call_site());
    quote!(::placemat_codec::Sign::#variant)
}

/// `fn unmap`, the codec's value of a raw value after the automaton: the
/// pre-mapping undone (with its table `UNMAP`), or a signed codec's sign
/// applied; nothing for a codec that does not map values.
pub fn unmap(model: &Model, names: &Names) -> TokenStream {
    if let Some(s) = &model.signed {
        let (raw, value, sign, bits) = (&names.raw, &names.value, sign_path(s.sign), s.bits);
        return quote! {
            /// The value a raw value of the automaton spells, by the codec's sign.
            #[inline(always)]
            fn unmap(value: #raw) -> #value {
                #sign.value(u64::from(value), #bits) as #value
            }
        };
    }
    let Some(inv) = model.premap_inverse() else { return quote!() };
    let value_ty = &names.value;
    let n = inv.len();
    let items = inv.iter().map(|&x| Literal::u32_unsuffixed(x));
    quote! {
        /// The inverse of the description's pre-mapping, applied to decoded values.
        pub const UNMAP: [#value_ty; #n] = [#(#items),*];

        /// (Without a branch: text mixes mapped values with others.)
        #[inline(always)]
        fn unmap(value: #value_ty) -> #value_ty {
            let mapped = Self::UNMAP[(value as usize).min(#n - 1)];
            if (value as usize) < #n { mapped } else { value }
        }
    }
}

/// The value after the automaton: `Self::unmap(value)` or `value`.
fn unmapped(model: &Model, names: &Names) -> TokenStream {
    let ty = &names.ty;
    if model.maps_values() {
        quote!(#ty::unmap(value))
    } else {
        quote!(value)
    }
}

/// `.with_wide_forms(..)` for a codec with wide forms, else nothing.
fn wide_forms(forms: &placemat_codec::WideForms) -> TokenStream {
    if !forms.is_some() {
        return quote!();
    }
    let units = proc_macro2::Ident::new(&format!("{:?}", forms.units), Span::call_site());
    let [(a, b), (c, d)] = forms.single.map(|(lo, hi)| (Literal::u32_unsuffixed(lo), Literal::u32_unsuffixed(hi)));
    let pair = match forms.pair {
        Some(p) => {
            let (lo, hi, bias, high, low) = (p.lo, p.hi, p.bias, p.high, p.low);
            let low_bits = p.low_bits;
            quote!(::core::option::Option::Some(::placemat_codec::PairForm {
                lo: #lo, hi: #hi, bias: #bias, high: #high, low: #low, low_bits: #low_bits,
            }))
        }
        None => quote!(::core::option::Option::None),
    };
    quote!(.with_wide_forms(::placemat_codec::WideForms {
        units: ::placemat_codec::AsciiRuns::#units,
        single: [(#a, #b), (#c, #d)],
        pair: #pair,
    }))
}

/// `.with_byte_forms(..)` for a codec whose encoder writes values as UTF-8 does.
fn byte_forms(f: &placemat_codec::simd::ByteForms) -> TokenStream {
    let (lengths, first, continuation) = (f.lengths, f.first, f.continuation);
    let [l0, l1, l2, l3] = f.last;
    let [d0, d1, d2, d3] = f.lead;
    let [(a, b), (c, d)] = f.allowed;
    quote!(.with_byte_forms(::placemat_codec::simd::ByteForms {
        lengths: #lengths, first: #first, last: [#l0, #l1, #l2, #l3], lead: [#d0, #d1, #d2, #d3],
        continuation: #continuation, allowed: [(#a, #b), (#c, #d)],
    }))
}

/// `.with_bit_forms(..)` for a codec whose encoder writes units as fixed
/// bits and fields of the payload.
fn bit_forms(f: &placemat_codec::simd::BitForms) -> TokenStream {
    let (count, first, bias, units) = (f.count, f.first, f.bias, f.units);
    let (shift, mask, fixed) = (f.shift, f.mask, f.fixed);
    let [(a, b), (c, d)] = f.allowed;
    let table = |t: &Option<[u8; 256]>| match t {
        Some(m) => quote!(::core::option::Option::Some([#(#m),*])),
        None => quote!(::core::option::Option::None),
    };
    let (map, leads) = (table(&f.unit_map), table(&f.leads));
    let values = match &f.value_map {
        Some(m) => quote!(::core::option::Option::Some([#(#m),*])),
        None => quote!(::core::option::Option::None),
    };
    quote!(.with_bit_forms(::placemat_codec::simd::BitForms {
        count: #count, first: [#(#first),*], bias: [#(#bias),*], units: [#(#units),*],
        shift: [#(#shift),*], mask: [#(#mask),*], fixed: [#(#fixed),*],
        allowed: [(#a, #b), (#c, #d)], unit_map: #map, value_map: #values, leads: #leads,
    }))
}

/// `.with_pair_forms(..)` for a codec of byte forms that writes values as
/// the forms of a pair of 16-bit units.
fn pair_forms(p: &placemat_codec::PairForm) -> TokenStream {
    let (lo, hi, bias, high, low, low_bits) = (p.lo, p.hi, p.bias, p.high, p.low, p.low_bits);
    quote!(.with_pair_forms(::placemat_codec::PairForm {
        lo: #lo, hi: #hi, bias: #bias, high: #high, low: #low, low_bits: #low_bits,
    }))
}

/// The `CodecInfo` constructor, with the compiler's verdict on a SIMD validator.
fn info(model: &Model, a: &Automaton, ty: &proc_macro2::Ident) -> syn::Result<TokenStream> {
    let (name, summary) = (&model.name, &model.summary);
    let mut min = Literal::u64_unsuffixed(to_u64(&model.min)?);
    let mut max = Literal::u64_unsuffixed(model.max.as_ref().map(to_u64).transpose()?.unwrap_or(u64::MAX));
    let mut sign = quote!();
    if let Some(s) = &model.signed {
        // Facts of values, not of raw values: the range as patterns.
        [min, max] = [&s.min, &s.max].map(|v| Literal::u64_unsuffixed(Signed::pattern(v)));
        let path = sign_path(s.sign);
        sign = quote!(.with_sign(#path));
    }
    let mut excluded = Vec::new();
    for (lo, hi) in model.excluded.iter().filter(|_| model.signed.is_none()) {
        let (lo, hi) = (Literal::u64_unsuffixed(to_u64(lo)?), Literal::u64_unsuffixed(to_u64(hi)?));
        excluded.push(quote!((#lo, #hi)));
    }
    let max_units = match model.max_units() {
        Some(n) => {
            let n = Literal::usize_unsuffixed(n);
            quote!(::core::option::Option::Some(#n))
        }
        None => quote!(::core::option::Option::None),
    };
    let value_bits = model.value.bits().unwrap_or(64);
    let unit = unit(model);
    let unbounded = if model.is_bounded() { quote!() } else { quote!(.with_unbounded_values()) };
    let no_simd = match &a.local {
        Ok(_) => quote!(),
        Err(e) => {
            let why = &e.reason;
            quote!(.with_no_simd(#why))
        }
    };
    let wide = wide_forms(&a.wide_forms);
    let mut bytes = a.byte_forms.map_or_else(TokenStream::new, |f| byte_forms(&f));
    bytes.extend(a.bit_forms.map_or_else(TokenStream::new, |f| bit_forms(&f)));
    let mut pair = a.pair_forms.map_or_else(TokenStream::new, |p| pair_forms(&p));
    if let Some(t) = &a.pair_unit_tables {
        let t = tables::simd_tables(t);
        pair.extend(quote!(.with_pair_unit_tables(#t)));
    }
    let rule_values = model.rule_values();
    let rules = if rule_values.is_empty() {
        quote!()
    } else {
        let ranges = rule_values.iter().map(|&(lo, hi)| {
            let (lo, hi) = (Literal::u64_unsuffixed(lo), Literal::u64_unsuffixed(hi));
            quote!((#lo, #hi))
        });
        quote!(.with_rule_values(&[#(#ranges),*]))
    };
    // The `static` cannot name `Self`: the codec type by name.
    let flagged = if a.flagged.is_ok() { quote!(.with_flagged(#ty::FLAGGED)) } else { quote!() };
    let prefixed = if a.prefixed.is_ok() { quote!(.with_prefixed(#ty::PREFIXED)) } else { quote!() };
    let canonical = if a.canonical { quote!(.with_canonical()) } else { quote!() };
    let doc = format!(" The facts of `{name}`.");
    Ok(quote! {
        #[doc = #doc]
        static INFO: ::placemat_codec::CodecInfo = ::placemat_codec::CodecInfo::new(
            #name, #summary, #unit, #value_bits, #min, #max, &[#(#excluded),*], #max_units,
        )#unbounded #no_simd #wide #bytes #pair #rules #flagged #prefixed #canonical #sign;
        &INFO
    })
}

/// `decode_into` through `walk`, a path to a `Dfa` method with the contract of
/// `Decoder::decode_into` (`Dfa::decode_into`: decoding behind SIMD
/// validation where the SIMD decoding kernel reads the codec, else the table
/// decoder's bulk walker; `Dfa::decode_table_into`: the bulk walker alone;
/// values unmapped after) and `decode_lossy_into` on it, or
/// nothing for unbounded codecs, whose values may outgrow the accumulator and
/// are decoded step by step, checked.
fn decode_into(model: &Model, names: &Names, walk: TokenStream) -> TokenStream {
    let (ty, value_ty) = (&names.ty, &names.value);
    let raw = &names.raw;
    // The walk fills a signed codec's values with raw values.
    let stored = if model.signed.is_some() { quote!(*v as #raw) } else { quote!(*v) };
    let body = if !model.is_bounded() {
        return quote!();
    } else if model.maps_values() {
        quote! {
            let start = out.len();
            let result = #walk(input, out);
            for v in &mut out[start..] {
                *v = #ty::unmap(#stored);
            }
            result
        }
    } else {
        quote!(#walk(input, out))
    };
    decode_into_by(value_ty, body)
}

/// The methods of values of any size of an unbounded codec: `step_big` and
/// `encode_big`, or for a signed one `step_bigint` and `encode_bigint`.
fn big_methods(model: &Model) -> TokenStream {
    if model.is_bounded() {
        return quote!();
    }
    let form = model.forms.last().expect("validated: an unbounded model has forms");
    let repeat = form.repeat.expect("validated: the last form of an unbounded model repeats");
    let units = form.units.iter().map(|u| {
        let fixed = Literal::u8_unsuffixed(u.fixed_bits);
        let bits = Literal::u8_unsuffixed(u.payload_bits as u8);
        quote!((#fixed, #bits))
    });
    let alphabet = match model.symbols() {
        None => quote!(::core::option::Option::None),
        Some(a) => {
            let bytes = Literal::byte_string(a);
            quote!(::core::option::Option::Some(#bytes))
        }
    };
    let repeat_lit = Literal::usize_unsuffixed(repeat);
    let form = quote! {
        /// The repeated form that writes values past 64 bits.
        const FORM: ::placemat_codec::big::RepeatForm<'static> = ::placemat_codec::big::RepeatForm {
            units: &[#(#units),*],
            repeat: #repeat_lit,
            alphabet: #alphabet,
        };
    };
    let methods = match &model.signed {
        Some(s) => signed_big_methods(sign_path(s.sign), &form),
        None => unsigned_big_methods(model, &form),
    };
    quote!(::placemat_codec::__unbounded_methods! { #methods })
}

/// `step_big` and `encode_big` of an unsigned unbounded codec, whose
/// repeated form is `form`.
fn unsigned_big_methods(model: &Model, form: &TokenStream) -> TokenStream {
    let unmap_small = if model.premap.is_some() { quote!(Self::unmap(small)) } else { quote!(small) };
    quote! {
        fn step_big(&self, input: &[u8]) -> ::placemat_codec::Step<::placemat_codec::big::BigUint> {
            Self::dfa().step_big(input).map(|value| match u64::try_from(&value) {
                Ok(small) => ::placemat_codec::big::BigUint::from(#unmap_small),
                Err(_) => value,
            })
        }
        fn encode_big(
            &self,
            value: &::placemat_codec::big::BigUint,
            out: &mut ::placemat_codec::__private::Vec<u8>,
        ) -> ::core::result::Result<(), ::placemat_codec::EncodeError> {
            if let Ok(small) = u64::try_from(value) {
                return ::placemat_codec::Encoder::encode_push(self, small, out);
            }
            #form
            FORM.encode(value, out);
            Ok(())
        }
    }
}

/// `step_bigint` and `encode_bigint` of a signed codec of any size: raw
/// values of any size through `sign` (a map of the value alone), the
/// `i64` fast path for those below 2^64.
fn signed_big_methods(sign: TokenStream, form: &TokenStream) -> TokenStream {
    quote! {
        fn step_bigint(&self, input: &[u8]) -> ::placemat_codec::Step<::placemat_codec::big::BigInt> {
            Self::dfa().step_big(input).map(|raw| #sign.value_big(&raw).unwrap_or_default())
        }
        fn encode_bigint(
            &self,
            value: &::placemat_codec::big::BigInt,
            out: &mut ::placemat_codec::__private::Vec<u8>,
        ) -> ::core::result::Result<(), ::placemat_codec::EncodeError> {
            let Some(raw) = #sign.raw_big(value) else {
                return Err(::placemat_codec::EncodeError::TooLarge { bits: value.bits() });
            };
            if let (Ok(_), Ok(small)) = (u64::try_from(&raw), i64::try_from(value)) {
                return ::placemat_codec::Encoder::encode_push(self, small, out);
            }
            #form
            FORM.encode(&raw, out);
            Ok(())
        }
    }
}

/// The impls of the codec type: every call by the fastest strategy (one value
/// by the branching decoder's state functions, bulk calls by the tables and
/// their SIMD kernels), and `Codec` with the codec's facts.
fn codec_impls(model: &Model, a: &Automaton, names: &Names, source: &str) -> syn::Result<TokenStream> {
    let (ty, branching, table, value_ty, raw) = (&names.ty, &names.branching, &names.table, &names.value, &names.raw);
    let encode_body = encoder::emit(model, a, &names.raw, encoder::Body::Encode)?;
    let length_body = encoder::emit(model, a, &names.raw, encoder::Body::Length)?;
    let max_units = Literal::usize_unsuffixed(a.encode_forms.iter().map(|f| f.units.len()).max().unwrap_or(1));
    // The flagged-stream fact gives raw values, which a codec that maps
    // values maps.
    let branching_step = match (model.maps_values(), &a.flagged) {
        (true, Ok(_)) => quote! {
            match #ty::FLAGGED.step(input) {
                ::core::option::Option::Some((value, len)) => {
                    ::placemat_codec::Step::Value { value: #ty::unmap(value as #raw), len }
                }
                ::core::option::Option::None => #branching::state_1(input, 0, 0).map(#ty::unmap),
            }
        },
        (true, Err(_)) => quote!(#branching::state_1(input, 0, 0).map(#ty::unmap)),
        (false, Ok(_)) => quote! {
            match #ty::FLAGGED.step(input) {
                ::core::option::Option::Some((value, len)) => {
                    ::placemat_codec::Step::Value { value: value as #value_ty, len }
                }
                ::core::option::Option::None => #branching::state_1(input, 0, 0),
            }
        },
        (false, Err(_)) => quote!(#branching::state_1(input, 0, 0)),
    };
    let decode_into = match (&a.flagged, &a.prefixed) {
        (Ok(_), _) if model.is_bounded() => word_decode(model, names, WordFact::Flagged),
        (_, Ok(_)) => word_decode(model, names, WordFact::Prefixed),
        _ => decode_into(model, names, quote!(<Self as ::placemat_codec::Codec>::dfa().decode_into)),
    };
    let contexts = context_methods(a, names, branching_step_in(a, branching));
    let open = step_open(model, a, names);
    let forbids = forbids(model, value_ty);
    let info = info(model, a, ty)?;
    let premapped = if model.maps_values() {
        let raw = &names.raw;
        quote!(
            const PREMAPPED: bool = true;
            #[inline(always)]
            fn map_raw(raw: u64) -> u64 {
                ::placemat_codec::Value::to_u64(#ty::unmap(raw as #raw))
            }
        )
    } else {
        quote!()
    };
    let dfa = tables::dfa_fn(a, ty);
    let big = big_methods(model);
    let encode_into = word_encode_into(model, a, names);
    Ok(quote! {
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
            #[inline]
            #[allow(unused_comparisons, clippy::absurd_extreme_comparisons)]
            fn encoded_units(&self, value: #value_ty) -> ::core::result::Result<usize, ::placemat_codec::EncodeError> {
                #length_body
            }
            #forbids
            #encode_into
        }

        impl ::placemat_codec::Decoder for #ty {
            type Value = #value_ty;
            #[inline]
            fn step(&self, input: &[u8]) -> ::placemat_codec::Step<#value_ty> {
                #branching_step
            }
            #[inline]
            fn validate(&self, input: &[u8]) -> ::core::result::Result<(), ::placemat_codec::DecodeError> {
                <Self as ::placemat_codec::Codec>::dfa().validate(input)
            }
            #decode_into
            #contexts
            #open
        }

        impl ::placemat_codec::Codec for #ty {
            type Branching = #branching;
            type Table = #table;
            const DESCRIPTION: &'static str = #source;
            #premapped
            fn info() -> &'static ::placemat_codec::CodecInfo {
                #info
            }
            fn dfa() -> &'static ::placemat_codec::dfa::Dfa {
                #dfa
            }
            #big
        }
    })
}

/// The `Decoder` impl of the table decoder type: the table walker alone.
fn table_impl(model: &Model, a: &Automaton, names: &Names) -> TokenStream {
    let (ty, table, value_ty, raw) = (&names.ty, &names.table, &names.value, &names.raw);
    let dfa = quote!(<#ty as ::placemat_codec::Codec>::dfa());
    let (table_step, table_in) = if !model.is_bounded() {
        (quote!(#dfa.step_checked(input)), quote!(#dfa.step_in(context, input)))
    } else {
        (quote!(#dfa.step::<#raw>(input)), quote!(#dfa.step_in::<#value_ty>(context, input)))
    };
    let step = if model.maps_values() { quote!(#table_step.map(#ty::unmap)) } else { table_step };
    let contexts = context_methods(a, names, table_in);
    let open = step_open(model, a, names);
    let decode_into = decode_into(model, names, quote!(#dfa.decode_table_into));
    quote! {
        impl ::placemat_codec::Decoder for #table {
            type Value = #value_ty;
            #[inline]
            fn step(&self, input: &[u8]) -> ::placemat_codec::Step<#value_ty> {
                #step
            }
            fn validate(&self, input: &[u8]) -> ::core::result::Result<(), ::placemat_codec::DecodeError> {
                #dfa.validate_by_table(input)
            }
            #decode_into
            #contexts
            #open
        }
    }
}

/// The branching decoder's step in `context`: the state function that starts
/// each context, on `input`.
fn branching_step_in(a: &Automaton, branching: &proc_macro2::Ident) -> TokenStream {
    let starts = (0..a.contexts).map(|c| {
        let state = proc_macro2::Ident::new(&format!("state_{}", c + 1), Span::call_site());
        let c = Literal::usize_unsuffixed(c);
        quote!(#c => #branching::#state(input, 0, 0),)
    });
    quote!(match context { #(#starts)* _ => #branching::state_1(input, 0, 0) })
}

/// `step_open` for a codec with pending values (`overlap: longest`), by the
/// table, which holds them; nothing for one without (the trait's default,
/// `step_in`).
fn step_open(model: &Model, a: &Automaton, names: &Names) -> TokenStream {
    if !a.has_pending() {
        return quote!();
    }
    let (ty, value_ty, raw) = (&names.ty, &names.value, &names.raw);
    let unmapped = unmapped(model, names);
    quote! {
        #[inline]
        fn step_open(&self, context: usize, input: &[u8]) -> ::placemat_codec::Step<#value_ty> {
            <#ty as ::placemat_codec::Codec>::dfa().step_open::<#raw>(context, input).map(|value| #unmapped)
        }
    }
}

/// `step_in` (reading in context `context` with `step_in`, an expression of
/// `context` and `input`) and `context_after`, for a codec with rules across
/// values; nothing for one without (the trait's defaults).
fn context_methods(a: &Automaton, names: &Names, step_in: TokenStream) -> TokenStream {
    if a.contexts == 1 {
        return quote!();
    }
    let value_ty = &names.value;
    let arms = a.context_ranges.iter().map(|&(lo, hi, c)| {
        let (lo, hi, c) = (Literal::u64_unsuffixed(lo), Literal::u64_unsuffixed(hi), Literal::usize_unsuffixed(c));
        quote!(#lo..=#hi => #c,)
    });
    quote! {
        #[inline]
        fn step_in(&self, context: usize, input: &[u8]) -> ::placemat_codec::Step<#value_ty> {
            #step_in
        }
        #[inline]
        fn context_after(&self, value: &#value_ty) -> usize {
            match *value {
                #(#arms)*
                _ => 0,
            }
        }
    }
}

/// `Encoder::forbids` from the description's rules across values; nothing
/// without rules.
fn forbids(model: &Model, value_ty: &TokenStream) -> TokenStream {
    if model.forbid.is_empty() {
        return quote!();
    }
    let pairs = model.forbid.iter().map(|r| {
        let [a, b, c, d] = [r.first.0, r.first.1, r.then.0, r.then.1].map(Literal::u64_unsuffixed);
        quote!((#a..=#b, #c..=#d))
    });
    quote! {
        #[inline]
        fn forbids(&self, before: #value_ty, value: #value_ty) -> bool {
            matches!((before, value), #(#pairs)|*)
        }
    }
}

/// The `Decoder` impl of the branching decoder type.
fn branching_impl(model: &Model, a: &Automaton, names: &Names) -> TokenStream {
    let (branching, value_ty) = (&names.branching, &names.value);
    let unmapped = unmapped(model, names);
    let step_in = branching_step_in(a, branching);
    let contexts = context_methods(a, names, step_in);
    let open = step_open(model, a, names);
    quote! {
        impl ::placemat_codec::Decoder for #branching {
            type Value = #value_ty;
            #[inline]
            fn step(&self, input: &[u8]) -> ::placemat_codec::Step<#value_ty> {
                Self::state_1(input, 0, 0).map(|value| #unmapped)
            }
            #contexts
            #open
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
                ::placemat_codec::decode_lossy_by_restarts(input, out, |rest, out| {
                    Self::bulk(rest, ::core::option::Option::Some(out))
                })
            }
        }
    }
}

/// Every impl of the generated types.
pub fn emit(model: &Model, a: &Automaton, names: &Names, source: &str) -> syn::Result<TokenStream> {
    let codec = codec_impls(model, a, names, source)?;
    let table = table_impl(model, a, names);
    let branching = branching_impl(model, a, names);
    Ok(quote!(#codec #table #branching))
}
