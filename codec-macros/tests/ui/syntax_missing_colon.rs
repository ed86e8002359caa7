// A key without `:` is a syntax error, reported at the token that was not `:`.
placemat_macros::codec! {
    pub NoColon {
        name: "no-colon",
        value u32,
        range: 0 ..= 0x7F,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
