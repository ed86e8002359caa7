// Forms may share units when the values they accept tell them apart, but a unit
// both forms read must carry its payload alike (or be a constant one form can
// fold into its bias): both forms read `C2` and `C3` first, the second taking 5
// payload bits from them and the third 2.
placemat_macros::codec! {
    pub Shared {
        name: "shared",
        value: u32,
        range: 0 ..= 0x87FF,
        layout: explicit,
        forms: {
            0x000 ..= 0x07F => "0xxxxxxx",
            0x080 ..= 0x7FF => "110xxxxx 10xxxxxx",
            0x800 ..= 0x87FF bias 0x800 => "110000xx 11xxxxxx 1xxxxxxx",
        },
    }
}

fn main() {}
