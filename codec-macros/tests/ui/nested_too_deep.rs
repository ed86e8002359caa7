// Nesting is bounded before the description is parsed.
placemat_macros::codec! {
    pub Deep {
        name: "deep",
        value: u32,
        range: ((((((((((((((((((((0 ..= 0x7F)))))))))))))))))))),
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
