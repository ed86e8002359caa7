// A description with errors still declares its types and their trait impls, so
// code that uses them reports only the description's errors: no "cannot find
// type", no "no method named", no unsatisfied trait bound and no mismatched
// value type besides. (`no_cascade_wide.rs`: the same for `u64` values.)
use placemat_codec::{Codec, Decoder, Encoder};

placemat_macros::codec! {
    pub Broken {
        name: "broken",
        value: u32,
        range: 0 ..= 0x7F,
        forms: { "0xxxxxx" },
    }
}

fn main() {
    let mut out = Vec::new();
    let _: Result<(), _> = Broken.encode_push(0x41u32, &mut out);
    let _: usize = Broken.max_units();
    let _: Result<Vec<u32>, _> = Broken.decode(&out);
    let _: Result<(), _> = BrokenBranching.validate(&out);
    let _: Vec<u32> = <Broken as Codec>::Branching::default().decode_lossy(&out);
    let _: &str = &<Broken as Codec>::info().name;
    let _: usize = <Broken as Codec>::dfa().state_count();
    let _: &str = Broken::DESCRIPTION;
    let _: &dyn placemat_codec::DynCodec = &Broken;
}
