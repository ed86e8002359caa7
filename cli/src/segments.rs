//! `placemat transcode` of a large regular file on several cores. The file
//! is cut into segments of about [`Segments::size`] bytes, each cut moved
//! back to the last point before it where a sequence of the source starts
//! whatever follows (`Dfa::last_cut`, where the source's facts give one).
//! Each segment is read and converted by a new transcoder on a worker
//! thread, which reads it itself a block at a time and converts each block
//! as it is read (so that its bytes are in the cache of the core that
//! converts them), and the outputs are written in order.
//!
//! A segment's output is kept where the transcoder of everything before it
//! ends at rest ([`Transcoder::at_rest`]): a new transcoder given the rest
//! writes what that one would. Where it does not (a cut inside a sequence
//! the facts could not see, or in the context of a rule across values), the
//! segment is converted again by that transcoder going on, on the writing
//! thread. So the output, and the first error, are those of one transcoder
//! over the whole file. At most two segments per worker are in flight, so
//! memory stays bounded whatever the file's size.
//!
//! ```no_run
//! # use placemat_cli::segments::Segments;
//! # use placemat_codec::io::{ErrorMode, Transcoder};
//! let (utf8, utf16le) = (placemat_variants::registry::find("utf8").unwrap(), placemat_variants::registry::find("utf16le").unwrap());
//! let make = |offset| Transcoder::new(utf8, utf16le, ErrorMode::Strict).unwrap().with_offset(offset);
//! let mut out = Vec::new();
//! let size = std::fs::metadata("big.txt")?.len();
//! let mut rest = Segments { size: 1 << 20, threads: 2 }.transcode(utf8, &make, "big.txt", size, &mut out)?;
//! rest.finish(&mut out)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Mutex;

use placemat_codec::io::{TranscodeError, Transcoder};
use placemat_codec::DynCodec;

/// How a file is cut and converted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Segments {
    /// The bytes of a segment (before its end moves back to a cut).
    pub size: usize,
    /// The worker threads.
    pub threads: usize,
}

/// Why converting the segments stopped.
#[derive(Debug)]
pub enum Stopped {
    /// The input has an error (strict mode), at its offset in the file.
    Transcode(TranscodeError),
    /// Reading the file failed.
    Read(io::Error),
    /// Writing the output failed.
    Write(io::Error),
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopped::Transcode(e) => write!(f, "{e}"),
            Stopped::Read(e) => write!(f, "cannot read the file: {e}"),
            Stopped::Write(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

impl std::error::Error for Stopped {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Stopped::Transcode(e) => Some(e),
            Stopped::Read(e) | Stopped::Write(e) => Some(e),
        }
    }
}

/// A transcoder for the rest of the input from an offset.
pub type Make<'a, 'c> = dyn Fn(u64) -> Transcoder<'c> + Sync + 'a;

/// A segment converted by a worker.
struct Done<'c> {
    index: usize,
    input: Vec<u8>,
    output: Vec<u8>,
    result: Result<(), Stopped>,
    engine: Transcoder<'c>,
}

impl Segments {
    /// The segments and workers for a file of `size` bytes on this machine:
    /// `None` where one pass is as good (one core, or a file of less than
    /// two segments).
    pub fn for_file(size: u64, threads: Option<usize>) -> Option<Segments> {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let threads = threads.unwrap_or(cores.min(MAX_THREADS));
        (threads > 1 && size >= 2 * SEGMENT as u64).then_some(Segments { size: SEGMENT, threads })
    }

