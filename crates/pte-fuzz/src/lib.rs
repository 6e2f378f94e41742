//! A structure-aware mutator for fuzzing any parser of ExecuTorch files
//! (`.pte`, `.ptd`, `.bpte`, `.ptn`): libFuzzer's custom mutator and
//! cross-over entry points for C and C++ harnesses (`include/pte_fuzz.h`),
//! and the same two functions as a safe API for Rust and Python (atheris).
//!
//! A mutation reads the input as one of the formats when it can and changes
//! it the way a producer bug or an attacker would: a class of the
//! [`pte_gen::CATALOGUE`], one field of the decoded program set to a value
//! at an edge (an index one past the end, a negative size, another dtype),
//! a segment table or `eh00` header entry moved, a flatbuffer field reached
//! by following offsets overwritten, a fresh program from
//! [`pte_gen::generate`], or a member of a `.ptn` package mutated in turn.
//! Anything else, and every tenth call, gets a byte-level edit (bit flips,
//! interesting words, the formats' magic values, inserts, cuts).
//!
//! Every result depends only on the input bytes and the seed, never exceeds
//! the size limit, and no input makes it panic.
//!
//! ```
//! let program = pte_gen::generate(1)?.to_bytes()?;
//! let a = pte_fuzz::mutate(&program, 1 << 20, 7);
//! assert_eq!(a, pte_fuzz::mutate(&program, 1 << 20, 7));
//! assert!(a.len() <= 1 << 20);
//! let child = pte_fuzz::cross_over(&program, &a, 1 << 20, 8);
//! assert!(child.len() <= 1 << 20);
//! # Ok::<(), pte_file::Error>(())
//! ```

mod bytes;
mod cross;
#[cfg(feature = "c-entry-points")]
mod ffi;
mod flatbuf;
mod model;
mod ptn;

#[cfg(feature = "c-entry-points")]
pub use ffi::{LLVMFuzzerCustomCrossOver, LLVMFuzzerCustomMutator};
use pte_core::FileKind;
use pte_gen::Rng;

/// What a mutation did, for logs and tests: the strategy's name.
///
/// ```
/// let (_, how) = pte_fuzz::mutate_explained(b"not a model", 64, 3);
/// assert_eq!(how, pte_fuzz::Strategy::Bytes);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strategy {
    /// A corruption class of the catalogue.
    Catalogue,
    /// One field of the decoded program changed, the file written again.
    Field,
    /// A segment table entry, segment or `eh00` header value changed.
    Segments,
    /// A flatbuffer field reached by following offsets overwritten in place.
    Flatbuffer,
    /// A program made by the generator from the seed.
    Generated,
    /// A member of a `.ptn` package mutated, the package zipped again.
    Member,
    /// A byte-level edit.
    Bytes,
}

/// How many times a structure-aware strategy is retried (with the next
/// random choices) before the byte-level fallback.
const TRIES: usize = 4;

/// A mutant of `data` of at most `max_size` bytes, the same for the same
/// `data` and `seed`.
///
/// ```
/// let out = pte_fuzz::mutate(b"\0\0\0\0ET12", 32, 1);
/// assert!(out.len() <= 32);
/// ```
pub fn mutate(data: &[u8], max_size: usize, seed: u64) -> Vec<u8> {
    mutate_explained(data, max_size, seed).0
}

/// [`mutate`], and the strategy that produced the result.
///
/// ```
/// let program = pte_gen::generate(2)?.to_bytes()?;
/// let (out, how) = pte_fuzz::mutate_explained(&program, 1 << 20, 11);
/// assert!(out != program || how == pte_fuzz::Strategy::Generated);
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn mutate_explained(data: &[u8], max_size: usize, seed: u64) -> (Vec<u8>, Strategy) {
    let mut rng = Rng::new(mix(seed, data.len()));
    let kind = kind_of(data);
    if kind.is_known() && rng.below(10) != 0 {
        for _ in 0..TRIES {
            if let Some((out, how)) = structured(data, kind, max_size, &mut rng)
                && out.len() <= max_size
                && out != data
            {
                return (out, how);
            }
        }
    }
    (bytes::mutate(data, max_size, &mut rng), Strategy::Bytes)
}

