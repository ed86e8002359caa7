// A description with an error still declares its types, so code that uses them
// reports only the description's error, not "cannot find type" as well.
placemat_macros::codec! {
    pub Broken {
        name: "broken",
        value: u32,
        range: 0 ..= 0x7F,
        forms: { "0xxxxxx" },
    }
}

fn main() {
    let _ = Broken;
    let _ = BrokenBranching;
}
