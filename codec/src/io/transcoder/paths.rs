//! Which of the [`Transcoder`]'s paths a pair of codecs takes on this
//! machine: the one-pass kernels and copies (`fused.rs`), the 16-bit units
//! of pair forms, wide units rewritten unit for unit. The engine's own
//! choice, asked by tests and by `placemat bench A --to B` to name the
//! strategies it times.

use super::{BulkFacts, Fused, PairUnits, Transcoder};

impl Transcoder<'_> {
    /// Whether clean blocks go through a one-pass kernel: from a source the
    /// SIMD decoding kernel reads (the UTF-8 family) to a target of wide code
    /// units (UTF-16, UTF-32), or back, on a machine with SIMD (AVX-512,
    /// AVX2, SSE4.1, NEON: `placemat_simd::decode_to_units`,
    /// `encode_from_units`); or from a
    /// codec to itself, where valid input is its own transcoding
    /// ([`CodecInfo::canonical`](crate::CodecInfo::canonical)), on every
    /// machine: blocks are validated and copied; or between two codecs of
    /// bytes that read most input alike, on every machine: validated runs
    /// without a lead they read apart are copied ([`Transcoder::copied_runs`]).
    pub fn one_pass(&self) -> bool {
        self.path(|fused| fused.is_some())
    }

    /// Whether the one pass is the copy of a codec into itself (validated
    /// blocks copied as they are; [`Transcoder::one_pass`]).
    pub fn copies(&self) -> bool {
        self.one_pass() && Fused::copies(self.from, self.to)
    }

    /// The leads the two codecs may read apart, when the one pass copies
    /// the runs of valid input without them and converts only the
    /// sequences they start ([`leads_apart`](crate::io::leads_apart)): CESU-8
    /// into UTF-8, UTF-8 into modified UTF-8, … `None` for other paths.
    pub fn copied_runs(&self) -> Option<crate::ApartLeads> {
        self.path(|fused| fused.and_then(Fused::shared_leads))
    }

    /// Whether the engine converts through 16-bit units by two SIMD
    /// kernels: where the copy of runs read alike declines, the sequences
    /// read apart, into a target that writes some values as the byte forms
    /// of a pair of 16-bit units ([`CodecInfo::pair_forms`](crate::CodecInfo::pair_forms):
    /// CESU-8) from a source the decoding kernel reads (UTF-8), or back from
    /// such a source into the UTF-8 family; and all of a valid block from
    /// such a source (CESU-8, modified UTF-8) into a codec of wide code units
    /// (UTF-16, UTF-32), the 16-bit units rewritten unit for unit as the
    /// target's ([`convert_units`](crate::simd::convert_units), on a machine
    /// that has it).
    pub fn pair_units(&self) -> bool {
        self.path(|fused| fused.is_some_and(Fused::pair_units))
    }

    /// Whether the engine's blocks of values from a source of pair forms
    /// (CESU-8, modified UTF-8) are decoded by the SIMD kernels of its
    /// 16-bit units (its sequences as units, then the pairs joined into
    /// values, `pair_units.rs`) and written by the target's bulk encoder:
    /// into a target without a one-pass path (the integer codecs, UTF-1,
    /// UTF-EBCDIC, …), and where that path declines. `false` for other
    /// sources, on a machine without the kernels (AVX2 or AVX-512), and
    /// when the bulk paths are off.
    pub fn pair_blocks(&self) -> bool {
        self.bulk && PairUnits::for_values(self.from).is_some()
    }

    /// Between two codecs of wide code units, the source's code units that
    /// runs of are rewritten in the target's width and byte order unit for
    /// unit, without values, by the SIMD kernel
    /// ([`convert_units`](crate::simd::convert_units)): those that are
    /// sequences of their own value in the source and that the target writes
    /// as themselves ([`WideRuns::written_alike`](crate::WideRuns::written_alike),
    /// from the two descriptions; UTF-16 and UTF-32, either way and in
    /// either byte order, outside the surrogates). With AVX-512 the runs
    /// take pairs too where both codecs write them alike (UTF-16's
    /// surrogate pairs copied, joined into UTF-32 or made from it). `None`
    /// for other pairs, for a pair with a one-pass path (a codec into
    /// itself), on a machine without the kernel (AVX2), and when the bulk
    /// paths are off.
    pub fn units_alike(&self) -> Option<[(u32, u32); 2]> {
        crate::simd::Isa::detect().filter(|&isa| self.bulk && crate::simd::converts_units_on(isa))?;
        if self.one_pass() {
            // (A codec into itself: its validated blocks are copied.)
            return None;
        }
        let facts = self.facts.unwrap_or_else(|| BulkFacts::of(self.from, self.to));
        facts.alike.map(|alike| alike.from.single)
    }

    /// `ask` of the one-pass path (`None` without one, or when the bulk
    /// paths are off), looked up if the first block has not yet.
    fn path<R: Default>(&self, ask: impl FnOnce(Option<&Fused>) -> R) -> R {
        if !self.bulk {
            return R::default();
        }
        match &self.fused {
            Some(fused) => ask(fused.as_ref()),
            None => ask(Fused::of(self.from, self.to).as_ref()),
        }
    }
}
