// The repeated unit and the unit after it both match 80..FF, so a decoder cannot
// tell where the repetition ends.
placemat_macros::codec! {
    pub Ambiguous {
        name: "ambiguous",
        value: unbounded,
        range: 0 ..,
        forms: { "0xxxxxxx", "1xxxxxxx* 1xxxxxxx" },
    }
}

fn main() {}
