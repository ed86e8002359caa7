// The codec's range is written backwards.
placemat_macros::codec! {
    pub Backwards {
        name: "backwards",
        value: u32,
        range: 0x7F ..= 0x10,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
