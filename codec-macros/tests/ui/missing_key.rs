// No `range`: the codec's values are not said.
placemat_macros::codec! {
    pub NoRange {
        name: "no-range",
        value: u32,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