    /// Converts the first `size` bytes of the file at `path`, in units of
    /// `from`, by transcoders `make` gives, writing the output to `out` in
    /// order: the transcoder at the end (for the rest of the file, and its
    /// `finish`), or what stopped it (after the output before an error is
    /// written).
    pub fn transcode<'c>(
        self,
        from: &dyn DynCodec,
        make: &Make<'_, 'c>,
        path: &str,
        size: u64,
        out: &mut dyn Write,
    ) -> Result<Transcoder<'c>, Stopped> {
        let dfa = from.dyn_dfa();
        let file = &mut File::open(path).map_err(Stopped::Read)?;
        let cuts = cuts(file, size, self.size as u64, |window| dfa.last_cut(window)).map_err(Stopped::Read)?;
        let (jobs_tx, jobs) = mpsc::channel::<usize>();
        let (done_tx, done) = mpsc::channel::<Done<'c>>();
        let (jobs, pool) = (Mutex::new(jobs), Mutex::new(Vec::new()));
        std::thread::scope(|scope| {
            for _ in 0..self.threads {
                let done_tx = done_tx.clone();
                let (jobs, pool, cuts) = (&jobs, &pool, &cuts);
                scope.spawn(move || work(make, path, cuts, jobs, pool, &done_tx));
            }
            drop(done_tx);
            let segments = cuts.len() - 1;
            let ahead = 2 * self.threads;
            for index in 0..segments.min(ahead) {
                let _ = jobs_tx.send(index);
            }
            let mut write = Writer { done, waiting: BTreeMap::new(), carry: None, pool: &pool };
            for index in 0..segments {
                write.next(index, out)?;
                if index + ahead < segments {
                    let _ = jobs_tx.send(index + ahead);
                }
            }
            // (Dropping the jobs' sender ends the workers.)
            drop(jobs_tx);
            Ok(write.carry.unwrap_or_else(|| make(0)))
        })
    }
}

/// The writing thread's side: the segments done out of order, the
/// transcoder of everything written, and the buffers to give back.
struct Writer<'p, 'c> {
    done: Receiver<Done<'c>>,
    waiting: BTreeMap<usize, Done<'c>>,
    carry: Option<Transcoder<'c>>,
    pool: &'p Mutex<Vec<(Vec<u8>, Vec<u8>)>>,
}

impl<'c> Writer<'_, 'c> {
    /// Writes segment `index`: its worker's output if the transcoder before
    /// it is at rest, else that transcoder's output for it.
    fn next(&mut self, index: usize, out: &mut dyn Write) -> Result<(), Stopped> {
        let mut seg = loop {
            if let Some(seg) = self.waiting.remove(&index) {
                break seg;
            }
            let seg = self.done.recv().map_err(|_| Stopped::Read(io::Error::other("a worker thread stopped")))?;
            self.waiting.insert(seg.index, seg);
        };
        if let Some(mut carry) = self.carry.take().filter(|c| !c.at_rest()) {
            #[cfg(test)]
            REDONE.with(|n| n.set(n.get() + 1));
            // A read error is the file's, whoever reads.
            if !matches!(seg.result, Err(Stopped::Read(_))) {
                seg.output.clear();
                seg.result = carry.push(&seg.input, &mut seg.output).map_err(Stopped::Transcode);
            }
            seg.engine = carry;
        }
        out.write_all(&seg.output).map_err(Stopped::Write)?;
        seg.result?;
        self.carry = Some(seg.engine);
        lock(self.pool).push((seg.input, seg.output));
        Ok(())
    }
}

/// A worker: reads and converts the segments it is given until there are
/// no more (or the writer is gone).
fn work<'c>(
    make: &Make<'_, 'c>,
    path: &str,
    cuts: &[u64],
    jobs: &Mutex<Receiver<usize>>,
    pool: &Mutex<Vec<(Vec<u8>, Vec<u8>)>>,
    done: &Sender<Done<'c>>,
) {
    let mut file = File::open(path);
    loop {
        let Ok(index) = lock(jobs).recv() else { return };
        let (start, end) = (cuts[index], cuts[index + 1]);
        let (mut input, mut output) = lock(pool).pop().unwrap_or_default();
        let mut engine = make(start);
        output.clear();
        let result = match &mut file {
            Ok(file) => convert_at(file, (start, end), &mut input, &mut engine, &mut output),
            Err(e) => Err(Stopped::Read(io::Error::new(e.kind(), e.to_string()))),
        };
        if done.send(Done { index, input, output, result, engine }).is_err() {
            return;
        }
    }
}

