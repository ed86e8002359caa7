// Sign extension reads the top bit of a payload of bits: digit units have none.
placemat_macros::codec! {
    pub Digits {
        name: "digits",
        value: i32,
        sign: extend,
        range: -5 ..= 5,
        forms: { "[30-39]" },
    }
}

fn main() {}
