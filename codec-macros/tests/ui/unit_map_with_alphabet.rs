// An alphabet already says which byte spells each unit: a unit map would say it
// twice (reported before the map's length is).
placemat_macros::codec! {
    pub Mapped {
        name: "mapped",
        unit: alphabet("abcd"),
        unit_map: [0x61, 0x62, 0x63, 0x64],
        value: u32,
        range: 0 ..= 3,
        forms: { "xx" },
    }
}

fn main() {}
