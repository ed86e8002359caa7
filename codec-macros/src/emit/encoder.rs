//! Emits the encoder: one `if` per concrete form, in value order, writing each unit
//! as its fixed bits or'ed with a slice of the payload.

use num_traits::ToPrimitive;
use placemat_compiler::automaton::Automaton;
use placemat_compiler::model::{DigitUnit, Layout, Model, UnitPattern};
use placemat_compiler::signed::Signed;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

fn lit(v: u64) -> Literal {
    Literal::u64_unsuffixed(v)
}

/// What a body emitted here computes.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Body {
    /// `Encoder::encode`: `value` and `out` are in scope.
    Encode,
    /// `Encoder::encoded_units`: the same choice of form and the same
    /// refusals, without writing (`value` is in scope).
    Length,
}

/// The body of `Encoder::encode` or `Encoder::encoded_units` for a bounded
/// model.
pub fn emit(model: &Model, a: &Automaton, value_ty: &TokenStream, body: Body) -> syn::Result<TokenStream> {
    let to_u64 = |v: &num_bigint::BigUint| {
        v.to_u64().ok_or_else(|| syn::Error::new(proc_macro2::Span::call_site(), "a value does not fit 64 bits"))
    };
    let min = to_u64(&model.min)?;
    // An unbounded codec's `u64` encoder covers every `u64`; larger values go
    // through `Codec::encode_big`.
    let max = match &model.max {
        Some(m) => to_u64(m)?,
        None => u64::MAX,
    };
    let mut excluded = Vec::new();
    for (lo, hi) in &model.excluded {
        excluded.push((to_u64(lo)?, to_u64(hi)?));
    }
    // A signed codec refuses the value it was given, not its raw value.
    let refused = if model.signed.is_some() {
        quote!(Err(::placemat_codec::EncodeError::SignedUnencodable { value: given as i64 }))
    } else {
        quote!(Err(::placemat_codec::EncodeError::Unencodable { value: value as u64 }))
    };
    let refuse = quote!(return #refused;);
    let signed = model.signed.as_ref().map(|s| signed_prologue(s, value_ty, &refuse));
    let range_check = |lo: u64, hi: u64| {
        let (lo, hi) = (lit(lo), lit(hi));
        quote!((#lo..=#hi).contains(&value))
    };
    let premap = model.premap.as_ref().map(|p| {
        let n = p.len();
        let items = p.iter().map(|&x| Literal::u32_unsuffixed(x));
        quote! {
            const PREMAP: [#value_ty; #n] = [#(#items),*];
            let value = match PREMAP.get(value as usize) {
                Some(&mapped) => mapped,
                None => value,
            };
        }
    });
    let alphabet = model.symbols().is_some();
    let forms = &a.encode_forms;
    // Without a pre-mapping, forms that tile the value range in order are tested
    // by their upper bound alone, and the range and exclusion checks sit inside
    // the forms they concern, so a value of the first form pays one comparison.
    // Otherwise the checks come first, on the value as given.
    let tiled = premap.is_none()
        && model.layout != Layout::Explicit
        && forms.first().is_some_and(|f| f.lo == min)
        && forms.windows(2).all(|p| p[0].hi.checked_add(1) == Some(p[1].lo))
        && forms.last().is_some_and(|f| f.hi == max);
    let mut checks = Vec::new();
    if !tiled {
        let range = range_check(min, max);
        checks.push(quote!(if !#range { #refuse }));
        for &(lo, hi) in &excluded {
            let ex = range_check(lo, hi);
            checks.push(quote!(if #ex { #refuse }));
        }
    }
    let contiguous = model.layout != Layout::Explicit;
    let mut arms = Vec::new();
    for (k, f) in forms.iter().enumerate() {
        let n = proc_macro2::Literal::usize_unsuffixed(f.units.len());
        let (lo, hi, bias) = (f.lo, f.hi, f.bias);
        let cond = if contiguous {
            let hi = lit(hi);
            quote!(value <= #hi)
        } else {
            range_check(lo, hi)
        };
        let mut inner = Vec::new();
        if tiled {
            if k == 0 && min > 0 {
                let min = lit(min);
                inner.push(quote!(if value < #min { #refuse }));
            }
            for &(elo, ehi) in excluded.iter().filter(|&&(elo, ehi)| elo <= hi && lo <= ehi) {
                let ex = range_check(elo, ehi);
                inner.push(quote!(if #ex { #refuse }));
            }
        }
        if body == Body::Length {
            arms.push(quote!(if #cond { #(#inner)* return Ok(#n); }));
            continue;
        }
        let writes = if model.is_radix() {
            digit_writes(model, &f.units, value_ty)
        } else {
            unit_writes(model, &f.units, alphabet)
        };
        let bias = lit(bias);
        arms.push(quote! {
            if #cond {
                #(#inner)*
                let Some(slot) = out.first_chunk_mut::<#n>() else {
                    return Err(::placemat_codec::EncodeError::BufferTooSmall { needed: #n });
                };
                let p = value - #bias;
                #(#writes)*
                return Ok(#n);
            }
        });
    }
    let units = if body == Body::Encode { unit_tables(model) } else { quote!() };
    Ok(quote! {
        #units
        #signed
        #(#checks)*
        #premap
        #(#arms)*
        #refused
    })
}

/// A signed codec's first statements: the value given (`given`) checked
/// against the signed range, and `value`, the raw value its sign spells it
/// with, of the raw type `raw_ty`.
fn signed_prologue(s: &Signed, raw_ty: &TokenStream, refuse: &TokenStream) -> TokenStream {
    let [min, max] = [&s.min, &s.max].map(|v| Literal::i64_unsuffixed(Signed::pattern(v) as i64));
    let (sign, bits) = (super::impls::sign_path(s.sign), s.bits);
    quote! {
        let given = value;
        if !(#min..=#max).contains(&given) {
            #refuse
        }
        let value = match #sign.raw(given as u64, #bits) {
            ::core::option::Option::Some(raw) => raw as #raw_ty,
            ::core::option::Option::None => { #refuse }
        };
    }
}

/// The constants the unit writes index: the bytes spelling each unit (an
/// alphabet's symbols, or the unit map), or the bytes of a digit set.
fn unit_tables(model: &Model) -> TokenStream {
    let alphabet = model.symbols().map(|a| {
        let bytes = Literal::byte_string(a);
        quote! { const ALPHABET: &[u8] = #bytes; }
    });
    let digit_set = model.digit_set.as_ref().map(|set| {
        let (n, bytes) = (set.len(), Literal::byte_string(set));
        quote! { const DIGIT_SET: &[u8; #n] = #bytes; }
    });
    quote!(#alphabet #digit_set)
}

/// The statements writing a form of digit units into `slot` from its payload
/// `p`: the last unit takes `p % radix`, and so on towards the first.
fn digit_writes(model: &Model, units: &[UnitPattern], value_ty: &TokenStream) -> Vec<TokenStream> {
    let mut writes = vec![quote!(let mut q = p;)];
    for (i, u) in units.iter().enumerate().rev() {
        let radix = model.radix(u);
        let i = proc_macro2::Literal::usize_unsuffixed(i);
        let r = lit(radix);
        let digit = if radix == 1 { quote!(0) } else { quote!(q % (#r as #value_ty)) };
        let unit = match u.digits {
            Some(DigitUnit::Set) => quote!(DIGIT_SET[(#digit) as usize]),
            Some(DigitUnit::Range(lo, _)) => {
                let lo = Literal::u8_unsuffixed(lo);
                quote!(#lo + (#digit) as u8)
            }
            None => unreachable!("validated: a codec of digit units has no bit patterns"),
        };
        writes.push(quote!(slot[#i] = #unit;));
        if radix > 1 {
            writes.push(quote!(q /= #r as #value_ty;));
        }
    }
    writes.push(quote!(let _ = q;));
    writes
}

/// The statements writing a form's units into `slot` from its payload `p`: each
/// unit's fixed bits and its share of the payload, from its place
/// ([`Model::places`]). Shares at or above the value type's width are zeros
/// (the range keeps them so).
fn unit_writes(model: &Model, units: &[UnitPattern], alphabet: bool) -> Vec<TokenStream> {
    let width = model.value.bits().unwrap_or(64);
    let mut writes = Vec::new();
    for (i, (u, shift)) in units.iter().zip(model.places(units)).enumerate() {
        let fixed = Literal::u8_unsuffixed(u.fixed_bits);
        let mask = lit((1u64 << u.payload_bits) - 1);
        let s = Literal::u32_unsuffixed(shift);
        let digit = if u.payload_bits == 0 || shift >= width {
            quote!(#fixed)
        } else if shift == 0 {
            quote!(#fixed | (p & #mask) as u8)
        } else {
            quote!(#fixed | ((p >> #s) & #mask) as u8)
        };
        let unit = if alphabet { quote!(ALPHABET[(#digit) as usize]) } else { digit };
        let i = proc_macro2::Literal::usize_unsuffixed(i);
        writes.push(quote!(slot[#i] = #unit;));
    }
    writes
}
