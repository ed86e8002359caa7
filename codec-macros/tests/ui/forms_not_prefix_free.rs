// A form that is a prefix of another: after `0xxxxxxx` the decoder cannot tell
// whether the sequence has ended.
placemat_macros::codec! {
    pub NotPrefixFree {
        name: "not-prefix-free",
        value: u32,
        range: 0 ..= 0x7FF,
        forms: { "0xxxxxxx", "0xxxxxxx 10xxxxxx" },
    }
}

fn main() {}
