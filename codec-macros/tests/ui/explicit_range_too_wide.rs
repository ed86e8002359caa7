// An explicit form's values, less its bias, must fit its payload bits: 0x80..=0xFFF
// needs 12 bits, and `110xxxxx 10xxxxxx` carries 11.
placemat_macros::codec! {
    pub Wide {
        name: "wide",
        value: u32,
        range: 0 ..= 0xFFF,
        layout: explicit,
        forms: {
            0x00 ..= 0x7F  => "0xxxxxxx",
            0x80 ..= 0xFFF => "110xxxxx 10xxxxxx",
        },
    }
}

fn main() {}
