// A repeated unit with no payload letter adds no values: no length of the form
// would ever reach the end of the range.
placemat_macros::codec! {
    pub NoPayload {
        name: "no-payload",
        unit: alphabet(" abcdefghijklmnopqrstuvwxyz;,-.?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_"),
        value: u32,
        range: 0 ..= 0x10FFFF,
        forms: { "0xxxxx", "100111* 010110" },
    }
}

fn main() {}
