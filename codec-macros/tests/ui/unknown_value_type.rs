// `u16` is not a value type.
placemat_macros::codec! {
    pub Small {
        name: "small",
        value: u16,
        range: 0 ..= 0x7F,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
