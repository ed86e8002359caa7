// The repeated unit is the last one: nothing ends the repetition.
placemat_macros::codec! {
    pub Endless {
        name: "endless",
        value: unbounded,
        range: 0 ..,
        forms: { "0xxxxxxx", "1xxxxxxx*" },
    }
}

fn main() {}
