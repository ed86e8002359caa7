// A unit map gives a byte for every one of the 256 units, not four.
placemat_macros::codec! {
    pub Mapped {
        name: "mapped",
        unit_map: [0x00, 0x01, 0x03, 0x02],
        value: u32,
        range: 0 ..= 0x7F,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
