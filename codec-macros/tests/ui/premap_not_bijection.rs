// Two values map to 2, and nothing maps to 3.
placemat_macros::codec! {
    pub NotBijective {
        name: "not-bijective",
        value: u32,
        range: 0 ..= 0x7F,
        premap: [1, 2, 0, 2],
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
