// Payload bits must be the low bits of a unit: `1x0xxxxx` has a fixed bit after one.
placemat_macros::codec! {
    pub Split {
        name: "split",
        value: u32,
        range: 0 ..= 0x7FF,
        forms: { "0xxxxxxx", "1x0xxxxx 10xxxxxx" },
    }
}

fn main() {}
