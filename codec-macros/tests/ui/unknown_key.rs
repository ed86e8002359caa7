// `ranges` is not a key (the key is `range`).
placemat_macros::codec! {
    pub Typo {
        name: "typo",
        value: u32,
        range: 0 ..= 0x7F,
        ranges: 0 ..= 0x7F,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