/// Reads the bytes `start..end` of `file` into `input` and converts them
/// with `engine` into `output`, a block at a time as it reads them (so that
/// each is converted while in the cache the read put it in). After an error
/// in the input, reads the rest (the writing thread may convert it again).
fn convert_at(
    file: &mut File,
    (start, end): (u64, u64),
    input: &mut Vec<u8>,
    engine: &mut Transcoder<'_>,
    output: &mut Vec<u8>,
) -> Result<(), Stopped> {
    file.seek(SeekFrom::Start(start)).map_err(Stopped::Read)?;
    input.resize((end - start) as usize, 0);
    let mut result = Ok(());
    for block in input.chunks_mut(BLOCK) {
        file.read_exact(block).map_err(Stopped::Read)?;
        if result.is_ok() {
            result = engine.push(block, output).map_err(Stopped::Transcode);
        }
    }
    result
}

/// Reads `len` bytes of `file` from `start` into `buf`.
fn read_at(file: &mut File, start: u64, len: usize, buf: &mut Vec<u8>) -> io::Result<()> {
    file.seek(SeekFrom::Start(start))?;
    buf.resize(len, 0);
    file.read_exact(buf)
}

/// Where the segments start and end (from 0 to `size`): every `segment`
/// bytes, each moved back to the cut `last_cut` finds in the 256 bytes
/// before it, if any.
fn cuts(file: &mut File, size: u64, segment: u64, last_cut: impl Fn(&[u8]) -> Option<usize>) -> io::Result<Vec<u64>> {
    let mut cuts = vec![0];
    let mut window = Vec::new();
    let mut nominal = segment;
    while nominal < size {
        let back = 256.min(nominal - cuts[cuts.len() - 1]);
        read_at(file, nominal - back, back as usize, &mut window)?;
        let cut = last_cut(&window).map_or(nominal, |c| nominal - back + c as u64);
        if cut > cuts[cuts.len() - 1] {
            cuts.push(cut);
        }
        nominal += segment;
    }
    cuts.push(size);
    Ok(cuts)
}

