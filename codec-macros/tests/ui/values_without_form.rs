// The forms reach 0x7FF, but the range goes on to 0xFFFF.
placemat_macros::codec! {
    pub Gap {
        name: "gap",
        value: u32,
        range: 0 ..= 0xFFFF,
        forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" },
    }
}

fn main() {}