/// One structure-aware attempt; `None` when the chosen strategy does not
/// apply to this input.
fn structured(data: &[u8], kind: FileKind, max_size: usize, rng: &mut Rng) -> Option<(Vec<u8>, Strategy)> {
    let pick = rng.below(100);
    if kind.is_pte() {
        match pick {
            0..=14 => catalogue(data, kind, rng).map(|b| (b, Strategy::Catalogue)),
            15..=49 => model::field(data, rng).map(|b| (b, Strategy::Field)),
            50..=64 => model::segments(data, rng).map(|b| (b, Strategy::Segments)),
            65..=91 => flatbuf::mutate(data, rng).map(|b| (b, Strategy::Flatbuffer)),
            _ => generated(max_size, rng).map(|b| (b, Strategy::Generated)),
        }
    } else if kind.is_ptd() || kind.is_bpte() {
        match pick {
            0..=29 => catalogue(data, kind, rng).map(|b| (b, Strategy::Catalogue)),
            30..=39 if kind.is_bpte() => model::bundled_program(data, max_size, rng).map(|b| (b, Strategy::Field)),
            30..=44 => flatbuf::header(data, rng).map(|b| (b, Strategy::Segments)),
            _ => flatbuf::mutate(data, rng).map(|b| (b, Strategy::Flatbuffer)),
        }
    } else if kind.is_ptn() {
        match pick {
            0..=29 => catalogue(data, kind, rng).map(|b| (b, Strategy::Catalogue)),
            _ => ptn::member(data, max_size, rng).map(|b| (b, Strategy::Member)),
        }
    } else {
        None
    }
}

/// The kind whose structure the mutators walk: the one the identifier
/// names (the door's [`pte::identify`]), none for a program whose
/// identifier a mutation broke (bytes are all it has left).
fn kind_of(bytes: &[u8]) -> FileKind {
    pte::identify(bytes).named_kind()
}

/// A random class of the catalogue for `kind`, applied.
fn catalogue(data: &[u8], kind: FileKind, rng: &mut Rng) -> Option<Vec<u8>> {
    let classes: Vec<_> = pte_gen::CATALOGUE.iter().filter(|c| c.input == kind).collect();
    let class = classes.get(rng.below(classes.len()))?;
    class.apply(data).ok()
}

/// A generated program, when it fits.
fn generated(max_size: usize, rng: &mut Rng) -> Option<Vec<u8>> {
    let bytes = pte_gen::generate(rng.next_u64()).ok()?.to_bytes().ok()?;
    (bytes.len() <= max_size).then_some(bytes)
}

/// A child of `a` and `b` of at most `max_size` bytes: methods, segments or
/// package members of one moved into the other when both read as the same
/// format, else a splice of their bytes. The same for the same inputs and
/// seed.
///
/// ```
/// let a = pte_gen::generate(3)?.to_bytes()?;
/// let b = pte_gen::generate(4)?.to_bytes()?;
/// let child = pte_fuzz::cross_over(&a, &b, 1 << 20, 5);
/// assert_eq!(child, pte_fuzz::cross_over(&a, &b, 1 << 20, 5));
/// assert!(pte_fuzz::cross_over(b"abc", b"def", 2, 5).len() <= 2);
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn cross_over(a: &[u8], b: &[u8], max_size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(mix(seed, a.len().wrapping_mul(31).wrapping_add(b.len())));
    let kind = kind_of(a);
    if kind == kind_of(b) && rng.below(4) != 0 {
        let child = if kind.is_pte() {
            cross::programs(a, b, &mut rng)
        } else if kind.is_ptn() {
            ptn::cross(a, b, &mut rng)
        } else {
            None
        };
        if let Some(child) = child.filter(|c| c.len() <= max_size) {
            return child;
        }
    }
    cross::splice(a, b, max_size, &mut rng)
}

/// The generator state for a call: the seed spread over all 64 bits (a
/// libFuzzer seed is 32 bits) and the input length folded in.
fn mix(seed: u64, len: usize) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15).wrapping_add((len as u64).rotate_left(32));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
