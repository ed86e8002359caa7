// The two excluded ranges share 0xDC00..=0xDFFF.
placemat_macros::codec! {
    pub Holes {
        name: "holes",
        value: u32,
        range: 0 ..= 0xFFFF,
        exclude: [0xD800 ..= 0xDFFF, 0xDC00 ..= 0xE0FF],
        forms: { "0xxxxxxx", "110xxxxx 10xxxxxx", "1110xxxx 10xxxxxx 10xxxxxx" },
    }
}

fn main() {}
