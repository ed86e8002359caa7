// Rules across adjacent values: closed ranges inside `range`, `then` between
// them, and bounded values read from bit patterns.
placemat_macros::codec! {
    pub Rules {
        name: "rules",
        value: u32,
        range: 0 ..= 0xFFFF,
        forbid: [0xD800 ..= 0xDBFF then 0xDC00 ..= 0x1FFFF, 0x10 .. then 0x20 ..= 0x2F],
        forms: { "0xxxxxxx", "110xxxxx 10xxxxxx", "1110xxxx 10xxxxxx 10xxxxxx" },
    }
}

fn main() {}
