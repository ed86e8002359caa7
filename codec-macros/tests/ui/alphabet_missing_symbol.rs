// A 6-bit alphabet needs 64 symbols; this one has 63 (the `_` is missing).
placemat_macros::codec! {
    pub Short {
        name: "short",
        unit: alphabet(" abcdefghijklmnopqrstuvwxyz;,-.?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^"),
        value: u32,
        range: 0 ..= 31,
        forms: { "0xxxxx" },
    }
}

fn main() {}
