// Only `///` doc comments may precede a description: the attribute is
// refused, and its tokens are not parsed (a value of thousands of `<` once
// exhausted the parser's stack).
placemat_macros::codec! {
    /// Kept.
    #[derive(Debug)]
    #[deprecated = <<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<]
    pub Attributed {
        name: "attributed",
        value: u32,
        range: 0 ..= 0x7F,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
