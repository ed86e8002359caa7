// In the shortest layout a 2-byte form with 7 payload bits holds nothing that
// the 1-byte form does not already hold.
placemat_macros::codec! {
    pub Useless {
        name: "useless",
        value: u32,
        range: 0 ..= 0x7F,
        forms: { "0xxxxxxx", "1100000x 10xxxxxx" },
    }
}

fn main() {}
