// `_` is not a bit, even where it would make the unit the right length.
placemat_macros::codec! {
    pub Separator {
        name: "separator",
        value: u32,
        range: 0 ..= 0x7F,
        forms: { "0xxx_xxxx" },
    }
}

fn main() {}
