// A digit set lists each byte once, and only bytes.
placemat_macros::codec! {
    pub Digits {
        name: "digits",
        value: u32,
        range: 0 ..= 0xFFFF,
        digits: [0x21 ..= 0x7E, 0x70 ..= 0x80, 0xFF ..= 0x100],
        layout: biased,
        forms: { "[00-9F]", "[A0-FF] T T" },
    }
}

fn main() {}
