//! The structural verifier every reader uses (`ProgramView::new`,
//! `decode_program`, ...) against the reference path (the flatbuffers
//! crate's verifier and the offset rules, `verify_program_reference`): the
//! same verdict on every corpus program, on every single-byte corruption of
//! the small ones and on a sample of the large ones, and the same limits to
//! the exact table count, apparent size and depth. A refused buffer carries
//! the reference's own error.

use crate::support::corpus_programs;

use pte_schema::{
    decode_program, verify_program_reference, ElementChecks, InstructionRef, Limits, ProgramView, ValueRef,
};

/// Checks that read each element handed to them in full and pass it.
struct ReadAll;

impl ElementChecks for ReadAll {
    fn value(&self, _: usize, _: usize, v: ValueRef<'_>) -> bool {
        if let ValueRef::Tensor(t) = v {
            let _ =
                (t.sizes().map(|s| s.iter().fold(0i32, i32::wrapping_add)), t.allocation_info(), t.fqn(), t.nbytes());
        }
        true
    }

    fn instruction(&self, _: usize, i: InstructionRef<'_>) -> bool {
        !matches!(i, InstructionRef::Unknown(0))
    }
}

/// Both paths, same verdict; a refusal is the reference's error. Running
/// checks during the walk changes nothing but their own verdict.
fn agree(buf: &[u8], limits: &Limits, what: &dyn Fn() -> String) {
    let fast = ProgramView::new(buf, limits).map(drop);
    let checked = ProgramView::with_checks(buf, limits, &ReadAll);
    assert_eq!(
        checked.as_ref().map(|(_, passed)| *passed).map_err(ToString::to_string),
        fast.as_ref().map(|()| true).map_err(ToString::to_string),
        "{}: with checks",
        what()
    );
    let reference = verify_program_reference(buf, limits);
    match (&fast, &reference) {
        (Ok(()), Ok(())) => {}
        (Err(f), Err(r)) => assert_eq!(f.to_string(), r.to_string(), "{}", what()),
        _ => panic!("{}: structural {:?}, reference {:?}", what(), fast.err(), reference.err()),
    }
}

