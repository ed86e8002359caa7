// `a` is listed twice, so it would spell two digits.
placemat_macros::codec! {
    pub Dup {
        name: "dup",
        unit: alphabet("abca"),
        value: u32,
        range: 0 ..= 3,
        forms: { "xx" },
    }
}

fn main() {}
