//! Emits the tables as documented associated constants, and the `static`
//! [`Dfa`](placemat_codec::dfa::Dfa) over them with every alternative the
//! compiler chose ([`placemat_codec::dfa::Parts`]): the payload's places, the
//! depth certificate, the expanded or direct table with its certificate, the
//! shift rows, the wide runs and the SIMD tables, checked by
//! `Dfa::from_static` in a `const`, which derives the facts (linear in the
//! tables; nothing is rebuilt).

use placemat_compiler::automaton::pack::{narrow_rows, wide_rows, RowTable};
use placemat_compiler::automaton::Automaton;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// `[a, b, c]` with hex literals of `width` digits.
fn hex_array<T: Copy + Into<u128>>(items: &[T], width: usize) -> TokenStream {
    let lits = items.iter().map(|&x| {
        let text = format!("{:#0w$x}", x.into(), w = width + 2);
        text.parse::<Literal>().expect("a hex literal")
    });
    quote!([#(#lits),*])
}

/// `[[row], [row], …]`: one row per state.
fn rows<T: Copy + Into<u128>>(items: &[T], per_row: usize, width: usize) -> TokenStream {
    let rows = items.chunks(per_row).map(|r| hex_array(r, width));
    quote!([#(#rows),*])
}

/// The associated constants of the codec type.
pub fn consts(name: &str, a: &Automaton) -> TokenStream {
    let (classes, states) = (a.class_count(), a.state_count());
    let (n_classes, n_states) = (Literal::usize_unsuffixed(classes), Literal::usize_unsuffixed(states));
    let class_map = hex_array(&a.classes, 2);
    let trans = rows(&a.transitions, classes, 8);
    let biases = hex_array(&a.biases, 1);
    let n_biases = Literal::usize_unsuffixed(a.biases.len());
    let classes_doc = format!(
        " Unit classes of `{name}`: `CLASSES[u]` is the class of unit `u`; units of one class \
         behave alike in every state. {classes} classes, derived from the description."
    );
    let trans_doc = format!(
        " Transitions of `{name}`: one row of {classes} entries per state ({states} states); \
         state ids are premultiplied by {classes}. Entry bits 0–15: next state (0 = dead, \
         {classes} = start, where a completed sequence lands); bits 16–19: payload bits \
         taken from the unit; bits 20–31: index into `BIASES` added on completion. See \
         `placemat_codec::dfa` for the format."
    );
    let biases_doc = format!(" Biases of `{name}`: added to a value when its sequence completes; entry 0 is 0.");
    let digits = if a.facts.byte_digits {
        quote!()
    } else {
        let digits = hex_array(&a.digits, 2);
        let doc = format!(" Digit values of `{name}`: `DIGITS[u]` is the digit that unit `u` spells.");
        quote!(#[doc = #doc] pub const DIGITS: [u8; 256] = #digits;)
    };
    quote! {
        #[doc = #classes_doc]
        pub const CLASSES: [u8; 256] = #class_map;
        #digits
        #[doc = #trans_doc]
        pub const TRANSITIONS: [[u32; #n_classes]; #n_states] = #trans;
        #[doc = #biases_doc]
        pub const BIASES: [u64; #n_biases] = #biases;
        /// Number of unit classes (the width of a transition row).
        pub const CLASS_COUNT: usize = #n_classes;
        /// Number of states, the dead state included.
        pub const STATE_COUNT: usize = #n_states;
    }
}

/// A decoding table of two arrays of one row of 256 entries per state (the
/// next rows and the `u64` values, `placemat_codec::dfa::Rows`) as two
/// `static`s.
fn row_pair(states: usize, t: &RowTable) -> TokenStream {
    let states = Literal::usize_unsuffixed(states);
    let (next, values) = (rows(&t.next, 256, 4), rows(&t.values, 256, 16));
    quote! {{
        static NEXT: [[u32; 256]; #states] = #next;
        static VALUES: [[u64; 256]; #states] = #values;
        ::placemat_codec::dfa::Rows { next: NEXT.as_flattened(), values: VALUES.as_flattened() }
    }}
}

/// The decoder's table ([`placemat_codec::dfa::Decoding`]).
fn decoding(a: &Automaton) -> TokenStream {
    match (&a.expanded, &a.direct, &a.certificates.remaining) {
        (Some(t), _, Some(rem)) => {
            let rows = row_pair(a.state_count(), t);
            let (n_rem, rem) = (Literal::usize_unsuffixed(rem.len()), hex_array(rem, 1));
            quote! {{
                /// The weight of the payload still to come per state, the expanded table's certificate.
                static REMAINING: [u64; #n_rem] = #rem;
                ::placemat_codec::dfa::Decoding::Expanded { rows: #rows, remaining: &REMAINING }
            }}
        }
        (_, Some(t), _) => {
            let rows = row_pair(a.state_count(), t);
            quote!(::placemat_codec::dfa::Decoding::Direct(#rows))
        }
        _ => quote!(::placemat_codec::dfa::Decoding::Classes),
    }
}

/// Whether paths loop ([`placemat_codec::dfa::Loops`]), with the depth certificate.
fn loops(a: &Automaton) -> TokenStream {
    let (depth, variant) = match (&a.certificates.depth, &a.certificates.padding_depth) {
        (Some(depth), _) => (depth, quote!(Acyclic)),
        (None, Some(depth)) => (depth, quote!(Padding)),
        (None, None) => return quote!(::placemat_codec::dfa::Loops::Cyclic),
    };
    let (n_depth, depth) = (Literal::usize_unsuffixed(depth.len()), hex_array(depth, 2));
    quote! {{
        /// The depth certificate: units still to come, at most, per state
        /// (not counting payload-free loops, for padding).
        static DEPTH: [u8; #n_depth] = #depth;
        ::placemat_codec::dfa::Loops::#variant { depth: &DEPTH }
    }}
}

/// How payload joins the value ([`placemat_codec::dfa::Payload`]).
fn payload(a: &Automaton) -> TokenStream {
    let words = |table: &[u64], name: TokenStream, doc: &str| {
        let (n, table) = (Literal::usize_unsuffixed(table.len()), hex_array(table, 4));
        quote! {
            #[doc = #doc]
            static #name: [u64; #n] = #table;
        }
    };
    match (&a.places, &a.radices) {
        (Some(places), _) => {
            let s = words(places, quote!(PLACES), " Where each transition puts its payload: `(shift << 8) | place`.");
            quote!({ #s ::placemat_codec::dfa::Payload::Placed(&PLACES) })
        }
        (_, Some(radices)) => {
            let s = words(radices, quote!(RADICES), " Each transition's multiplier: `v = v * radix + digit`.");
            quote!({ #s ::placemat_codec::dfa::Payload::Radix(&RADICES) })
        }
        _ => quote!(::placemat_codec::dfa::Payload::Shifted),
    }
}

/// The wide-runs fact as a constant expression.
fn wide_runs(runs: &placemat_codec::WideRuns) -> TokenStream {
    if !runs.is_some() {
        return quote!(::placemat_codec::WideRuns::NONE);
    }
    let units = proc_macro2::Ident::new(&format!("{:?}", runs.units), proc_macro2::Span::call_site());
    let [(a, b), (c, d)] = runs.ranges.map(|(lo, hi)| (Literal::u32_unsuffixed(lo), Literal::u32_unsuffixed(hi)));
    quote!(::placemat_codec::WideRuns { units: ::placemat_codec::AsciiRuns::#units, ranges: [(#a, #b), (#c, #d)] })
}

/// The body of `Codec::dfa`: the derived tables in `static`s and the checked
/// `static` walker over them.
pub fn dfa_fn(a: &Automaton, ty: &proc_macro2::Ident) -> TokenStream {
    let wide = wide_runs(&a.facts.wide_runs);
    let unit_bytes = Literal::u8_unsuffixed(a.unit_bytes as u8);
    let contexts = Literal::u8_unsuffixed(a.contexts as u8);
    let digits = if a.facts.byte_digits { quote!(&::placemat_codec::dfa::BYTE_DIGITS) } else { quote!(&#ty::DIGITS) };
    let offsets = hex_array(&a.shift.offsets, 2);
    let n_offsets = Literal::usize_unsuffixed(a.shift.offsets.len());
    let shift = match (narrow_rows(a), wide_rows(a)) {
        (Some(r), _) => {
            let r = hex_array(&r, 16);
            quote! {{
                static ROWS: [u64; 256] = #r;
                ::placemat_codec::dfa::ShiftRows::Narrow { offsets: &SHIFT_OFFSETS, rows: &ROWS }
            }}
        }
        (_, Some(r)) => {
            let r = hex_array(&r, 32);
            quote! {{
                static ROWS: [u128; 256] = #r;
                ::placemat_codec::dfa::ShiftRows::Wide { offsets: &SHIFT_OFFSETS, rows: &ROWS }
            }}
        }
        _ => quote!(::placemat_codec::dfa::ShiftRows::None),
    };
    let (payload, loops, decoding) = (payload(a), loops(a), decoding(a));
    let simd = simd(a);
    let pending = pending_static(a);
    quote! {
        /// The merged state offsets of the shift validator, one per state.
        static SHIFT_OFFSETS: [u8; #n_offsets] = #offsets;
        static DFA: ::placemat_codec::dfa::Dfa = ::placemat_codec::dfa::Dfa::from_static(::placemat_codec::dfa::Parts {
            table: ::placemat_codec::dfa::Table {
                classes: &#ty::CLASSES,
                digits: #digits,
                transitions: #ty::TRANSITIONS.as_flattened(),
                biases: &#ty::BIASES,
                unit_bytes: #unit_bytes,
                contexts: #contexts,
            },
            payload: #payload,
            loops: #loops,
            decoding: #decoding,
            shift: #shift,
            wide_runs: #wide,
            simd: #simd,
            pending: #pending,
        });
        &DFA
    }
}

/// `&PENDING` over a `static` of every state's pending value (`overlap:
/// longest`), or `&[]`.
fn pending_static(a: &Automaton) -> TokenStream {
    if a.pending_entries.is_empty() {
        return quote!(&[]);
    }
    let (n, entries) = (Literal::usize_unsuffixed(a.pending_entries.len()), &a.pending_entries);
    let entries = entries.iter().map(|&e| Literal::u32_unsuffixed(e));
    quote! {{
        /// Every state's pending value (`overlap: longest`): the context it
        /// leaves plus one, its bias index, the units read since.
        static PENDING: [u32; #n] = [#(#entries),*];
        &PENDING
    }}
}

/// The SIMD validator's tables and the decoding kernel's shape
/// ([`placemat_codec::dfa::Simd`]), for a codec whose validity is local.
fn simd(a: &Automaton) -> TokenStream {
    let Ok(local) = &a.local else {
        return quote!(::core::option::Option::None);
    };
    let tables = simd_tables(&local.tables);
    let shape = decoding_shape(a);
    quote! {
        // Derived and proved equal to the automaton by
        // `placemat_compiler::automaton::local`: bits 0-6 are error classes
        // (nibble boxes of forbidden unit pairs), bit 7 marks continuation units
        // (or, with `continuation_end`, is an eighth class).
        ::core::option::Option::Some(::placemat_codec::dfa::Simd { tables: #tables, decoding: #shape })
    }
}

/// A SIMD validator's tables ([`placemat_codec::simd::Tables`]) as an expression.
pub(super) fn simd_tables(t: &placemat_codec::simd::Tables) -> TokenStream {
    let (ph, pl, ch) = (hex_array(&t.prev_high, 2), hex_array(&t.prev_low, 2), hex_array(&t.cur_high, 2));
    let some_array = |a: &Option<[u8; 16]>| match a {
        Some(a) => {
            let a = hex_array(a, 2);
            quote!(::core::option::Option::Some(#a))
        }
        None => quote!(::core::option::Option::None),
    };
    let (cl, floor) = (some_array(&t.cur_low), some_array(&t.floor));
    let th = hex_array(&t.thresholds, 2);
    let (need, start, ascii, restart) = (t.need, t.start, t.ascii, t.restart);
    let end = match t.continuation_end {
        Some(end) => quote!(::core::option::Option::Some(#end)),
        None => quote!(::core::option::Option::None),
    };
    quote! {
        ::placemat_codec::simd::Tables {
            prev_high: #ph,
            prev_low: #pl,
            cur_high: #ch,
            cur_low: #cl,
            thresholds: #th,
            need: #need,
            start: #start,
            ascii: #ascii,
            continuation_end: #end,
            floor: #floor,
            restart: #restart,
        }
    }
}

/// The SIMD decoding kernel's shape (`Simd::decoding`), or `None`.
fn decoding_shape(a: &Automaton) -> TokenStream {
    let Some(shape) = a.local.as_ref().ok().and_then(|l| l.decoding_shape) else {
        return quote!(::core::option::Option::None);
    };
    let hex = |u: u8| format!("{u:#04x}").parse::<Literal>().expect("a hex literal");
    let (first, last) = (hex(shape.continuation.0), hex(shape.continuation.1));
    let bases = hex_array(&shape.lead_base, 2);
    quote! {
        // Derived by `placemat_compiler::automaton::local::shape`: each
        // continuation unit is worth itself less the first, each lead of n
        // units itself less `lead_base[n]`.
        ::core::option::Option::Some(::placemat_codec::simd::Shape {
            continuation: (#first, #last),
            lead_base: #bases,
        })
    }
}
