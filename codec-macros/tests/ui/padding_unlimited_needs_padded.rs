// Only padded forms read zero groups: `padding: unlimited` needs `layout: padded`.
placemat_macros::codec! {
    pub Shortest {
        name: "shortest",
        value: u32,
        range: 0 ..= 0xFFFFFFFF,
        layout: shortest,
        padding: unlimited,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

fn main() {}
