// With `layout: explicit` each form states its values; these two share 0x40..=0x7F.
placemat_macros::codec! {
    pub Overlap {
        name: "overlap",
        value: u32,
        range: 0 ..= 0x7FF,
        layout: explicit,
        forms: {
            0x000 ..= 0x07F => "0xxxxxxx",
            0x040 ..= 0x7FF => "110xxxxx 10xxxxxx",
        },
    }
}

fn main() {}
