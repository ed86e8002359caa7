// With the sign in the lowest bit, -N ..= N only: -(N + 1) would need a raw
// value past 2N + 1.
placemat_macros::codec! {
    pub Low {
        name: "low",
        value: i32,
        sign: low_bit,
        range: -6 ..= 5,
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
