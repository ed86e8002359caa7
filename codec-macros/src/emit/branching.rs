//! Emits the branching decoder: one function per DFA state, each a `match` on the
//! unit with one arm per run of units that take the same transition. No table is
//! read; the compiler sees every range as a constant.

use placemat_codec::build::tables::{arms, Arm};
use placemat_codec::dfa::{Dfa, DEAD};
use placemat_codec::Unit;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

fn state_fn(state: usize, stride: usize) -> Ident {
    Ident::new(&format!("state_{}", state / stride), Span::call_site())
}

/// The branching decoder's state functions; `step` calls the start state's.
/// `codec_ty` is the codec type, whose `DIGITS` table maps alphabet units to digits.
pub fn emit(
    dfa: &Dfa<&[u32], &[u64]>,
    unit: &Unit,
    value_ty: &TokenStream,
    codec_ty: &Ident,
) -> syn::Result<TokenStream> {
    let stride = dfa.class_count();
    let start = dfa.start();
    // The generator inlines state into state, so the automaton must not loop except
    // through the start state or on one state (a repeated unit, emitted as a loop).
    let mut order = Vec::new();
    if !topological(dfa, &mut order) {
        return Err(syn::Error::new(
            Span::call_site(),
            "the automaton has a cycle through several states: a branching decoder handles only a repeated unit",
        ));
    }
    // Values of an unbounded codec can outgrow the value type: every shift is
    // checked, and a sequence that overflows is handed to the table walker's checked
    // step, which reports it exactly as the 64-bit view defines.
    let overflow_check = |n: u32| {
        if dfa.is_cyclic() {
            let keep = Literal::u32_unsuffixed(64 - n);
            quote! {
                if v >> #keep != 0 {
                    return <#codec_ty as ::placemat_codec::Codec>::dfa().step_checked(input);
                }
            }
        } else {
            quote!()
        }
    };
    let digit = digit_of_b(unit, codec_ty);
    let mut fns = Vec::new();
    for st in (1..dfa.state_count()).map(|s| s * stride) {
        let name = state_fn(st, stride);
        let mut match_arms = Vec::new();
        let mut loop_arms = Vec::new();
        for a in arms(dfa, st) {
            if a.next == DEAD {
                continue;
            }
            if a.next == st && st != start {
                let (lo, hi) = (Literal::u8_unsuffixed(a.lo), Literal::u8_unsuffixed(a.hi));
                let n = Literal::u32_unsuffixed(a.payload_bits);
                let mask = Literal::u16_unsuffixed((1u16 << a.payload_bits) - 1);
                let check = overflow_check(a.payload_bits);
                loop_arms.push(quote! {
                    #lo..=#hi => {
                        #check
                        v = (v << #n) | ((#digit as u16 & #mask) as #value_ty);
                        i += 1;
                    }
                });
                continue;
            }
            let check = overflow_check(a.payload_bits);
            let (pat, take, finish) = arm_parts(&a, &digit, value_ty, check);
            let then = if a.next == start {
                quote!(::placemat_codec::Step::Value { value: #finish, len: i + 1 })
            } else {
                let next = state_fn(a.next, stride);
                quote!(Self::#next(input, i + 1, v))
            };
            match_arms.push(quote!(#pat => { #take return #then; }));
        }
        let invalid = if st == start { quote!(1) } else { quote!(i) };
        let doc = format!("State {} of the automaton: reads the unit at `i`.", st / stride);
        if !loop_arms.is_empty() {
            fns.push(quote! {
                #[doc = #doc]
                #[inline(always)]
                fn #name(input: &[u8], mut i: usize, mut v: #value_ty) -> ::placemat_codec::Step<#value_ty> {
                    loop {
                        let Some(&b) = input.get(i) else {
                            return ::placemat_codec::Step::Incomplete;
                        };
                        #[allow(clippy::let_and_return, clippy::identity_op, clippy::needless_return)]
                        match b {
                            #(#loop_arms)*
                            #(#match_arms)*
                            _ => return ::placemat_codec::Step::Invalid { len: #invalid },
                        }
                    }
                }
            });
            continue;
        }
        fns.push(quote! {
            #[doc = #doc]
            #[inline(always)]
            fn #name(input: &[u8], i: usize, v: #value_ty) -> ::placemat_codec::Step<#value_ty> {
                let Some(&b) = input.get(i) else {
                    return ::placemat_codec::Step::Incomplete;
                };
                #[allow(clippy::let_and_return, clippy::identity_op, clippy::needless_return)]
                match b {
                    #(#match_arms)*
                    _ => ::placemat_codec::Step::Invalid { len: #invalid },
                }
            }
        });
    }
    Ok(quote!(#(#fns)*))
}

/// The pattern of an arm, the statement that takes its payload into `v`, and the
/// expression of the finished value (with the bias) when the arm completes a
/// sequence. `check` guards the shift against overflow (unbounded codecs).
fn arm_parts(
    a: &Arm,
    digit: &TokenStream,
    value_ty: &TokenStream,
    check: TokenStream,
) -> (TokenStream, TokenStream, TokenStream) {
    let (lo, hi) = (Literal::u8_unsuffixed(a.lo), Literal::u8_unsuffixed(a.hi));
    let pat = if a.lo == a.hi { quote!(#lo) } else { quote!(#lo..=#hi) };
    let take = if a.payload_bits == 0 {
        quote!(let v = v;)
    } else {
        let n = Literal::u32_unsuffixed(a.payload_bits);
        let mask = Literal::u16_unsuffixed((1u16 << a.payload_bits) - 1);
        quote!(#check let v: #value_ty = (v << #n) | ((#digit as u16 & #mask) as #value_ty);)
    };
    let finish = if a.bias == 0 {
        quote!(v)
    } else {
        let bias = Literal::u64_unsuffixed(a.bias);
        quote!(v + #bias)
    };
    (pat, take, finish)
}

/// The window decoder: for automata whose every path returns to the start within
/// a bounded number of units (no repeated unit), one function per state that reads
/// its unit from a fixed-size window `w` at a position the inliner turns into a
/// constant, so no unit read is bounds-checked. `window` is the longest
/// sequence (the model's `max_units`). Returns `None` for automata with loops.
///
/// A window function returns `(value, len)`; `len == 0` means the window does not
/// start with a valid sequence, and the caller falls back to the exact state
/// functions of [`emit`] for the error's position and length.
pub fn emit_window(
    dfa: &Dfa<&[u32], &[u64]>,
    unit: &Unit,
    value_ty: &TokenStream,
    codec_ty: &Ident,
    window: usize,
) -> Option<TokenStream> {
    if dfa.is_cyclic() {
        return None;
    }
    let stride = dfa.class_count();
    let start = dfa.start();
    let digit = digit_of_b(unit, codec_ty);
    let mut fns = Vec::new();
    for st in (1..dfa.state_count()).map(|s| s * stride) {
        let name = window_fn(st, stride);
        let mut match_arms = Vec::new();
        for a in arms(dfa, st) {
            if a.next == DEAD {
                continue;
            }
            let (pat, take, finish) = arm_parts(&a, &digit, value_ty, quote!());
            let then = if a.next == start {
                quote!((#finish, i + 1))
            } else {
                let next = window_fn(a.next, stride);
                quote!(Self::#next(w, i + 1, v))
            };
            match_arms.push(quote!(#pat => { #take #then }));
        }
        let doc = format!("State {} of the automaton, on a window: reads `w[i]`.", st / stride);
        fns.push(quote! {
            #[doc = #doc]
            #[inline(always)]
            fn #name(w: &[u8; #window], i: usize, v: #value_ty) -> (#value_ty, usize) {
                let b = w[i];
                #[allow(clippy::let_and_return, clippy::identity_op)]
                match b {
                    #(#match_arms)*
                    _ => (0, 0),
                }
            }
        });
    }
    Some(quote!(#(#fns)*))
}

fn window_fn(state: usize, stride: usize) -> Ident {
    Ident::new(&format!("window_{}", state / stride), Span::call_site())
}

/// The digit of the unit `b` in emitted code: the unit itself, or its index in the
/// codec's alphabet.
fn digit_of_b(unit: &Unit, codec_ty: &Ident) -> TokenStream {
    match unit {
        Unit::Byte => quote!(b),
        Unit::Alphabet(_) => quote!(#codec_ty::DIGITS[b as usize]),
    }
}

/// Orders the non-dead, non-start states; false if some cycle avoids the start.
fn topological(dfa: &Dfa<&[u32], &[u64]>, order: &mut Vec<usize>) -> bool {
    let stride = dfa.class_count();
    let n = dfa.state_count();
    // 0 = unvisited, 1 = on the stack, 2 = done.
    let mut mark = vec![0u8; n];
    fn visit(dfa: &Dfa<&[u32], &[u64]>, s: usize, mark: &mut [u8], order: &mut Vec<usize>) -> bool {
        let stride = dfa.class_count();
        match mark[s / stride] {
            1 => return false,
            2 => return true,
            _ => {}
        }
        mark[s / stride] = 1;
        for c in 0..stride {
            let t = (dfa.transitions()[s + c] & placemat_codec::dfa::STATE_MASK) as usize;
            if t != DEAD && t != dfa.start() && t != s && !visit(dfa, t, mark, order) {
                return false;
            }
        }
        mark[s / stride] = 2;
        order.push(s);
        true
    }
    (2..n).all(|s| visit(dfa, s * stride, &mut mark, order))
}
