//! The verifier's clean-file pass (zero-copy, no model) and its full pass
//! (decoded model, paths and offsets) must agree on every file: the clean-file
//! pass may only answer "clean" where the full pass finds nothing at all.
//! Checked on the corpus and on thousands of damaged copies of it.

use pte_verify::{verify_bytes, verify_bytes_full};

fn corpus_programs() -> Vec<(String, Vec<u8>)> {
    let root = pte_testkit::corpus_dir();
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(root)
        .unwrap()
        .filter_map(|e| {
            let dir = e.unwrap().path();
            let bytes = std::fs::read(dir.join("model.pte")).ok()?;
            Some((dir.file_name().unwrap().to_string_lossy().into_owned(), bytes))
        })
        .collect();
    out.sort();
    assert!(out.len() >= 14, "corpus missing");
    out
}

fn agree(what: &str, bytes: &[u8]) {
    let o = Default::default();
    assert_eq!(verify_bytes(bytes, &o), verify_bytes_full(bytes, &o), "{what}");
}

#[test]
fn corpus_reports_are_the_same_either_way() {
    let mut clean = 0;
    for (name, bytes) in corpus_programs() {
        agree(&name, &bytes);
        clean += usize::from(verify_bytes(&bytes, &Default::default()).warnings.is_empty());
    }
    // the legacy-constants case warns; every other case is clean, so the
    // clean-file pass is what answered for them
    assert!(clean >= 13);
}

