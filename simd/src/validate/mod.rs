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
/// Checks the tables at every call; a caller that validates many blocks
/// with the same tables holds a [`Prepared`] instead.
///
/// Panics if `isa` is not one [`Isa::all`] lists or if `tables` fails
/// [`Tables::check`]: running the kernel then would be undefined behaviour.
pub fn validate(isa: Isa, tables: &Tables, input: &[u8]) -> Result<(), usize> {
    match Prepared::new(*tables) {
        Ok(prepared) => prepared.validate(isa, input),
        Err(e) => panic!("invalid SIMD tables: {e}"),
    }
}

/// A validator's tables that passed [`Tables::check`], with the constants
/// every kernel call loads worked out once: what a codec's tables, a
/// transcoder or any caller validating block after block holds, so that a
/// 4 KiB block pays for neither the check nor the set-up.
///
/// ```
/// use placemat_simd::{Isa, Prepared, Tables};
/// # fn utf8() -> Tables {
/// #     let mut t = Tables {
/// #         prev_high: [0; 16], prev_low: [0; 16], cur_high: [0; 16], cur_low: None,
/// #         thresholds: [0xFF; 16], need: 1, start: 0x20, continuation_end: None,
/// #         floor: None, restart: 4, ascii: true,
/// #     };
/// #     t.thresholds[1] = 0xC0;
/// #     t
/// # }
/// let prepared = Prepared::new(utf8()).expect("tables the kernels can run");
/// if let Some(isa) = Isa::detect() {
///     assert_eq!(prepared.validate(isa, b"plain ASCII"), Ok(()));
/// }
/// assert_eq!(prepared.tables().need, 1);
///
/// // Tables the kernels cannot run are refused, as `Tables::check` says.
/// let broken = Tables { need: 0, ..utf8() };
/// assert_eq!(Prepared::new(broken), Err("`need` must be in 1..=15"));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Prepared {
    tables: Tables,
    /// `thresholds[k] - 80` for `k` in `1..=need`, else `FF`: the saturating
    /// subtraction from a unit `k` back leaves bit 7 set exactly for units
    /// at least `thresholds[k]`.
    must: [u8; 16],
    /// Lane `64 - k` holds `thresholds[k] - 1` for `k` in `1..=need`, the
    /// others `FF`; a kernel of `W` lanes reads the last `W`.
    incomplete: [u8; 64],
    /// Units above it are rare: leads of five units and more and units with
    /// a floor.
    rare: u8,
    /// [`Tables::cur_low`], all `FF` where there is none.
    cur_low: [u8; 16],
    /// [`Tables::floor`], all 0 where there is none.
    floor: [u8; 16],
}

impl Prepared {
    /// Checks `tables` ([`Tables::check`]) and works out the kernels'
    /// constants; in a `const`, a failing check is a compile error.
    pub const fn new(tables: Tables) -> Result<Prepared, &'static str> {
        if let Err(e) = tables.check() {
            return Err(e);
        }
        let (mut must, mut incomplete) = ([0xFF; 16], [0xFF; 64]);
        let mut k = 1;
        while k <= tables.need as usize {
            must[k] = tables.thresholds[k].wrapping_sub(0x80);
            incomplete[64 - k] = tables.thresholds[k].wrapping_sub(1);
            k += 1;
        }
        let floored = match tables.floored_from() {
            Some(f) => f,
            None => 0xFF,
        };
        let rare = if tables.thresholds[4] < floored { tables.thresholds[4] } else { floored };
        let cur_low = match tables.cur_low {
            Some(t) => t,
            None => [0xFF; 16],
        };
        let floor = match tables.floor {
            Some(t) => t,
            None => [0; 16],
        };
        Ok(Prepared { tables, must, incomplete, rare: rare.wrapping_sub(1), cur_low, floor })
    }

    /// The tables, as checked.
    pub const fn tables(&self) -> &Tables {
        &self.tables
    }

    /// Validates `input` with the kernel for `isa`, as [`validate()`] does.
    ///
    /// Panics if `isa` is not one [`Isa::all`] lists.
    #[inline]
    pub fn validate(&self, isa: Isa, input: &[u8]) -> Result<(), usize> {
        assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
        run(isa, self, input)
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn run(isa: Isa, tables: &Prepared, input: &[u8]) -> Result<(), usize> {
    match isa {
        // SAFETY: `Prepared::validate` checked that the machine has the
        // instruction set (`Isa::all`: AVX-512 F and BW among its features),
        // and `Prepared::new` that the tables pass `Tables::check`.
        Isa::Avx512 => unsafe { x86::avx512::validate(tables, input) },
        // SAFETY: as above.
        Isa::Avx2 => unsafe { x86::avx2::validate(tables, input) },
        // SAFETY: as above.
        Isa::Sse41 => unsafe { x86::sse41::validate(tables, input) },
        Isa::Neon => unreachable!("not listed by Isa::all on x86-64"),
    }
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
fn run(isa: Isa, tables: &Prepared, input: &[u8]) -> Result<(), usize> {
    match isa {
        // SAFETY: `Prepared::validate` checked that the machine has NEON
        // (`Isa::all`), and `Prepared::new` that the tables pass `Tables::check`.
        Isa::Neon => unsafe { neon::validate(tables, input) },
        _ => unreachable!("not listed by Isa::all on aarch64"),
    }
}

#[cfg(not(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
fn run(_: Isa, _: &Prepared, _: &[u8]) -> Result<(), usize> {
    unreachable!("Isa::all lists nothing on this target")
}
