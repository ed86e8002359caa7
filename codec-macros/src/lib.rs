//! # placemat-macros
//!
//! `codec!` turns a declarative description of a UTF-8-family encoding into, at
//! compile time, an encoder, a table-driven decoder and validator over generated
//! `static` tables, and a branching decoder — all implementing the traits of
//! `placemat_codec`. The macro is thin: parsing, validation, the model and the
//! automaton live in `placemat_compiler`, which the CLI uses at run time too.
//!
//! ```
//! use placemat_codec::{Decoder, Encoder};
//!
//! placemat_macros::codec! {
//!     /// Two-byte UTF-8: U+0000..=U+07FF, shortest form only.
//!     pub Utf8Two {
//!         name: "utf8-two",
//!         value: u32,
//!         range: 0 ..= 0x7FF,
//!         layout: shortest,
//!         forms: {
//!             0x00 ..= 0x7F  => "0xxxxxxx",
//!             0x80 ..= 0x7FF => "110xxxxx 10xxxxxx",
//!         },
//!     }
//! }
//!
//! let mut out = Vec::new();
//! Utf8Two.encode_push(0xE9, &mut out).unwrap();
//! assert_eq!(out, [0xC3, 0xA9]);
//! assert_eq!(Utf8Two.decode(&out).unwrap(), [0xE9]);
//! assert_eq!(Utf8TwoBranching.decode(&out).unwrap(), [0xE9]);
//! assert_eq!(Utf8Two::CLASS_COUNT, 4);
//! ```
//!
//! # Descriptions in files
//!
//! `codec!(file = "descriptions/utf8.placemat")` reads the description from a
//! file, relative to the calling crate's `Cargo.toml`: the text `placemat --spec`
//! loads at run time is the text compiled here (the built-in codecs are all made
//! this way, from `variants/descriptions/`). Editing the file rebuilds the crate,
//! and the file's errors are reported at the path as `file:line:column: error: …`
//! lines, as the CLI prints them.
//!
//! # The description language
//!
//! ```text
//! invocation  := description | 'file' '=' "path"
//! description := doc-comment* visibility? TypeName '{' field (',' field)* ','? '}'
//! field       := 'name'    ':' "codec-name"                  (required; lowercase, digits, '-')
//!              | 'summary' ':' "one line"                    (default: the first doc line)
//!              | 'unit'    ':' 'byte' | 'u16be' | 'u16le' | 'u32be' | 'u32le' | 'alphabet' '(' "symbols" ')'
//!                                                            (default: byte)
//!              | 'unit_map' ':' '[' b0, b1, … b255 ']'      (unit u is written as byte bu)
//!              | 'value'   ':' 'u32' | 'u64' | 'unbounded' | 'i32' | 'i64'   (required)
//!              | 'sign'    ':' 'extend' | 'zigzag' | 'low_bit'   (with `i32`/`i64` only, and required there)
//!              | 'range'   ':' lo '..=' hi | lo '..' | '..'  (required; `lo ..` is open; `-n` for signed values;
//!                                                            `..`: every integer, for signed values of any size)
//!              | 'exclude' ':' '[' lo '..=' hi, … ']'        (values taken out, e.g. surrogates)
//!              | 'forbid'  ':' '[' lo '..=' hi 'then' lo '..=' hi, … ']'   (rules across adjacent values)
//!              | 'overlap' ':' 'none' | 'longest'           (forms that start others; default: none)
//!              | 'layout'  ':' 'shortest' | 'biased' | 'explicit' | 'padded'   (default: shortest)
//!              | 'padding' ':' 'limited' | 'unlimited'      (zero groups a padded decoder reads; default: limited)
//!              | 'groups'  ':' 'msb_first' | 'lsb_first'     (payload group order; default: msb_first)
//!              | 'premap'  ':' '[' v0, v1, … ']'             (value i becomes vi before encoding)
//!              | 'digits'  ':' '[' lo '..=' hi, … ']'        (the bytes of `T`, in digit order)
//!              | 'forms'   ':' '{' form, … '}'               (required)
//! form        := ( lo '..=' hi ( 'bias' n )? '=>' )? "pattern"
//! pattern     := unit (' ' unit)*        unit := [01a-z]{width} '*'? | '[' HH ( '-' HH )? ']' | 'T'
//!                                         (width: 8, 16, 32 or the alphabet's bits; HH: a hex byte)
//! ```
//!
//! * **Units.** `byte` units are 8 bits wide. `alphabet("…")` units are the symbols
//!   of a string of 2ⁿ distinct ASCII characters, each carrying the n-bit digit of
//!   its position (`alphabet(" abc…_")` for a 6-bit printable encoding).
//! * **Unit maps.** `unit_map: [b0, …, b255]` writes every unit `u` the forms
//!   spell as byte `bu`, a permutation of the 256 bytes given as 256 distinct
//!   bytes. UTF-EBCDIC is UTF-8-Mod's forms, then such a map; a toy example
//!   that swaps the two halves of the byte range:
//!
//!   ```
//!   use placemat_compiler::Description;
//!   let map: Vec<String> = (0..256).map(|u| format!("{:#04X}", u ^ 0x80)).collect();
//!   let text = format!(
//!       r#"pub Swapped {{ name: "swapped", unit_map: [{}], value: u32, range: 0 ..= 0x7FF,
//!          forms: {{ "0xxxxxxx", "110xxxxx 10xxxxxx" }} }}"#,
//!       map.join(", "),
//!   );
//!   let model = Description::parse_str(&text).unwrap().model;
//!   assert_eq!(model.unit_byte(0x41), 0xC1); // unit 41 is written as C1
//!   assert_eq!(model.digit_of(0x00), Some(0x80)); // and byte 00 reads as unit 80
//!   ```
//!
//!   The automaton is built over the bytes as written, so the decoders read
//!   them directly; the map needs byte units (`unit: byte`) and bit patterns.
//! * **Wide units.** `u16be`, `u16le`, `u32be` and `u32le` are code units of 16 or
//!   32 bits, serialized as two or four bytes, most significant byte first (`be`)
//!   or least significant first (`le`), as in UTF-16 and UTF-32. A pattern has one
//!   word of 16 or 32 bits per code unit, most significant bit first whatever the
//!   byte order (`"110110yyyyyyyyyy 110111xxxxxxxxxx"`). Payload bits are the low
//!   bits of the code unit, and a wide unit cannot repeat (`*` is for byte and
//!   alphabet units). The compiler turns each code unit into its bytes and the
//!   automaton reads bytes. Errors still cover whole code units at byte offsets (a
//!   lone UTF-16 surrogate is one error of two bytes), and input that ends inside a
//!   code unit is a truncated sequence. A little-endian unit's first byte holds its low
//!   bits, so its transitions *place* their payload, `v = (v << s) | (payload << q)`,
//!   with `(s, q)` per transition in `placemat_codec::dfa::Parts::places`.
//!   `groups: lsb_first` works the same way. A placed automaton has no expanded
//!   decoding table. Big-endian units need no placement.
//! * **Patterns.** One word per unit, most significant bit first: `0` and `1` are
//!   fixed bits, any letter (`x`, `v`, `z`) is a payload bit, and payload bits are
//!   the low bits of a unit. The payload of a form is its units' payload bits,
//!   big-endian. A unit followed by `*` may repeat any number of times
//!   (`"1xxxxx* 0xxxxx"`); the unit after it ends the repetition.
//! * **Digit units.** Where a form's units are digits of a mixed-radix number
//!   rather than bit fields (UTF-1), each unit is `[lo-hi]`, the bytes `lo..=hi`
//!   in hex with byte `b` carrying digit `b − lo` (radix `hi − lo + 1`; `[A0]` is
//!   one fixed byte), or `T`, a digit of the codec's `digits` set: `digits:
//!   [0x21 ..= 0x7E, 0xA0 ..= 0xFF]` makes byte 21 digit 0 and byte FF digit 189,
//!   radix 190. A form's payload is its digits read most significant first,
//!   `((d₀ · r₁ + d₁) · r₂ + d₂) …`, and its value is its bias plus that payload,
//!   as for bit patterns; every layout works (UTF-1 is `biased`). A codec of digit
//!   units writes every unit that way (no bit patterns beside them), with byte
//!   units, groups most significant first and a bounded value type. Its tables
//!   read `v = v * radix + digit` per transition (`placemat_codec::dfa::Parts::radices`),
//!   the expanded table holds `digit · radix^k`, and each path's bias absorbs the
//!   constant by which a form's digit differs from the table's one digit map.
//! * **Forms that share units.** Two forms may begin with the same units as long
//!   as the values they accept tell them apart: the compiler builds the automaton
//!   over the forms' value ranges (after biases and exclusions) and refuses only
//!   what no deterministic decoder could separate, naming the units that show it
//!   at both forms. CESU-8's three-byte form and its surrogate pair both start
//!   with `ED`; the three-byte form's range stops below the surrogates, so `ED
//!   A0` can only be the pair:
//!
//!   ```
//!   use placemat_compiler::Description;
//!   let d = Description::parse_str(r#"
//!       pub Two { name: "two", value: u32, range: 0 ..= 0x10FFFF, exclude: [0xD800 ..= 0xDFFF],
//!           layout: explicit,
//!           forms: { 0 ..= 0x7F => "0xxxxxxx",
//!                    0x80 ..= 0x7FF => "110xxxxx 10xxxxxx",
//!                    0x800 ..= 0xFFFF => "1110xxxx 10xxxxxx 10xxxxxx",
//!                    0x10000 ..= 0x10FFFF bias 0x10000 =>
//!                        "11101101 1010xxxx 10xxxxxx 11101101 1011xxxx 10xxxxxx" } }
//!   "#);
//!   assert!(d.is_ok());
//!   ```
//!
//!   A unit that both forms read must carry its payload alike, though: where one
//!   form reads a unit as payload and another as fixed bits, one form's range
//!   must leave that unit out, and the message names both forms' ranges.
//! * **When a form's pattern is wider than its range.** The derived layouts give
//!   a form every value its payload spells from where the last form ended. When
//!   a form must stop short of that (HPACK's `000xxxxx` holds 0–30, because
//!   `00011111` starts the longer form), write the ranges with
//!   `layout: explicit`:
//!
//!   ```
//!   use placemat_compiler::Description;
//!   // Derived, the first form holds 0..=31 and reads `1F` as a value.
//!   let biased = Description::parse_str(r#"
//!       pub H { name: "h", value: u32, range: 0 ..= 0x9F, layout: biased, groups: lsb_first,
//!           forms: { "000xxxxx", "00011111 0xxxxxxx" } }"#).unwrap_err();
//!   let message = &biased.iter().next().unwrap().message;
//!   assert!(message.contains("(values 0x0..=0x1F)"));
//!   assert!(message.contains("both read `1F`"));
//!   let explicit = Description::parse_str(r#"
//!       pub H { name: "h", value: u32, range: 0 ..= 0x9E, layout: explicit, groups: lsb_first,
//!           forms: { 0 ..= 30 => "000xxxxx", 31 ..= 0x9E bias 31 => "00011111 0xxxxxxx" } }"#);
//!   assert!(explicit.is_ok());
//!   ```
//! * **Rules across adjacent values.** `forbid: [0xD800 ..= 0xDBFF then 0xDC00
//!   ..= 0xDFFF]` says a value of the first range is never directly followed
//!   by one of the second (WTF-8). At most 4 rules, closed ranges inside
//!   `range`, bounded values, forms of bit patterns, no `premap`. The
//!   automaton then has one start state per *context* (what the value before
//!   leaves; `placemat_compiler::contexts`): decoders reject the second value
//!   (the error is at it), `Decoder::step_in` / `Decoder::context_after` read in
//!   a context, and `Encoder::encode_all` refuses the pair with
//!   `EncodeError::ForbiddenAfter`, naming the index of the second value. Such
//!   a codec has no expanded table and no SIMD validator (the rule spans two
//!   sequences); its branching decoder's bulk loop starts each sequence in its
//!   context's start state.
//! * **Longest match.** `overlap: longest` lets a whole sequence be the start
//!   of a longer one (Java's modified UTF-8: `ED A0 80` is a lone U+D800 and
//!   the first half of a pair). The decoder reads the longest: it goes on
//!   while a longer sequence can, and where that dies (or the input ends)
//!   takes the shorter one and reads on after it. The automaton follows the
//!   longer sequences; the states after a shorter one hold its *pending value*
//!   (`placemat_codec::dfa::Parts::pending`), and the step function falls
//!   back on it. The forms must still agree on the payload of the units they
//!   share (the compiler moves constant payload bits into biases to make them),
//!   and values must be bounded. `Decoder::step_open` is the step for a chunk
//!   of a stream, where a shorter sequence at the end is held open (the stream
//!   decoder, validator and transcoders use it). Such a codec has no expanded
//!   table and no SIMD validator; its bulk walkers stop where a pending value
//!   is taken and the step function reads on from their last boundary. With
//!   `forbid`, the encoder can refuse the pairs of values that would read back
//!   as a longer sequence.
//! * **Layouts.** `shortest`: each form starts where the previous one ends, with no
//!   bias, so a value must use the shortest form that holds it (UTF-8). `biased`:
//!   each form starts where the previous one ends and is biased by its first value,
//!   so every value has one encoding (X/Open FSS-UTF). `explicit`: each form writes
//!   its range and, optionally, `bias n`. In the derived layouts a written range is
//!   checked against the derived one, so descriptions can read like the spec's table.
//!   `padded`: every form holds every value its payload spells (bias 0), so the
//!   decoder also accepts longer-than-needed encodings, which mean their value
//!   (QUIC, SQLite, LEB128); the encoder writes the first form that holds a value,
//!   and a repeated unit repeats only as often as the encoder needs. Such a codec
//!   is not canonical, and the analysis says so.
//! * **Padding without a limit.** `padding: unlimited` (with `layout: padded`
//!   and a last form with a repeated unit) lets the decoder read any number of
//!   zero groups: the repeated unit goes on past the encoder's longest form,
//!   its copies there carrying payload 0 (LLVM's LEB128 reader; leading
//!   `0x80` units read most significant group first). The values stay bounded
//!   and the encoder still writes the shortest form; only sequences have no
//!   length limit (`CodecInfo::max_units` is `None`, the automaton loops on
//!   the zero groups, and no SIMD validator applies). It does not go with
//!   `sign: extend` (whose padding repeats the sign), `forbid` or
//!   `overlap: longest`:
//!
//!   ```
//!   use placemat_compiler::Description;
//!   let d = Description::parse_str(r#"
//!       pub LebAny { name: "leb128-any", value: u64, range: 0 ..= 0xFFFFFFFFFFFFFFFF,
//!           layout: padded, padding: unlimited, groups: lsb_first, forms: { "1xxxxxxx* 0xxxxxxx" } }
//!   "#).unwrap();
//!   assert_eq!(d.model.max_units(), None);
//!   // The encoder's forms stop at ten units; the decoder reads on.
//!   assert_eq!(d.model.concrete_forms().len(), 10);
//!   let reference = placemat_compiler::reference::Reference::new(&d.model);
//!   let mut padded = vec![0x85];
//!   padded.extend([0x80; 30]);
//!   padded.push(0x00);
//!   let step = reference.step(&padded).map(|v| u64::try_from(v).unwrap());
//!   assert_eq!(step, placemat_codec::Step::Value { value: 5, len: 32 });
//!   ```
//! * **Repeated units.** A form with a repeated unit (`*`) has one length per
//!   number of repetitions. Under `shortest`, `biased` and `padded` each
//!   length's range is derived (and not written). Under `explicit` the form
//!   writes one range and bias for all its lengths, and every length decodes
//!   the values of that range its bias plus payload spells: zero groups past
//!   the value decode too, the encoder writes the shortest, and the lengths end
//!   with the first that reaches the range's end. That is HPACK's integer
//!   (RFC 7541 §5.1), whose full prefix is followed by the value less 31:
//!
//!   ```
//!   use placemat_compiler::Description;
//!   let d = Description::parse_str(r#"
//!       pub Hpack5 { name: "hpack5", value: u64, range: 0 ..= 0xFFFFFFFFFFFFFFFF,
//!           layout: explicit, groups: lsb_first,
//!           forms: { 0 ..= 30 => "000xxxxx",
//!                    31 ..= 0xFFFFFFFFFFFFFFFF bias 31 => "00011111 1xxxxxxx* 0xxxxxxx" } }
//!   "#).unwrap();
//!   let lengths: Vec<usize> = d.model.concrete_forms().iter().map(|f| f.units.len()).collect();
//!   assert_eq!(lengths, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
//!   // Every length holds the values from 31 (`1F 80 00` is 31).
//!   assert!(d.model.concrete_forms()[1..].iter().all(|f| f.lo == 31u32.into()));
//!   ```
//!
//!   A first unit without payload bits (`00011111`) takes no place in
//!   `groups: lsb_first`: the first payload group is the next unit's.
//! * **Signed values.** `value: i32` or `i64` makes the codec's values
//!   signed (the traits' `Value` is `i32` or `i64`); `sign` says how the forms
//!   spell a negative one, and `range` is written in signed numbers. The forms
//!   still spell unsigned *raw* values, which the automaton, the tables and
//!   every decoder read; the sign maps them to values where they leave a
//!   decoder and back where they enter an encoder
//!   (`placemat_codec::Sign`). Three schemes:
//!   `extend`: two's complement, each form's payload sign-extended from its
//!   top bit, so a length holds `-2^(w-1) ..= 2^(w-1) - 1` for `w` payload
//!   bits (DWARF's SLEB128); `zigzag`: 0, −1, 1, −2, … are the raw values 0,
//!   1, 2, 3, … (protobuf's `sint64`), for a range `-N ..= N` or
//!   `-(N + 1) ..= N`; `low_bit`: the raw value is twice the magnitude plus
//!   one if negative (source maps' VLQ), for a range `-N ..= N`, the raw
//!   value 1 (minus zero) being no value. A signed codec's layout is
//!   `shortest` or `padded` (with `extend`: the shortest two's complement, or
//!   every length whose payload holds the value), its range is closed, and
//!   it has no `exclude`, `premap`, `forbid` or `overlap`. With `extend`, a
//!   repeated unit whose longest length carries more payload bits than the
//!   type (SLEB128's tenth byte) needs `groups: lsb_first`, where those bits,
//!   which must repeat the sign, come last:
//!
//!   ```
//!   use placemat_compiler::Description;
//!   let d = Description::parse_str(r#"
//!       pub Sleb { name: "sleb", value: i64, sign: extend,
//!           range: -0x8000000000000000 ..= 0x7FFFFFFFFFFFFFFF, layout: shortest, groups: lsb_first,
//!           forms: { "1xxxxxxx* 0xxxxxxx" } }
//!   "#).unwrap();
//!   let s = d.model.signed.as_ref().unwrap();
//!   // One byte holds -64 ..= 63; -1 is the byte 7F, whose payload's top bit is set.
//!   let forms = d.model.concrete_forms();
//!   assert_eq!((forms[0].units.len(), forms[1].units.len()), (1, 1));
//!   assert_eq!(s.value(&forms[0].hi).to_string(), "-1");
//!   assert_eq!(s.value(&forms[1].hi).to_string(), "63");
//!   // A 32-bit ZigZag range must be one of its two shapes.
//!   let shape = Description::parse_str(r#"
//!       pub Z { name: "z", value: i32, sign: zigzag, range: -3 ..= 10,
//!           groups: lsb_first, forms: { "1xxxxxxx* 0xxxxxxx" } }"#).unwrap_err();
//!   assert!(shape.iter().next().unwrap().message.contains("must be `-N ..= N` or `-(N + 1) ..= N`"));
//!   ```
//!
//!   In the 64-bit views of values (`DynCodec`, the CLI, `CodecInfo`'s
//!   `min` and `max`) a signed value is its two's complement pattern,
//!   sign-extended; `CodecInfo::sign` says which scheme the codec has.
//!
//!   Signed values of any size: `value: unbounded` with `sign: zigzag` or
//!   `low_bit` and `range: ..` (every integer). The traits' `Value` is `i64`,
//!   the fast path, which reports a value past it as invalid in its 64-bit
//!   view; `Codec::step_bigint` and `Codec::encode_bigint` (feature `big`)
//!   read and write every value as a `BigInt`. `sign: extend` needs a
//!   bounded type: a negative value's raw value depends on the width it is
//!   extended from.
//!
//!   ```
//!   use placemat_compiler::{reference::Reference, Description};
//!   let d = Description::parse_str(r#"
//!       pub ZigzagAny { name: "zigzag-any", value: unbounded, sign: zigzag, range: ..,
//!           forms: { "1xxxxxxx* 0xxxxxxx" } }
//!   "#).unwrap();
//!   let s = d.model.signed.as_ref().unwrap();
//!   // -2^70 is the raw value 2^71 - 1: a group holding one 1, then ten of seven.
//!   let mut units = vec![0x81];
//!   units.extend([0xFF; 9]);
//!   units.push(0x7F);
//!   let raw = Reference::new(&d.model).step(&units).map(|raw| s.value(&raw).to_string());
//!   assert_eq!(raw, placemat_codec::Step::Value { value: "-1180591620717411303424".into(), len: 11 });
//!   ```
//! * **Group order.** `groups: lsb_first` reads a form's payload with the first
//!   unit's bits least significant (LEB128); it needs a bounded value type. With
//!   wide units the groups are code units.
//! * **Values of any size.** `value: unbounded` decodes values past `u64` as
//!   `BigUint` (signed ones as `BigInt`), which needs the `big` feature of `placemat-codec`
//!   (`placemat-codec = { version = "0.1", features = ["big"] }`); without it the
//!   expansion stops with one error that says so.
//! * **Wide forms.** A form may carry more payload bits than the value type holds
//!   (Perl's 13-byte form: 72 bits for 64-bit values); its most significant
//!   payload bits are then fixed zeros.
//! * **Values.** A form's value is its bias plus its payload; it is valid if it lies
//!   in the form's range and in `range`, outside every `exclude` range.
//! * **Checks.** All problems are reported at once, each at its tokens: unknown or
//!   repeated keys, malformed patterns, forms that are not prefix-free (without
//!   `overlap: longest`) or accept the same units, ranges that overlap, are empty,
//!   leave values without a form, or disagree with the layout, biases that overflow,
//!   alphabets with repeated symbols or the wrong size, pre-mappings that are not a
//!   bijection, repetitions with no unit to end them, wide units that repeat,
//!   malformed or empty byte ranges, `T` without `digits`, digit sets with a byte
//!   twice or past FF, bit patterns beside digit units, explicit ranges wider
//!   than a form's digits spell, unit maps that are not 256 distinct bytes or
//!   stand beside an alphabet, wide units or digit units, signed types without
//!   a `sign` (or a `sign` without one), signed ranges past their type or of a
//!   shape their sign does not spell from 0 on, negative numbers anywhere
//!   but a signed codec's `range`, `..` but as a signed codec of any size's
//!   range (and `sign: extend` there), and `padding: unlimited` without
//!   `layout: padded` or a repeated last unit, or beside `sign: extend`,
//!   `forbid` or `overlap: longest`.
//!
//! # What is generated
//!
//! For `pub Utf8 { … }`: a unit struct `Utf8` implementing `Encoder`, `Decoder`
//! (each call by the fastest strategy: `step` by the branching decoder, which
//! beats the table walker one value at a time on all 22 built-in codecs measured, 1.6–9×
//! in the criterion `step` group; `validate` and `decode_into` by the SIMD
//! kernels where the codec has them, else the shift-DFA validator and the
//! table walker) and `Codec`, with
//! associated constants `CLASSES`, `TRANSITIONS` (one row per state), `BIASES`,
//! `CLASS_COUNT`, `STATE_COUNT` and `NAME` (`DIGITS` for alphabet, mapped and digit units, `UNMAP`
//! for a pre-mapping; `Codec::DESCRIPTION` is the description's text); and
//! `Utf8Branching` and `Utf8Table`, the branching and the table decoder on
//! their own. Everything the compiler derived from
//! the automaton — the shift rows, the expanded decoding table, the facts and
//! their certificates — is written as `static`s that `Dfa::from_static` checks
//! in a `const`, in time linear in the tables; nothing is recomputed in the user's
//! crate. `codec-macros/tests/snapshots/utf8.rs` shows the whole expansion for
//! strict UTF-8.

