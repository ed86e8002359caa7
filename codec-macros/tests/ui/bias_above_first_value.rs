// A form's value is its bias plus its payload, so a bias above the form's first
// value leaves that value unreachable.
placemat_macros::codec! {
    pub LateBias {
        name: "late-bias",
        value: u32,
        range: 0 ..= 0x87F,
        layout: explicit,
        forms: {
            0x00 ..= 0x7F            => "0xxxxxxx",
            0x80 ..= 0x87F bias 0x100 => "110xxxxx 10xxxxxx",
        },
    }
}

fn main() {}
