// `sign` needs a signed value type, and only a signed codec's range takes
// negative numbers.
placemat_macros::codec! {
    pub Unsigned {
        name: "unsigned",
        value: u64,
        sign: zigzag,
        range: -5 ..= 5,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