use proc_macro::TokenStream;

mod emit;
mod file;
#[cfg(test)]
mod snapshot;

/// Generates a codec from a description; see the crate docs for the grammar.
///
/// The description is written inline (`codec! { pub Utf8 { … } }`) or read from a
/// file: `codec!(file = "descriptions/utf8.placemat")`, a path relative to the
/// calling crate's `Cargo.toml`, so the macro and `placemat --spec` read the same
/// text. A file's errors are reported at the path, as `file:line:column` lines.
#[proc_macro]
pub fn codec(input: TokenStream) -> TokenStream {
    let input = proc_macro2::TokenStream::from(input);
    if let Ok(path) = syn::parse2::<file::FileInput>(input.clone()) {
        return file::expand(&path).into();
    }
    let source = input.to_string();
    let description = placemat_compiler::Description::parse(input.clone()).map_err(|d| d.to_syn_error());
    expand(description, input, &source, proc_macro2::TokenStream::new()).into()
}

/// The expansion of a parsed description (`Err`: its errors, then the fallback
/// types), after `prefix` (a file's tracking item).
fn expand(
    description: syn::Result<placemat_compiler::Description>,
    tokens: proc_macro2::TokenStream,
    source: &str,
    mut prefix: proc_macro2::TokenStream,
) -> proc_macro2::TokenStream {
    match description.and_then(|d| emit::emit(&d, source)) {
        Ok(items) => prefix.extend(items),
        Err(e) => {
            prefix.extend(e.to_compile_error());
            prefix.extend(fallback(tokens, source));
        }
    }
    prefix
}

