// A pre-mapping of 3 values permutes 0..3; 7 is outside.
placemat_macros::codec! {
    pub Outside {
        name: "outside",
        value: u32,
        range: 0 ..= 0x7F,
        premap: [1, 7, 0],
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