/// The lock, whether or not another thread panicked holding it (what it
/// guards, a queue, stays whole).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
std::thread_local! {
    /// The segments converted again on this (the writing) thread.
    static REDONE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The bytes of a segment.
const SEGMENT: usize = 1 << 20;
/// The bytes a worker reads and converts at a time (within a core's cache;
/// a few bytes in the tests, so that their segments take several).
#[cfg(not(test))]
const BLOCK: usize = 1 << 18;
#[cfg(test)]
const BLOCK: usize = 16;
/// The most worker threads by default (more cores than this add little:
/// writing the output in order is one thread's work).
const MAX_THREADS: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;
    use placemat_codec::io::ErrorMode;
    use placemat_variants::registry;

    /// What a conversion gives: its output and its error.
    type Outcome = (Vec<u8>, Option<String>);

    /// `input` in one pass.
    fn whole(from: &dyn DynCodec, to: &dyn DynCodec, mode: ErrorMode, input: &[u8]) -> Outcome {
        let mut engine = Transcoder::new(from, to, mode).unwrap();
        let mut out = Vec::new();
        let err = engine.push(input, &mut out).and_then(|()| engine.finish(&mut out)).err();
        (out, err.map(|e| format!("{e:?}")))
    }

    /// `input`, written to a file, in segments.
    fn split(from: &dyn DynCodec, to: &dyn DynCodec, mode: ErrorMode, input: &[u8], seg: Segments) -> Outcome {
        let path = std::env::temp_dir().join(format!(
            "placemat-segments-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::write(&path, input).unwrap();
        let path_text = path.to_str().unwrap();
        let engine = Transcoder::new(from, to, mode).unwrap();
        let make = |offset| engine.fresh().with_offset(offset);
        let mut out = Vec::new();
        let result = seg.transcode(from, &make, path_text, input.len() as u64, &mut out);
        std::fs::remove_file(&path).unwrap();
        let err = match result {
            Ok(mut rest) => rest.finish(&mut out).err().map(|e| format!("{e:?}")),
            Err(Stopped::Transcode(e)) => Some(format!("{e:?}")),
            Err(other) => panic!("{other:?}"),
        };
        (out, err)
    }

    /// Text in `from` of every script mix, with an error near its middle or
    /// none, and cut short or not.
    fn inputs(from: &dyn DynCodec, seed: u64) -> Vec<Vec<u8>> {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            x >> 33
        };
        let ranges = [(0x20, 0x7E), (0x410, 0x44F), (0x4E00, 0x9FFF), (0x1_F300, 0x1_F64F)];
        let mut text = Vec::new();
        while text.len() < 6000 {
            let (lo, hi) = ranges[next() as usize % ranges.len()];
            let _ = from.encode_push(lo + next() % (hi - lo + 1), &mut text);
        }
        let mut bad = text.clone();
        let at = bad.len() / 2 + next() as usize % 100;
        bad[at] ^= 0x80 | (next() as u8 & 0x3F);
        let cut = text[..text.len() - 1].to_vec();
        vec![text, bad, cut]
    }

    #[test]
    fn segments_convert_as_one_pass_with_every_cut_and_error() {
        let names = ["utf8", "utf16le", "utf16be", "utf32le", "cesu8", "mutf8", "wtf8", "utf1", "fss-utf-plan9"];
        let codecs = names.map(|n| registry::find(n).unwrap());
        let mut redone = 0;
        for (i, &from) in codecs.iter().enumerate() {
            for (j, &to) in codecs.iter().enumerate() {
                for (k, input) in inputs(from, (i * 31 + j) as u64).iter().enumerate() {
                    for mode in [ErrorMode::Strict, ErrorMode::Replace] {
                        if Transcoder::new(from, to, mode).is_err() {
                            continue;
                        }
                        let one = whole(from, to, mode, input);
                        for (size, threads) in [(37, 2), (256, 3), (1000, 2)] {
                            REDONE.with(|n| n.set(0));
                            let seg = Segments { size, threads };
                            let (f, t) = (&from.info().name, &to.info().name);
                            assert!(
                                split(from, to, mode, input, seg) == one,
                                "{f} -> {t}, input {k}, {mode:?}, {seg:?}"
                            );
                            redone += REDONE.with(|n| n.get());
                        }
                    }
                }
            }
        }
        // Cuts the facts could not place (inside UTF-16's and UTF-32's
        // units, which have no sync units) were converted again.
        assert!(redone > 100, "{redone}");
    }

    #[test]
    fn cuts_in_utf8_fall_where_sequences_start() {
        let (utf8, utf16le) = (registry::find("utf8").unwrap(), registry::find("utf16le").unwrap());
        let text = "Съешь же ещё этих мягких французских булок 🎉 我能吞下玻璃而不伤身体。".repeat(40);
        REDONE.with(|n| n.set(0));
        let seg = Segments { size: 333, threads: 2 };
        let split = split(utf8, utf16le, ErrorMode::Strict, text.as_bytes(), seg);
        assert_eq!(split, whole(utf8, utf16le, ErrorMode::Strict, text.as_bytes()));
        assert_eq!(REDONE.with(|n| n.get()), 0, "every segment of valid UTF-8 is kept");
    }

    #[test]
    fn a_file_of_less_than_two_segments_or_one_thread_takes_one_pass() {
        assert_eq!(Segments::for_file(2 * SEGMENT as u64 - 1, Some(2)), None);
        assert_eq!(Segments::for_file(10 * SEGMENT as u64, Some(1)), None);
        assert_eq!(Segments::for_file(10 * SEGMENT as u64, Some(3)), Some(Segments { size: SEGMENT, threads: 3 }));
    }
}