/// Fallback output for a description with errors: the two types it would have
/// declared, with the derives and the `Encoder`, `Decoder` and `Codec` impls of
/// the real expansion, so that code using them reports the description's errors
/// and not a cascade of "cannot find type" or "no method named" errors besides.
/// The bodies never run: the crate does not compile while the description has
/// errors. Nothing is emitted if the description does not even parse into a name
/// and fields.
fn fallback(input: proc_macro2::TokenStream, source: &str) -> proc_macro2::TokenStream {
    use placemat_compiler::syntax::{Ast, FieldValue};

    let Ok(ast) = syn::parse2::<Ast>(input) else {
        return proc_macro2::TokenStream::new();
    };
    let vis = &ast.vis;
    let ty = &ast.ident;
    let branching = quote::format_ident!("{}Branching", ast.ident);
    let table = quote::format_ident!("{}Table", ast.ident);
    let docs = &ast.docs;
    // The value type as the real expansion would choose it: `u64` for `u64` and
    // `unbounded`, `u32` for `u32` and for a missing or unknown value type.
    let wide = ast
        .fields
        .iter()
        .any(|f| f.key == "value" && matches!(&f.value, FieldValue::Word(w) if w == "u64" || w == "unbounded"));
    let value = if wide { quote::quote!(u64) } else { quote::quote!(u32) };
    let never = quote::quote!(::core::unreachable!("the description of this codec has errors"));
    quote::quote! {
        #(#[doc = #docs])*
        #[allow(dead_code)]
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #ty;

        /// The branching decoder of a codec whose description has errors.
        #[allow(dead_code)]
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #branching;

        /// The table decoder of a codec whose description has errors.
        #[allow(dead_code)]
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #table;

        impl ::placemat_codec::Encoder for #ty {
            type Value = #value;
            fn max_units(&self) -> usize {
                #never
            }
            fn encode(
                &self,
                _value: #value,
                _out: &mut [u8],
            ) -> ::core::result::Result<usize, ::placemat_codec::EncodeError> {
                #never
            }
        }

        impl ::placemat_codec::Decoder for #ty {
            type Value = #value;
            fn step(&self, _input: &[u8]) -> ::placemat_codec::Step<#value> {
                #never
            }
        }

        impl ::placemat_codec::Decoder for #branching {
            type Value = #value;
            fn step(&self, _input: &[u8]) -> ::placemat_codec::Step<#value> {
                #never
            }
        }

        impl ::placemat_codec::Decoder for #table {
            type Value = #value;
            fn step(&self, _input: &[u8]) -> ::placemat_codec::Step<#value> {
                #never
            }
        }

        impl ::placemat_codec::Codec for #ty {
            type Branching = #branching;
            type Table = #table;
            const DESCRIPTION: &'static str = #source;
            fn info() -> &'static ::placemat_codec::CodecInfo {
                #never
            }
            fn dfa() -> &'static ::placemat_codec::dfa::Dfa {
                #never
            }
        }
    }
}
