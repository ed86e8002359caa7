// `..` alone (every integer) is the range of a signed codec of any size only.
placemat_macros::codec! {
    pub Dots {
        name: "dots",
        value: u32,
        range: ..,
        forms: { "1xxxxxxx* 0xxxxxxx" },
    }
}

fn main() {}
