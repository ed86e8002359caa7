//! The test binaries' random numbers (each includes this file by `#[path]`).

/// A seeded xorshift64 generator: the same numbers on every run, for tests
/// that draw random streams.
pub fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
