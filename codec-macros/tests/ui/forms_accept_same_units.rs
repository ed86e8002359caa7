// Two forms with one pattern whose values overlap: `C2 80` is 0x80 in the second
// form and, with the third form's bias, 0x800 as well. The check runs on the
// values the forms accept, and names a sequence both accept.
placemat_macros::codec! {
    pub SameUnits {
        name: "same-units",
        value: u32,
        range: 0 ..= 0x8FF,
        layout: explicit,
        forms: {
            0x000 ..= 0x07F => "0xxxxxxx",
            0x080 ..= 0x7FF => "110xxxxx 10xxxxxx",
            0x800 ..= 0x8FF bias 0x780 => "110xxxxx 10xxxxxx",
        },
    }
}

fn main() {}
