// Only a signed codec's `range` takes negative numbers: an unsigned codec's
// exclusions, pre-mapping and forms' ranges are raw values, never negative.
placemat_macros::codec! {
    pub Unsigned {
        name: "unsigned",
        value: u32,
        range: 0 ..= 0x7F,
        exclude: [-1 ..= 3],
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