#[test]
fn damaged_copies_get_the_same_report_either_way() {
    let mut next = pte_testkit::xorshift(0x9E37_79B9_7F4A_7C15);
    let mut still_clean = 0;
    for (name, bytes) in corpus_programs() {
        // the deep program is large: fewer edits keep the test quick
        let edits = if bytes.len() > 1 << 20 { 40 } else { 400 };
        let region = pte_file::program_region(&bytes).map_or(bytes.len(), |(_, r)| r.len());
        for k in 0..edits {
            let mut b = bytes.clone();
            let at = 8 + (next() as usize % (region - 8));
            match k % 4 {
                0 => b[at] ^= 1 << (next() % 8),
                1 => b[at] = b[at].wrapping_add(1),
                2 => b[at] = 0,
                _ => {
                    let w = at & !3;
                    let v = [0xFFFF_FFFFu32, 0x7FFF_FFFF, 1, 100, 0][next() as usize % 5];
                    b[w..w + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
            agree(&format!("{name}: edit {k} at byte {at}"), &b);
            still_clean += usize::from(verify_bytes(&b, &Default::default()) == Default::default());
        }
    }
    // some edits land in bytes no rule reads (padding, names): those files
    // stay clean, which shows the clean-file pass answered for them too
    assert!(still_clean > 0);
}

/// Segment tables out of file order, with shared and overlapping ranges:
/// the clean-file pass checks an ordered table as it reads it and must still
/// agree with the full pass on the others.
#[test]
fn reordered_shared_and_overlapping_tables_get_the_same_report() {
    let mut tried = 0;
    for (name, bytes) in corpus_programs() {
        let Ok(pte) = pte_file::PteFile::from_bytes(&bytes) else { continue };
        let n = pte.program.segment_table().len();
        if n < 2 {
            continue;
        }
        let reversed = |i: u32| (n as u32) - 1 - i;
        let variants: Vec<(&str, Box<Edit<'_>>)> = vec![
            (
                "reversed",
                Box::new(move |p| {
                    p.segments.as_mut().unwrap().reverse();
                    remap(p, reversed);
                }),
            ),
            (
                "shared",
                Box::new(|p| {
                    let first = p.segment_table()[0];
                    p.segments.as_mut().unwrap().push(first);
                }),
            ),
            (
                "shared first",
                Box::new(|p| {
                    let first = p.segment_table()[n - 1];
                    p.segments.as_mut().unwrap().insert(0, first);
                    remap(p, |i| i + 1);
                }),
            ),
            (
                "overlapping",
                Box::new(|p| {
                    let mut s = p.segment_table()[0];
                    s.size += 1;
                    p.segments.as_mut().unwrap().push(s);
                }),
            ),
        ];
        for (what, edit) in variants {
            let mut program = pte.program.clone();
            edit(&mut program);
            let fb = pte_schema::encode_program(&program, &Default::default()).unwrap();
            let mut out = vec![];
            pte_file::splice_flatbuffer(&mut out, &bytes, &fb, &pte_file::WriteOptions::matching(&pte, &bytes))
                .unwrap();
            agree(&format!("{name}: {what}"), &out);
            tried += 1;
        }
    }
    assert!(tried >= 4);
}

type Edit<'c> = dyn Fn(&mut pte_schema::Program<'_>) + 'c;

fn remap(p: &mut pte_schema::Program<'_>, map: impl Fn(u32) -> u32) {
    if let Some(c) = &mut p.constant_segment {
        c.segment_index = map(c.segment_index);
    }
    for m in p.mutable_data_segments.iter_mut().flatten() {
        m.segment_index = map(m.segment_index);
    }
    for d in p.named_data.iter_mut().flatten() {
        d.segment_index = map(d.segment_index);
    }
    for plan in p.execution_plan.iter_mut().flatten() {
        for d in plan.delegates.iter_mut().flatten() {
            if let Some(r) = &mut d.processed
                && r.location == pte_schema::DataLocation::SEGMENT
            {
                r.index = map(r.index);
            }
        }
    }
}

/// The clean-file pass checks a long plan in chunks taken by two threads, its
/// values and then all its chains' instructions numbered as one sequence.
/// `deep_program`'s one chain cut into chains of uneven lengths (empty ones
/// among them) puts chunk edges inside chains, at their ends and between
/// them; a broken instruction anywhere must still be found.
#[test]
fn instructions_across_many_chains_are_each_checked_once() {
    let bytes = std::fs::read(pte_testkit::corpus("deep_program/model.pte")).unwrap();
    let pte = pte_file::PteFile::from_bytes(&bytes).unwrap();
    let rebuild = |program: &pte_schema::Program<'_>| {
        let fb = pte_schema::encode_program(program, &Default::default()).unwrap();
        let mut out = vec![];
        pte_file::splice_flatbuffer(&mut out, &bytes, &fb, &pte_file::WriteOptions::matching(&pte, &bytes)).unwrap();
        out
    };
    let mut program = pte.program.clone();
    let plan = &mut program.execution_plan.as_mut().unwrap()[0];
    let values = plan.values.as_ref().unwrap().len();
    let chain = plan.chains.as_mut().unwrap().remove(0);
    let mut all = chain.instructions.clone().unwrap().into_iter();
    let total = all.len();
    assert!(values + total > 4 * pte_schema::SPLIT_MIN, "long enough for both threads");
    let lengths = [0, 1, 700, 0, 1500, 3, pte_schema::CHUNK, 2 * pte_schema::CHUNK + 5, 0, 999];
    let mut chains = vec![];
    for len in lengths.iter().cycle() {
        let instructions: Vec<_> = all.by_ref().take(*len).collect();
        let last = all.len() == 0;
        chains.push(pte_schema::Chain { instructions: Some(instructions), stacktrace: None, ..chain.clone() });
        if last && chains.len() >= lengths.len() {
            break;
        }
    }
    plan.chains = Some(chains);
    let clean = rebuild(&program);
    agree("many chains", &clean);
    assert_eq!(verify_bytes(&clean, &Default::default()), Default::default(), "still a clean program");
    // one instruction broken at a time: chunk edges fall at multiples of
    // CHUNK counted from the first value, so try around each of them
    let mut broken_at = vec![0, total - 1];
    let mut edge = pte_schema::CHUNK;
    while edge < values + total {
        if edge >= values {
            broken_at.extend([edge - values - 1, edge - values].into_iter().filter(|&i| i < total));
        }
        edge += pte_schema::CHUNK;
    }
    for i in broken_at {
        let mut p = program.clone();
        let plan = &mut p.execution_plan.as_mut().unwrap()[0];
        let ins = plan
            .chains
            .as_mut()
            .unwrap()
            .iter_mut()
            .flat_map(|c| c.instructions.as_mut().unwrap().iter_mut())
            .nth(i)
            .unwrap();
        ins.instr_args = Some(pte_schema::InstructionArguments::FreeCall { value_index: values as i32 });
        let b = rebuild(&p);
        agree(&format!("instruction {i} broken"), &b);
        assert!(!verify_bytes(&b, &Default::default()).is_ok(), "instruction {i} broken");
    }
}

/// The warnings about what a program needs from outside (external data, a
/// device) read from what verification saw of the tensors must be those a
/// pass over the values finds: on the corpus, and on deep_program with one
/// external tensor, one tensor off the CPU and one stored nowhere placed late in its values
/// (in a chunk a second thread may check).
#[test]
fn needs_seen_during_verification_are_those_a_pass_over_the_values_finds() {
    use pte_verify::{device_needs, external_needs, storage_needs, verify_bytes_viewed};
    let check = |what: &str, bytes: &[u8]| -> (usize, usize, usize) {
        let (report, verified) = verify_bytes_viewed(bytes, &Default::default());
        assert!(report.is_ok(), "{what}: {report:?}");
        let verified = verified.unwrap();
        assert_eq!(verified.external_needs(), external_needs(verified.view()), "{what}");
        assert_eq!(verified.device_needs(), device_needs(verified.view()), "{what}");
        assert_eq!(verified.storage_needs(), storage_needs(verified.view()), "{what}");
        (verified.external_needs().len(), verified.device_needs().len(), verified.storage_needs().len())
    };
    for (name, bytes) in corpus_programs() {
        check(&name, &bytes);
    }
    let bytes = std::fs::read(pte_testkit::corpus("deep_program/model.pte")).unwrap();
    let pte = pte_file::PteFile::from_bytes(&bytes).unwrap();
    let values = pte.program.execution_plan.as_ref().unwrap()[0].values.as_ref().unwrap();
    let mut late = values.iter().enumerate().rev().filter_map(|(i, v)| match &v.val {
        Some(pte_schema::KernelTypes::Tensor(t)) if t.allocation_info.is_some() && t.data_buffer_idx == 0 => Some(i),
        _ => None,
    });
    let (off_cpu, external) = (late.next().unwrap(), late.nth(100).unwrap());
    assert!(external > 4 * pte_schema::CHUNK, "late enough for a second thread's chunk");
    let variant = |edit: &dyn Fn(&mut pte_schema::Tensor, usize)| {
        let mut program = pte.program.clone();
        for (i, v) in program.execution_plan.as_mut().unwrap()[0].values.as_mut().unwrap().iter_mut().enumerate() {
            if let Some(pte_schema::KernelTypes::Tensor(t)) = &mut v.val {
                edit(t, i);
            }
        }
        let fb = pte_schema::encode_program(&program, &Default::default()).unwrap();
        let mut out = vec![];
        pte_file::splice_flatbuffer(&mut out, &bytes, &fb, &pte_file::WriteOptions::matching(&pte, &bytes)).unwrap();
        out
    };
    let with_external = variant(&|t, i| {
        if i == external {
            t.allocation_info = None;
            t.extra_tensor_info = Some(pte_schema::ExtraTensorInfo {
                fully_qualified_name: Some("late.weight".into()),
                location: pte_schema::TensorDataLocation::EXTERNAL,
                ..Default::default()
            });
        }
    });
    assert_eq!(check("external", &with_external), (1, 0, 0));
    let off = variant(&|t, i| {
        if i == off_cpu {
            t.extra_tensor_info =
                Some(pte_schema::ExtraTensorInfo { device_type: pte_schema::DeviceType::CUDA, ..Default::default() });
        }
    });
    assert_eq!(check("off the CPU", &off), (0, 1, 0));
    // the same late tensor named (state), neither planned nor constant nor external
    let nowhere = variant(&|t, i| {
        if i == external {
            t.allocation_info = None;
            t.extra_tensor_info = Some(pte_schema::ExtraTensorInfo {
                fully_qualified_name: Some("late.state".into()),
                ..Default::default()
            });
        }
    });
    assert_eq!(check("stored nowhere", &nowhere), (0, 0, 1));
}

/// A program whose constants are inline in the deprecated `constant_buffer`
/// is answered by the clean-file pass (its one warning stated as the full
/// pass states it); every way its tensors can miss their inline constants
/// sends it to the full pass, and the two reports agree.
#[test]
fn legacy_inline_constants_get_the_same_report_either_way() {
    use pte_schema::{Buffer, KernelTypes, SubsegmentOffsets};
    let bytes = std::fs::read(pte_testkit::corpus("legacy_inline_constants/model.pte")).unwrap();
    let pte = pte_file::PteFile::from_bytes(&bytes).unwrap();
    let report = verify_bytes(&bytes, &Default::default());
    assert!(report.is_ok());
    let rules: Vec<&str> = report.warnings.iter().map(|w| w.rule.name()).collect();
    assert_eq!(rules, ["program.constant_segment"]);
    agree("as exported", &bytes);
    let first_constant = |p: &mut pte_schema::Program<'_>| -> Option<u32> {
        p.execution_plan.iter_mut().flatten().flat_map(|plan| plan.values.iter_mut().flatten()).find_map(|v| {
            match &v.val {
                Some(KernelTypes::Tensor(t)) if t.data_buffer_idx > 0 && t.allocation_info.is_none() => {
                    Some(t.data_buffer_idx)
                }
                _ => None,
            }
        })
    };
    let set_first = |p: &mut pte_schema::Program<'_>, idx: u32| {
        for v in p.execution_plan.iter_mut().flatten().flat_map(|plan| plan.values.iter_mut().flatten()) {
            if let Some(KernelTypes::Tensor(t)) = &mut v.val
                && t.data_buffer_idx > 0
                && t.allocation_info.is_none()
            {
                t.data_buffer_idx = idx;
                return;
            }
        }
    };
    let variants: Vec<(&str, Box<Edit<'_>>)> = vec![
        ("index past the buffers", Box::new(|p| set_first(p, 1000))),
        (
            "index of the last buffer",
            Box::new(|p| {
                let n = p.constant_buffer.as_ref().map_or(0, Vec::len) as u32;
                set_first(p, n - 1)
            }),
        ),
        (
            "constant cut short",
            Box::new(|p| {
                let i = first_constant(p).unwrap() as usize;
                let b = &mut p.constant_buffer.as_mut().unwrap()[i];
                let len = b.storage.as_ref().unwrap().len();
                b.storage = Some(vec![0; len / 2].into());
            }),
        ),
        (
            "constant without storage",
            Box::new(|p| {
                let i = first_constant(p).unwrap() as usize;
                p.constant_buffer.as_mut().unwrap()[i] = Buffer { storage: None };
            }),
        ),
        ("no constant_buffer", Box::new(|p| p.constant_buffer = None)),
        (
            "constant segment without offsets",
            Box::new(|p| p.constant_segment = Some(SubsegmentOffsets { segment_index: 0, offsets: None })),
        ),
        (
            "constant segment with empty offsets",
            Box::new(|p| p.constant_segment = Some(SubsegmentOffsets { segment_index: 3, offsets: Some(vec![]) })),
        ),
        (
            "one constant offset",
            Box::new(|p| p.constant_segment = Some(SubsegmentOffsets { segment_index: 0, offsets: Some(vec![0]) })),
        ),
    ];
    let mut found = 0;
    for (what, edit) in variants {
        let mut program = pte.program.clone();
        edit(&mut program);
        let fb = pte_schema::encode_program(&program, &Default::default()).unwrap();
        let mut out = vec![];
        pte_file::splice_flatbuffer(&mut out, &bytes, &fb, &pte_file::WriteOptions::matching(&pte, &bytes)).unwrap();
        agree(&format!("legacy: {what}"), &out);
        found += usize::from(!verify_bytes(&out, &Default::default()).is_ok());
    }
    // the edits that take a tensor's constant away break constant.bounds
    assert!(found >= 4, "{found}");
}

