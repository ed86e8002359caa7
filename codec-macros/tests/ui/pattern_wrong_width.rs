// A byte unit has 8 bits; `0xxxxxx` has 7.
placemat_macros::codec! {
    pub Narrow {
        name: "narrow",
        value: u32,
        range: 0 ..= 0x7F,
        forms: { "0xxxxxx" },
    }
}

fn main() {}
