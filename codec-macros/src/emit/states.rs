//! The one state-function emitter behind the branching decoder: one function
//! per automaton state, each a `match` on the unit with one arm per target
//! (runs of units that take the same transition, merged, in hex); with a
//! unit map, a `match` on the unit's digit (one table read first), whose runs
//! are the forms' own rather than the map's scattered bytes. No other table
//! is read; the compiler sees every range as a constant.
//!
//! It is parametrised by how a function reads its unit ([`Reader`]): from a
//! slice, checking the bounds and returning a `Step` with exact errors (the
//! *exact* functions `state_N`), or from a fixed-size window, where the inliner
//! turns every position into a constant and no read is checked (the *window*
//! functions `window_N`, which return `(value, len)` with `len == 0` for "not a
//! valid sequence here": the bulk loop then asks the exact functions).

use placemat_compiler::automaton::Automaton;
use placemat_compiler::listing::{arms, digit_arms, Arm};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

/// How the state functions read their unit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reader {
    /// From `input: &[u8]`, bounds-checked, returning `Step`.
    Exact,
    /// From `w: &[u8; N]`, returning `(value, len)`.
    Window(usize),
}

impl Reader {
    fn name(self, state: usize) -> Ident {
        let prefix = if self == Reader::Exact { "state" } else { "window" };
        Ident::new(&format!("{prefix}_{state}"), Span::call_site())
    }
}

/// Everything the arms need to know about the codec.
pub struct Target<'a> {
    pub automaton: &'a Automaton,
    pub value_ty: &'a TokenStream,
    pub codec_ty: &'a Ident,
    /// Whether values can outgrow the value type (an unbounded codec's loop
    /// reads payload; padding's loops read zeros).
    pub outgrows: bool,
}

