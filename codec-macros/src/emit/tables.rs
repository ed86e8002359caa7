//! Emits the DFA tables as documented associated constants, and the `static` table
//! walker built over them.

use placemat_codec::dfa::Dfa;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// `[a, b, c]` with unsuffixed hex literals.
fn hex_array<T: Copy + Into<u64>>(items: &[T], width: usize) -> TokenStream {
    let lits = items.iter().map(|&x| {
        let text = format!("{:#0w$x}", x.into(), w = width + 2);
        text.parse::<Literal>().expect("a hex literal")
    });
    quote!([#(#lits),*])
}

/// The `impl` block with the tables and the walker's `static`.
pub fn emit(name: &str, dfa: &Dfa<&[u32], &[u64]>) -> TokenStream {
    let classes = hex_array(&dfa.classes()[..], 2);
    let digits = hex_array(&dfa.digits()[..], 2);
    let trans = hex_array(dfa.transitions(), 8);
    let biases = hex_array(dfa.biases(), 1);
    let n_trans = dfa.transitions().len();
    let n_biases = dfa.biases().len();
    let class_count = dfa.class_count();
    let state_count = dfa.state_count();
    let classes_doc = format!(
        "Unit classes of `{name}`: `CLASSES[u]` is the class of unit `u`; units of one class \
         behave alike in every state. {class_count} classes, derived from the description."
    );
    let digits_doc = format!(
        "Digit values of `{name}`: `DIGITS[u]` is the digit that unit `u` spells (the byte \
         itself for byte units); payload bits are its low bits."
    );
    let trans_doc = format!(
        "Transitions of `{name}`: {state_count} states × {class_count} classes, row after row; \
         state ids are premultiplied by {class_count}. Entry bits 0–15: next state (0 = dead, \
         {class_count} = start, where a completed sequence lands); bits 16–19: payload bits \
         taken from the unit; bits 20–31: index into `BIASES` added on completion. See \
         `placemat_codec::dfa` for the format."
    );
    let biases_doc = format!("Biases of `{name}`: added to a value when its sequence completes; entry 0 is 0.");
    quote! {
        #[doc = #classes_doc]
        pub const CLASSES: [u8; 256] = #classes;
        #[doc = #digits_doc]
        pub const DIGITS: [u8; 256] = #digits;
        #[doc = #trans_doc]
        pub const TRANSITIONS: [u32; #n_trans] = #trans;
        #[doc = #biases_doc]
        pub const BIASES: [u64; #n_biases] = #biases;
        /// Number of unit classes (the width of a transition row).
        pub const CLASS_COUNT: usize = #class_count;
        /// Number of states, the dead state included.
        pub const STATE_COUNT: usize = #state_count;
    }
}
