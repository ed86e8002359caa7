// A signed range must fit its type: i32 ends at -2147483648 and 2147483647.
placemat_macros::codec! {
    pub Wide {
        name: "wide",
        value: i32,
        sign: extend,
        range: -0x80000001 ..= 5,
        forms: { "0xxxxxxx", "1xxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx" },
    }
}

fn main() {}
