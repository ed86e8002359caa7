// Codec names are lowercase letters, digits and `-`.
placemat_macros::codec! {
    pub Shouty {
        name: "UTF_8",
        value: u32,
        range: 0 ..= 0x7F,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
