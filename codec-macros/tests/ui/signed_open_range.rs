// A signed codec's values are those of its type: its range has an upper bound.
placemat_macros::codec! {
    pub Open {
        name: "open",
        value: i64,
        sign: zigzag,
        range: -5 ..,
        groups: lsb_first,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

fn main() {}
