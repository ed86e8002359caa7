// Digit units (`T`, `[lo-hi]`): `T` needs a `digits` set, a codec of digit
// units writes no bit patterns, and a byte range is two hex digits each, low
// before high.
placemat_macros::codec! {
    pub Digits {
        name: "digits",
        value: u32,
        range: 0 ..= 0x4015,
        layout: biased,
        forms: {
            "0xxxxxxx",
            "[A1-F5] T",
            "[A1-G5]",
            "[F5-A1]",
        },
    }
}

fn main() {}
