// In the shortest layout the two-byte form holds 0x80..=0x7FF; 0x100 is written.
placemat_macros::codec! {
    pub Misread {
        name: "misread",
        value: u32,
        range: 0 ..= 0x7FF,
        layout: shortest,
        forms: {
            0x00 ..= 0x7F   => "0xxxxxxx",
            0x100 ..= 0x7FF => "110xxxxx 10xxxxxx",
        },
    }
}

fn main() {}