/// The constants' sizes the verifier's walk read (`Verified::known_values`)
/// must be those a pass over the values finds (the first tensor reading
/// each, in plan then value order): on the corpus, and on deep_program with
/// a late tensor (in a chunk a second thread may check) reading an early
/// constant at another size, and the only reader of a constant placed late.
#[test]
fn constants_read_during_verification_are_those_a_pass_over_the_values_finds() {
    use pte_file::view::PteView;
    use pte_verify::verify_bytes_viewed;
    let check = |what: &str, bytes: &[u8]| -> Vec<Option<u64>> {
        let (report, verified) = verify_bytes_viewed(bytes, &Default::default());
        assert!(report.is_ok(), "{what}: {report:?}");
        let view = PteView::read(bytes, Default::default()).unwrap();
        let (by_pass, names) = view.constants_and_external_names();
        let known = verified.unwrap().known_values().expect("every value passed");
        assert_eq!(known.external, !names.is_empty(), "{what}");
        let (by_walk, again) = view.constants_and_external_names_known(Some(known.clone()));
        assert_eq!(again, names, "{what}");
        let rows = |c: Option<pte_file::view::SubBuffers<'_>>| c.map(|c| c.iter().collect::<Vec<_>>());
        assert_eq!(rows(by_walk), rows(by_pass), "{what}");
        known.constant_sizes
    };
    for (name, bytes) in corpus_programs() {
        check(&name, &bytes);
    }
    let bytes = std::fs::read(pte_testkit::corpus("deep_program/model.pte")).unwrap();
    let pte = pte_file::PteFile::from_bytes(&bytes).unwrap();
    let before = check("deep_program", &bytes);
    let values = pte.program.execution_plan.as_ref().unwrap()[0].values.as_ref().unwrap();
    let late = values
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, v)| match &v.val {
            Some(pte_schema::KernelTypes::Tensor(t)) if t.allocation_info.is_some() && t.data_buffer_idx == 0 => {
                Some(i)
            }
            _ => None,
        })
        .unwrap();
    assert!(late > 4 * pte_schema::CHUNK, "late enough for a second thread's chunk");
    let first_reader = |idx: u32| {
        values.iter().position(|v| matches!(&v.val, Some(pte_schema::KernelTypes::Tensor(t)) if t.data_buffer_idx == idx && t.allocation_info.is_none()))
    };
    let early = first_reader(1).unwrap();
    assert!(early < late && first_reader(2).is_some());
    // the late tensor reads 4 floats of constant 1; `early_to`, when given,
    // moves constant 1's early reader to another constant
    let variant = |early_to: Option<u32>| {
        let mut program = pte.program.clone();
        let values = program.execution_plan.as_mut().unwrap()[0].values.as_mut().unwrap();
        if let Some(pte_schema::KernelTypes::Tensor(t)) = &mut values[late].val {
            t.allocation_info = None;
            t.data_buffer_idx = 1;
            t.sizes = Some(vec![4]);
            t.dim_order = Some(vec![0]);
        }
        if let (Some(to), Some(pte_schema::KernelTypes::Tensor(t))) = (early_to, &mut values[early].val) {
            t.data_buffer_idx = to;
        }
        let fb = pte_schema::encode_program(&program, &Default::default()).unwrap();
        let mut out = vec![];
        pte_file::splice_flatbuffer(&mut out, &bytes, &fb, &pte_file::WriteOptions::matching(&pte, &bytes)).unwrap();
        out
    };
    // constant 1's first reader is early: a late reader of 4 floats changes nothing
    let shared = check("late second reader", &variant(None));
    assert_eq!(shared, before);
    assert_eq!(shared[1], Some(32));
    // with the early reader moved to constant 2, the late one is constant 1's first
    let moved = check("late only reader", &variant(Some(2)));
    assert_eq!(moved[1], Some(16));
    assert_eq!(moved[2], before[2]);
}