/// The state functions for `reader`, or `None` when the automaton has a cycle
/// through several states (which neither reader handles) or, for a window, any
/// cycle at all.
pub fn emit(t: &Target<'_>, reader: Reader) -> Option<TokenStream> {
    let a = t.automaton;
    if !a.certificates.loops_on_one_state || (a.facts.cyclic && reader != Reader::Exact) {
        return None;
    }
    let fns = (1..a.state_count()).map(|s| state_fn(t, reader, s));
    Some(quote!(#(#fns)*))
}

/// Whether the state functions match the unit's digit rather than the unit:
/// with a unit map, whose bytes scatter the forms' few runs of units.
fn by_digit(t: &Target<'_>) -> bool {
    t.automaton.digit_units.is_some()
}

/// The statement that turns the unit `b` just read into what the arms match.
fn matched(t: &Target<'_>) -> TokenStream {
    let codec_ty = t.codec_ty;
    if by_digit(t) {
        quote!(let b = #codec_ty::DIGITS[b as usize];)
    } else {
        quote!()
    }
}

/// One state's function.
fn state_fn(t: &Target<'_>, reader: Reader, s: usize) -> TokenStream {
    let name = reader.name(s);
    let to_digit = matched(t);
    let (loops, arms) = grouped_arms(t, reader, s);
    let doc = match reader {
        Reader::Exact => format!(" State {s} of the automaton: reads the unit at `i`."),
        Reader::Window(_) => format!(" State {s} of the automaton, on a window: reads `w[i]`."),
    };
    let value_ty = t.value_ty;
    // The maximal subpart; for units wider than a byte, whole units (or a
    // truncated sequence, if the input ends inside the unit).
    let invalid = match (t.automaton.is_boundary(s), t.automaton.unit_bytes) {
        (true, 1) => quote!(::placemat_codec::Step::Invalid { len: 1 }),
        (_, 1) => quote!(::placemat_codec::Step::Invalid { len: i }),
        (_, n) => {
            let n = Literal::usize_unsuffixed(n as usize);
            quote!(::placemat_codec::dfa::dead_end(i, #n, input.len()))
        }
    };
    let lint = quote!(#[allow(clippy::let_and_return, clippy::identity_op, clippy::needless_return)]);
    match reader {
        Reader::Window(n) => {
            let size = Literal::usize_unsuffixed(n);
            quote! {
            #[doc = #doc]
            #[inline(always)]
            fn #name(w: &[u8; #size], i: usize, v: #value_ty) -> (#value_ty, usize) {
                let b = w[i];
                #to_digit
                #lint
                match b {
                    #(#arms)*
                    _ => (0, 0),
                }
            }
            }
        }
        Reader::Exact if !loops.is_empty() => quote! {
            #[doc = #doc]
            #[inline(always)]
            fn #name(input: &[u8], mut i: usize, mut v: #value_ty) -> ::placemat_codec::Step<#value_ty> {
                loop {
                    let Some(&b) = input.get(i) else {
                        return ::placemat_codec::Step::Incomplete;
                    };
                    #to_digit
                    #lint
                    match b {
                        #(#loops)*
                        #(#arms)*
                        _ => return #invalid,
                    }
                }
            }
        },
        Reader::Exact => {
            let plain = |fname: &Ident, doc: &str| {
                quote! {
                    #[doc = #doc]
                    #[inline(always)]
                    fn #fname(input: &[u8], i: usize, v: #value_ty) -> ::placemat_codec::Step<#value_ty> {
                        let Some(&b) = input.get(i) else {
                            return ::placemat_codec::Step::Incomplete;
                        };
                        #to_digit
                        #lint
                        match b {
                            #(#arms)*
                            _ => #invalid,
                        }
                    }
                }
            };
            match t.automaton.pending[s].filter(|p| p.back == 0) {
                None => plain(&name, &doc),
                // The units read so far are a whole sequence: the state's
                // function takes it where the longer ones fail.
                Some(p) => {
                    let bias = Literal::u64_unsuffixed(p.bias);
                    let longer = Ident::new(&format!("longer_{s}"), Span::call_site());
                    let inner = plain(&longer, " The longer sequences from that state.");
                    quote! {
                        #[doc = #doc]
                        #[doc = " The units read so far are a whole sequence: if no longer one goes on, it is the value."]
                        #[inline(always)]
                        fn #name(input: &[u8], i: usize, v: #value_ty) -> ::placemat_codec::Step<#value_ty> {
                            match Self::#longer(input, i, v) {
                                ::placemat_codec::Step::Value { value, len } => ::placemat_codec::Step::Value { value, len },
                                _ => ::placemat_codec::Step::Value { value: v.wrapping_add(#bias), len: i },
                            }
                        }
                        #inner
                    }
                }
            }
        }
    }
}

/// The arms of state `s`, runs with the same transition merged into one arm:
/// first the arms that stay in `s` (a repeated unit, emitted as a loop), then
/// the others, in unit order of their first run.
fn grouped_arms(t: &Target<'_>, reader: Reader, s: usize) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let mut groups: Vec<(Arm, Vec<(u8, u8)>)> = Vec::new();
    let all = digit_arms(t.automaton, s).unwrap_or_else(|| arms(t.automaton, s));
    for arm in all.into_iter().filter(|a| a.next != 0) {
        let key = |a: &Arm| (a.next, a.payload_bits, a.place, a.bias);
        match groups.iter_mut().find(|(g, _)| key(g) == key(&arm)) {
            Some((_, runs)) => runs.push((arm.lo, arm.hi)),
            None => groups.push((arm, vec![(arm.lo, arm.hi)])),
        }
    }
    let (mut loops, mut others) = (Vec::new(), Vec::new());
    for (arm, runs) in &groups {
        let pat = pattern(runs);
        if arm.next == s && !t.automaton.is_boundary(s) {
            let take = take(t, arm, true);
            loops.push(quote!(#pat => { #take i += 1; }));
        } else {
            let body = then(t, reader, s, arm);
            others.push(quote!(#pat => { #body }));
        }
    }
    (loops, others)
}

/// `0x80..=0xBF | 0xC2` for the runs of a group.
fn pattern(runs: &[(u8, u8)]) -> TokenStream {
    let alts = runs.iter().map(|&(lo, hi)| {
        let (l, h) = (hex(lo), hex(hi));
        if lo == hi {
            quote!(#l)
        } else {
            quote!(#l..=#h)
        }
    });
    quote!(#(#alts)|*)
}

fn hex(u: u8) -> Literal {
    format!("0x{u:02X}").parse().expect("a hex literal")
}

/// The statement that takes the unit's payload into `v`, assigning (`assign`,
/// in a loop over a mutable `v`) or shadowing. Checked against overflow for
/// unbounded codecs, whose values can outgrow the value type: a sequence that
/// overflows is handed to the table walker's checked step.
fn take(t: &Target<'_>, a: &Arm, assign: bool) -> TokenStream {
    if a.payload_bits == 0 {
        return quote!();
    }
    if t.automaton.placed {
        return take_placed(t, a);
    }
    if t.automaton.radix {
        return take_radix(t, a);
    }
    let value_ty = t.value_ty;
    let codec_ty = t.codec_ty;
    let n = Literal::u32_unsuffixed(a.payload_bits);
    let mask: Literal =
        format!("{:#X}", (1u16 << a.payload_bits) - 1).replace("0X", "0x").parse().expect("a hex literal");
    let digit =
        if t.automaton.facts.byte_digits || by_digit(t) { quote!(b) } else { quote!(#codec_ty::DIGITS[b as usize]) };
    let check = if t.outgrows {
        let keep = Literal::u32_unsuffixed(64 - a.payload_bits);
        quote! {
            if v >> #keep != 0 {
                return <#codec_ty as ::placemat_codec::Codec>::dfa().step_checked(input);
            }
        }
    } else {
        quote!()
    };
    let bind = if assign { quote!() } else { quote!(let) };
    quote!(#check #bind v = (v << #n) | ((#digit as u16 & #mask) as #value_ty);)
}

/// With placed payload ([`Automaton::placed`]): the value read so far shifts
/// by the arm's shift and the unit's payload goes to its place (the automaton is
/// not cyclic, so `v` is shadowed).
fn take_placed(t: &Target<'_>, a: &Arm) -> TokenStream {
    let (value_ty, codec_ty) = (t.value_ty, t.codec_ty);
    let shift = Literal::u32_unsuffixed(a.place >> placemat_codec::dfa::PLACE_SHIFT);
    let at = Literal::u32_unsuffixed(a.place & 0xFF);
    let mask: Literal =
        format!("{:#X}", (1u16 << a.payload_bits) - 1).replace("0X", "0x").parse().expect("a hex literal");
    let digit =
        if t.automaton.facts.byte_digits || by_digit(t) { quote!(b) } else { quote!(#codec_ty::DIGITS[b as usize]) };
    quote!(let v = (v << #shift) | (((#digit as u16 & #mask) as #value_ty) << #at);)
}

/// With digit units ([`Automaton::radix`]): `v = v * radix + digit`, in
/// wrapping arithmetic (the bias that completes the value may wrap it back;
/// the automaton is not cyclic, so `v` is shadowed).
fn take_radix(t: &Target<'_>, a: &Arm) -> TokenStream {
    let (value_ty, codec_ty) = (t.value_ty, t.codec_ty);
    let digit =
        if t.automaton.facts.byte_digits || by_digit(t) { quote!(b) } else { quote!(#codec_ty::DIGITS[b as usize]) };
    if a.place <= 1 {
        return quote!(let v = v.wrapping_add(#digit as #value_ty););
    }
    let radix = Literal::u32_unsuffixed(a.place);
    quote!(let v = v.wrapping_mul(#radix).wrapping_add(#digit as #value_ty);)
}

/// An arm's body: take the payload, then finish the sequence or go on to the
/// next state's function.
fn then(t: &Target<'_>, reader: Reader, s: usize, a: &Arm) -> TokenStream {
    let take = take(t, a, reader == Reader::Exact && has_loop(t.automaton, s));
    let value = if a.bias == 0 {
        quote!(v)
    } else if t.automaton.radix {
        // A bias modulo 2^64, which may stand for a negative one.
        let (bias, value_ty) = (Literal::u64_suffixed(a.bias), t.value_ty);
        quote!(v.wrapping_add(#bias as #value_ty))
    } else {
        let bias = Literal::u64_unsuffixed(a.bias);
        quote!(v + #bias)
    };
    let next = reader.name(a.next);
    let result = match reader {
        Reader::Exact if t.automaton.is_boundary(a.next) => {
            quote!(return ::placemat_codec::Step::Value { value: #value, len: i + 1 };)
        }
        Reader::Exact => quote!(return Self::#next(input, i + 1, v);),
        Reader::Window(_) if t.automaton.is_boundary(a.next) => quote!((#value, i + 1)),
        Reader::Window(_) => quote!(Self::#next(w, i + 1, v)),
    };
    quote!(#take #result)
}

/// Whether state `s` loops on itself (its exact function is a loop).
fn has_loop(a: &Automaton, s: usize) -> bool {
    !a.is_boundary(s) && a.edges[s].iter().any(|e| e.next == s)
}
