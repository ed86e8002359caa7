// Exclusions are 64-bit numbers, also for a codec of unbounded values.
placemat_macros::codec! {
    pub Huge {
        name: "huge",
        value: unbounded,
        range: 0 ..,
        exclude: [0x10000000000000000 ..= 0x10000000000000001],
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

fn main() {}
