// Two forms of the same length whose patterns overlap: `110xxxxx` and `11xxxxxx`
// both match C0..DF.
placemat_macros::codec! {
    pub SameUnits {
        name: "same-units",
        value: u32,
        range: 0 ..= 0x7FF,
        forms: {
            "0xxxxxxx",
            "110xxxxx 10xxxxxx",
            "11xxxxxx 10xxxxxx",
        },
    }
}

fn main() {}
