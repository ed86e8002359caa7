// Payload letters are lowercase, as the grammar says (`[01a-z]`).
placemat_macros::codec! {
    pub Upper {
        name: "upper",
        value: u32,
        range: 0 ..= 0x7F,
        forms: { "0XXXXXXX" },
    }
}

fn main() {}
