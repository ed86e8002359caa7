// An alphabet's units are characters, and messages show them as such: `a` (digit
// 0) is a whole sequence of the first form and the start of the second.
placemat_macros::codec! {
    pub Letters {
        name: "letters",
        unit: alphabet("abcd"),
        value: u32,
        range: 0 ..= 3,
        layout: explicit,
        forms: {
            0 ..= 1 => "0x",
            2 ..= 3 bias 2 => "0x 1x",
        },
    }
}

fn main() {}
