// `forbid` looks at values, which a premap would hide from it.
placemat_macros::codec! {
    pub Rules {
        name: "rules",
        value: u32,
        range: 0 ..= 0x7F,
        premap: [1, 0],
        forbid: [0 ..= 0 then 1 ..= 1],
        forms: { "0xxxxxxx" },
    }
}

fn main() {}
