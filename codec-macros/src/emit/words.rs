//! The integer facts in the generated code: the constants `FLAGGED` and
//! `PREFIXED`, and the bulk calls that read them (`decode_into`,
//! `decode_prefix_into`, `decode_lossy_into` and `encode_into` by the
//! runtime's word decoders and SIMD kernels).

use placemat_codec::Sign;
use placemat_compiler::automaton::Automaton;
use placemat_compiler::model::Model;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::Names;

/// `FLAGGED`, the codec type's flagged-stream fact (`placemat_codec::Flagged`),
/// for an integer codec whose units mark where values end; nothing for
/// another. The codec's facts and its decoders all read this one constant.
pub fn flagged_const(a: &Automaton) -> TokenStream {
    let Ok(f) = &a.flagged else { return quote!() };
    let (continues, lsb_first, lengths, signed) = (f.continues_when_set, f.lsb_first, f.lengths, f.signed);
    let [lo, hi, bias] = [f.lo, f.hi, f.bias].map(|a| a.map(Literal::u64_unsuffixed));
    quote! {
        /// How the codec's units mark where values end (the compiler's
        /// flagged-stream fact): its decoders read a word of units at a time.
        pub const FLAGGED: ::placemat_codec::Flagged = ::placemat_codec::Flagged {
            continues_when_set: #continues, lsb_first: #lsb_first, lengths: #lengths,
            lo: [#(#lo),*], hi: [#(#hi),*], bias: [#(#bias),*], signed: #signed,
        };
    }
}

/// `PREFIXED`, the codec type's length-prefix fact (`placemat_codec::Prefixed`),
/// for an integer codec whose first unit gives a value's length; nothing
/// for another.
pub fn prefixed_const(a: &Automaton) -> TokenStream {
    let Ok(p) = &a.prefixed else { return quote!() };
    let shift = p.shift;
    let lengths = p.lengths.map(Literal::u8_unsuffixed);
    let [lo, hi, bias] = [p.lo, p.hi, p.bias].map(|a| a.map(Literal::u64_unsuffixed));
    quote! {
        /// How the codec's first unit gives a value's length (the compiler's
        /// length-prefix fact): its bulk decoders read each value with one load.
        pub const PREFIXED: ::placemat_codec::Prefixed = ::placemat_codec::Prefixed {
            shift: #shift, lengths: [#(#lengths),*], lo: [#(#lo),*], hi: [#(#hi),*], bias: [#(#bias),*],
        };
    }
}

/// `decode_into` with `body` (of `input` and `out`), and `decode_lossy_into`
/// on it.
pub fn decode_into_by(value_ty: &TokenStream, body: TokenStream) -> TokenStream {
    quote! {
        #[inline]
        fn decode_into(
            &self,
            input: &[u8],
            out: &mut ::placemat_codec::__private::Vec<#value_ty>,
        ) -> ::core::result::Result<(), ::placemat_codec::DecodeError> {
            #body
        }
        fn decode_lossy_into(&self, input: &[u8], out: &mut ::placemat_codec::__private::Vec<#value_ty>) {
            ::placemat_codec::decode_lossy_in_bulk(self, input, out)
        }
    }
}

/// `encode_into` of an integer codec with a fact its SIMD encoder writes:
/// units that flag where values end, for values that are the codec's raw
/// values (no pre-map, and no sign map but two's complement, which the fact
/// reads as sign-extended payloads; `placemat_codec::encode_flagged`), for
/// values ZigZag maps to raw values first
/// (`placemat_codec::encode_flagged_signed`), or a first unit that gives the
/// length (`placemat_codec::encode_prefixed`).
/// The kernel writes eight values at a time, the encoder each value it
/// leaves; nothing for another codec (the trait's one-by-one loop).
pub fn word_encode_into(model: &Model, a: &Automaton, names: &Names) -> TokenStream {
    let ty = &names.ty;
    let call = match (&a.flagged, &a.prefixed) {
        (Ok(f), _) if model.is_bounded() && model.premap.is_none() && (model.signed.is_none() || f.signed) => {
            quote!(::placemat_codec::encode_flagged(&#ty::FLAGGED, self, values, out))
        }
        // ZigZag: the values mapped to raw values first.
        (Ok(_), _) if model.is_bounded() && model.signed.as_ref().is_some_and(|s| s.sign == Sign::ZigZag) => {
            let info = quote!(<#ty as ::placemat_codec::Codec>::info());
            quote!(::placemat_codec::encode_flagged_signed(&#ty::FLAGGED, #info, self, values, out))
        }
        // The length-prefix fact excludes maps and signs.
        (_, Ok(_)) => quote!(::placemat_codec::encode_prefixed(&#ty::PREFIXED, self, values, out)),
        _ => return quote!(),
    };
    let value_ty = &names.value;
    quote! {
        #[inline]
        fn encode_into(
            &self,
            values: &[#value_ty],
            out: &mut [u8],
        ) -> ::core::result::Result<usize, ::placemat_codec::EncodeIntoError> {
            #call
        }
    }
}

/// Which of the integer facts the bulk decoders read values by.
#[derive(Copy, Clone)]
pub enum WordFact {
    /// `FLAGGED`: the units mark where values end (`placemat_codec::decode_flagged`).
    Flagged,
    /// `PREFIXED`: the first unit gives the length (`placemat_codec::decode_prefixed`).
    Prefixed,
}

/// `decode_into`, `decode_prefix_into` and `decode_lossy_into` of an integer
/// codec whose values a fact reads without the table: a word of eight units
/// at a time (`placemat_codec::decode_flagged`, where units mark the ends),
/// or one load per value (`placemat_codec::decode_prefixed`, where the first
/// unit gives the length); each value the fact leaves by the branching
/// decoder's step. The facts give raw values: a codec that maps values
/// decodes raw values (the branching decoder's steps before the map,
/// `RawSteps`) and maps the values written.
pub fn word_decode(model: &Model, names: &Names, fact: WordFact) -> TokenStream {
    let (constant, whole, prefix, slice) = match fact {
        WordFact::Flagged => {
            (quote!(FLAGGED), quote!(decode_flagged), quote!(decode_flagged_prefix), quote!(decode_flagged_slice))
        }
        WordFact::Prefixed => {
            (quote!(PREFIXED), quote!(decode_prefixed), quote!(decode_prefixed_prefix), quote!(decode_prefixed_slice))
        }
    };
    let (ty, branching, value_ty, raw) = (&names.ty, &names.branching, &names.value, &names.raw);
    let mapped = model.maps_values();
    let map = |values: TokenStream| {
        if mapped {
            quote!(for v in #values { *v = #ty::unmap(*v as #raw); })
        } else {
            quote!()
        }
    };
    let steps = if mapped {
        quote! {
            struct RawSteps;
            impl ::placemat_codec::Decoder for RawSteps {
                type Value = #value_ty;
                #[inline(always)]
                fn step(&self, input: &[u8]) -> ::placemat_codec::Step<#value_ty> {
                    #branching::state_1(input, 0, 0).map(|value| value as #value_ty)
                }
            }
        }
    } else {
        quote!()
    };
    let decoder = if mapped { quote!(&RawSteps) } else { quote!(&#branching) };
    let map_out = map(quote!(&mut out[start..]));
    let map_slice = map(quote!(&mut out[..read.values]));
    let body = quote! {
        #steps
        let start = out.len();
        let result = ::placemat_codec::#whole(&#ty::#constant, #decoder, input, out);
        #map_out
        result
    };
    let decode_into = decode_into_by(value_ty, body);
    quote! {
        #decode_into
        #[inline]
        fn decode_prefix_into(
            &self,
            input: &[u8],
            max: usize,
            out: &mut ::placemat_codec::__private::Vec<#value_ty>,
        ) -> ::placemat_codec::Prefix {
            #steps
            let start = out.len();
            let read = ::placemat_codec::#prefix(&#ty::#constant, #decoder, input, max, out).0;
            #map_out
            read
        }
        #[inline]
        fn decode_prefix(&self, input: &[u8], out: &mut [#value_ty]) -> ::placemat_codec::Prefix {
            #steps
            let read = ::placemat_codec::#slice(&#ty::#constant, #decoder, input, out);
            #map_slice
            read
        }
    }
}
