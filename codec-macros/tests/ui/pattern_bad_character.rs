// `2` is neither a fixed bit nor a payload letter.
placemat_macros::codec! {
    pub BadBit {
        name: "bad-bit",
        value: u32,
        range: 0 ..= 0x7FF,
        forms: { "0xxxxxxx", "110xxxxx 1200xxxx" },
    }
}

fn main() {}
