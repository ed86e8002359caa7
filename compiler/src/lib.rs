//! # placemat-compiler
//!
//! The description compiler: a normal library that the `codec!` macro, the CLI,
//! the tests and the report generator all call. Data flows one way through its
//! passes: [`syntax`] (the one parser) → [`validate`] (all errors at once, as
//! [`Diagnostics`]) → [`model`] (span-free) → [`automaton`] (paths, subset
//! construction, Hopcroft minimization, classes, and every fact derived from the
//! automaton, once) → the runtime's tables. Beside the passes: the big-integer
//! [`reference`](mod@reference) interpreter that is the oracle for every fast
//! path, the [`analysis`] behind `placemat compare`, the [`listing`]s and
//! Graphviz pictures, and [`LoadedCodec`], a codec loaded from a description at
//! run time and driven by the same table walker as generated code.
//!
//! ```
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     /// Seven-bit ASCII.
//!     pub Ascii { name: "ascii", value: u32, range: 0 ..= 0x7F, forms: { "0xxxxxxx" } }
//! "#).unwrap();
//! assert_eq!(d.model.name, "ascii");
//! assert_eq!(d.model.summary, "Seven-bit ASCII.");
//! ```
//!
//! The grammar is documented in the `placemat-macros` crate.

pub mod analysis;
pub mod automaton;
pub mod contexts;
mod diagnostic;
pub mod limits;
pub mod listing;
mod loaded;
pub mod model;
pub mod reference;
mod sequences;
pub mod signed;
pub mod syntax;
pub mod validate;

use proc_macro2::TokenStream;

pub use automaton::{Automaton, BuildError, BuildOptions};
pub use diagnostic::{Diagnostic, Diagnostics};
pub use loaded::LoadedCodec;
pub use model::Model;
pub use sequences::{split_radix, split_range};

/// A parsed and validated description: the model plus what only the generated Rust
/// item needs (its visibility).
#[derive(Clone, Debug)]
pub struct Description {
    /// The visibility written before the type name.
    pub vis: syn::Visibility,
    /// The validated model.
    pub model: Model,
}

impl Description {
    /// Parses and validates description tokens (the body of `codec! { … }`).
    pub fn parse(tokens: TokenStream) -> Result<Self, Diagnostics> {
        limits::check_tokens(&tokens)?;
        let ast: syntax::Ast = syn::parse2(tokens)?;
        let model = validate::validate(&ast)?;
        Ok(Description { vis: ast.vis, model })
    }

    /// Parses and validates a description file's text.
    pub fn parse_str(text: &str) -> Result<Self, Diagnostics> {
        limits::check_text(text)?;
        let tokens: TokenStream = text.parse().map_err(|e: proc_macro2::LexError| {
            Diagnostics(vec![Diagnostic::new(e.span(), format!("cannot tokenize the description: {e}"))])
        })?;
        Self::parse(tokens)
    }
}

/// The automaton of any codec, compiled from its description
/// ([`placemat_codec::DynCodec::description`]): what the listings, the
/// pictures and the CLI's explanations read, for generated and loaded codecs
/// alike.
pub fn automaton_of(codec: &dyn placemat_codec::DynCodec) -> Result<Automaton, Diagnostics> {
    let model = Description::parse_str(codec.description())?.model;
    Automaton::build(&model, BuildOptions::default())
        .map_err(|e| Diagnostics(vec![Diagnostic::new(proc_macro2::Span::call_site(), e.to_string())]))
}
