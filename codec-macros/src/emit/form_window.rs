//! Emits the branching decoder's form window: a decoder that works form by form
//! rather than unit by unit, for the bulk loop's fast path.
//!
//! The first unit selects the form (a `match` on its fixed bits). The form's other
//! units are checked against their fixed bits all at once, as one masked compare
//! of an integer assembled from the window (the compiler turns the assembly into
//! one load), their payload is gathered, and the value is checked against the
//! form's range and the excluded ranges. This accepts exactly the sequences the
//! automaton accepts: the model defines a valid sequence as the units of a form
//! carrying `value − bias` for a value in the form's range that is not excluded,
//! and the automaton is built from the same definition (the tests hold every
//! strategy to the reference interpreter).
//!
//! A window that does not start with a valid sequence gives `len == 0`; the bulk
//! loop then hands it to the exact state functions, which find the error's
//! position and length.

use placemat_compiler::automaton::{Automaton, EncodeForm};
use placemat_compiler::model::Model;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// The form window function `window_forms(w) -> (value, len)` and the window size,
/// or `None` when the model does not suit it: units spelled by other bytes
/// (an alphabet or a unit map), unbounded values or sequences,
/// placed payload (groups least significant first, wide units), digit units,
/// more than 8 units in a form, a first unit whose payload bits are not its low
/// bits, or two forms whose first units overlap (the first unit would not
/// determine the form).
pub fn emit(model: &Model, a: &Automaton, value_ty: &TokenStream) -> Option<(TokenStream, usize)> {
    if model.symbols().is_some() || a.facts.cyclic || a.placed || a.radix {
        return None;
    }
    let forms = &a.decode_forms(model)?;
    let window = forms.iter().map(|f| f.units.len()).max()?;
    if window > 8 || forms.iter().any(|f| f.units.is_empty()) {
        return None;
    }
    // First units: contiguous ranges, pairwise disjoint.
    let mut leads: Vec<(u8, u8)> = Vec::new();
    for f in forms {
        let u = &f.units[0];
        let payload = low_mask(u.payload_bits)?;
        if u.fixed_mask | payload != 0xFF || u.fixed_mask & payload != 0 {
            return None;
        }
        leads.push((u.fixed_bits, u.fixed_bits | payload));
    }
    for (i, a) in leads.iter().enumerate() {
        if leads[i + 1..].iter().any(|b| a.0 <= b.1 && b.0 <= a.1) {
            return None;
        }
    }
    let min = u64::try_from(&model.min).ok()?;
    let mut arms = Vec::new();
    for (f, &(lo, hi)) in forms.iter().zip(&leads) {
        let body = form_body(model, f, min)?;
        let (lo, hi) = (Literal::u8_unsuffixed(lo), Literal::u8_unsuffixed(hi));
        arms.push(quote!(#lo..=#hi => { #body }));
    }
    let window_lit = Literal::usize_unsuffixed(window);
    let tokens = quote! {
        /// The form window: the first unit picks the form, the others are checked
        /// at once, the value is range-checked (see `placemat-macros`' emitter docs).
        #[inline(always)]
        fn window_forms(w: &[u8; #window_lit]) -> (#value_ty, usize) {
            let b = w[0] as u64;
            #[allow(clippy::identity_op, unused_comparisons, clippy::absurd_extreme_comparisons)]
            let (value, len): (u64, usize) = match w[0] {
                #(#arms)*
                _ => return (0, 0),
            };
            (value as #value_ty, len)
        }
    };
    Some((tokens, window))
}

fn low_mask(bits: u32) -> Option<u8> {
    match bits {
        0..=7 => Some(((1u16 << bits) - 1) as u8),
        8 => Some(0xFF),
        _ => None,
    }
}

/// The arm of one form: `b` (the first unit) and `w` are in scope; evaluates to
/// `(value, len)` or returns `(0, 0)`.
fn form_body(model: &Model, f: &EncodeForm, min: u64) -> Option<TokenStream> {
    let n = f.units.len();
    // The other units as one little-endian integer: unit k at bits 8(k-1).
    let mut mask: u64 = 0;
    let mut pattern: u64 = 0;
    let mut gather = Vec::new();
    for (k, u) in f.units.iter().enumerate().skip(1) {
        let payload = low_mask(u.payload_bits)?;
        if u.fixed_mask & payload != 0 {
            return None;
        }
        mask |= u64::from(!payload) << (8 * (k - 1));
        pattern |= u64::from(u.fixed_bits & !payload) << (8 * (k - 1));
        let idx = Literal::usize_unsuffixed(k);
        let shift = Literal::u32_unsuffixed(8 * (k as u32 - 1));
        gather.push(quote!((w[#idx] as u64) << #shift));
    }
    // Payload: unit k's bits, most significant first.
    let mut below: u32 = f.units.iter().map(|u| u.payload_bits).sum();
    let mut payload = Vec::new();
    for (k, u) in f.units.iter().enumerate() {
        below -= u.payload_bits;
        if u.payload_bits == 0 {
            continue;
        }
        let m = Literal::u64_unsuffixed(u64::from(low_mask(u.payload_bits)?));
        let s = Literal::u32_unsuffixed(below);
        let unit = if k == 0 {
            quote!(b)
        } else {
            let at = Literal::u32_unsuffixed(8 * (k as u32 - 1));
            quote!((rest >> #at))
        };
        payload.push(quote!(((#unit & #m) << #s)));
    }
    let (lo, hi, bias) = (f.lo.max(min), f.hi, f.bias);
    // Every check folds into one flag and one branch: a valid window is the
    // common case, and each separate branch would cost a prediction slot.
    let mut refuse = vec![{
        let (lo, hi) = (Literal::u64_unsuffixed(lo), Literal::u64_unsuffixed(hi));
        quote!(!(#lo..=#hi).contains(&value))
    }];
    for (elo, ehi) in &model.excluded {
        let (elo, ehi) = (u64::try_from(elo).ok()?, u64::try_from(ehi).ok()?);
        if elo <= hi && lo <= ehi {
            let (elo, ehi) = (Literal::u64_unsuffixed(elo), Literal::u64_unsuffixed(ehi));
            refuse.push(quote!((#elo..=#ehi).contains(&value)));
        }
    }
    let bias = Literal::u64_unsuffixed(bias);
    let n_lit = Literal::usize_unsuffixed(n);
    let payload = if payload.is_empty() { quote!(0u64) } else { quote!(#(#payload)|*) };
    let check_rest = if n > 1 {
        let (mask, pattern) = (Literal::u64_unsuffixed(mask), Literal::u64_unsuffixed(pattern));
        refuse.push(quote!((rest & #mask != #pattern)));
        quote! {
            let rest: u64 = #(#gather)|*;
        }
    } else {
        quote!()
    };
    Some(quote! {
        #check_rest
        let value: u64 = (#payload) + #bias;
        if #(#refuse)|* {
            return (0, 0);
        }
        (value, #n_lit)
    })
}
