//! The SIMD validator: [`validate()`], its one safe entry point, and the call
//! into the kernel for each instruction set. The kernel is written once in
//! `kernel.rs` (a macro) and instantiated by `x86.rs` for SSE4.1, AVX2 and AVX-512 and
//! by `neon.rs` for NEON; `reference.rs` computes the same formula one unit at
//! a time in safe code. What it shares with the decoder ([`Isa`], [`Tables`],
//! [`crate::CHUNK`]) is in the crate's `shared.rs`.

#[cfg(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
#[macro_use]
mod kernel;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
pub(crate) mod neon;
pub mod reference;
// Not on soft-float targets such as `x86_64-unknown-none`, whose code may not
// touch vector registers.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(crate) mod x86;

use crate::shared::{Isa, Tables};

/// Validates `input` with the kernel for `isa`: `Ok` if the formula of the
/// crate docs flags nothing, else the offset of the first 64-byte chunk
/// ([`crate::CHUNK`]) holding a flagged position (at most `input.len()`).
///
/// Panics if `isa` is not one [`Isa::all`] lists or if `tables` fails
/// [`Tables::check`]: running the kernel then would be undefined behaviour.
pub fn validate(isa: Isa, tables: &Tables, input: &[u8]) -> Result<(), usize> {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    if let Err(e) = tables.check() {
        panic!("invalid SIMD tables: {e}");
    }
    run(isa, tables, input)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn run(isa: Isa, tables: &Tables, input: &[u8]) -> Result<(), usize> {
    match isa {
        // SAFETY: `validate` checked that the machine has the instruction set
        // (`Isa::all`: AVX-512 F and BW among its features) and that the
        // tables pass `Tables::check`.
        Isa::Avx512 => unsafe { x86::avx512::validate(tables, input) },
        // SAFETY: as above.
        Isa::Avx2 => unsafe { x86::avx2::validate(tables, input) },
        // SAFETY: as above.
        Isa::Sse41 => unsafe { x86::sse41::validate(tables, input) },
        Isa::Neon => unreachable!("not listed by Isa::all on x86-64"),
    }
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
fn run(isa: Isa, tables: &Tables, input: &[u8]) -> Result<(), usize> {
    match isa {
        // SAFETY: `validate` checked that the machine has NEON (`Isa::all`) and
        // that the tables pass `Tables::check`.
        Isa::Neon => unsafe { neon::validate(tables, input) },
        _ => unreachable!("not listed by Isa::all on aarch64"),
    }
}

#[cfg(not(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
fn run(_: Isa, _: &Tables, _: &[u8]) -> Result<(), usize> {
    unreachable!("Isa::all lists nothing on this target")
}
