// Longest match needs bounded values: a decoder's look-ahead must end.
placemat_macros::codec! {
    pub Endless {
        name: "endless",
        value: unbounded,
        range: 0 ..,
        overlap: longest,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

fn main() {}
