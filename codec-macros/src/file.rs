//! `codec!(file = "…")`: the description read from a file beside the calling
//! crate's `Cargo.toml`, tracked so that editing the file rebuilds the crate.
//!
//! The file is compiled with `proc_macro2`'s own implementation of the token API
//! (`proc_macro2::fallback::force`), whose spans know their line and column in the
//! file, so an error reads `descriptions/utf8.placemat:12:9: error: …` — the
//! same text `placemat --spec` prints for the same file.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token};

use placemat_compiler::{Description, Model};

/// `file = "path"`.
pub(crate) struct FileInput {
    path: LitStr,
}

impl Parse for FileInput {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let key: Ident = input.parse()?;
        if key != "file" {
            return Err(syn::Error::new(key.span(), "expected `file`"));
        }
        input.parse::<Token![=]>()?;
        let path = input.parse()?;
        Ok(FileInput { path })
    }
}

/// The codec the file describes, or its errors at the path.
pub(crate) fn expand(input: &FileInput) -> TokenStream {
    let span = input.path.span();
    let relative = input.path.value();
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let full = std::path::Path::new(&root).join(&relative);
    let text = match std::fs::read_to_string(&full) {
        Ok(text) => text,
        Err(e) => {
            let message = format!("cannot read `{relative}` (paths are relative to the crate's `Cargo.toml`): {e}");
            return syn::Error::new(span, message).to_compile_error();
        }
    };
    // Rebuild when the file changes: the compiler tracks files read by `include_bytes!`.
    let full_path = full.display().to_string();
    let tracking = quote! { const _: &[u8] = ::core::include_bytes!(#full_path); };
    let description = compile(&text, &relative).map_err(|rendered| syn::Error::new(span, rendered));
    let tokens: TokenStream = text.parse().unwrap_or_default();
    crate::expand(description, tokens, &text, tracking)
}

/// Parses and validates `text` with `proc_macro2`'s own implementation, whose
/// spans know their line and column in the file; errors come back rendered as
/// `file:line:column` lines. Nothing holding such a span outlives the switch
/// back: the model is span-free and the visibility travels as text.
fn compile(text: &str, file: &str) -> Result<Description, String> {
    proc_macro2::fallback::force();
    let compiled = Description::parse_str(text)
        .map(|d| (d.model, d.vis.to_token_stream().to_string()))
        .map_err(|e| e.render(file));
    proc_macro2::fallback::unforce();
    let (model, vis): (Model, String) = compiled?;
    // Parsed here, the visibility's tokens take the macro's call site as span.
    let vis = syn::parse_str(&vis).map_err(|e| e.to_string())?;
    Ok(Description { vis, model })
}

#[cfg(test)]
mod tests {
    use super::compile;

    #[test]
    fn a_file_compiles_to_its_model() {
        let d = compile(
            "pub(crate) A { name: \"a\", value: u32, range: 0 ..= 0x7F, forms: { \"0xxxxxxx\" } }",
            "a.placemat",
        )
        .unwrap();
        assert_eq!(d.model.name, "a");
        assert!(matches!(d.vis, syn::Visibility::Restricted(_)));
    }

    #[test]
    fn a_files_errors_point_into_the_file() {
        let text =
            "pub A {\n    name: \"a\",\n    value: u32,\n    range: 0 ..= 0x7F,\n    forms: { \"0xxxxxx\" },\n}\n";
        let err = compile(text, "descriptions/a.placemat").unwrap_err();
        assert!(err.starts_with("descriptions/a.placemat:5:14: error: "), "{err}");
    }
}
