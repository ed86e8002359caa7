// A description with errors and `value: unbounded` (or `u64`) still declares its
// types with `u64` values, as the real expansion would: code that uses them
// reports only the description's errors, no mismatched value type besides.
use placemat_codec::{Codec, Decoder, Encoder};

placemat_macros::codec! {
    /// An unbounded codec reads its values as `u64`.
    pub BrokenWide {
        name: "broken-wide",
        value: unbounded,
        range: 0 ..,
        forms: { "1xxxxxxx* 0xxxxxx" },
    }
}

fn main() {
    let mut out = Vec::new();
    let _: Result<(), _> = BrokenWide.encode_push(1u64 << 40, &mut out);
    let _: Result<Vec<u64>, _> = BrokenWide.decode(&out);
    let _: Vec<u64> = BrokenWideBranching.decode_lossy(&out);
    let _: Vec<u64> = <BrokenWide as Codec>::Branching::default().decode_lossy(&out);
}
