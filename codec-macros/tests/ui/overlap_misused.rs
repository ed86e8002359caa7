// `overlap` takes `none` or `longest`.
placemat_macros::codec! {
    pub Shortest {
        name: "shortest",
        value: u32,
        range: 0 ..= 0x7F,
        overlap: shortest,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
