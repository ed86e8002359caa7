// 0x1_0000_0000 does not fit `value: u32`.
placemat_macros::codec! {
    pub Huge {
        name: "huge",
        value: u32,
        range: 0 ..= 0x1_0000_0000,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
