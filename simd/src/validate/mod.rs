//! Choosing an instruction set, and the one safe entry point.

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

use crate::Tables;

/// An instruction set the kernel is built for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Isa {
    /// x86-64 with SSSE3 and SSE4.1: 16-byte vectors.
    Sse41,
    /// x86-64 with AVX2: 32-byte vectors.
    Avx2,
    /// aarch64 with NEON: 16-byte vectors.
    Neon,
}

impl Isa {
    /// The best instruction set this machine has, or `None` (also with the
    /// `no-simd` feature, and under Miri). With `std`, x86-64 is probed at run
    /// time; without it, only what the target enables at compile time counts.
    pub fn detect() -> Option<Isa> {
        if cfg!(any(feature = "no-simd", miri)) {
            return None;
        }
        Isa::all().into_iter().flatten().next()
    }

    /// Every instruction set this machine has, best first, for tests and
    /// benchmarks that compare them.
    pub fn all() -> [Option<Isa>; 3] {
        if cfg!(any(feature = "no-simd", miri)) {
            return [None; 3];
        }
        [
            has(Isa::Avx2).then_some(Isa::Avx2),
            has(Isa::Sse41).then_some(Isa::Sse41),
            has(Isa::Neon).then_some(Isa::Neon),
        ]
    }

    /// The name used by `placemat bench` and the reports.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Sse41 => "sse4.1",
            Isa::Avx2 => "avx2",
            Isa::Neon => "neon",
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2", feature = "std"))]
fn has(isa: Isa) -> bool {
    match isa {
        Isa::Avx2 => std::is_x86_feature_detected!("avx2"),
        Isa::Sse41 => std::is_x86_feature_detected!("ssse3") && std::is_x86_feature_detected!("sse4.1"),
        Isa::Neon => false,
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(feature = "std")))]
fn has(isa: Isa) -> bool {
    match isa {
        Isa::Avx2 => cfg!(target_feature = "avx2"),
        Isa::Sse41 => cfg!(all(target_feature = "ssse3", target_feature = "sse4.1")),
        Isa::Neon => false,
    }
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
fn has(isa: Isa) -> bool {
    isa == Isa::Neon && cfg!(target_feature = "neon")
}

#[cfg(not(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
fn has(_: Isa) -> bool {
    false
}

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
        // (`Isa::all`) and that the tables pass `Tables::check`.
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
