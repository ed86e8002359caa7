// A bias that does not fit the value type: payload + bias would overflow u32.
placemat_macros::codec! {
    pub BigBias {
        name: "big-bias",
        value: u32,
        range: 0 ..= 0xFF,
        layout: explicit,
        forms: {
            0x00 ..= 0x7F => "0xxxxxxx",
            0x80 ..= 0xFF bias 0x1_0000_0000 => "10xxxxxx 10xxxxxx",
        },
    }
}

fn main() {}
