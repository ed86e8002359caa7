// Three independent mistakes are all reported, each once, each at its tokens:
// an unknown key, a malformed pattern and an empty excluded range.
placemat_macros::codec! {
    pub Many {
        name: "many",
        value: u32,
        colour: "red",
        range: 0 ..= 0x7FF,
        exclude: [0x300 ..= 0x200],
        forms: { "0xxxxxxx", "110xxxxx 10xxxxx" },
    }
}

fn main() {}
