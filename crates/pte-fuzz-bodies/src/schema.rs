//! The program-schema targets: the main decoder against planus, and the
//! structural verifier against its reference.

use pte_schema::{
    verify_program_reference, ElementChecks, InstructionRef, Limits, ProgramPreview, ProgramView, ValueRef,
};

/// Differential: whenever the main decoder and planus (`pte-oracle`) both
/// accept the bytes, planus's re-encoding must decode to the same program.
///
/// ```
/// pte_fuzz_bodies::differential(b"\x08\0\0\0ET12 not really");
/// ```
pub fn differential(data: &[u8]) {
    let ours = pte_schema::decode_program(data, &Default::default());
    let theirs = pte_oracle::decode(data);
    if let (Ok(ours), Ok(theirs)) = (ours, theirs) {
        let planus_bytes = pte_oracle::encode(&theirs);
        match pte_schema::decode_program(&planus_bytes, &Limits::unlimited()) {
            Ok(again) if again == ours => {}
            Ok(_) => panic!("planus and the main decoder disagree"),
            Err(e) => panic!("planus output does not decode: {e}"),
        }
    }
}

/// Reads every field of each element it is handed; passes everything.
struct ReadAll;

impl ElementChecks for ReadAll {
    fn value(&self, _: usize, _: usize, v: ValueRef<'_>) -> bool {
        if let ValueRef::Tensor(t) = v {
            let _ = (t.scalar_type(), t.storage_offset(), t.sizes().map(|s| s.iter().count()), t.dim_order());
            let _ = (t.allocation_info(), t.shape_dynamism(), t.fqn(), t.location(), t.nbytes());
        }
        true
    }

    fn instruction(&self, _: usize, i: InstructionRef<'_>) -> bool {
        if let InstructionRef::KernelCall { args, .. } | InstructionRef::DelegateCall { args, .. } = i {
            let _ = args.map(|a| a.iter().count());
        }
        true
    }
}

/// The structural verifier the readers use and the reference path (the
/// flatbuffers verifier and the offset rules) must give the same verdict
/// and, on a refusal, the same error, under default and tight limits; so
/// must the same verifier running checks of every value and instruction
/// (which read every field of what they are handed). Previews read any
/// bytes safely.
///
/// ```
/// pte_fuzz_bodies::program_structure(b"\x08\0\0\0ET12 not really");
/// ```
pub fn program_structure(data: &[u8]) {
    let tight = Limits {
        max_tables: Some(64),
        max_apparent_size: 4096,
        apparent_size_factor: usize::MAX,
        max_depth: 4,
        ..Limits::default()
    };
    for limits in [Limits::default(), tight] {
        let fast = ProgramView::new(data, &limits).map(drop).map_err(|e| e.to_string());
        let reference = verify_program_reference(data, &limits).map_err(|e| e.to_string());
        if fast != reference {
            panic!("the structural verifier and the reference disagree: {fast:?} against {reference:?}");
        }
        let checked = ProgramView::with_checks(data, &limits, &ReadAll).map(|(_, passed)| passed);
        if checked.as_ref().map(drop).map_err(|e| e.to_string()) != fast {
            panic!("checks changed the verdict");
        }
        if checked.is_ok_and(|passed| !passed) {
            panic!("checks that pass everything failed");
        }
    }
    let pre = ProgramPreview::new(data);
    let _ = (pre.constant_offsets(), pre.mutable_offsets(0), pre.segment_size(0));
    for p in (0..pre.plan_count().min(4)).filter_map(|i| pre.plan(i)) {
        let _ = (p.buffer_sizes(), p.operator(0), p.delegate_count(), p.value_ref(p.value_count().saturating_sub(1)));
    }
}