#[test]
fn every_corpus_program_passes_both() {
    for (name, p) in corpus_programs() {
        ProgramView::new(&p, &Limits::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        verify_program_reference(&p, &Limits::default()).unwrap();
        decode_program(&p, &Limits::default()).unwrap();
    }
}

#[test]
fn single_byte_corruptions_get_the_same_verdict() {
    let mut refused = 0usize;
    let mut total = 0usize;
    for (name, p) in corpus_programs() {
        // every byte of the small programs, about 4,000 positions of the
        // mid-sized ones and 100 of the large (each check walks it all)
        let positions = if p.len() > 1 << 16 { 100 } else { 4000 };
        let stride = (p.len() / positions).max(1) | 1;
        for at in (0..p.len()).step_by(stride) {
            for value in [0x00, 0xff, p[at] ^ 0x01, p[at] ^ 0x80, p[at].wrapping_add(4)] {
                if value == p[at] {
                    continue;
                }
                let mut m = p.clone();
                m[at] = value;
                agree(&m, &Limits::default(), &|| format!("{name}: byte {at} set to {value:#04x}"));
                total += 1;
                refused += usize::from(verify_program_reference(&m, &Limits::default()).is_err());
            }
        }
    }
    // the corruptions reach both verdicts often, so agreement means something
    assert!(refused > total / 10 && refused < total, "{refused} of {total} refused");
}

/// Every word of the small programs in turn set to point one byte, or far,
/// before the buffer's start if it were a table's vtable offset (a table
/// at `at` whose vtable lies at `at - back`): the same verdict, so a table
/// is refused such a vtable whether or not its type has one remembered.
/// Fuzzing found the walk taking a vtable at -1, which wraps to the highest
/// position, for the "nothing remembered yet" its memory started with.
#[test]
fn vtables_before_the_buffer_get_the_same_verdict() {
    let mut refused = 0usize;
    for (name, p) in corpus_programs().into_iter().filter(|(_, p)| p.len() < 1 << 14) {
        for at in (0..p.len().saturating_sub(3)).step_by(4) {
            for back in [at + 1, at + 2, at + 64, i32::MAX as usize] {
                let mut m = p.clone();
                m[at..at + 4].copy_from_slice(&(back as i32).to_le_bytes());
                agree(&m, &Limits::default(), &|| format!("{name}: word {at} set to {back}"));
                refused += usize::from(ProgramView::new(&m, &Limits::default()).is_err());
            }
        }
    }
    assert!(refused > 100, "{refused} refused");
}

#[test]
fn truncations_get_the_same_verdict() {
    for (name, p) in corpus_programs() {
        let stride = (p.len() / if p.len() > 1 << 16 { 50 } else { 500 }).max(1);
        for len in (0..p.len()).step_by(stride) {
            agree(&p[..len], &Limits::default(), &|| format!("{name}: first {len} bytes"));
        }
    }
}

/// The smallest value of a limit the reference accepts `buf` under, by
/// bisection over `make`, checked against the structural verifier at that
/// value and one below.
fn threshold(name: &str, buf: &[u8], what: &str, make: impl Fn(usize) -> Limits) -> usize {
    let (mut lo, mut hi) = (0usize, 1usize << 40);
    assert!(verify_program_reference(buf, &make(hi)).is_ok(), "{name}: {what} {hi}");
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        if verify_program_reference(buf, &make(mid)).is_ok() {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    assert!(ProgramView::new(buf, &make(hi)).is_ok(), "{name}: {what} {hi} accepted by the reference");
    assert!(ProgramView::new(buf, &make(hi - 1)).is_err(), "{name}: {what} {} refused by the reference", hi - 1);
    agree(buf, &make(hi - 1), &|| format!("{name}: {what} {}", hi - 1));
    hi
}

#[test]
fn limits_are_counted_exactly_as_the_reference_counts_them() {
    for (name, p) in corpus_programs() {
        let tables = threshold(&name, &p, "max_tables", |n| Limits { max_tables: Some(n), ..Limits::default() });
        let size = threshold(&name, &p, "max_apparent_size", |n| Limits {
            apparent_size_factor: usize::MAX,
            max_apparent_size: n,
            ..Limits::default()
        });
        let depth = threshold(&name, &p, "max_depth", |n| Limits { max_depth: n, ..Limits::default() });
        assert!(tables > 1 && size > p.len() / 2 && (2..=6).contains(&depth), "{name}: {tables} {size} {depth}");
    }
}

/// A program whose values and instructions are long enough to be walked by
/// two threads at once (`pte_schema::SPLIT_MIN`): the two walks' counts must
/// add up to the reference's, and a fault in any chunk must be found.
#[test]
fn long_vectors_walked_by_two_threads_count_as_one_walk() {
    use pte_schema::*;
    let n = 3 * pte_schema::SPLIT_MIN;
    let values = (0..n)
        .map(|i| EValue {
            val: Some(if i % 2 == 0 {
                KernelTypes::Int(i as i64)
            } else {
                KernelTypes::Tensor(Tensor {
                    sizes: Some(vec![2, 3]),
                    dim_order: Some(vec![0, 1]),
                    ..Default::default()
                })
            }),
        })
        .collect();
    let instructions = (0..n)
        .map(|i| Instruction {
            instr_args: Some(InstructionArguments::KernelCall { op_index: 0, args: Some(vec![i as i32]) }),
        })
        .collect();
    let plan = ExecutionPlan {
        name: Some(format!("{:x>300}", "forward")),
        values: Some(values),
        chains: Some(vec![Chain { instructions: Some(instructions), ..Default::default() }]),
        ..Default::default()
    };
    let p = encode_program(&Program { execution_plan: Some(vec![plan]), ..Default::default() }, &Default::default())
        .unwrap();
    let tables = threshold("long", &p, "max_tables", |n| Limits { max_tables: Some(n), ..Limits::default() });
    assert!(tables > 4 * n, "{tables}");
    threshold("long", &p, "max_apparent_size", |n| Limits {
        apparent_size_factor: usize::MAX,
        max_apparent_size: n,
        ..Limits::default()
    });
    threshold("long", &p, "max_depth", |n| Limits { max_depth: n, ..Limits::default() });
    // corruptions spread over every chunk of both vectors
    let mut refused = 0;
    for at in (0..p.len()).step_by(p.len() / 400) {
        let mut m = p.clone();
        m[at] ^= 0x80;
        agree(&m, &Limits::default(), &|| format!("long: byte {at} flipped"));
        refused += usize::from(verify_program_reference(&m, &Limits::default()).is_err());
    }
    assert!(refused > 40, "{refused} refused");
}
