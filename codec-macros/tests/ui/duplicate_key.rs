// `value` is given twice.
placemat_macros::codec! {
    pub Twice {
        name: "twice",
        value: u32,
        range: 0 ..= 0x7F,
        value: u64,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
